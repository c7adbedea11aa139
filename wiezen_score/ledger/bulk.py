"""Writing thousands of entries at once (a replay, an import): the same rows as one at a time, faster."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .rows import _ENTRY_ROW, _MAX_ROWID, _POINTS_ROW, NewEntry, _entry_values, _points_values, insert_entry


def insert_entries(conn: sqlite3.Connection, es: Sequence[NewEntry]) -> list[int]:
    """Entries and their points rows, in this order, with one executemany for each table (a replay or an import
    writes thousands); returns their row ids. The ids are the ones SQLite would give one at a time (the next
    after the highest), so the rows, and the chain's links of them, are the same as with :func:`insert_entry`.
    Every trigger stays in place and acts on each row, as for one entry."""
    if not es:
        return []
    top = int(conn.execute("SELECT max(id) FROM entries").fetchone()[0] or 0)
    if len(es) == 1 or top + len(es) >= _MAX_ROWID:  # (at the largest row id SQLite picks them at random)
        return [insert_entry(conn, e) for e in es]
    ids = list(range(top + 1, top + 1 + len(es)))
    conn.executemany(_ENTRY_ROW, [_entry_values(i, e) for i, e in zip(ids, es, strict=False)])
    conn.executemany(_POINTS_ROW, [row for i, e in zip(ids, es, strict=False) for row in _points_values(i, e)])
    return ids
