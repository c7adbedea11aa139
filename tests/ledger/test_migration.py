"""Schema upgrades: a ledger written by the first released schema (tests/data/ledger-schema1.db) upgrades
to the current one with nothing lost, after a backup a user can find; a failed upgrade changes nothing."""

from __future__ import annotations

import glob
import json
import shutil
import sqlite3

import pytest
from _reliability_helpers import DATA, ROOT, check_ok, integrity, popen, run
from click.testing import CliRunner

from wiezen_score import ledger as ledger_mod
from wiezen_score.cli import cli

FIXTURE = DATA / "ledger-schema1.db"
SCHEMA1_TABLES = ("players", "house_rules", "sessions", "seats", "entries", "entry_points", "voids")


def wz(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])


def rows(db) -> dict[str, list[tuple]]:
    """Every row of the first schema's tables, through the first schema's columns only."""
    conn = sqlite3.connect(str(db))
    try:
        out = {}
        for t in SCHEMA1_TABLES:
            cols = [r[1] for r in sqlite3.connect(str(FIXTURE)).execute(f"PRAGMA table_info({t})")]
            out[t] = conn.execute(f"SELECT {', '.join(cols)} FROM {t} ORDER BY 1, 2").fetchall()
        return out
    finally:
        conn.close()


def user_version(db) -> int:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


def backups(db) -> list[str]:
    return sorted(glob.glob(glob.escape(str(db)) + ".before-schema-*.bak"))


@pytest.fixture
def old(tmp_path):
    db = tmp_path / "wiezen.db"
    shutil.copy(FIXTURE, db)
    return db


def test_the_fixture_is_the_first_schema():
    assert user_version(FIXTURE) == 1
    before = rows(FIXTURE)
    assert len(before["sessions"]) == 3 and len(before["entries"]) == 41 and len(before["voids"]) == 1


def test_schema1_upgrades_with_nothing_lost(old):
    before = rows(old)
    r = wz(old, "sessions")  # a reading command: the ledger is upgraded first, then read
    assert r.exit_code == 0, r.output
    assert user_version(old) == ledger_mod.SCHEMA_VERSION
    conn = sqlite3.connect(str(old))
    applied = [n for (n,) in conn.execute("SELECT name FROM _sqlite_migrations WHERE migration_set = 'wiezen' ORDER BY rowid")]
    conn.close()
    assert tuple(applied) == ledger_mod.MIGRATION_NAMES
    assert rows(old) == before  # every session, seat, entry, point and void as it was
    assert integrity(old) == ["ok"]
    check_ok(old)
    # the two example evenings in the fixture still add up to the hand-computed totals
    expected = {e["file"]: e["totals"] for e in json.loads((DATA / "expected_evenings.json").read_text(encoding="utf-8"))}
    for sid, f in ((1, "examples/cafe-de-kroon-rupelstreek.txt"), (2, "examples/vijf-spelers-whisthub.txt")):
        doc = json.loads(wz(old, "sheet", "--session", sid, "--json").stdout)
        assert doc["totals"] == expected[f]
    # and the open session goes on being recorded under the new schema
    assert wz(old, "deal", "samen", "8", "jan+piet", "9").exit_code == 0
    check_ok(old)


def test_a_backup_is_made_before_upgrading(old):
    if ledger_mod.SCHEMA_VERSION == 1:
        pytest.skip("no migration after the first schema yet")
    before = rows(old)
    assert wz(old, "sheet").exit_code == 0
    found = backups(old)
    assert len(found) == 1
    assert found[0].startswith(f"{old}.before-schema-{ledger_mod.SCHEMA_VERSION}-from-1-")
    # the backup is the ledger as it was: the first schema, every row
    assert user_version(found[0]) == 1 and rows(found[0]) == before and integrity(found[0]) == ["ok"]
    # `wiezen db path` shows where the ledger and its backups are; the path alone on stdout
    r = wz(old, "db", "path")
    assert r.stdout.strip() == str(old) and found[0] in r.stderr
    doc = json.loads(wz(old, "db", "path", "--json").stdout)
    assert doc == {"path": str(old), "exists": True, "backups": found}
    # opening the upgraded ledger again makes no further backup
    assert wz(old, "sheet").exit_code == 0 and backups(old) == found


def test_several_processes_upgrading_at_once_upgrade_once(old):
    before = rows(old)
    procs = [popen(old, *args) for args in (["sessions"], ["sheet"], ["deal", "samen", "9"], ["check"])]
    outs = [p.communicate(timeout=60) for p in procs]
    for _p, (_out, err) in zip(procs, outs, strict=False):
        assert "Traceback" not in err and "locked" not in err.lower(), err
    assert [p.returncode for p in procs] == [0, 0, 1, 0]  # `deal samen 9` is refused: no taker, no tricks
    assert user_version(old) == ledger_mod.SCHEMA_VERSION
    assert len(backups(old)) == (1 if ledger_mod.SCHEMA_VERSION > 1 else 0)
    assert rows(old) == before
    check_ok(old)


def test_a_failing_migration_changes_nothing(old, monkeypatch):
    before = rows(old)
    real = ledger_mod._migration_list

    def broken(db):
        db.execute("CREATE TABLE half_done (x)")
        db.execute("DELETE FROM sessions")  # refused by a trigger: the migration fails
    from wiezen_score.ledger import base, migrations

    monkeypatch.setattr(migrations, "_migration_list", lambda: real() + [("m999_broken", broken)])
    monkeypatch.setattr(migrations, "MIGRATION_NAMES", ledger_mod.MIGRATION_NAMES + ("m999_broken",))
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", ledger_mod.SCHEMA_VERSION + 1)
    monkeypatch.setattr(base, "SCHEMA_VERSION", ledger_mod.SCHEMA_VERSION + 1)
    r = wz(old, "sheet")
    assert r.exit_code == 1 and "never deleted" in r.output and "Traceback" not in r.output
    monkeypatch.undo()
    assert user_version(old) == 1  # the whole upgrade rolled back, not just the last step
    conn = sqlite3.connect(str(old))
    tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    conn.close()
    assert "half_done" not in tables and "session_totals" not in tables
    assert rows(old) == before
    # the real upgrade then goes through
    assert wz(old, "sheet").exit_code == 0 and user_version(old) == ledger_mod.SCHEMA_VERSION
    check_ok(old)


def test_a_ledger_from_a_newer_wiezen_is_refused_untouched(old):
    conn = sqlite3.connect(str(old))
    conn.execute(f"PRAGMA user_version = {ledger_mod.SCHEMA_VERSION + 1}")
    conn.close()
    raw = old.read_bytes()
    for args in (["sheet"], ["deal", "samen", "8", "jan+piet", "9"], ["check"], ["session", "end"]):
        p = run(old, *args)
        assert p.returncode == 1 and "newer wiezen" in p.stderr and "Traceback" not in p.stderr, p.stderr
        assert len(p.stderr.strip().splitlines()) == 1
    assert old.read_bytes() == raw and backups(old) == []


def test_db_backup_is_a_consistent_copy(tmp_path):
    db = tmp_path / "wiezen.db"
    assert wz(db, "replay", ROOT / "examples/cafe-de-kroon-rupelstreek.txt").exit_code == 0
    copy = tmp_path / "copy.db"
    r = wz(db, "db", "backup", copy)
    assert r.exit_code == 0 and str(copy) in r.stdout
    assert rows(copy) == rows(db) and integrity(copy) == ["ok"]
    check_ok(copy)
    # never over an existing file, never a traceback for a folder that is not there
    r = wz(db, "db", "backup", copy)
    assert r.exit_code == 1 and "exists already" in r.output
    r = run(db, "db", "backup", str(tmp_path / "no" / "such" / "folder" / "b.db"))
    assert r.returncode == 1 and r.stderr.startswith("Error: cannot write the backup") and "does not exist" in r.stderr


def test_db_backup_while_another_process_writes(tmp_path):
    from _reliability_helpers import make_evening

    db = tmp_path / "wiezen.db"
    assert wz(db, "replay", ROOT / "examples/vijf-spelers-whisthub.txt").exit_code == 0
    ev = make_evening(5, 1500)
    f = tmp_path / "avond.txt"
    f.write_text(ev.text, encoding="utf-8")
    writer = popen(db, "replay", str(f))
    copies = []
    for i in range(4):
        c = tmp_path / f"copy{i}.db"
        r = run(db, "db", "backup", str(c))
        assert r.returncode == 0, r.stderr
        copies.append(c)
    out, err = writer.communicate(timeout=60)
    assert writer.returncode == 0, err
    for c in copies:  # each copy is the ledger before or after the replay, never in between
        assert integrity(c) == ["ok"]
        check_ok(c)
        (n,) = sqlite3.connect(str(c)).execute("SELECT count(*) FROM entries").fetchone()
        assert n in (18, 18 + ev.entries)
