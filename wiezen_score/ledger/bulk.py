"""Writing thousands of entries at once (a replay, an import): the same rows as one at a time, faster."""

from __future__ import annotations

import sqlite3
from typing import Sequence

from .chain import remember_written
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
    conn.executemany(_ENTRY_ROW, rows)
    points = [row for i, e in zip(ids, es) for row in _points_values(i, e)]
    remember_written(conn, rows, points)  # the chain links them from these, not read back (chain.py)
    caches = _cache_triggers(conn) if len(points) >= _BULK_POINTS else None
    if caches is None:
        conn.executemany(_POINTS_ROW, points)
        return ids
    # Thousands of points rows: the two caches (session_totals, player_evenings) are added to once for the
    # whole batch, as their triggers would add each row, instead of by a trigger per row. The triggers are
    # dropped and made again, with their very SQL, in this same transaction: nobody else sees them gone, and a
    # failure rolls everything back with them.
    for name in caches:
        conn.execute(f"DROP TRIGGER {name}")
    conn.executemany(_POINTS_ROW, points)
    for sql in _BULK_CACHES:
        conn.execute(sql, (ids[0], ids[-1]))
    for sql in caches.values():
        conn.execute(sql)
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


def _cache_triggers(conn: sqlite3.Connection) -> dict[str, str] | None:
    """The SQL of the two cache triggers on entry_points, when both are exactly as the migrations made them
    (and a transaction is open); else None, and the rows are added one trigger at a time."""
    if not conn.in_transaction:
        return None
    from .schema import _SESSION_TOTALS
    from .sql import _statements
    from .standings import _PLAYER_EVENINGS

    want = {}
    for stmt in _statements(_SESSION_TOTALS) + _statements(_PLAYER_EVENINGS):
        for name in ("session_totals_add", "player_evenings_add"):
            if stmt.startswith(f"CREATE TRIGGER {name} "):
                want[name] = " ".join(stmt.rstrip(";").split())
    have = dict(conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name IN ('session_totals_add', 'player_evenings_add')"
    ).fetchall())
    if len(want) != 2 or set(have) != set(want) or any(" ".join(str(have[n]).split()) != want[n] for n in want):
        return None
    return {n: str(have[n]) for n in ("session_totals_add", "player_evenings_add")}
