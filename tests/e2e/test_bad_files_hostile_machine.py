"""Bad files and a hostile machine: one clear `Error:` line, never a traceback, and the ledger unharmed.

A file that is not SQLite, an SQLite file that is not a ledger, a read-only ledger or folder, a full disk
(RLIMIT_FSIZE in the child), house rules and session files that are not UTF-8. The bad files are given to the
commands in-process (run_here); the read-only and full-disk cases need a child process of their own (run).
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sqlite3
import subprocess

import pytest
from _reliability_helpers import ROOT, assert_clean_error, check_ok, dump, integrity, make_evening, query, run, run_here

DEAL = ("deal", "samen", "8", "jan+piet", "9")


def new_ledger(db) -> None:
    r = run_here(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    assert r.returncode == 0, r.stderr
    assert run_here(db, *DEAL).returncode == 0


def files_in(folder) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# ---------------------------------------------------------------------------- not a ledger


@pytest.mark.parametrize("content", [b"this is not a database\n" * 200, os.urandom(8192), b"SQLite format 3\x00" + b"\x00" * 84])
def test_a_file_that_is_not_sqlite(tmp_path, content):
    db = tmp_path / "notes.db"
    db.write_bytes(content)
    for args in (["sheet"], list(DEAL), ["session", "start", "--players", "a,b,c,d"], ["check"], ["sessions"], ["db", "backup", str(tmp_path / "b.db")]):
        line = assert_clean_error(run_here(db, *args))
        assert "not" in line and str(db) in line, line
    assert files_in(tmp_path) == {"notes.db": content}  # untouched, and no journal files left behind


def test_an_sqlite_file_that_is_not_a_ledger(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(str(db))
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.execute("INSERT INTO recipes VALUES ('stoofvlees')")
    conn.commit()
    conn.close()
    raw = db.read_bytes()
    for args in (["sheet"], list(DEAL), ["session", "start", "--players", "a,b,c,d"], ["check"]):
        assert_clean_error(run_here(db, *args), "not a wiezen ledger")
    assert files_in(tmp_path) == {"other.db": raw}


# ---------------------------------------------------------------------------- read-only


def _drop_root_powers() -> None:
    """In the child: give up CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH (from the bounding set, so they stay
    gone across exec), so that root, as in CI containers, is held to file permissions like anybody else."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_unprivileged(db, *args):
    return run(db, *args, preexec_fn=_drop_root_powers if os.geteuid() == 0 else None)


@pytest.fixture
def permissions_apply(tmp_path):
    """Skip where even a child without DAC capabilities can write a read-only file (e.g. no prctl)."""
    probe = tmp_path / "probe"
    probe.write_text("x")
    probe.chmod(0o444)
    try:
        p = subprocess.run(
            ["sh", "-c", f"echo y >> '{probe}'"], capture_output=True, timeout=10,
            preexec_fn=_drop_root_powers if os.geteuid() == 0 else None,
        )
    except (OSError, subprocess.SubprocessError) as e:
        pytest.skip(f"cannot give up root's file powers in a child here ({e})")
    finally:
        probe.chmod(0o644)
    if p.returncode == 0:
        pytest.skip("file permissions are not enforced for this user here (root without prctl?)")
    probe.unlink()


def test_a_read_only_ledger(tmp_path, permissions_apply):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "wiezen.db"
    new_ledger(db)
    before = dump(db)
    db.chmod(0o444)
    try:
        for args in (DEAL, ("pass",), ("undo",), ("session", "end"), ("rules", "add", str(ROOT / "tests/data/rules-stack.toml"))):
            assert_clean_error(run_unprivileged(db, *args), "read-only", str(db))
        # reading still works
        p = run_unprivileged(db, "sheet")
        assert p.returncode == 0 and "samen 8 jan+piet 9" in p.stdout, p.stderr
        assert run_unprivileged(db, "check").returncode == 0
    finally:
        db.chmod(0o644)
    assert dump(db) == before


def test_a_read_only_folder(tmp_path, permissions_apply):
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "wiezen.db"
    new_ledger(db)
    before = dump(db)
    folder.chmod(0o555)
    try:
        assert_clean_error(run_unprivileged(db, *DEAL), "read-only", str(folder))
        assert_clean_error(run_unprivileged(folder / "new.db", "session", "start", "--players", "a,b,c,d"), str(folder))
        assert_clean_error(
            run_unprivileged(folder / "sub" / "new.db", "session", "start", "--players", "a,b,c,d"), "cannot create the folder"
        )
        p = run_unprivileged(db, "sheet")
        assert p.returncode == 0, p.stderr
    finally:
        folder.chmod(0o755)
    assert dump(db) == before
    assert not (folder / "new.db").exists() and not (folder / "sub").exists()


def test_read_only_error_translation_in_process(tmp_path):
    """Whatever the user: a write through a read-only connection says read-only, in one line."""
    from wiezen_score.core.errors import WiezenError
    from wiezen_score.ledger import Ledger

    db = tmp_path / "wiezen.db"
    new_ledger(db)
    led = Ledger(str(db), readonly=True)
    try:
        with pytest.raises(WiezenError, match="read-only"):
            led.record(__import__("wiezen_score.core.session", fromlist=["EntryInput"]).EntryInput("pass"))
        with pytest.raises(sqlite3.OperationalError) as e:
            led.conn.execute("INSERT INTO players (name, created_at) VALUES ('x', 'y')")
    finally:
        led.close()
    from wiezen_score.ledger import db_error

    assert "read-only" in str(db_error(e.value, str(db)))


# ---------------------------------------------------------------------------- full disk


def _limit_file_size(limit: int):
    def pre() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG, not a kill
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return pre


@pytest.mark.slow
@pytest.mark.parametrize("limit", [0, 64 * 1024, 256 * 1024])
def test_a_full_disk(tmp_path, limit):
    db = tmp_path / "wiezen.db"
    new_ledger(db)
    before = dump(db)
    ev = make_evening(3, 1500)
    f = tmp_path / "avond.txt"
    f.write_text(ev.text, encoding="utf-8")
    p = run(db, "replay", str(f), preexec_fn=_limit_file_size(limit), timeout=60)
    line = assert_clean_error(p, "disk", str(db))
    assert "not recorded" in line or "nothing was written" in line
    assert integrity(db) == ["ok"]
    assert dump(db) == before
    check_ok(db)
    # with room again the same file goes in whole
    p = run(db, "replay", str(f), timeout=60)
    assert p.returncode == 0, p.stderr
    assert query(db, "SELECT count(*) FROM entries") == [(1 + ev.entries,)]
    check_ok(db)


@pytest.mark.slow
def test_a_full_disk_for_one_deal(tmp_path):
    db = tmp_path / "wiezen.db"
    new_ledger(db)
    before = dump(db)
    p = run(db, "deal", "alleen", "5", "mieke", "6", preexec_fn=_limit_file_size(0))
    assert_clean_error(p, "disk")
    assert integrity(db) == ["ok"] and dump(db) == before
    assert run(db, "deal", "alleen", "5", "mieke", "6").returncode == 0


# ---------------------------------------------------------------------------- not UTF-8


def test_house_rules_that_are_not_utf8(tmp_path):
    db = tmp_path / "wiezen.db"
    new_ledger(db)
    run_here(db, "session", "end")
    before = dump(db)
    bad = tmp_path / "huisregels.toml"
    text = (ROOT / "wiezen_score/core/presets/rupelstreek.toml").read_text(encoding="utf-8").replace('name = "rupelstreek"', 'name = "café"')
    bad.write_bytes(text.encode("latin-1"))  # 'café' in Latin-1: not UTF-8
    for args in (
        ("rules", "add", str(bad)),
        ("session", "start", "--players", "jan,piet,mieke,lotte", "--rules", str(bad)),
        ("calc", "--rules", str(bad), "samen", "8", "A+B", "9"),
        ("rules", "show", str(bad)),
    ):
        assert_clean_error(run_here(db, *args), "not UTF-8", str(bad))
    assert dump(db) == before


def test_a_session_file_that_is_not_utf8(tmp_path):
    db = tmp_path / "wiezen.db"
    new_ledger(db)
    before = dump(db)
    f = tmp_path / "avond.txt"
    f.write_bytes('session "Café De Kroon" 2026-11-27\nplayers jan piet mieke lotte\nsamen 8 jan+piet 9\n'.encode("cp1252"))
    assert_clean_error(run_here(db, "replay", str(f)), "not UTF-8")
    assert dump(db) == before


def test_odd_characters_in_the_ledger_path(tmp_path):
    """Reading opens the file through an SQLite URI: '#', '?' and '%' in a folder name must not cut the path."""
    db = tmp_path / "club #2? 100%" / "wiezen.db"
    new_ledger(db)
    p = run_here(db, "sheet")
    assert p.returncode == 0 and "samen 8 jan+piet 9" in p.stdout, p.stderr
    assert run_here(db, "check").returncode == 0
    assert sorted(x.name for x in tmp_path.iterdir()) == ["club #2? 100%"]
