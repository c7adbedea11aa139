"""Export: the selected sessions of a ledger (and its precedents) as a wiezen export document (JSON).

Export writes every selected session with its house-rules snapshot, its players in seat order, every entry
(voided ones too, with their void) and, when the precedents log exists, the precedents. An import reads such a
document, or another wiezen ledger as one (:func:`import_source`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import _
from .standings import _num

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from .people import FactDoc


class ExportVoid(TypedDict):
    action: str  # "undo" or "amend"
    by: str | None  # amend: the uid of the entry that replaced the voided one
    reason: str
    created_at: str


class ExportEntry(TypedDict):
    """One entry of an exported session, voided ones too; players by name, entries by uid."""

    uid: str
    no: int
    kind: str
    text: str
    contract: str | None
    dealer: int
    multiplier: int
    offender: str | None
    round: bool
    deal_no: int | None
    reason: str
    next_dealer: int
    next_multiplier: int
    replaces: str | None
    created_at: str
    points: dict[str, int | float]
    takers: dict[str, bool]
    void: ExportVoid | None


class ExportSeal(TypedDict):
    n: int | None  # (None, as null, only where the ledger's chain lost its seal row: `wiezen check` says so)
    seal: str
    sealed_at: str | None


class _ExportSessionFields(TypedDict):
    uid: str
    name: str
    date: str
    rules_name: str
    rules_toml: str
    first_dealer: int
    started_at: str
    ended_at: str | None
    source_hash: str | None
    players: list[str]
    entries: list[ExportEntry]


class ExportSessionVoid(TypedDict):
    reason: str
    at: str


class ExportSession(_ExportSessionFields, total=False):
    """One session of an export document; the keys below only when they apply."""

    plan: str  # the evening's length, when one was given
    tag: str  # a competition's label, round and table
    round: int
    table: int | str  # its number or its label
    history: list[list[str | int | None]]  # ["entry", uid], ["void", uid], ["seal", n] in recorded order
    seals: list[ExportSeal]
    void: ExportSessionVoid  # a session taken out of every count (`session void`)


EXPORT_FORMAT = "wiezen-export"
EXPORT_VERSION = 2  # 2: each session's history in recorded order and its seals



class ExportPrecedentVersion(TypedDict):
    version: int
    title: str
    ruling: str
    tags: list[str]
    note: str
    edited_at: str


class ExportPrecedent(TypedDict):
    """One precedent of an export document with every version of its text; session and entry by uid."""

    uid: str
    date: str
    session: str | None
    entry_no: int | None
    entry: str | None
    players: list[str]
    origin: str
    created_at: str
    versions: list[ExportPrecedentVersion]


class ExportSelection(TypedDict):
    since: str | None
    until: str | None
    session: int | None


class _ExportHeader(TypedDict):
    format: str
    version: int
    generator: str
    selection: ExportSelection


class ExportDoc(_ExportHeader, total=False):
    """The export document: the header, then the sessions (from a ledger: read one at a time) and the precedents."""

    sessions: Iterable[ExportSession]
    precedents: list[ExportPrecedent]
    player_facts: list[FactDoc]  # players rename|merge|split (ledger/people.py)

def has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)).fetchone() is not None


_SESSION_BASE = "s.id, s.uid, s.name, s.date, s.rules_name, s.rules_toml, s.first_dealer, s.started_at, s.ended_at, s.source_hash"


def _session_cols(conn: sqlite3.Connection) -> str:
    """The sessions columns an export reads; a ledger of an older schema (read as an import's source) has no
    competition columns (tag, round, table): NULL for those."""
    has_tag = any(r[1] == "tag" for r in conn.execute("PRAGMA table_info(sessions)"))
    return _SESSION_BASE + (", s.tag, s.round, s.table_no" if has_tag else ", NULL, NULL, NULL")


def _selected(
    conn: sqlite3.Connection, since: str | None, until: str | None, session_id: int | None
) -> list[tuple[Any, ...]]:
    """The session rows of a selection, oldest first."""
    # only the conditions that apply, so that SQLite uses the indexes (an "x IS NULL OR ..." defeats them)
    where = ["1"]
    if since is not None:
        where.append("s.date >= :since")
    if until is not None:
        where.append("s.date <= :until")
    if session_id is not None:
        where.append("s.id = :sid")
    rows = conn.execute(
        f"SELECT {_session_cols(conn)} FROM sessions s WHERE {' AND '.join(where)} ORDER BY s.date, s.id",
        {"since": since, "until": until, "sid": session_id},
    ).fetchall()
    if session_id is not None and not rows:
        raise WiezenError(_('no session {session_id} (see `wiezen sessions`)').format(session_id=session_id))
    return rows


def _session_doc(conn: sqlite3.Connection, r: Sequence[Any]) -> ExportSession:
    """One session of the export document, from its row in ``sessions`` (three indexed reads)."""
    sid = r[0]
    players = [n for (n,) in conn.execute(
        # the seats it started with: who joined later comes in with his join entry
        "SELECT p.name FROM seats st JOIN players p ON p.id = st.player_id WHERE st.session_id = ? AND st.seat < 100 "
        "ORDER BY st.seat",
        (sid,),
    )]  # fmt: skip
    points: dict[int, dict[str, int | float]] = {}
    takers: dict[int, dict[str, bool]] = {}
    for eid, name, v, taker, made in conn.execute(
        "SELECT ep.entry_id, p.name, ep.points, ep.taker, ep.made FROM entries e "
        "JOIN entry_points ep ON ep.entry_id = e.id JOIN players p ON p.id = ep.player_id "
        "LEFT JOIN seats st ON st.session_id = e.session_id AND st.player_id = ep.player_id "
        "WHERE e.session_id = ? ORDER BY e.id, st.seat",
        (sid,),
    ):
        points.setdefault(eid, {})[name] = _num(v) or 0
        if taker:
            takers.setdefault(eid, {})[name] = bool(made)
    entries: list[ExportEntry] = [
        {
            "uid": e[1], "no": e[2], "kind": e[3], "text": e[4], "contract": e[5], "dealer": e[6], "multiplier": e[7],
            "offender": e[8], "round": bool(e[9]), "deal_no": e[10], "reason": e[11], "next_dealer": e[12],
            "next_multiplier": e[13], "replaces": e[14], "created_at": e[15],
            "points": points.get(e[0], {}), "takers": takers.get(e[0], {}),
            "void": None if e[16] is None else {"action": e[16], "by": e[17], "reason": e[18], "created_at": e[19]},
        }
        for e in conn.execute(
            "SELECT e.id, e.uid, e.no, e.kind, e.text, e.contract, e.dealer, e.multiplier, o.name, e.round, e.deal_no, "
            "e.reason, e.next_dealer, e.next_multiplier, r.uid, e.created_at, v.action, b.uid, v.reason, v.created_at "
            "FROM entries e LEFT JOIN players o ON o.id = e.offender_id LEFT JOIN entries r ON r.id = e.replaces "
            "LEFT JOIN voids v ON v.entry_id = e.id LEFT JOIN entries b ON b.id = v.by_entry "
            "WHERE e.session_id = ? ORDER BY e.id",
            (sid,),
        )
    ]  # fmt: skip
    out: ExportSession = {
        "uid": r[1], "name": r[2], "date": r[3], "rules_name": r[4], "rules_toml": r[5], "first_dealer": r[6],
        "started_at": r[7], "ended_at": r[8], "source_hash": r[9], "players": players, "entries": entries,
    }  # fmt: skip
    if any(c[1] == "plan" for c in conn.execute("PRAGMA table_info(sessions)")):
        plan = conn.execute("SELECT plan FROM sessions WHERE id = ?", (r[0],)).fetchone()[0]
        if plan:
            out["plan"] = plan  # the evening's length, only when one was given
    if r[10] is not None:  # competitions (only when set)
        out["tag"] = r[10]
    if r[11] is not None:
        out["round"] = r[11]
    if r[12] is not None:
        out["table"] = r[12]
    if has_table(conn, "chain"):
        out["history"], out["seals"] = _history(conn, sid)
    if has_table(conn, "session_voids"):
        void = conn.execute("SELECT reason, voided_at FROM session_voids WHERE session_id = ?", (sid,)).fetchone()
        if void is not None:
            out["void"] = {"reason": void[0], "at": void[1]}
    return out


def _history(conn: sqlite3.Connection, sid: int) -> tuple[list[list[str | int | None]], list[ExportSeal]]:
    """The session's facts in the order they were recorded (["entry", uid], ["void", uid of the voided entry],
    ["seal", n]) and its seals: an import records them in the same order, so the seals are the same there."""
    from .seals import seal_code

    uids = {i: u for i, u in conn.execute("SELECT id, uid FROM entries WHERE session_id = ?", (sid,))}
    ns = {i: n for i, n in conn.execute("SELECT id, n FROM seals WHERE session_id = ?", (sid,))}
    history: list[list[str | int | None]] = []
    sealed: list[tuple[int | None, str]] = []
    for kind, rid, shash in conn.execute(
        "SELECT kind, rid, shash FROM chain WHERE session_id = ? AND kind <> 'session' ORDER BY seq", (sid,)
    ):
        if kind in ("entry", "void"):
            history.append([kind, uids.get(rid)])
        elif kind == "seal":
            history.append(["seal", ns.get(rid)])
            sealed.append((ns.get(rid), seal_code(shash)))
    at = {n: a for n, a in conn.execute("SELECT n, sealed_at FROM seals WHERE session_id = ?", (sid,))}
    return history, [{"n": n, "seal": code, "sealed_at": at.get(n)} for n, code in sealed]


def _has_precedents(conn: sqlite3.Connection) -> bool:
    return has_table(conn, "precedents") and has_table(conn, "precedent_versions")


def _header(since: str | None, until: str | None, session_id: int | None, generator: str) -> ExportDoc:
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "generator": generator,
        "selection": {"since": since, "until": until, "session": session_id},
    }


def export_doc(
    conn: sqlite3.Connection,
    since: str | None = None,
    until: str | None = None,
    session_id: int | None = None,
    generator: str = "",
) -> ExportDoc:
    """The export document (see the README's "Club" section) for the selected sessions, in memory."""
    rows = _selected(conn, since, until, session_id)
    doc = _header(since, until, session_id, generator)
    doc["sessions"] = [_session_doc(conn, r) for r in rows]
    if _has_precedents(conn):
        doc["precedents"] = _export_precedents(conn, [r[1] for r in rows], session_id, since, until)
    _add_player_facts(conn, doc)
    return doc


def _add_player_facts(conn: sqlite3.Connection, doc: ExportDoc) -> None:
    """The facts about players (rename, merge, split: ledger/people.py), all of them, when there are any."""
    from .people import facts

    found = facts(conn)
    if found:
        doc["player_facts"] = found


def write_export(
    conn: sqlite3.Connection,
    out: SupportsWrite[str],
    since: str | None = None,
    until: str | None = None,
    session_id: int | None = None,
    generator: str = "",
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Write the export document to the text stream ``out`` one session at a time (memory stays small however
    long the history). The same JSON as :func:`export_doc`. Returns the number of sessions written."""
    import json

    rows = _selected(conn, since, until, session_id)

    def dump(value: object, indent: str) -> str:
        from ..core.safe import safe_json

        return safe_json(json.dumps(value, ensure_ascii=False, indent=1)).replace("\n", "\n" + indent)

    out.write("{\n")
    for k, v in _header(since, until, session_id, generator).items():
        out.write(f" {json.dumps(k)}: {dump(v, ' ')},\n")
    out.write(' "sessions": [')
    for i, r in enumerate(rows):
        out.write(("," if i else "") + "\n  " + dump(_session_doc(conn, r), "  "))
        if progress is not None:
            progress(i + 1, len(rows))
    out.write("\n ]" if rows else "]")
    if _has_precedents(conn):
        out.write(',\n "precedents": ' + dump(_export_precedents(conn, [r[1] for r in rows], session_id, since, until), " "))
    from .people import facts

    found = facts(conn)  # (the facts about players, when there are any)
    if found:
        out.write(',\n "player_facts": ' + dump(found, " "))
    out.write("\n}\n")
    return len(rows)


def _export_precedents(
    conn: sqlite3.Connection, session_uids: list[str], session_id: int | None, since: str | None, until: str | None
) -> list[ExportPrecedent]:
    """The precedents log with every version of its text; session and entry named by their uids.

    With ``--session``: the precedents of that session. With a date range: those of the exported sessions and
    those without a session dated in the range. Otherwise all of them.
    """
    import json

    wanted = set(session_uids)
    versions: dict[int, list[ExportPrecedentVersion]] = {}
    for pid, version, title, ruling, tags, note, edited_at in conn.execute(
        "SELECT precedent_id, version, title, ruling, tags, note, edited_at FROM precedent_versions "
        "ORDER BY precedent_id, version"
    ):
        versions.setdefault(pid, []).append({
            "version": version, "title": title, "ruling": ruling, "tags": json.loads(tags), "note": note,
            "edited_at": edited_at,
        })  # fmt: skip
    out: list[ExportPrecedent] = []
    for pid, uid, date, s_uid, entry_no, e_uid, players, origin, created_at in conn.execute(
        "SELECT p.id, p.uid, p.date, s.uid, p.entry_no, e.uid, p.players, p.origin, p.created_at FROM precedents p "
        "LEFT JOIN sessions s ON s.id = p.session_id LEFT JOIN entries e ON e.id = p.entry_id ORDER BY p.id"
    ):
        if s_uid is not None:
            if (session_id is not None or since or until) and s_uid not in wanted:
                continue
        elif session_id is not None or (since and date < since) or (until and date > until):
            continue
        out.append({
            "uid": uid, "date": date, "session": s_uid, "entry_no": entry_no, "entry": e_uid,
            "players": json.loads(players), "origin": origin, "created_at": created_at,
            "versions": versions.get(pid, []),
        })  # fmt: skip
    return out


@contextmanager
def import_source(path: str) -> Iterator[tuple[Mapping[str, Any], str]]:
    """The export document in ``path``: a JSON export, or another wiezen ledger opened read-only.

    Yields the document and what it was (``"file"`` or ``"ledger"``). A ledger's sessions are read one at a
    time, inside one read transaction (a consistent snapshot, however long the history), while the caller
    imports them.
    """

    from .connection import APP_ID, db_error
    from .migrations import SCHEMA_VERSION

    if not os.path.exists(path):
        raise WiezenError(_("'{path}' does not exist").format(path=path))
    if os.path.isdir(path):
        raise WiezenError(_("'{path}' is a folder, not a file").format(path=path))
    try:
        with open(path, "rb") as f:
            head = f.read(16)
    except OSError as e:
        raise WiezenError(_("cannot read '{path}': {strerror}").format(path=path, strerror=e.strerror)) from None
    if head != b"SQLite format 3\x00":
        from ..core.text import parse_json

        try:
            with open(path, encoding="utf-8-sig") as f:
                text = f.read()
        except UnicodeDecodeError:
            raise WiezenError(_("'{path}' is neither a wiezen export (JSON) nor a wiezen ledger").format(path=path)) from None
        except OSError as e:
            raise WiezenError(_("cannot read '{path}': {strerror}").format(path=path, strerror=e.strerror)) from None
        doc = parse_json(text, f"'{path}'")
        yield doc, "file"
        return
    try:
        conn = sqlite3.connect(f"file:{os.path.abspath(path)}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as e:
        raise db_error(e, path) from None
    try:
        conn.execute("BEGIN")  # one snapshot for every read below
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app != APP_ID or version < 1:
            raise WiezenError(_("'{path}' is an SQLite database, but not a wiezen ledger").format(path=path))
        if version > SCHEMA_VERSION:
            raise WiezenError(
                _("'{path}' was written by a newer wiezen (schema {version}, this one knows {schema}): upgrade wiezen").format(path=path, version=version, schema=SCHEMA_VERSION)
            )
        from .. import __version__

        rows = _selected(conn, None, None, None)
        doc = _header(None, None, None, f"wiezen {__version__}")
        doc["sessions"] = (_session_doc(conn, r) for r in rows)
        if _has_precedents(conn):
            doc["precedents"] = _export_precedents(conn, [r[1] for r in rows], None, None, None)
        _add_player_facts(conn, doc)
        yield doc, "ledger"
    except sqlite3.Error as e:
        raise db_error(e, path) from None
    finally:
        conn.close()
