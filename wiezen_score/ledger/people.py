"""Players are people, in the ledger: the facts (rename, merge, split) and the person of every recorded player.

``player_facts`` holds what the club said about its players, append-only, in recorded order (each with a uid, so
that an import adds it once). ``people`` is a cache of :func:`core.people.fold` over those facts, one row per
recorded player: the person he is (``person_id``, the person's lowest player id) and the name that person goes
by; the standings, competitions and nights join it instead of ``players``, and count a person once. It is built
again after every fact written and every import; a trigger gives each new player his row at once. Neither table
touches a recorded deal, the chain or a seal: the names as recorded stay where they were recorded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from ..core.i18n import _
from ..core.people import Fact, Person, fold
from .rows import COUNTED, SEATED
from .sql import _statements, append_only

if TYPE_CHECKING:
    from sqlite_utils import Database

_SCHEMA = """
CREATE TABLE player_facts (           -- what the club said about its players, in recorded order (append-only)
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    action TEXT NOT NULL CHECK (action IN ('rename', 'merge', 'split')),
    name TEXT NOT NULL,               -- rename: the old name; merge and split: the person who stays
    other TEXT NOT NULL,              -- rename: the new name; merge: the name that is his too; split: who leaves
    date TEXT NOT NULL,               -- the day it was said
    created_at TEXT NOT NULL
);
CREATE TABLE people (                 -- a cache: each recorded player's person, from player_facts (ledger/people.py)
    player_id INTEGER PRIMARY KEY REFERENCES players(id),
    person_id INTEGER NOT NULL,       -- the lowest player id of the person
    name TEXT NOT NULL                -- the name the person goes by
);
CREATE INDEX people_person ON people(person_id);
CREATE TRIGGER people_new_player AFTER INSERT ON players
BEGIN
    INSERT INTO people (player_id, person_id, name) VALUES (NEW.id,
        coalesce((SELECT person_id FROM people WHERE name = NEW.name ORDER BY person_id LIMIT 1), NEW.id),
        coalesce((SELECT name FROM people WHERE name = NEW.name ORDER BY person_id LIMIT 1), NEW.name));
END;
"""


def m013_players(db: Database) -> None:
    """Players are people: the facts that say which names are one person, and the cache of who is whom."""
    for stmt in _statements(_SCHEMA + append_only("player_facts", "a rename or merge is undone by another fact")):
        db.execute(stmt)
    db.execute("INSERT INTO people (player_id, person_id, name) SELECT id, id, name FROM players")


class FactDoc(TypedDict):
    """One fact as an export carries it."""

    uid: str
    action: str
    name: str
    other: str
    date: str
    created_at: str


def facts(conn: sqlite3.Connection) -> list[FactDoc]:
    """Every fact about players, in recorded order."""
    if not _has(conn):
        return []
    return [{"uid": u, "action": a, "name": n, "other": o, "date": d, "created_at": c} for u, a, n, o, d, c in conn.execute(
        "SELECT uid, action, name, other, date, created_at FROM player_facts ORDER BY id")]


def _has(conn: sqlite3.Connection) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_facts'").fetchone() is not None


def people(conn: sqlite3.Connection) -> tuple[dict[int, Person], dict[int, str]]:
    """Each player id -> his person, from the facts (not the cache), and each player id -> the name recorded."""
    recorded = [(int(i), str(n)) for i, n in conn.execute("SELECT id, name FROM players ORDER BY id")]
    return fold(recorded, [Fact(d["action"], d["name"], d["other"]) for d in facts(conn)]), dict(recorded)


def rebuild(conn: sqlite3.Connection) -> None:
    """The ``people`` cache made again from the facts (inside the caller's write)."""
    persons, _rec = people(conn)
    conn.execute("DELETE FROM people")
    conn.executemany("INSERT INTO people (player_id, person_id, name) VALUES (?, ?, ?)",
                     [(pid, p.id, p.name) for pid, p in persons.items()])


def add_fact(conn: sqlite3.Connection, action: str, name: str, other: str, date: str) -> None:
    """Record one fact (inside the caller's write) and make the cache again."""
    from .rows import new_uid, now

    conn.execute("INSERT INTO player_facts (uid, action, name, other, date, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                 (new_uid(), action, name, other, date, now()))
    rebuild(conn)


def import_facts(conn: sqlite3.Connection, docs: Iterable[Mapping[str, Any]], conflicts: list[str]) -> int:
    """Add the facts of an import that this ledger does not hold (by uid), in the file's order; a uid known here
    with other content is a conflict. Returns how many were added (the cache is made again by the caller)."""
    added = 0
    for d in docs:
        row = conn.execute("SELECT action, name, other, date, created_at FROM player_facts WHERE uid = ?",
                           (d["uid"],)).fetchone()
        mine = (d["action"], d["name"], d["other"], d["date"], d["created_at"])
        if row is None:
            conn.execute("INSERT INTO player_facts (uid, action, name, other, date, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                         (d["uid"], *mine))
            added += 1
        elif tuple(row) != mine:
            conflicts.append(_("the players' fact {uid} is here with other content").format(uid=d["uid"][:8]))
    return added


def shared_tables(conn: sqlite3.Connection, a: Sequence[int], b: Sequence[int]) -> tuple[int, str] | None:
    """A session (id, date) where a player of ``a`` and one of ``b`` sat at the same table, or at two tables of
    one round of a night: two people, never one."""
    qa, qb = ", ".join("?" * len(a)), ", ".join("?" * len(b))
    row = conn.execute(
        "SELECT s.id, s.date FROM seats x JOIN sessions s ON s.id = x.session_id "
        f"WHERE x.player_id IN ({qa}) AND EXISTS (SELECT 1 FROM seats y JOIN sessions t ON t.id = y.session_id "
        f"WHERE y.player_id IN ({qb}) AND (t.id = s.id OR (t.date = s.date AND t.round = s.round))) "
        "ORDER BY s.date, s.id LIMIT 1", (*a, *b)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


class PlayerDoc(TypedDict):
    """`wiezen players --json`: one person."""

    player: str
    names: list[str]
    evenings: int
    sessions: int
    deals: int
    points: int | float
    first: str | None
    last: str | None


def player_docs(conn: sqlite3.Connection) -> list[PlayerDoc]:
    """Every person of the ledger, with his evenings (dates), sessions (tables), deals, points, first and last
    evening and the other names that are his; by name."""
    from ..core.names import name_key
    from ..core.numbers import plain
    from ..core.people import names_of

    persons, recorded = people(conn)
    figures: dict[int, tuple[int, int, int, float, str | None, str | None]] = {}
    for pid, evenings, sessions, deals, points, first, last in conn.execute(
        "SELECT st.player_id, count(DISTINCT s.date), count(*), total(pe.deals), total(pe.points), min(s.date), "
        "max(s.date) FROM seats st JOIN sessions s ON s.id = st.session_id LEFT JOIN player_evenings pe "
        "ON pe.session_id = st.session_id AND pe.player_id = st.player_id "
        f"WHERE {COUNTED} AND {SEATED} GROUP BY st.player_id"  # (a void session, a join never played: nowhere)
    ):
        figures[int(pid)] = (evenings, sessions, int(deals), float(points), first, last)
    dates: dict[int, set[str]] = {}
    for pid, date in conn.execute("SELECT DISTINCT st.player_id, s.date FROM seats st JOIN sessions s ON s.id = st.session_id "
                                  f"WHERE {COUNTED} AND {SEATED}"):
        dates.setdefault(persons[int(pid)].id, set()).add(str(date))
    out: list[PlayerDoc] = []
    for person in {p.id: p for p in persons.values()}.values():
        rows = [figures[m] for m in person.members if m in figures]
        days = sorted(dates.get(person.id, ()))
        out.append({
            "player": person.name, "names": names_of(person, recorded), "evenings": len(days),
            "sessions": sum(r[1] for r in rows), "deals": sum(r[2] for r in rows),
            "points": plain(sum(r[3] for r in rows)), "first": days[0] if days else None,
            "last": days[-1] if days else None,
        })
    return sorted(out, key=lambda d: (name_key(d["player"]), d["player"]))
