"""SQL helpers shared by the schema and the migrations beside their tables: statements, triggers."""

from __future__ import annotations

import sqlite3


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
