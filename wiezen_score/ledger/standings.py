"""Club standings as SQL: the per-evening cache kept by triggers, the standings query, the season series."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from ..core.i18n import _
from ..core.numbers import fmt, plain
from .rows import COUNTED, COUNTS, SEATED

if TYPE_CHECKING:
    from sqlite_utils import Database

    from ..core.documents import StandingRow



# ---------------------------------------------------------------------------------------------- standings
#
# ``player_evenings`` holds, per session and player, the figures of the entries that count: points, deals
# played, contracts taken and made as taker. Triggers keep it in step: a new entry_points row adds to it, a
# new void takes its entry's rows off again. Entries, points and voids are append-only, so nothing else can
# change it. The standings are then one GROUP BY over (session, player) rows instead of a sort of every
# points row of the history: well under a second at a million entries, where the same figures computed from
# entry_points take seconds. :data:`_REFERENCE` is that direct computation; the tests and
# :func:`check_player_evenings` hold the table to it.

_PLAYER_EVENINGS = """
CREATE TABLE player_evenings (        -- per session and player: the entries that count, summed (kept by triggers)
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    points REAL NOT NULL DEFAULT 0,
    deals INTEGER NOT NULL DEFAULT 0,  -- deals played (a player who sat out has no points row: not his deal)
    taken INTEGER NOT NULL DEFAULT 0,  -- contracts played as taker (bidder, partner or on miserie)
    made INTEGER NOT NULL DEFAULT 0,   -- ... and made
    PRIMARY KEY (session_id, player_id)
) WITHOUT ROWID;
CREATE TRIGGER player_evenings_add AFTER INSERT ON entry_points
BEGIN
    INSERT INTO player_evenings (session_id, player_id, points, deals, taken, made)
    SELECT e.session_id, NEW.player_id, NEW.points, e.kind = 'deal', e.kind = 'deal' AND NEW.taker = 1,
           e.kind = 'deal' AND NEW.taker = 1 AND NEW.made = 1
    FROM entries e WHERE e.id = NEW.entry_id
    ON CONFLICT (session_id, player_id) DO UPDATE SET points = points + excluded.points,
        deals = deals + excluded.deals, taken = taken + excluded.taken, made = made + excluded.made;
END;
CREATE TRIGGER player_evenings_void AFTER INSERT ON voids
BEGIN
    UPDATE player_evenings SET
        points = points - (SELECT ep.points FROM entry_points ep
                           WHERE ep.entry_id = NEW.entry_id AND ep.player_id = player_evenings.player_id),
        deals = deals - (SELECT e.kind = 'deal' FROM entries e WHERE e.id = NEW.entry_id),
        taken = taken - (SELECT e.kind = 'deal' AND ep.taker = 1 FROM entries e JOIN entry_points ep ON ep.entry_id = e.id
                         WHERE e.id = NEW.entry_id AND ep.player_id = player_evenings.player_id),
        made = made - (SELECT e.kind = 'deal' AND ep.taker = 1 AND ep.made = 1 FROM entries e
                       JOIN entry_points ep ON ep.entry_id = e.id
                       WHERE e.id = NEW.entry_id AND ep.player_id = player_evenings.player_id)
    WHERE session_id = (SELECT session_id FROM entries WHERE id = NEW.entry_id)
      AND player_id IN (SELECT player_id FROM entry_points WHERE entry_id = NEW.entry_id);
END;
"""

# The same figures straight from entry_points of the entries that count (no row in voids), per session and
# player; ``{sessions}`` is a query giving the sessions' ids.
_REFERENCE = f"""
SELECT e.session_id AS session_id, ep.player_id AS player_id, total(ep.points) AS points,
       sum(e.kind = 'deal') AS deals, sum(e.kind = 'deal' AND ep.taker = 1) AS taken,
       sum(e.kind = 'deal' AND ep.taker = 1 AND ep.made = 1) AS made
FROM entries e JOIN entry_points ep ON ep.entry_id = e.id
WHERE e.session_id IN ({{sessions}}) AND {COUNTS}
GROUP BY e.session_id, ep.player_id"""

# Every seat of the selected sessions (a player at the table who has no entry yet has an evening of 0).
_EVENINGS = """
evening AS (
  SELECT st.session_id AS sid, st.player_id AS pid, coalesce(pe.points, 0.0) AS pts,
         coalesce(pe.deals, 0) AS deals, coalesce(pe.taken, 0) AS taken, coalesce(pe.made, 0) AS made
  FROM sessions s JOIN seats st ON st.session_id = s.id AND """ + SEATED + """
  LEFT JOIN {evenings} pe ON pe.session_id = st.session_id AND pe.player_id = st.player_id
  WHERE {where}
)"""

_AGGREGATE = """
SELECT p.name AS player, total(ev.pts) AS points, count(*) AS sessions, sum(ev.deals) AS deals,
       sum(ev.taken) AS taken, sum(ev.made) AS made,
       CASE WHEN sum(ev.taken) > 0 THEN round(1.0 * sum(ev.made) / sum(ev.taken), 4) END AS success_rate,
       max(ev.pts) AS best, min(ev.pts) AS worst, round(avg(ev.pts), 2) AS average
FROM evening ev JOIN players p ON p.id = ev.pid
GROUP BY ev.pid
ORDER BY points DESC, p.name COLLATE NOCASE"""

_IN_RANGE = "(:since IS NULL OR s.date >= :since) AND (:until IS NULL OR s.date <= :until) AND " + COUNTED  # no void session

# `wiezen standings`: an evening is a date (a club night's tables, a player's two sessions of one day, make one), so
# evenings, best, worst and the average are per date; sessions (tables) are counted apart. (The Datasette view above
# keeps the per-session figures of the schema it was made with.)
# A player is a person (ledger/people.py): the names that are one person count once, under the name he goes by.
_DATED = (_EVENINGS.replace("SELECT st.session_id AS sid, st.player_id AS pid,",
                            "SELECT st.session_id AS sid, s.date AS date, pp.person_id AS pid,")
          .replace("JOIN seats st ON st.session_id = s.id", "JOIN seats st ON st.session_id = s.id "
                   "JOIN people pp ON pp.player_id = st.player_id"))
_BY_DATE = """
SELECT p.name AS player, a.points AS points, d.evenings AS evenings, a.sessions AS sessions, a.deals AS deals,
       a.taken AS taken, a.made AS made,
       CASE WHEN a.taken > 0 THEN round(1.0 * a.made / a.taken, 4) END AS success_rate,
       d.best AS best, d.worst AS worst, d.average AS average
FROM (SELECT pid, total(pts) AS points, count(*) AS sessions, sum(deals) AS deals, sum(taken) AS taken,
             sum(made) AS made FROM evening GROUP BY pid) a
JOIN (SELECT pid, count(*) AS evenings, max(pts) AS best, min(pts) AS worst, round(avg(pts), 2) AS average
      FROM (SELECT pid, date, total(pts) AS pts FROM evening GROUP BY pid, date) GROUP BY pid) d ON d.pid = a.pid
JOIN people p ON p.player_id = a.pid
ORDER BY points DESC, p.name COLLATE NOCASE"""

_STANDINGS = "WITH" + _DATED.format(evenings="player_evenings", where=_IN_RANGE) + _BY_DATE
_STANDINGS_REFERENCE = (
    "WITH" + _DATED.format(
        evenings="(" + _REFERENCE.format(sessions="SELECT s.id FROM sessions s WHERE " + _IN_RANGE) + ")",
        where=_IN_RANGE,
    ) + _BY_DATE
)  # fmt: skip

STANDINGS_COLUMNS = (
    "player", "points", "evenings", "sessions", "deals", "taken", "made", "success_rate", "best", "worst", "average",
)  # fmt: skip

# The views a Datasette user sees (created by migration m003_club_views).
STANDINGS_VIEW = "CREATE VIEW standings AS WITH" + _EVENINGS.format(evenings="player_evenings", where="1") + _AGGREGATE
# ... and from migration m015 on, without the void sessions
STANDINGS_VIEW_COUNTED = (
    "CREATE VIEW standings AS WITH" + _EVENINGS.format(evenings="player_evenings", where=COUNTED) + _AGGREGATE
)

SCORESHEET_VIEW = """CREATE VIEW scoresheet AS
SELECT s.id AS session_id, s.date AS date, s.name AS session, s.rules_name AS rules, e.no AS no, e.kind AS kind,
       e.text AS entry, e.contract AS contract, e.multiplier AS multiplier, d.name AS dealer, p.name AS player,
       ep.points AS points, ep.taker AS taker, ep.made AS made,
       (v.entry_id IS NOT NULL) AS voided, v.action AS voided_by, e.reason AS reason, e.id AS entry_id
FROM entries e
JOIN sessions s ON s.id = e.session_id
JOIN entry_points ep ON ep.entry_id = e.id
JOIN players p ON p.id = ep.player_id
LEFT JOIN seats ds ON ds.session_id = e.session_id AND ds.seat = e.dealer
LEFT JOIN players d ON d.id = ds.player_id
LEFT JOIN voids v ON v.entry_id = e.id
ORDER BY s.date, s.id, e.no, e.id, p.name"""


def club_views_migration(db: Database) -> None:
    """Migration m003: the ``player_evenings`` table and its triggers (filled from the history so far), and
    the ``standings`` and ``scoresheet`` views."""
    from .sql import _statements

    for stmt in _statements(_PLAYER_EVENINGS):
        db.execute(stmt)
    db.execute(
        "INSERT INTO player_evenings (session_id, player_id, points, deals, taken, made) "
        + _REFERENCE.format(sessions="SELECT id FROM sessions")
    )
    db.execute(STANDINGS_VIEW)
    db.execute(SCORESHEET_VIEW)


def _num(v: float | int | None) -> int | float | None:
    """A stored figure as a JSON number (None stays None); a sum of thirds is the double nearest its exact value."""
    return None if v is None else plain(float(v))  # (plain reads such a REAL as the nearest sixth)


def standings(
    conn: sqlite3.Connection, since: str | None = None, until: str | None = None, reference: bool = False
) -> list[StandingRow]:
    """Per player over the sessions dated ``since`` .. ``until`` (inclusive, ``YYYY-MM-DD``), best first.

    One query over ``player_evenings``; with ``reference``, the same figures straight from entry_points.
    """
    q = _STANDINGS_REFERENCE if reference else _STANDINGS
    rows = conn.execute(q, {"since": since, "until": until}).fetchall()
    out: list[StandingRow] = []
    # (the columns of STANDINGS_COLUMNS; points, best, worst and the average are never NULL: total() and the
    # figures of a player's dates, of which he has one at least)
    for player, points, evenings, sessions, deals, taken, made, success_rate, best, worst, average in rows:
        out.append({"player": player, "points": plain(float(points)), "evenings": evenings, "sessions": sessions,
                    "deals": deals, "taken": taken, "made": made, "success_rate": success_rate,
                    "best": plain(float(best)), "worst": plain(float(worst)), "average": plain(float(average))})
    return out


def check_player_evenings(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    """Where ``player_evenings`` differs from the figures computed from entry_points: (session id, message)
    pairs, none when it is in step."""
    ref = _REFERENCE.format(sessions="SELECT id FROM sessions")
    out = []
    for sid, name, *vals in conn.execute(
        f"WITH ref AS ({ref}), "
        "keys AS (SELECT session_id, player_id FROM ref UNION SELECT session_id, player_id FROM player_evenings) "
        "SELECT k.session_id, coalesce(p.name, 'player id ' || k.player_id), "
        "  coalesce(pe.points, 0), coalesce(pe.deals, 0), coalesce(pe.taken, 0), coalesce(pe.made, 0), "
        "  coalesce(r.points, 0), coalesce(r.deals, 0), coalesce(r.taken, 0), coalesce(r.made, 0) "
        "FROM keys k LEFT JOIN ref r ON r.session_id = k.session_id AND r.player_id = k.player_id "
        "LEFT JOIN player_evenings pe ON pe.session_id = k.session_id AND pe.player_id = k.player_id "
        "LEFT JOIN players p ON p.id = k.player_id "
        "WHERE round(coalesce(pe.points, 0) * 6) <> round(coalesce(r.points, 0) * 6) "  # (in sixths: see _totals)
        "   OR coalesce(pe.deals, 0) <> coalesce(r.deals, 0) "
        "   OR coalesce(pe.taken, 0) <> coalesce(r.taken, 0) OR coalesce(pe.made, 0) <> coalesce(r.made, 0) "
        "   OR (r.session_id IS NOT NULL AND pe.session_id IS NULL) "
        "ORDER BY k.session_id, k.player_id"
    ):
        a, b = (" ".join(fmt(v) for v in part) for part in (vals[:4], vals[4:]))
        out.append((sid, _("the standings' figures (points deals taken made) of {name} are {stored}; the entries give {summed}")
                    .format(name=name, stored=a, summed=b)))
    return out


def season_series(
    conn: sqlite3.Connection, since: str | None = None, until: str | None = None
) -> dict[str, list[tuple[str, int | float]]]:
    """Each player's cumulative points after every evening he played, in date order: ``{player: [(label, n)]}``.

    The label is the session's date (``2026-11-27``), with ``#id`` added when several sessions share a date.
    """
    rows = conn.execute(
        "SELECT s.id, s.date, p.name, coalesce(pe.points, 0.0) FROM sessions s "
        f"JOIN seats st ON st.session_id = s.id AND {SEATED} JOIN people p ON p.player_id = st.player_id "
        "LEFT JOIN player_evenings pe ON pe.session_id = s.id AND pe.player_id = st.player_id "
        f"WHERE {_IN_RANGE} ORDER BY s.date, s.id, st.seat",
        {"since": since, "until": until},
    ).fetchall()
    per_day: dict[str, set[int]] = {}
    for sid, date, _a, _b in rows:
        per_day.setdefault(date, set()).add(sid)
    out: dict[str, list[tuple[str, int | float]]] = {}
    running: dict[str, float] = {}
    for sid, date, name, pts in rows:
        label = date if len(per_day[date]) == 1 else f"{date} #{sid}"
        running[name] = running.get(name, 0.0) + float(pts)
        out.setdefault(name, []).append((label, _num(running[name]) or 0))
    return out
