"""A competition's figures from the ledger: one row per seat of the sessions it counts, and the honours' pairs.

The rows come from the per-evening cache ``player_evenings``; the ranking itself is core/ranking.py."""

from __future__ import annotations

import sqlite3

from ..core.competition import Competition
from ..core.errors import WiezenError
from ..core.ranking import PairRow, TableRow
from .rows import COUNTED, SEATED


def _where(c: Competition, night: str | None = None, before: tuple[str, int] | None = None) -> tuple[str, list[object]]:
    """The competition's sessions (``s``); with ``night``, only that date's; with ``before`` = (date, N), not
    the rounds N and later of that date (the standing before round N)."""
    cond = [COUNTED]  # a void session counts nowhere
    args: list[object] = []
    if c.since:
        cond.append("s.date >= ?")
        args.append(c.since)
    if c.until:
        cond.append("s.date <= ?")
        args.append(c.until)
    if c.tags:
        cond.append(f"s.tag IN ({', '.join('?' for _ in c.tags)})")
        args.extend(c.tags)
    if night is not None:
        cond.append("s.date = ?")
        args.append(night)
    if before is not None:
        cond.append("(s.date <> ? OR s.round IS NULL OR s.round < ?)")
        args.extend(before)
    return " AND ".join(cond), args


def table_rows(conn: sqlite3.Connection, c: Competition, night: str | None = None,
               before: tuple[str, int] | None = None) -> list[TableRow]:
    """Every seat of the competition's sessions with its points there (entries that count), contracts taken
    and made. One indexed pass over sessions, seats and ``player_evenings``."""
    where, args = _where(c, night, before)
    q = (
        "SELECT s.id, s.date, s.round, s.table_no, p.name, coalesce(pe.points, 0.0), coalesce(pe.made, 0), "
        f"coalesce(pe.taken, 0) FROM sessions s JOIN seats st ON st.session_id = s.id AND {SEATED} "
        "JOIN people p ON p.player_id = st.player_id "
        "LEFT JOIN player_evenings pe ON pe.session_id = st.session_id AND pe.player_id = st.player_id "
        f"WHERE {where}"
    )
    return [TableRow(sid, date, name, pts, rnd, tno, made, taken)
            for sid, date, rnd, tno, name, pts, made, taken in conn.execute(q, args)]


def night_rounds(conn: sqlite3.Connection, c: Competition, night: str) -> dict[int, list[str]]:
    """The rounds recorded on that night: round number -> the players at its tables (seat order)."""
    where, args = _where(c, night)
    out: dict[int, list[str]] = {}
    for rnd, name in conn.execute(
        f"SELECT s.round, p.name FROM sessions s JOIN seats st ON st.session_id = s.id AND {SEATED} "
        "JOIN people p ON p.player_id = st.player_id "
        f"WHERE {where} AND s.round IS NOT NULL ORDER BY s.round, s.table_no, s.id, st.seat", args,
    ):
        out.setdefault(rnd, []).append(name)
    return out


def last_night(conn: sqlite3.Connection, c: Competition) -> str | None:
    """The latest date among the competition's sessions (the night being played)."""
    where, args = _where(c)
    row = conn.execute(f"SELECT max(s.date) FROM sessions s WHERE {where}", args).fetchone()
    return row[0] if row else None


def _miserie_contracts(conn: sqlite3.Connection, where: str, args: list[object]) -> list[str]:
    from .rows import _rules_cache

    names: set[str] = set()
    for name, text in conn.execute(f"SELECT DISTINCT s.rules_name, s.rules_toml FROM sessions s WHERE {where}", args):
        try:
            rules = _rules_cache(text, name)
        except WiezenError:  # a damaged snapshot: `wiezen check` reports it; the honours do without it
            continue
        names.update(ct.name for ct in rules.contracts if ct.is_miserie)
    return sorted(names)


def honours_figures(conn: sqlite3.Connection, c: Competition) -> tuple[dict[str, int], list[PairRow], list[PairRow]]:
    """(miseries made per player, partner pairs, opponent pairs) over the competition's deals that count."""
    where, args = _where(c)
    mis = _miserie_contracts(conn, where, args)
    mis_in = ", ".join("?" for _ in mis) or "NULL"
    counting = (
        "FROM entries e JOIN sessions s ON s.id = e.session_id "
        f"WHERE {where} AND e.kind = 'deal' AND NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id)"
    )
    miseries = {
        name: n for name, n in conn.execute(
            "SELECT p.name, count(*) " + counting.replace("WHERE", "JOIN entry_points ep ON ep.entry_id = e.id "
            "JOIN people p ON p.player_id = ep.player_id WHERE", 1)
            + f" AND ep.taker = 1 AND ep.made = 1 AND e.contract IN ({mis_in}) GROUP BY p.person_id",
            args + mis,
        )
    }  # fmt: skip

    def pairs(cond: str, extra: list[str]) -> list[PairRow]:
        q = (
            "SELECT pa.name, pb.name, total(a.points), count(*) "
            + counting.replace("WHERE", "JOIN entry_points a ON a.entry_id = e.id JOIN entry_points b "
                               "ON b.entry_id = e.id AND b.player_id <> a.player_id "
                               "JOIN people pa ON pa.player_id = a.player_id JOIN people pb ON pb.player_id = b.player_id WHERE", 1)
            + f" AND {cond} GROUP BY pa.person_id, pb.person_id"
        )
        return [PairRow(x, y, pts, n) for x, y, pts, n in conn.execute(q, args + extra)]

    partners = pairs(f"a.taker = 1 AND b.taker = 1 AND coalesce(e.contract, '') NOT IN ({mis_in})", mis)
    opponents = pairs("a.taker <> b.taker", [])
    return miseries, partners, opponents


# ------------------------------------------------------------------------------------------ Datasette queries
#
# A competition's ranking as plain SQL, for Datasette's canned queries (parameters arrive as text; an empty
# one means "not set"): the sessions of :tag from :since to :until, each player's evening (a date) the sum of
# his tables, his best :best evenings counted, fewer than :min_evenings evenings listed after the ranked ones
# with no rank. Equal scores share a rank; the tie-breaks of a competition file are `wiezen standings
# --competition`'s.

_SEATS = """seat AS (
  SELECT s.id AS sid, s.date AS date, st.player_id AS pid, coalesce(pe.points, 0.0) AS pts
  FROM sessions s JOIN seats st ON st.session_id = s.id AND """ + SEATED + """
  LEFT JOIN player_evenings pe ON pe.session_id = st.session_id AND pe.player_id = st.player_id
  WHERE (nullif(:tag, '') IS NULL OR s.tag = :tag) AND (nullif(:since, '') IS NULL OR s.date >= :since)
    AND (nullif(:until, '') IS NULL OR s.date <= :until)
    AND NOT EXISTS (SELECT 1 FROM session_voids sv WHERE sv.session_id = s.id)
)"""

_RANKING = """,
ordered AS (
  SELECT pid, date, score, row_number() OVER (PARTITION BY pid ORDER BY score DESC, date) AS n FROM evening
),
per AS (
  SELECT pid, count(*) AS evenings,
         total(CASE WHEN nullif(:best, '') IS NULL OR n <= CAST(:best AS INTEGER) THEN score END) AS score,
         sum(nullif(:best, '') IS NULL OR n <= CAST(:best AS INTEGER)) AS counted,
         count(*) >= coalesce(CAST(nullif(:min_evenings, '') AS INTEGER), 0) AS ranked
  FROM ordered GROUP BY pid
)
SELECT CASE WHEN ranked THEN rank() OVER (PARTITION BY ranked ORDER BY score DESC) END AS rank,
       p.name AS player, score, evenings, counted
FROM per JOIN players p ON p.id = per.pid
ORDER BY ranked DESC, score DESC, p.name COLLATE NOCASE"""

COMPETITION_POINTS_SQL = (
    "WITH " + _SEATS + """,
evening AS (SELECT pid, date, total(pts) AS score FROM seat GROUP BY pid, date)""" + _RANKING
)

COMPETITION_PLACEMENT_SQL = (
    "WITH " + _SEATS + """,
placed AS (
  SELECT sid, date, pid, rank() OVER (PARTITION BY sid ORDER BY pts DESC) AS place,
         count(*) OVER (PARTITION BY sid, pts) AS ties
  FROM seat
),
places (place, pts) AS (VALUES (1, :p1), (2, :p2), (3, :p3), (4, :p4), (5, :p5), (6, :p6)),
table_score AS (
  SELECT pl.pid, pl.date,
         (SELECT total(CAST(nullif(v.pts, '') AS REAL)) FROM places v
          WHERE v.place BETWEEN pl.place AND pl.place + pl.ties - 1) / pl.ties AS score
  FROM placed pl
),
evening AS (SELECT pid, date, total(score) AS score FROM table_score GROUP BY pid, date)""" + _RANKING
)
