"""The ledger file is whole on its own: after any wiezen command has ended (but for SIGKILL), a plain copy of the
bare ``.db`` file, without its ``-wal`` and ``-shm`` files, holds every recorded deal.

Each test keeps a reader open on the ledger the whole time, as the live page of `wiezen serve` does: with a reader
open, SQLite does not copy the journal into the file when the writer closes, which is how the deals of an evening
were left only in ``wiezen.db-wal`` (a copy of the bare file lacked them, or was "empty").
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

import pytest
from _ledger_helpers import ok
from _serve_helpers import ROOT, request, serving

PLAYERS = "jan,piet,mieke,lotte"


@contextmanager
def reader(db: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection held open, as another process's live page holds one."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        conn.execute("SELECT count(*) FROM entries").fetchone()
        yield conn
    finally:
        conn.close()


def bare_copy_texts(db: Path, tmp_path: Path) -> list[str]:
    """The entries' texts in a copy of the bare file alone (what is copied to a USB stick)."""
    folder = tmp_path / "copy"
    folder.mkdir(exist_ok=True)
    copy = folder / "copy.db"
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(str(copy) + suffix):
            os.remove(str(copy) + suffix)
    shutil.copyfile(db, copy)
    conn = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT text FROM entries ORDER BY id")]
    finally:
        conn.close()


def started(db: Path) -> None:
    ok(db, "session", "start", "--players", PLAYERS, "--rules", "rupelstreek")


def test_a_command_that_writes_leaves_the_file_whole_while_another_reads(tmp_path):
    db = tmp_path / "w.db"
    started(db)
    with reader(db):
        ok(db, "deal", "samen", "8", "jan+piet", "9")
        ok(db, "pass")
        ok(db, "undo")
        ok(db, "deal", "troel", "mieke+lotte", "8")
        assert bare_copy_texts(db, tmp_path) == ["samen 8 jan+piet 9", "pas", "troel 8 mieke+lotte 8"]
        ok(db, "session", "end")  # the end of the session, and its seal, in the file too
        copy = tmp_path / "copy" / "copy.db"
        bare_copy_texts(db, tmp_path)
        conn = sqlite3.connect(copy)
        try:
            assert conn.execute("SELECT count(*) FROM seals").fetchone()[0] == 1
        finally:
            conn.close()


def _served_evening(db: Path, stop: signal.Signals, tmp_path: Path) -> list[str]:
    """Deals from a second terminal and from the scorer's phone while `serve` runs; then ``stop`` it."""
    started(db)
    with serving(db) as srv:
        with reader(db):
            ok(db, "deal", "samen", "8", "jan+piet", "9")
        assert srv.scorer is not None
        data = urlencode({"action": "entry", "line": "alleen 5 piet 6", "nonce": "n1"}).encode()
        status, _, body = request(srv.scorer + "/entry", data=data,
                                  headers={"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200, body
        srv.proc.send_signal(stop)
        srv.proc.wait(20)
        out = srv.proc.stdout.read()  # type: ignore[union-attr]
    assert "stopped after" in out  # it ended as Ctrl-C ends it, not killed
    return bare_copy_texts(db, tmp_path)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["ctrl-c", "sigterm", "sighup"])
def test_serve_stopped_leaves_the_file_whole(tmp_path, stop):
    assert _served_evening(tmp_path / "w.db", stop, tmp_path) == ["samen 8 jan+piet 9", "alleen 5 piet 6"]


def _spawn_play(db: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "dumb", "INPUTRC": os.devnull, "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1",
           "WIEZEN_PROMPT": "readline", "PYTHONPATH": str(ROOT)}
    env.pop("WIEZEN_DB", None)
    c = pexpect.spawn(sys.executable, ["-m", "wiezen_score", "--db", str(db), "play", "--no-history"],
                      env=env, cwd=str(tmp_path), encoding="utf-8", timeout=20, dimensions=(50, 160))
    c.expect_exact("[#1 jan deals] > ")
    c.sendline("s 8 j+p 9")
    c.expect_exact("[#2 piet deals] > ")
    c.sendline("t m+l 8")
    c.expect_exact("[#3 mieke deals] > ")
    return c


def _end_by(c, how: str) -> None:  # type: ignore[no-untyped-def]
    import pexpect

    if how == "quit":
        c.sendline("quit")
    elif how == "ctrl-d":
        c.sendeof()
    elif how == "end":
        c.sendline("end")
        c.expect_exact("[y/N]")
        c.sendline("y")
        c.expect_exact("> ")
        c.sendline("quit")
    elif how == "ctrl-c":  # Ctrl-C drops the line being typed; Ctrl-D then ends
        c.send("s 8 j+p")
        # its echo first: readline is then reading keys (Python's readline misses a SIGINT that comes between
        # writing the prompt and waiting for a key until the next key: no person is that quick, a test is)
        c.expect_exact("s 8 j+p")
        c.sendintr()
        c.expect_exact("[#3 mieke deals] > ")
        c.sendeof()
    elif how == "sigterm":
        c.kill(signal.SIGTERM)
    elif how == "closed-terminal":  # the terminal window is closed: the terminal hangs up
        c.kill(signal.SIGHUP)
    c.expect(pexpect.EOF)
    c.close()


@pytest.mark.parametrize("how", ["quit", "ctrl-d", "end", "ctrl-c", "sigterm", "closed-terminal"])
def test_play_ended_any_way_leaves_the_file_whole(tmp_path, how):
    db = tmp_path / "w.db"
    started(db)
    with reader(db):
        c = _spawn_play(db, tmp_path)
        _end_by(c, how)
        if how in ("sigterm", "closed-terminal"):
            assert c.signalstatus is None and c.exitstatus == 128 + (15 if how == "sigterm" else 1), (c.exitstatus, c.signalstatus)
        assert bare_copy_texts(db, tmp_path) == ["samen 8 jan+piet 9", "troel 8 mieke+lotte 8"]


def test_db_path_says_how_to_copy_the_ledger(tmp_path):
    db = tmp_path / "w.db"
    started(db)
    r = ok(db, "db", "path")
    assert r.stdout.strip() == str(db)  # `$(wiezen db path)` stays the path alone
    assert "wiezen db backup" in r.stderr
    assert "wiezen db backup" in ok(db, "db", "path", "--help").stdout
