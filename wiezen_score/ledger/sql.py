"""SQL helpers shared by the schema and the migrations beside their tables: statements, triggers, suspending them.

:func:`suspended` lifts a trigger that acts on each new row for a write of thousands (bulk.py, chain.py)."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from typing import Iterator, Sequence


def _statements(sql: str) -> list[str]:
    """Split a schema script into statements (triggers contain ';' inside BEGIN ... END)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out


def append_only(table: str, hint: str = "add a correction instead of changing a row") -> str:
    """Triggers that refuse every UPDATE and DELETE on ``table``: the schema itself keeps history."""
    return f"""
CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}
BEGIN SELECT RAISE(ABORT, '{table} are append-only: {hint}'); END;
CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}
BEGIN SELECT RAISE(ABORT, '{table} are append-only: nothing is ever deleted'); END;
"""


@contextmanager
def suspended(conn: sqlite3.Connection, names: Sequence[str]) -> Iterator[bool]:
    """Drop these triggers for the statements inside, and make them again, with their very SQL, in this same
    transaction: nobody else sees them gone, and a failure rolls everything back with them (they are made again
    too when the transaction stays open after a failed statement). Yields True when they are suspended; False,
    and nothing dropped, unless a transaction is open and each trigger is exactly as the migrations leave it
    (fresh.py)."""
    have = _as_made(conn, names)
    if have is None:
        yield False
        return
    dropped: list[str] = []
    try:
        for name in have:  # (in the order they were made: made again in that order, they fire as before)
            conn.execute(f"DROP TRIGGER main.{name}")  # (main: never a temporary trigger of the same name)
            dropped.append(name)
        yield True
    finally:
        if conn.in_transaction:  # (else the failure rolled the transaction back, the triggers with it)
            for name in dropped:
                conn.execute(have[name])


def _as_made(conn: sqlite3.Connection, names: Sequence[str]) -> dict[str, str] | None:
    """The stored SQL of these triggers when a transaction is open and each is the one all the migrations
    leave (whitespace aside); else None."""
    if not conn.in_transaction:
        return None
    from .fresh import STATEMENTS

    made = {}
    for stmt in STATEMENTS:
        for name in names:
            if stmt.startswith(f"CREATE TRIGGER {name} "):
                made[name] = " ".join(stmt.split())
    have = dict(conn.execute(
        f"SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ({', '.join('?' * len(names))}) "
        "ORDER BY rowid",
        list(names),
    ).fetchall())
    if not (set(made) == set(have) == set(names)) or any(" ".join(str(have[n]).split()) != made[n] for n in names):
        return None
    return {n: str(sql) for n, sql in have.items()}  # (in the order they were made)
