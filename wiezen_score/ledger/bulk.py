"""Writing thousands of entries at once (a replay, an import): the same rows as one at a time, faster."""

from __future__ import annotations

import sqlite3
from typing import Sequence

from .chain import remember_written
from .sql import suspended
from .rows import _ENTRY_ROW, _MAX_ROWID, _POINTS_ROW, NewEntry, _entry_values, _points_values, insert_entry


def insert_entries(conn: sqlite3.Connection, es: Sequence[NewEntry]) -> list[int]:
    """Entries and their points rows, in this order, with one executemany for each table (a replay or an import
    writes thousands); returns their row ids. The ids are the ones SQLite would give one at a time (the next
    after the highest), so the rows, and the chain's links of them, are the same as with :func:`insert_entry`."""
    if not es:
        return []
    top = int(conn.execute("SELECT max(id) FROM entries").fetchone()[0] or 0)
    if len(es) == 1 or top + len(es) >= _MAX_ROWID:  # (at the largest row id SQLite picks them at random)
        return [insert_entry(conn, e) for e in es]
    ids = list(range(top + 1, top + 1 + len(es)))
    rows = [_entry_values(i, e) for i, e in zip(ids, es)]
    points = [row for i, e in zip(ids, es) for row in _points_values(i, e)]
    if len(points) < _BULK_POINTS:
        conn.executemany(_ENTRY_ROW, rows)
        conn.executemany(_POINTS_ROW, points)
        remember_written(conn, rows, points)  # the chain links them from these, not read back (chain.py)
        return ids
    # Thousands of rows: the triggers that act on each new row are suspended (sql.py's :func:`suspended`):
    # - the two caches (session_totals, player_evenings) are added to once for the whole batch, as their
    #   triggers would add each row;
    # - the no-replace triggers of entries and entry_points (schema.py) refuse a row whose key exists, which
    #   INSERT OR REPLACE would put in the old one's place: these statements are plain INSERTs, which SQLite
    #   refuses for an existing key anyway (a UNIQUE constraint error), so nothing is let through.
    with suspended(conn, ("session_totals_add", "player_evenings_add", "entries_no_replace",
                          "entry_points_no_replace")) as off:
        conn.executemany(_ENTRY_ROW, rows)
        conn.executemany(_POINTS_ROW, points)
        remember_written(conn, rows, points)
        if off:
            for sql in _BULK_CACHES:
                conn.execute(sql, (ids[0], ids[-1]))
    return ids


_BULK_POINTS = 1000
# What the triggers session_totals_add (schema.py) and player_evenings_add (standings.py) do for each new
# entry_points row, for the rows of the entries with ids ? to ? at once.
_BULK_CACHES = (
    "INSERT INTO session_totals (session_id, player_id, points) "
    "SELECT e.session_id, ep.player_id, sum(ep.points) FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
    "WHERE ep.entry_id BETWEEN ? AND ? GROUP BY e.session_id, ep.player_id "
    "ON CONFLICT (session_id, player_id) DO UPDATE SET points = points + excluded.points",
    "INSERT INTO player_evenings (session_id, player_id, points, deals, taken, made) "
    "SELECT e.session_id, ep.player_id, sum(ep.points), sum(e.kind = 'deal'), sum(e.kind = 'deal' AND ep.taker = 1), "
    "sum(e.kind = 'deal' AND ep.taker = 1 AND ep.made = 1) FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
    "WHERE ep.entry_id BETWEEN ? AND ? GROUP BY e.session_id, ep.player_id "
    "ON CONFLICT (session_id, player_id) DO UPDATE SET points = points + excluded.points, "
    "deals = deals + excluded.deals, taken = taken + excluded.taken, made = made + excluded.made",
)
