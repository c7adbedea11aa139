"""The hostile-input corpus (tests/data/hostile/corpus.jsonl, written by generate.py next to it): every case is
run over the command line in-process (click's CliRunner), in its own folder, and must give

- no traceback and no "unexpected" (that word is for real bugs only), exit status 0, 1 or 2;
- output that cannot steer a terminal: no escape or control character other than newline and tab;
- when the answer is an error: no file created, removed or changed (the ledger's content is compared row by row);
- an answer within 10 s (a FIFO as the ledger must never hang).

A handful of the cases also go through the installed command, as a user runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from _reliability_helpers import DATA, check_ok, dump
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.views.safe import is_unsafe

CORPUS = DATA / "hostile" / "corpus.jsonl"
CASES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
LIMIT_S = 10


def test_the_corpus_is_large_and_holds_every_case_of_the_issue():
    assert len(CASES) >= 300
    flat = [json.dumps(c, ensure_ascii=False) for c in CASES]

    def has(*needles: str) -> bool:
        return any(all(n in f for n in needles) for f in flat)

    assert has('"deal", "samen", "²"') and has('"deal", "over-troel"') and has('"amend", "2", " "')
    for opt in ("--name", "--reason", "--tag", "--ruling", "--each"):
        assert has(opt, "\udce9"), opt
    assert has('"replay", "-"', "\udce9") and has('"precedent", "add", "\udce9"')
    assert has(str(2**63)) and has("pas\\npas\\npas") and has("penalty = " + str(10**400)[:20])
    assert has("[[[[[[[[[[") and has("9" * 5000) and has('"fifo": true') and has('"--db", ""')
    assert has("no/such/dir") and has("\ufeffsession") and has('\\"title\\": \\"\\"') and has("not-a-date")
    assert has("j\u0430n") and has("\u00c9mile", "\u00e9mile") and has("]52;c;") and has("renonce\\n 9 fake")


def _snapshot(root: Path) -> dict[str, object]:
    """Every file under ``root``: a ledger by its rows, anything else by its bytes (SQLite's -wal/-shm aside)."""
    out: dict[str, object] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        if rel.endswith(("-wal", "-shm")):
            continue
        if p.is_fifo():
            out[rel] = "fifo"
        elif p.is_dir():
            out[rel] = "dir"
        elif p.suffix == ".db" and p.stat().st_size:
            try:
                out[rel] = dump(p)
            except sqlite3.Error:
                out[rel] = p.read_bytes()
        else:
            out[rel] = p.read_bytes()
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A ledger with an open session of four and two entries."""
    db = tmp_path_factory.mktemp("hostile-base") / "wiezen.db"
    for args in (["session", "start", "--players", "jan,piet,mieke,lotte"], ["deal", "samen", "8", "jan+piet", "9"],
                 ["pass"]):
        r = CliRunner().invoke(cli, ["--db", str(db), *args])
        assert r.exit_code == 0, r.output
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _prepare(case: dict, where: Path, base: Path) -> None:
    if case["ledger"] == "open":
        shutil.copy(base, where / "wiezen.db")
    for name, content in case["files"].items():
        p = where / name
        if isinstance(content, dict):
            if content.get("fifo"):
                os.mkfifo(p)
            else:
                p.mkdir()
        else:
            p.write_bytes(content.encode("utf-8", "surrogateescape"))


def _argv(case: dict) -> list[str]:
    args = case["args"]
    return args if args[:1] == ["--db"] or "WIEZEN_DB" in case["env"] else ["--db", "wiezen.db", *args]


def check_output(text: str, case: dict) -> None:
    assert "Traceback" not in text, (case["id"], text[-2000:])
    assert "unexpected" not in text.lower() or "unexpected" in json.dumps(case).lower(), (case["id"], text[-500:])
    bad = sorted({f"U+{ord(ch):04X}" for ch in text if is_unsafe(ch) and ch not in "\n\t"})
    assert not bad, (case["id"], bad, text[:500])


@pytest.mark.parametrize("chunk", range(8))
def test_hostile_corpus(chunk, base, tmp_path, monkeypatch):
    for case in CASES[chunk::8]:
        where = tmp_path / f"case{case['id']}"
        where.mkdir()
        _prepare(case, where, base)
        monkeypatch.chdir(where)
        monkeypatch.setenv("XDG_DATA_HOME", str(where / "xdg"))  # the default ledger, if one is used, is watched too
        monkeypatch.setenv("HOME", str(where))
        monkeypatch.delenv("WIEZEN_DB", raising=False)
        for k, v in case["env"].items():
            monkeypatch.setenv(k, v)
        before = _snapshot(where)
        stdin = None if case["stdin"] is None else case["stdin"].encode("utf-8", "surrogateescape")
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(LIMIT_S)
        try:
            r = CliRunner().invoke(cli, _argv(case), input=stdin, catch_exceptions=True)
        except _Timeout:
            pytest.fail(f"case {case['id']} {case['args'][:4]} hung for {LIMIT_S} s")
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert not isinstance(r.exception, _Timeout), f"case {case['id']} hung"
        assert r.exception is None or isinstance(r.exception, SystemExit), (case["id"], case["args"][:5], repr(r.exception))
        assert r.exit_code in (0, 1, 2), (case["id"], r.exit_code, r.output[-500:])
        check_output(r.output, case)
        if r.exit_code != 0 and case["args"][:1] != ["play"]:
            assert _snapshot(where) == before, f"case {case['id']} {case['args'][:5]}: refused, yet files changed"
        elif r.exit_code != 0 and (where / "wiezen.db").exists():
            # `play` from a pipe records each good line and skips a bad one (exit 1 at the end): the ledger whole
            check_ok(where / "wiezen.db")
        shutil.rmtree(where, ignore_errors=True)


# a handful through the installed command, as a user types them (real argv bytes, real stdin)
THROUGH_THE_COMMAND = [
    (["deal", "samen", "²", "jan+piet", "9"], None, "samen"),
    (["session", "start", "--players", "a,b,c,d", "--name", b"caf\xe9"], None, "--name is not valid UTF-8"),
    (["penalty", "jan", "--reason", b"\xff"], None, "--reason is not valid UTF-8"),
    (["replay", "-"], b'\xef\xbb\xbfplayers a b c d\nsamen 8 a+b \xe9\n', "not UTF-8"),
    (["sheet", "--session", str(2**64)], None, "there is no session with that number"),
    (["--db", "", "sessions"], None, "--db is empty"),
    (["deal", "--", "\x1b[2J"], None, "\\x1b[2J"),
]


def _exe() -> list[str]:
    exe = Path(sys.executable).parent / "wiezen"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "wiezen_score"]


@pytest.mark.parametrize("args,stdin,needle", THROUGH_THE_COMMAND)
def test_through_the_installed_command(args, stdin, needle, base, tmp_path):
    shutil.copy(base, tmp_path / "wiezen.db")
    env = {k: v for k, v in os.environ.items() if k not in ("WIEZEN_DEBUG", "WIEZEN_DB")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    argv = [a if isinstance(a, bytes) else a.encode() for a in args]
    if argv[:1] != [b"--db"]:
        argv = [b"--db", b"wiezen.db", *argv]
    before = _snapshot(tmp_path)
    r = subprocess.run([*map(os.fsencode, _exe()), *argv], input=stdin, capture_output=True, cwd=tmp_path, env=env,
                       timeout=LIMIT_S)  # a hostile input that hangs the command fails the test (TimeoutExpired)
    err = r.stderr.decode("utf-8")
    assert r.returncode == 1, (r.returncode, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "unexpected" not in err, err
    assert needle in lines[0], (needle, lines[0])
    check_output(err + r.stdout.decode("utf-8"), {"id": args})
    assert _snapshot(tmp_path) == before
