"""A club night in the ledger: its tables (sessions of one date with a round and a table), round after round.

A night is not a row of its own: it is the sessions of one date that carry a round and a table (and the night's
name and tag). Its open tables are the current round; each round's tables open and end together, in one write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.documents import NightDoc as NightDoc  # (`night show --json`: its shape lives with the views' documents)
from ..core.errors import WiezenError
from ..core.i18n import _
from .rows import SessionInfo

if TYPE_CHECKING:
    from ..core.competition import Competition
    from ..core.night import Standing
    from ..core.rules import HouseRules
    from .store import Ledger


def planned_rounds(led: Ledger, night: Night) -> int | None:
    """The rounds the night was started with (None: not said)."""
    row = led.conn.execute("SELECT rounds FROM night_rounds WHERE date = ? AND name = ? AND tag IS ? ORDER BY rowid DESC "
                           "LIMIT 1", (night.date, night.name, night.tag)).fetchone()
    return None if row is None else int(row[0])


@dataclass(frozen=True, slots=True)
class Night:
    """Which sessions make the night: its date, name and tag; ``open``: a round is being played."""

    date: str
    name: str
    tag: str | None
    open: bool


def current_night(led: Ledger) -> Night | None:
    """The night being played (its tables open), else the latest night played; None when the ledger has none."""
    row = led.conn.execute(
        "SELECT date, name, tag, ended_at IS NULL FROM sessions WHERE round IS NOT NULL AND table_no IS NOT NULL "
        "ORDER BY ended_at IS NULL DESC, date DESC, id DESC LIMIT 1").fetchone()
    return None if row is None else Night(row[0], row[1], row[2], bool(row[3]))


def night_sessions(led: Ledger, night: Night) -> list[SessionInfo]:
    """Every table of the night, by round and table."""
    ids = [int(r[0]) for r in led.conn.execute(
        "SELECT id FROM sessions WHERE date = ? AND name = ? AND tag IS ? AND round IS NOT NULL AND table_no IS NOT NULL "
        "ORDER BY round, table_no, id", (night.date, night.name, night.tag))]
    return [led.session(i) for i in ids]


def deals_played(led: Ledger, session_id: int) -> int:
    """The deals that count at a table (a rondje pas, a redeal or a penalty is no deal)."""
    return int(led.conn.execute(
        "SELECT count(*) FROM entries WHERE session_id = ? AND kind = 'deal' AND id NOT IN (SELECT entry_id FROM voids)",
        (session_id,)).fetchone()[0])


def unfinished(led: Ledger, tables: Sequence[SessionInfo]) -> list[str]:
    """Why a round cannot end yet: each table with no deal, or owing a rondje-pas doubling, in one line each."""
    out = []
    for s in tables:
        if not deals_played(led, s.id):
            out.append(_("table {table} has no deal this round").format(table=s.table))
            continue
        state, _no = led.state(s)
        if state.pending > 1 or state.queued:
            out.append(_("table {table} owes a doubled deal after a rondje pas").format(table=s.table))
    return out


def play_round(led: Ledger, ending: Sequence[SessionInfo], seating: Sequence[Sequence[str]], rnd: int, rules: HouseRules,
               rules_text: str, name: str, date: str, tag: str | None, rounds: int | None = None) -> list[SessionInfo]:
    """End the tables of ``ending`` (each sealed) and open one table per list of ``seating`` (round ``rnd``, tables
    1, 2 ...), all in one write: the night never stands half-way between two rounds. ``rounds``: the night's
    length, kept when it starts."""
    from .rows import end_session_row, insert_seal, now

    with led.write() as c:
        ts = now()
        if rounds is not None:
            c.execute("INSERT INTO night_rounds (date, name, tag, rounds, created_at) VALUES (?, ?, ?, ?, ?)",
                      (date, name, tag, rounds, ts))
        for s in ending:
            if c.execute("SELECT ended_at FROM sessions WHERE id = ?", (s.id,)).fetchone()[0] is not None:
                raise WiezenError(_("table {table} (session {id}) was ended meanwhile: nothing written").format(
                    table=s.table, id=s.id))
            end_session_row(c, s.id, ts)
            insert_seal(c, s.id, 1, ts)
        return [led.begin(list(players), rules, rules_text, None, name, date, tag=tag, round=rnd, table=i)
                for i, players in enumerate(seating, 1)]


def standing(led: Ledger, c: Competition | None, night: Night, players: Sequence[str]) -> Standing:
    """The night's ranking over its tables so far (the competition's score and tie-breaks, else the points), and
    ``players`` in its order (core/night.py)."""
    from ..core.competition import Competition as Scope
    from ..core.night import night_standing

    scope = Scope(name=night.name or "night", tags=(night.tag,) if night.tag else ())
    person = led.person_names()  # a merged player is one person: ranked and seated under the name he goes by
    players = list(dict.fromkeys(person.get(p.casefold(), p) for p in players))
    rows = [r for r in led.table_rows(scope, night.date) if r.round is not None]
    return night_standing(c, rows, players)


def night_doc(led: Ledger, c: Competition | None, night: Night) -> NightDoc:
    """`night show --json`: the night, every table with its totals, the ranking so far, the next round's seating."""
    from ..core.night import next_seating
    from ..core.numbers import plain

    tables = night_sessions(led, night)
    current = [s for s in tables if s.ended_at is None]
    rnd = max((s.round or 0 for s in tables), default=0)
    last = current or [s for s in tables if s.round == rnd]
    st = standing(led, c, night, [p for s in last for p in s.players])
    rounds = planned_rounds(led, night)
    if rounds is not None and rnd >= rounds:
        current = []  # the last round: no next one to seat
    return {
        "night": {"name": night.name, "date": night.date, "round": rnd, "rounds": rounds},
        "tables": [{"table": s.table, "session": s.id, "round": s.round, "players": list(s.at_table),
                    "totals": {p: plain(v) for p, v in led.totals(s.id).items()}, "deals": deals_played(led, s.id),
                    "open": s.ended_at is None} for s in tables],
        "ranking": [{"rank": d["rank"], "player": d["player"], "score": d["score"], "points": d["points"],
                     "tables": d["tables"]} for d in st.ranking],
        "next": [{"table": i, "players": t} for i, t in enumerate(next_seating(st), 1)] if current else None,
    }
