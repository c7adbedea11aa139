"""The row types read from a ledger (a session, an entry) and the small values every write needs."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, NamedTuple

from ..core.i18n import _
from ..core.numbers import exact_points
from ..core.rules import HouseRules, parse_rules
from ..core.scoring import Points
from ..core.session import SEAT_KINDS, EntryInput, seat_input

_NOW: list[int | str | None] = [None, ""]  # the last second asked for, and its text


def now() -> str:
    """The time now in UTC, to the second (the text is made once a second: replay and import ask often)."""
    t = int(time.time())
    if t != _NOW[0]:
        _NOW[0], _NOW[1] = t, datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="seconds")
    return str(_NOW[1])


def new_uid() -> str:
    """128 random bits as 32 hex digits (like uuid4().hex, without importing uuid on the start-up path)."""
    return os.urandom(16).hex()


@dataclass(frozen=True, slots=True)
class SessionInfo:
    id: int
    uid: str
    name: str
    date: str
    rules_name: str
    rules_toml: str
    players: tuple[str, ...]
    player_ids: tuple[int, ...]
    first_dealer: int
    started_at: str
    ended_at: str | None
    plan: str | None = None  # the evening's length: "deals 24", "rounds 6", "target 100" (core/evening.py)
    tag: str | None = None  # the competition the session belongs to (None: none)
    round: int | None = None  # on a night with several tables: the round ...
    table: int | str | None = None  # ... and the table: its number or its label (``terras``)
    # after `session join` / `session leave`: ``players`` is everyone who sat at the table that evening (the
    # sheet's columns, the joined ones after the others); ``initial`` the seat order the session started with,
    # ``seating`` the seat order now (both empty when nobody came or went: then both are ``players``)
    initial: tuple[str, ...] = ()
    seating: tuple[str, ...] = ()

    @property
    def rules(self) -> HouseRules:
        return _rules_cache(self.rules_toml, self.rules_name)

    @property
    def first_players(self) -> tuple[str, ...]:
        """The seat order the session started with (what its first dealer is counted in)."""
        return self.initial or self.players

    @property
    def at_table(self) -> tuple[str, ...]:
        """The seat order now: who plays the next deal, counted from its dealer."""
        return self.seating or self.players


#: the seats of players who joined a session after it started (`session join`) are numbered from here, after
#: the seats it started with; the session's own fact in the chain covers only the seats it started with
JOINED_SEAT = 100


_RULES_CACHE: dict[str, HouseRules] = {}


def _rules_cache(text: str, name: str) -> HouseRules:
    r = _RULES_CACHE.get(text)
    if r is None:
        r = _RULES_CACHE[text] = parse_rules(text, _("house rules '{name}'").format(name=name))
    return r


@dataclass(frozen=True, slots=True)
class EntryRow:
    id: int
    uid: str
    no: int
    kind: str
    text: str
    contract: str | None
    dealer: int
    multiplier: int
    offender: str
    round: bool
    deal_no: int | None
    reason: str
    next_dealer: int
    next_multiplier: int
    replaces: int | None
    created_at: str
    points: Mapping[str, Points]
    takers: Mapping[str, bool]
    voided: bool
    void_action: str | None
    voided_by: int | None
    void_reason: str

    @property
    def penalty_kind(self) -> str:
        """A penalty's kind of [penalties] ("" for none, and for every other entry)."""
        return _stored_penalty_kind(self.text, self.offender) if self.kind == "penalty" else ""

    def as_input(self) -> EntryInput:
        return stored_input(self.kind, self.text, self.offender, self.round, self.reason, self.deal_no)


def stored_input(kind: str, text: str, offender: str, round_: bool, reason: str, deal_no: int | None) -> EntryInput:
    """A stored entry as the input that re-scores it (amend, explain and check all re-score this way)."""
    if kind in SEAT_KINDS:
        return seat_input(text, reason)
    return EntryInput(
        kind, text if kind == "deal" else "", offender, round_, reason, deal_no, "over-troel" in text.split()[-2:],
        _stored_penalty_kind(text, offender) if kind == "penalty" else "",
    )


def _stored_penalty_kind(text: str, offender: str) -> str:
    """The kind of a stored penalty: the word its line has after ``penalty OFFENDER`` ("" for none or a round). (By
    words, not letters: an imported entry may spell the offender's name in another case.)"""
    rest = text.split()[1 + len(offender.split()):]
    return "" if rest in ([], ["round"]) else rest[0]


def _num(v: float) -> Points:
    """A stored REAL figure (a total the SQL summed) as exact points: see core.numbers.exact_points."""
    if float(v).is_integer():
        return int(v)
    return exact_points(v, 1e-6)  # (a sum of thirds is a few units in its last place off)


def from_sixths(n: int) -> Points:
    """Points from what ``entry_points.sixth`` stores: six times the points."""
    if n % 6 == 0:
        return n // 6
    from fractions import Fraction

    return Fraction(n, 6)


# --------------------------------------------------------------------------------------------------------
# The one statement per table that writes it: recording, replay, amend, import and the precedents log all
# write through these functions (and through nothing else).

POINTS_BOUND = 1_000_000_000  # at most this many points to one player in one entry (stored as 6x, an integer)


def sixth_points(v: Any) -> int:  # (any number an imported file holds: checked here)
    """Points as stored: six times their value, an integer (whole, half or third points, exactly). A float (from
    a JSON file) is read as :func:`~wiezen_score.core.numbers.exact_points` reads it."""
    if type(v) is int:  # the common cases, exactly as the Fraction below would find them, without it
        if abs(v) <= POINTS_BOUND:
            return 6 * v
    elif type(v) is float and (2 * v).is_integer() and abs(v) <= POINTS_BOUND:
        return int(6 * v)
    from fractions import Fraction

    from ..core.errors import WiezenError
    from ..core.numbers import fmt, grouped

    try:
        six: Fraction | None = Fraction(exact_points(v)) * 6
    except (ValueError, OverflowError, TypeError):  # (inf, nan)
        six = None
    if six is None or six.denominator != 1 or abs(six) > 6 * POINTS_BOUND:
        from ..core.text import shorten

        shown = fmt(float(v)) if isinstance(v, (int, float)) and abs(v) < 1e300 else shorten(str(v))
        raise WiezenError(_('{points} points cannot be recorded: whole, half or third points, at most {most}').format(points=shown, most=grouped(POINTS_BOUND)))
    return int(six)


COUNTS = "NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id)"
#: a seat ``st`` that counts: one the session started with, or of a player who joined later (`session join`) and
#: played (a join undone, or a player who left before any deal, leaves a seat row: append-only, counted nowhere)
SEATED = ("(st.seat < 100 OR EXISTS (SELECT 1 FROM player_evenings pj WHERE pj.session_id = st.session_id "
          "AND pj.player_id = st.player_id AND (pj.deals > 0 OR pj.points <> 0)))")
#: a session ``s`` that counts: not taken out of every count by `session void` (ledger/voids.py)
COUNTED = "NOT EXISTS (SELECT 1 FROM session_voids sv WHERE sv.session_id = s.id)"
"""The condition that an entry (aliased ``e``) counts: no row in ``voids`` voids it."""


class NewEntry(NamedTuple):  # (a named tuple: a replay or an import makes thousands, cheaply)
    """An entry row as it is written, with its points: ``sixths`` is (player id, six times the points, made) per
    player of the deal (see :func:`sixth_points`), ``made`` None for a player who did not take the contract."""

    uid: str
    session_id: int
    no: int
    kind: str
    text: str
    contract: str | None
    dealer: int
    multiplier: int
    offender_id: int | None
    round: bool
    deal_no: int | None
    reason: str
    next_dealer: int
    next_multiplier: int
    replaces: int | None
    created_at: str
    sixths: Sequence[tuple[int, int, bool | None]]


def insert_player(conn: sqlite3.Connection, name: str) -> int:
    cur = conn.execute("INSERT INTO players (name, created_at) VALUES (?, ?)", (name, now()))
    return int(cur.lastrowid or 0)


def insert_house_rules(conn: sqlite3.Connection, name: str, toml: str, reason: str) -> None:
    conn.execute("INSERT INTO house_rules (name, toml, reason, added_at) VALUES (?, ?, ?, ?)", (name, toml, reason, now()))


def insert_session(
    conn: sqlite3.Connection, *, uid: str, name: str, date: str, rules_name: str, rules_toml: str, first_dealer: int,
    started_at: str, ended_at: str | None, source_hash: str | None, player_ids: Sequence[int], plan: str | None = None,
    tag: str | None = None, round: int | None = None, table: int | str | None = None,
) -> int:
    """A session and its seats (player ids in seat order); ``plan``: the evening's length (core/evening.py);
    ``tag``, ``round``, ``table``: what a competition selects it by (core/competition.py)."""
    cur = conn.execute(
        "INSERT INTO sessions (uid, name, date, rules_name, rules_toml, first_dealer, started_at, ended_at, source_hash, "
        "plan, tag, round, table_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (uid, name, date, rules_name, rules_toml, first_dealer, started_at, ended_at, source_hash, plan, tag, round,
         table),
    )
    sid = int(cur.lastrowid or 0)
    conn.executemany(
        "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)", [(sid, i, p) for i, p in enumerate(player_ids)]
    )
    return sid


def end_session_row(conn: sqlite3.Connection, session_id: int, ended_at: str) -> None:
    conn.execute("UPDATE sessions SET ended_at = ? WHERE id = ?", (ended_at, session_id))


_ENTRY_ROW = (
    "INSERT INTO entries (id, uid, session_id, no, kind, text, contract, dealer, multiplier, offender_id, round, "
    "deal_no, reason, next_dealer, next_multiplier, replaces, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_POINTS_ROW = "INSERT INTO entry_points (entry_id, player_id, sixth, taker, made) VALUES (?, ?, ?, ?, ?)"
_MAX_ROWID = 2**63 - 1


def _entry_values(eid: int | None, e: NewEntry) -> tuple[object, ...]:
    return (
        eid, e.uid, e.session_id, e.no, e.kind, e.text, e.contract, e.dealer, e.multiplier, e.offender_id,
        int(e.round), e.deal_no, e.reason, e.next_dealer, e.next_multiplier, e.replaces, e.created_at,
    )


def _points_values(eid: int, e: NewEntry) -> list[tuple[int, int, int, int, int | None]]:
    return [(eid, pid, h, int(made is not None), None if made is None else int(made)) for pid, h, made in e.sixths]


def insert_entry(conn: sqlite3.Connection, e: NewEntry) -> int:
    """An entry and its points rows; returns the entry's row id (the one SQLite gives it)."""
    cur = conn.execute(_ENTRY_ROW, _entry_values(None, e))
    eid = int(cur.lastrowid or 0)
    conn.executemany(_POINTS_ROW, _points_values(eid, e))
    return eid


def insert_void(
    conn: sqlite3.Connection, entry_id: int, action: str, by_entry: int | None, reason: str, created_at: str | None = None
) -> None:
    conn.execute(
        "INSERT INTO voids (entry_id, action, by_entry, reason, created_at) VALUES (?, ?, ?, ?, ?)",
        (entry_id, action, by_entry, reason, created_at or now()),
    )


def insert_seal(conn: sqlite3.Connection, session_id: int, n: int, sealed_at: str) -> int:
    cur = conn.execute("INSERT INTO seals (session_id, n, sealed_at) VALUES (?, ?, ?)", (session_id, n, sealed_at))
    return int(cur.lastrowid or 0)


def insert_precedent(
    conn: sqlite3.Connection, *, uid: str, date: str, session_id: int | None, entry_no: int | None,
    entry_id: int | None, players: Sequence[str], origin: str, created_at: str,
) -> int:
    import json

    cur = conn.execute(
        "INSERT INTO precedents (uid, date, session_id, entry_no, entry_id, players, origin, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (uid, date, session_id, entry_no, entry_id, json.dumps(list(players), ensure_ascii=False), origin, created_at),
    )
    return int(cur.lastrowid or 0)


def insert_precedent_version(
    conn: sqlite3.Connection, precedent_id: int, version: int, title: str, ruling: str, tags: Sequence[str],
    note: str, edited_at: str,
) -> None:
    import json

    conn.execute(
        "INSERT INTO precedent_versions (precedent_id, version, title, ruling, tags, note, edited_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (precedent_id, version, title, ruling, json.dumps(list(tags), ensure_ascii=False), note, edited_at),
    )
