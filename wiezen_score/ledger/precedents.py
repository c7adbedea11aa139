"""The precedents log: rulings the table made, kept so that next week's argument is settled by last week's.

A precedent (table ``precedents``) has a date, optionally the session and entry it arose from and the players
involved; its text (title, ruling, tags) lives in ``precedent_versions``: an edit adds a version, the newest
is current, earlier ones stay as the precedent's history. Both tables are append-only (triggers). A trigger
keeps ``precedents_fts`` (SQLite FTS5, accents folded) in step with the current version for full-text search.

Functions take a :class:`~wiezen_score.ledger.Ledger` (as :class:`PrecedentLedger`: the little of it they use);
those that write open their own transaction unless they are told they run inside one (``in_tx``).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import N_, _
from ..core.safe import HL_END, HL_START
from .sql import append_only

if TYPE_CHECKING:
    from sqlite_utils import Database

    from .rows import EntryRow, SessionInfo


class PrecedentLedger(Protocol):
    """What the precedents log needs of a ledger: its connection, a session and its entries, a write."""

    conn: sqlite3.Connection

    def session(self, session_id: int | None = None) -> SessionInfo: ...

    def entries(self, s: SessionInfo, since_no: int = 0) -> list[EntryRow]: ...

    def write(self) -> AbstractContextManager[sqlite3.Connection]: ...


ORIGINS = ("ruling", "penalty", "house-rules")


_SCHEMA = (
    """
CREATE TABLE precedents (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    date TEXT NOT NULL,                               -- the day of the ruling, YYYY-MM-DD
    session_id INTEGER REFERENCES sessions(id),       -- the session it arose from, if any ...
    entry_no INTEGER,                                 -- ... and the entry's number on that sheet
    entry_id INTEGER REFERENCES entries(id),          -- the entry row that counted when the ruling was made
    players TEXT NOT NULL DEFAULT '[]',               -- JSON list of the names of the players involved
    origin TEXT NOT NULL DEFAULT 'ruling' CHECK (origin IN ('ruling', 'penalty', 'house-rules')),
    created_at TEXT NOT NULL,
    CHECK (entry_no IS NULL OR session_id IS NOT NULL)
);
CREATE INDEX precedents_date ON precedents(date, id);
CREATE INDEX precedents_entry ON precedents(session_id, entry_no);
CREATE TABLE precedent_versions (                     -- the text; the highest version is current
    precedent_id INTEGER NOT NULL REFERENCES precedents(id),
    version INTEGER NOT NULL CHECK (version >= 1),
    title TEXT NOT NULL CHECK (trim(title) <> ''),
    ruling TEXT NOT NULL CHECK (trim(ruling) <> ''),
    tags TEXT NOT NULL DEFAULT '[]',                  -- JSON list of lowercase words
    note TEXT NOT NULL DEFAULT '',                    -- why it was edited
    edited_at TEXT NOT NULL,
    PRIMARY KEY (precedent_id, version)
) WITHOUT ROWID;
CREATE TRIGGER precedent_versions_in_order BEFORE INSERT ON precedent_versions
WHEN NEW.version <> coalesce((SELECT max(version) FROM precedent_versions WHERE precedent_id = NEW.precedent_id), 0) + 1
BEGIN SELECT RAISE(ABORT, 'precedent versions are numbered 1, 2, 3 ... in order'); END;
CREATE VIRTUAL TABLE precedents_fts USING fts5(title, ruling, tags, tokenize = 'unicode61 remove_diacritics 2');
CREATE TRIGGER precedent_versions_fts AFTER INSERT ON precedent_versions
BEGIN
    DELETE FROM precedents_fts WHERE rowid = NEW.precedent_id;
    INSERT INTO precedents_fts (rowid, title, ruling, tags)
    VALUES (NEW.precedent_id, NEW.title, NEW.ruling, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(NEW.tags)));
END;
"""
    + "".join(append_only(t, "edit a precedent to add a version instead") for t in ("precedents", "precedent_versions"))
)


# The current text of every precedent, one row each: what a Datasette user reads and searches (its metadata
# points ``?_search=`` at precedents_fts, whose rowid is the precedent's id).
RULINGS_VIEW = """CREATE VIEW rulings AS
SELECT p.id AS id, p.date AS date, v.title AS title, v.ruling AS ruling, v.tags AS tags, p.session_id AS session_id,
       p.entry_no AS entry_no, p.players AS players, p.origin AS origin, v.version AS version
FROM precedents p
JOIN precedent_versions v ON v.precedent_id = p.id
 AND v.version = (SELECT max(version) FROM precedent_versions WHERE precedent_id = p.id)
ORDER BY p.date DESC, p.id DESC"""


def m008_rulings_view(db: Database) -> None:
    """Migration: the ``rulings`` view (each precedent's current text), searchable in Datasette."""
    db.execute(RULINGS_VIEW)


def m002_precedents(db: Database) -> None:
    """Migration: the precedents log (runs inside the migration's transaction)."""
    from .sql import _statements

    for stmt in _statements(_SCHEMA):
        db.execute(stmt)


# ---------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Version:
    version: int
    title: str
    ruling: str
    tags: tuple[str, ...]
    note: str
    edited_at: str


class PrecedentItem(TypedDict):
    """One precedent of `precedent list --json` (``session`` and ``deal``: where it was ruled, if at a table)."""

    id: int
    date: str
    title: str
    ruling: str
    tags: list[str]
    session: int | None
    deal: int | None
    players: list[str]
    origin: str


@dataclass(frozen=True)
class Precedent:
    id: int
    uid: str
    date: str
    session_id: int | None
    entry_no: int | None
    entry_id: int | None
    players: tuple[str, ...]
    origin: str
    created_at: str
    title: str
    ruling: str
    tags: tuple[str, ...]
    version: int
    history: tuple[Version, ...] = field(default=())  # every version, oldest first (filled by get())

    def item(self) -> PrecedentItem:
        """The JSON item: every column `precedent list` shows (``origin`` gives its "from" for house rules)."""
        return {
            "id": self.id, "date": self.date, "title": self.title, "ruling": self.ruling, "tags": list(self.tags),
            "session": self.session_id, "deal": self.entry_no, "players": list(self.players), "origin": self.origin,
        }


@dataclass(frozen=True)
class Hit:
    precedent: Precedent
    title: str  # with HL_START/HL_END around the matched words
    ruling: str
    tags: str


# ---------------------------------------------------------------------------
# Checks (before anything is written)


def clean_text(text: str | None, what: str, example: str) -> str:
    t = (text or "").strip()
    if not t:
        raise WiezenError(_('a precedent needs a {what}: it cannot be empty (e.g. {example}); nothing was recorded').format(what=_(what), example=example))
    if HL_START in t or HL_END in t or "\x00" in t:
        raise WiezenError(_('the {what} contains control characters; nothing was recorded').format(what=_(what)))
    return t


def clean_title(title: str | None) -> str:
    t = clean_text(title, N_("title"), "\"Renonce in troef\"")
    if "\n" in t:
        raise WiezenError(_("a precedent's title is one line; put the details in --ruling; nothing was recorded"))
    return t


def clean_ruling(ruling: str | None) -> str:
    return clean_text(ruling, N_("ruling"), "--ruling \"the offender pays the penalty to each other player\"")


def clean_tags(tags: Sequence[str]) -> tuple[str, ...]:
    """Lowercase words; "a, b" gives two tags; spaces inside a tag become hyphens; duplicates go."""
    out: list[str] = []
    for t in tags:
        for part in t.split(","):
            w = "-".join(part.strip().lower().split())
            if w and w not in out:
                out.append(w)
    return tuple(out)


# ---------------------------------------------------------------------------
# Full-text queries


_OPERATORS = {"AND", "OR", "NOT", "NEAR"}


def fts_terms(text: str) -> list[str]:
    """Whatever a person typed, as quoted FTS5 phrases; empty when nothing in it can be searched.

    Every word becomes a quoted phrase (so quotes, apostrophes, hyphens, ``AND``/``OR``/``NOT``/``NEAR(``
    and parentheses are text, never syntax); a phrase in double quotes stays a phrase; a word ending in
    ``*`` is a prefix (``renon*``). The bare words AND, OR, NOT and NEAR are left out when other words are
    given ("renonce AND troef" finds both words), and searched as words when they are all there is.
    """
    terms = _terms(text, keep_operators=False)
    return terms or _terms(text, keep_operators=True)


def _terms(text: str, keep_operators: bool) -> list[str]:
    pieces: list[tuple[str, bool]] = []  # (text, prefix)
    s = text.replace("\x00", " ")
    pos = 0
    for m in re.finditer(r'"([^"]*)("|$)', s):
        pieces += _words(s[pos:m.start()], keep_operators)
        phrase = m.group(1).strip()
        pieces.append((phrase.rstrip("*"), phrase.endswith("*")))
        pos = m.end()
    pieces += _words(s[pos:], keep_operators)
    return [
        '"' + t.replace('"', "") + '"' + ("*" if prefix else "")
        for t, prefix in pieces
        if any(ch.isalnum() for ch in t)
    ]


def fts_query(text: str, any_word: bool = False) -> str | None:
    """A safe FTS5 MATCH expression: all the words (or any of them); None when there is nothing to search."""
    terms = fts_terms(text)
    if not terms:
        return None
    return (" OR " if any_word else " ").join(terms)


def _words(s: str, keep_operators: bool = False) -> list[tuple[str, bool]]:
    out = []
    for w in s.split():
        if not keep_operators and (w in _OPERATORS or w.startswith("NEAR(")):
            w = w[5:] if w.startswith("NEAR(") else ""
        w = w.strip("()")
        out.append((w.rstrip("*"), w.endswith("*")))
    return out


# ---------------------------------------------------------------------------
# Reading


_SELECT = (
    "SELECT p.id, p.uid, p.date, p.session_id, p.entry_no, p.entry_id, p.players, p.origin, p.created_at, "
    "v.title, v.ruling, v.tags, v.version "
    "FROM precedents p JOIN precedent_versions v ON v.precedent_id = p.id "
    "AND v.version = (SELECT max(version) FROM precedent_versions WHERE precedent_id = p.id) "
)


def _row(r: Sequence[Any], history: tuple[Version, ...] = ()) -> Precedent:
    return Precedent(
        id=r[0], uid=r[1], date=r[2], session_id=r[3], entry_no=r[4], entry_id=r[5], players=tuple(json.loads(r[6])),
        origin=r[7], created_at=r[8], title=r[9], ruling=r[10], tags=tuple(json.loads(r[11])), version=r[12],
        history=history,
    )


def get(led: PrecedentLedger, pid: int) -> Precedent:
    r = led.conn.execute(_SELECT + "WHERE p.id = ?", (pid,)).fetchone()
    if r is None:
        raise WiezenError(_('no precedent {pid} (see `wiezen precedent list`)').format(pid=pid))
    history = tuple(
        Version(version=v[0], title=v[1], ruling=v[2], tags=tuple(json.loads(v[3])), note=v[4], edited_at=v[5])
        for v in led.conn.execute(
            "SELECT version, title, ruling, tags, note, edited_at FROM precedent_versions WHERE precedent_id = ? "
            "ORDER BY version",
            (pid,),
        )
    )
    return _row(r, history)


def list_(
    led: PrecedentLedger,
    since: str | None = None,
    until: str | None = None,
    tag: str | None = None,
    player: str | None = None,
    session_id: int | None = None,
) -> list[Precedent]:
    """Precedents, newest first, filtered by date range (inclusive), tag, player involved, session."""
    out = [
        _row(r)
        for r in led.conn.execute(
            _SELECT + "WHERE (? IS NULL OR p.date >= ?) AND (? IS NULL OR p.date <= ?) "
            "AND (? IS NULL OR p.session_id = ?) ORDER BY p.date DESC, p.id DESC",
            (since, since, until, until, session_id, session_id),
        )
    ]
    if tag:
        t = clean_tags([tag])
        out = [p for p in out if set(t) <= set(p.tags)]
    if player:
        w = player.strip().casefold()
        out = [p for p in out if any(n.casefold() == w for n in p.players)]
    return out


def search(led: PrecedentLedger, text: str, limit: int = 50) -> tuple[list[Hit], bool]:
    """Best match first (bm25; a title counts most, then tags, then the ruling).

    Returns (hits, all words?): when no precedent has all the words, those with any of them.
    """
    terms = fts_terms(text)
    if not terms:
        return [], True
    for any_word in (False, True):
        q = (" OR " if any_word else " ").join(terms)
        rows = led.conn.execute(
            "SELECT f.rowid, highlight(precedents_fts, 0, ?, ?), highlight(precedents_fts, 1, ?, ?), "
            "highlight(precedents_fts, 2, ?, ?) FROM precedents_fts f WHERE precedents_fts MATCH ? "
            "ORDER BY bm25(precedents_fts, 10.0, 1.0, 5.0), f.rowid DESC LIMIT ?",
            (HL_START, HL_END) * 3 + (q, limit),
        ).fetchall()
        if rows or len(terms) == 1:
            break
    if not rows:
        return [], True
    by_id = {
        r[0]: _row(r)
        for r in led.conn.execute(
            _SELECT + f"WHERE p.id IN ({','.join('?' * len(rows))})", [r[0] for r in rows]
        )
    }
    return [Hit(by_id[r[0]], r[1], r[2], r[3]) for r in rows if r[0] in by_id], not any_word


def for_session(led: PrecedentLedger, session_id: int) -> dict[int, list[tuple[int, str]]]:
    """Entry number -> [(precedent id, current title)] of the rulings attached to entries of the session."""
    try:
        rows = led.conn.execute(
            _SELECT + "WHERE p.session_id = ? AND p.entry_no IS NOT NULL ORDER BY p.id", (session_id,)
        ).fetchall()
    except sqlite3.OperationalError:  # a ledger from before the precedents log
        return {}
    out: dict[int, list[tuple[int, str]]] = {}
    for r in rows:
        out.setdefault(r[4], []).append((r[0], r[9]))
    return out


def linked_entry(led: PrecedentLedger, p: Precedent) -> tuple[SessionInfo | None, EntryRow | None, EntryRow | None]:
    """The session a precedent arose from, the entry row as it was scored then, and the row that counts now."""
    if p.session_id is None:
        return None, None, None
    s = led.session(p.session_id)
    if p.entry_no is None:
        return s, None, None
    rows = [r for r in led.entries(s) if r.no == p.entry_no]
    then = next((r for r in rows if r.id == p.entry_id), None)
    now_ = next((r for r in rows if not r.voided), None)
    return s, then or now_, now_


# ---------------------------------------------------------------------------
# Writing


def _resolve_players(led: PrecedentLedger, names: Sequence[str], s: SessionInfo | None) -> tuple[str, ...]:
    from ..core.deal import resolve_player

    out: list[str] = []
    for n in names:
        for part in n.split(","):
            part = part.strip()
            if not part:
                continue
            if s is not None:
                name = resolve_player(part, s.players)
            else:
                row = led.conn.execute("SELECT name FROM players WHERE name = ?", (part,)).fetchone()
                if row is None:
                    raise WiezenError(
                        _("no player '{part}' in the ledger; name players who played a session, or link the precedent to one with --session").format(part=part)
                    )
                name = str(row[0])
            if name not in out:
                out.append(name)
    return tuple(out)


def add(
    led: PrecedentLedger,
    title: str,
    ruling: str,
    *,
    date: str,
    tags: Sequence[str] = (),
    session_id: int | None = None,
    entry_no: int | None = None,
    players: Sequence[str] = (),
    origin: str = "ruling",
    in_tx: bool = False,
) -> int:
    """Record a precedent; returns its id. Everything is checked before anything is written."""
    title, ruling, tag_t = clean_title(title), clean_ruling(ruling), clean_tags(tags)
    if origin not in ORIGINS:
        raise ValueError(origin)
    if in_tx:
        return _add(led, title, ruling, date, tag_t, session_id, entry_no, players, origin)
    with led.write():
        return _add(led, title, ruling, date, tag_t, session_id, entry_no, players, origin)


def _add(
    led: PrecedentLedger, title: str, ruling: str, date: str, tags: tuple[str, ...], session_id: int | None,
    entry_no: int | None, players: Sequence[str], origin: str,
) -> int:
    from .rows import insert_precedent, insert_precedent_version, new_uid, now

    s = None
    entry_id = None
    if entry_no is not None or session_id is not None:
        s = led.session(session_id)  # --deal alone: the open session, else the newest
        session_id = s.id
    if entry_no is not None:
        assert s is not None
        rows = [r for r in led.entries(s) if r.no == entry_no]
        if not rows:
            raise WiezenError(_('no entry {entry_no} in session {id} (see `wiezen sheet --session {id}`)').format(entry_no=entry_no, id=s.id))
        entry_id = next((r.id for r in rows if not r.voided), rows[-1].id)
    names = _resolve_players(led, players, s)
    ts = now()
    pid = insert_precedent(
        led.conn, uid=new_uid(), date=date, session_id=session_id, entry_no=entry_no, entry_id=entry_id,
        players=names, origin=origin, created_at=ts,
    )
    insert_precedent_version(led.conn, pid, 1, title, ruling, tags, "", ts)
    return pid


def edit(
    led: PrecedentLedger,
    pid: int,
    title: str | None = None,
    ruling: str | None = None,
    tags: Sequence[str] | None = None,
    note: str = "",
) -> tuple[int, int]:
    """A new version of precedent ``pid`` (the earlier text stays). Returns (id, new version number)."""
    from .rows import insert_precedent_version, now

    new_title = clean_title(title) if title is not None else None
    new_ruling = clean_ruling(ruling) if ruling is not None else None
    new_tags = clean_tags(tags) if tags is not None else None
    with led.write() as c:
        cur = get(led, pid)
        t = new_title if new_title is not None else cur.title
        r = new_ruling if new_ruling is not None else cur.ruling
        g = new_tags if new_tags is not None else cur.tags
        if (t, r, g) == (cur.title, cur.ruling, cur.tags):
            raise WiezenError(_('precedent {pid} already reads like that: nothing changed, nothing was recorded').format(pid=pid))
        version = cur.version + 1
        insert_precedent_version(c, pid, version, t, r, g, note.strip(), now())
    return pid, version


def rules_changed(led: PrecedentLedger, name: str, old: str, new: str, reason: str | None, date: str) -> int | None:
    """The automatic precedent for replaced house rules (inside the `rules add` transaction).

    None when the values are the same (only comments or layout changed).
    """
    from ..core.rulediff import diff_rules
    from ..core.rules import parse_rules

    new_rules = parse_rules(new, _("house rules '{name}'").format(name=name))
    try:
        old_rules = parse_rules(old, _("house rules '{name}' (before)").format(name=name))
        changes = diff_rules(old_rules, new_rules)
    except WiezenError:
        changes = ["the earlier version no longer reads as valid house rules; replaced as a whole"]
    if not changes:
        return None
    ruling = "; ".join(changes)
    if reason and reason.strip():
        ruling += f". Reason: {reason.strip()}"
    return add(
        led, f"House rules '{name}' changed", ruling, date=date, tags=["house-rules", name], origin="house-rules",
        in_tx=True,
    )
