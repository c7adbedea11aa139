"""Helpers for the `wiezen serve` tests: start the real server in its own process on a free port, talk HTTP."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from _ledger_helpers import ok

ROOT = Path(__file__).resolve().parent.parent


def wiezen(db: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "wiezen_score", "--db", str(db), *args]


def run(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`wiezen ARGS` in another process, as a scorer at a second terminal would run it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(wiezen(db, *args), capture_output=True, text=True, timeout=60, env=env, check=False)


class Served:
    def __init__(self, proc: subprocess.Popen[str], banner: list[str]) -> None:
        self.proc = proc
        self.banner = banner
        urls = [m.group(0) for line in banner for m in [re.search(r"http://\S+", line)] if m]
        self.url = urls[0]  # the players' address
        self.scorer = next((u for u in urls if "/s/" in u), None)

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return request(self.url.rstrip("/") + path, headers=headers)

    def post(self, url: str, data: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        return request(url, data=data, headers=headers)


def request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None,
            method: str | None = None) -> tuple[int, dict[str, str], bytes]:
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *a, **k):  # type: ignore[no-untyped-def]
            return None

    opener = urllib.request.build_opener(NoRedirect)
    req = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with opener.open(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@contextmanager
def serving(db: Path, *args: str) -> Iterator[Served]:
    """`wiezen serve --port 0 ARGS` (any free port on 127.0.0.1) until the block ends; then Ctrl-C it."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    # Ctrl-C must reach the server even when the tests themselves run in the background, where SIGINT is ignored
    # and a child would inherit that
    proc = subprocess.Popen(wiezen(db, "serve", "--port", "0", *args), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    banner: list[str] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()  # type: ignore[union-attr]
            if not line:
                raise AssertionError(f"wiezen serve ended: {proc.wait()} {proc.stderr.read()}")  # type: ignore[union-attr]
            banner.append(line.rstrip("\n"))
            if line.startswith("Ctrl-C stop"):  # "Ctrl-C stops." (in Dutch "Ctrl-C stopt.")
                break
        yield Served(proc, banner)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def dump_record(db: Path) -> list[str]:
    """The ledger's dump less the scorer's links (the server makes its table's link when it starts): equal dumps
    mean nothing of the record was written."""
    from _ledger_helpers import dump

    return [line for line in dump(db) if not line.startswith('INSERT INTO "scorer_links"')]


def sheet_json(db: Path) -> dict:
    """`wiezen sheet --json` (in-process: the same document a second process prints)."""
    return json.loads(ok(db, "sheet", "--json").stdout)


def start_evening(db: Path) -> None:
    """An open evening of three entries (in-process, as the scorer's own `wiezen` commands record it)."""
    for args in (
        ("session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek", "--name", "Café De Kroon"),
        ("deal", "samen", "8", "jan+piet", "9"),
        ("pass",),
        ("deal", "troel", "mieke+lotte", "8"),
    ):
        ok(db, *args)
