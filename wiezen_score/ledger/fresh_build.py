"""Making a new ledger in one step (ledger/fresh.py's statements) and reading back the schema the migrations make."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone

_FTS_SHADOWS = ("_data", "_idx", "_content", "_docsize", "_config")


def schema_rows(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """(type, name, table, SQL) of every object with SQL, in the order it was made, without the shadow tables an
    FTS5 table makes for itself (its CREATE VIRTUAL TABLE makes them again)."""
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
    ).fetchall()
    virtual = [n for t, n, _tbl, sql in rows if t == "table" and str(sql).upper().startswith("CREATE VIRTUAL TABLE")]
    shadows = {v + s for v in virtual for s in _FTS_SHADOWS}
    return [(str(t), str(n), str(tbl), str(sql)) for t, n, tbl, sql in rows if n not in shadows]


def migrated_statements() -> list[str]:
    """The statements, in order, that make what the migrations leave in an empty ledger."""
    from sqlite_utils import Database

    from .migrations import _migrations

    mem = sqlite3.connect(":memory:", isolation_level=None)
    try:
        _migrations().apply(Database(mem))
        return [sql for _t, _n, _tbl, sql in schema_rows(mem)]
    finally:
        mem.close()


def create(conn: sqlite3.Connection) -> None:
    """Make the whole schema in an empty ledger, inside the caller's transaction, and record every migration as
    applied (as sqlite-utils does: a later migration finds them there)."""
    from .fresh import MIGRATIONS, STATEMENTS

    for stmt in STATEMENTS:
        conn.execute(stmt)
    at = str(datetime.now(timezone.utc))
    conn.executemany(
        'INSERT INTO "_sqlite_migrations" ("migration_set", "name", "applied_at") VALUES (?, ?, ?)',
        [("wiezen", name, at) for name in MIGRATIONS],
    )


def fresh_schema() -> dict[tuple[str, str], str]:
    """(type, name) -> SQL (whitespace folded) of a new ledger: what `wiezen check` compares a ledger with."""
    mem = sqlite3.connect(":memory:", isolation_level=None)
    try:
        create(mem)
        return {
            (t, n): " ".join(sql.split())
            for t, n, sql in mem.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
                "AND name <> '_sqlite_migrations'"
            )
        }
    finally:
        mem.close()
