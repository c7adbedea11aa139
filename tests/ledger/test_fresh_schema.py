"""A new ledger is made in one step (ledger/fresh.py) instead of migration by migration: it must be the very
ledger the migrations make, and `wiezen check` compares ledgers with it."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from _ledger_helpers import ok
from sqlite_utils import Database

from wiezen_score.ledger import Ledger
from wiezen_score.ledger.check import expected_schema
from wiezen_score.ledger.fresh_build import create, schema_rows
from wiezen_score.ledger.migrations import MIGRATION_NAMES, SCHEMA_VERSION, _migrations

ROOT = Path(__file__).resolve().parents[2]


def _everything(conn: sqlite3.Connection) -> dict[str, object]:
    tables = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {
        "schema": schema_rows(conn),
        "all objects": conn.execute("SELECT type, name, tbl_name FROM sqlite_master ORDER BY type, name").fetchall(),
        "rows": {t: conn.execute(f'SELECT * FROM "{t}"').fetchall() for t in tables if t != "_sqlite_migrations"},
        "migrations": conn.execute('SELECT id, migration_set, name FROM "_sqlite_migrations" ORDER BY id').fetchall(),
    }


def test_the_one_step_ledger_is_the_migrated_one():
    migrated = sqlite3.connect(":memory:", isolation_level=None)
    _migrations().apply(Database(migrated))
    fresh = sqlite3.connect(":memory:", isolation_level=None)
    create(fresh)
    want, got = _everything(migrated), _everything(fresh)
    assert got == want
    assert [m[2] for m in got["migrations"]] == list(MIGRATION_NAMES)  # type: ignore[index]


def test_the_module_is_what_the_migrations_make_now():
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "fresh_schema.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_a_new_ledger_is_made_in_one_step_and_a_later_migration_still_finds_its_place(tmp_path):
    db = tmp_path / "w.db"
    Ledger(str(db)).close()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] != 0
    # sqlite-utils sees every migration applied: none pending, so the next one added will be the only one run
    assert _migrations().pending(Database(conn)) == []
    conn.close()
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    assert "ok:" in ok(db, "check").output


def test_check_compares_with_the_migrations_schema():
    migrated = sqlite3.connect(":memory:", isolation_level=None)
    _migrations().apply(Database(migrated))
    want = {
        (t, n): " ".join(sql.split())
        for t, n, sql in migrated.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
            "AND name <> '_sqlite_migrations'")
    }
    assert expected_schema(SCHEMA_VERSION) == want
