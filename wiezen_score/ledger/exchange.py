"""Export and import (merge): sessions as a JSON document, and another ledger or export merged into this one.

Export writes every selected session with its house-rules snapshot, its players in seat order, every entry
(voided ones too, with their void) and, when the precedents log exists, the precedents. Import merges
such a document, or another wiezen ledger, into this one in one write transaction: rows are matched by their
stable ``uid``, so the same data twice adds nothing, and any row whose uid is known here with other content is
a conflict that refuses the whole import.

History only grows: an import may add sessions, entries, voids and the end of a session that was still open
here; it never changes or removes anything that is already recorded.
"""

from __future__ import annotations

import math
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from collections.abc import Iterator
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..core.errors import WiezenError
from .rows import (
    COUNTS, NewEntry, end_session_row, half_points, insert_precedent, insert_precedent_version,
    insert_seal, insert_session, insert_void,
)
from .bulk import insert_entries
from .standings import _num
from ..core.i18n import _, ngettext

EXPORT_FORMAT = "wiezen-export"
EXPORT_VERSION = 2  # 2: each session's history in recorded order and its seals

# ------------------------------------------------------------------------------------------------- export


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


def _session_doc(conn: sqlite3.Connection, r: Sequence[Any]) -> dict[str, Any]:
    """One session of the export document, from its row in ``sessions`` (three indexed reads)."""
    sid = r[0]
    players = [n for (n,) in conn.execute(
        "SELECT p.name FROM seats st JOIN players p ON p.id = st.player_id WHERE st.session_id = ? ORDER BY st.seat",
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
    entries = [
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
    out = {
        "uid": r[1], "name": r[2], "date": r[3], "rules_name": r[4], "rules_toml": r[5], "first_dealer": r[6],
        "started_at": r[7], "ended_at": r[8], "source_hash": r[9], "players": players, "entries": entries,
    }  # fmt: skip
    if any(c[1] == "plan" for c in conn.execute("PRAGMA table_info(sessions)")):
        plan = conn.execute("SELECT plan FROM sessions WHERE id = ?", (r[0],)).fetchone()[0]
        if plan:
            out["plan"] = plan  # the evening's length, only when one was given
    for k, v in (("tag", r[10]), ("round", r[11]), ("table", r[12])):  # competitions (only when set)
        if v is not None:
            out[k] = v
    if has_table(conn, "chain"):
        out["history"], out["seals"] = _history(conn, sid)
    return out


def _history(conn: sqlite3.Connection, sid: int) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """The session's facts in the order they were recorded (["entry", uid], ["void", uid of the voided entry],
    ["seal", n]) and its seals: an import records them in the same order, so the seals are the same there."""
    from .seals import seal_code

    uids = {i: u for i, u in conn.execute("SELECT id, uid FROM entries WHERE session_id = ?", (sid,))}
    ns = {i: n for i, n in conn.execute("SELECT id, n FROM seals WHERE session_id = ?", (sid,))}
    history: list[list[Any]] = []
    seals: list[dict[str, Any]] = []
    for kind, rid, shash in conn.execute(
        "SELECT kind, rid, shash FROM chain WHERE session_id = ? AND kind <> 'session' ORDER BY seq", (sid,)
    ):
        if kind in ("entry", "void"):
            history.append([kind, uids.get(rid)])
        elif kind == "seal":
            history.append(["seal", ns.get(rid)])
            seals.append({"n": ns.get(rid), "seal": seal_code(shash)})
    at = {n: a for n, a in conn.execute("SELECT n, sealed_at FROM seals WHERE session_id = ?", (sid,))}
    for x in seals:
        x["sealed_at"] = at.get(x["n"])
    return history, seals


def _has_precedents(conn: sqlite3.Connection) -> bool:
    return has_table(conn, "precedents") and has_table(conn, "precedent_versions")


def _header(since: str | None, until: str | None, session_id: int | None, generator: str) -> dict[str, Any]:
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
) -> dict[str, Any]:
    """The export document (see the README's "Club" section) for the selected sessions, in memory."""
    rows = _selected(conn, since, until, session_id)
    doc = _header(since, until, session_id, generator)
    doc["sessions"] = [_session_doc(conn, r) for r in rows]
    if _has_precedents(conn):
        doc["precedents"] = _export_precedents(conn, [r[1] for r in rows], session_id, since, until)
    return doc


def write_export(
    conn: sqlite3.Connection,
    out: Any,
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

    def dump(value: Any, indent: str) -> str:
        from ..views.safe import safe_json

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
    out.write("\n}\n")
    return len(rows)


def _export_precedents(
    conn: sqlite3.Connection, session_uids: list[str], session_id: int | None, since: str | None, until: str | None
) -> list[dict[str, Any]]:
    """The precedents log with every version of its text; session and entry named by their uids.

    With ``--session``: the precedents of that session. With a date range: those of the exported sessions and
    those without a session dated in the range. Otherwise all of them.
    """
    import json

    wanted = set(session_uids)
    versions: dict[int, list[dict[str, Any]]] = {}
    for pid, version, title, ruling, tags, note, edited_at in conn.execute(
        "SELECT precedent_id, version, title, ruling, tags, note, edited_at FROM precedent_versions "
        "ORDER BY precedent_id, version"
    ):
        versions.setdefault(pid, []).append({
            "version": version, "title": title, "ruling": ruling, "tags": json.loads(tags), "note": note,
            "edited_at": edited_at,
        })  # fmt: skip
    out = []
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


# ------------------------------------------------------------------------------------------------- import

_KINDS = ("deal", "pass", "redeal", "penalty")
_SESSION_KEYS = ("uid", "name", "date", "rules_name", "rules_toml", "first_dealer", "started_at", "ended_at",
                 "source_hash", "players", "entries")  # fmt: skip
_PRECEDENT_KEYS = ("uid", "date", "session", "entry_no", "entry", "players", "origin", "created_at", "versions")
_ENTRY_FIELDS = ("no", "kind", "text", "contract", "dealer", "multiplier", "offender", "round", "deal_no", "reason",
                 "next_dealer", "next_multiplier", "replaces", "created_at", "points", "takers")  # fmt: skip


@dataclass
class ImportReport:
    sessions: int = 0  # sessions added
    entries: int = 0  # entries added (to new and known sessions)
    voids: int = 0  # undo/amend voids added (to new entries and to entries already here)
    ended: int = 0  # sessions open here that the import closed
    precedents: int = 0
    precedents_skipped: bool = False  # the file has precedents, but this ledger has no precedents log
    unchanged: int = 0  # sessions already here in full
    session_ids: list[int] = field(default_factory=list)

    @property
    def added_anything(self) -> bool:
        return bool(self.sessions or self.entries or self.voids or self.ended or self.precedents)

    def as_dict(self) -> dict[str, Any]:
        return {
            "sessions_added": self.sessions, "entries_added": self.entries, "voids_added": self.voids,
            "sessions_ended": self.ended, "precedents_added": self.precedents, "sessions_unchanged": self.unchanged,
            "session_ids": self.session_ids,
        }  # fmt: skip


class _Bad(Exception):
    pass


def _need(cond: bool, where: str, what: Callable[[], str]) -> None:
    """Raise :class:`_Bad` unless ``cond``; ``what`` makes the message only then (a 20,000-entry file is checked
    field by field: its messages are not translated and formatted 25 times an entry in vain)."""
    if not cond:
        text = what()
        raise _Bad(f"{where} {text}" if where == _("the file") else f"{where}: {text}")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return True  # (math.isfinite of an int too large for a float raises OverflowError)
    return isinstance(v, float) and math.isfinite(v)


def _adds_to_zero(values: Iterable[Any]) -> bool:
    """The points (ints, finite floats) sum to 0, exactly (math.fsum); past what a float holds, or when the sum
    overflows on the way (1e308 + 1e308 - ...), as fractions. (Such points are refused later all the same, with
    the most a deal can give: rows.half_points.)"""
    values = list(values)
    try:
        return math.fsum(map(float, values)) == 0
    except OverflowError:
        from fractions import Fraction

        return sum(map(Fraction, values)) == 0


def _opt_str(v: Any) -> bool:
    return v is None or isinstance(v, str)


def validate_header(doc: Any) -> None:
    """Check an export document's top level (its sessions are checked one by one, see :func:`check_session`)."""
    try:
        _need(isinstance(doc, dict), _("the file"), lambda: _("is not a wiezen export (a JSON object was expected)"))
        _need(doc.get("format") == EXPORT_FORMAT, _("the file"), lambda: _('is not a wiezen export (no "format": "{export_format}")').format(export_format=EXPORT_FORMAT))
        version = doc.get("version")
        _need(_is_int(version), _("the file"), lambda: _('"version" must be a whole number'))
        _need(version <= EXPORT_VERSION, _("the file"),
              lambda: _('was exported by a newer wiezen (format version {version}; this one reads up to {export_version}): upgrade wiezen').format(version=version, export_version=EXPORT_VERSION))
        sessions = doc.get("sessions")
        _need(isinstance(sessions, (list, Iterator)), _("the file"), lambda: _('"sessions" must be a list'))
        precs = doc.get("precedents")
        _need(precs is None or isinstance(precs, list), _("the file"), lambda: _('"precedents" must be a list'))
    except _Bad as bad:
        raise WiezenError(_('cannot import: {bad}').format(bad=bad)) from None


_ENTRY_KEYS = frozenset(("uid", *_ENTRY_FIELDS, "void"))
_BIG = 2**40
_EXACT = 2**53  # an int a float holds exactly: the sum of such points is the sum check_session makes


def _entry_fits(e: Any, n: int, seated: Mapping[str, str], seen: set[str], here: set[str]) -> bool:
    """True only when the entry ``e`` passes every check :func:`check_session` makes of an entry: the quick way,
    without naming what is wrong (a 20,000-entry file is checked entry by entry). False says nothing: the
    entry then goes through the checks one by one, which name the first problem (or find none)."""
    if type(e) is not dict or not _ENTRY_KEYS <= e.keys():
        return False
    uid, kind, pts, tk, v = e["uid"], e["kind"], e["points"], e["takers"], e["void"]
    offender, replaces, deal_no = e["offender"], e["replaces"], e["deal_no"]
    if not (
        type(uid) is str and uid and uid not in seen
        and type(kind) is str and kind in _KINDS
        and all(type(x) is int and 1 <= x <= _BIG for x in (e["no"], e["multiplier"], e["next_multiplier"]))
        and all(type(x) is int and 0 <= x < n for x in (e["dealer"], e["next_dealer"]))
        and (deal_no is None or (type(deal_no) is int and 1 <= deal_no <= _BIG))
        and type(e["round"]) is bool
        and type(e["text"]) is str and type(e["reason"]) is str and type(e["created_at"]) is str
        and (e["contract"] is None or type(e["contract"]) is str)
        and (offender is None or (type(offender) is str and offender.casefold() in seated))
        and (replaces is None or (type(replaces) is str and replaces in here))
        and type(pts) is dict and type(tk) is dict
    ):
        return False
    values = pts.values()
    if not all((type(x) is int and -_EXACT <= x <= _EXACT) or (type(x) is float and math.isfinite(x)) for x in values):
        return False
    folded = {p.casefold() for p in pts if type(p) is str}
    if len(folded) != len(pts) or not folded <= seated.keys() or not _adds_to_zero(values):
        return False
    if not all(type(x) is bool for x in tk.values()) or not tk.keys() <= pts.keys():
        return False
    if v is None:
        return True
    if type(v) is not dict:
        return False
    action, by = v.get("action"), v.get("by")
    return (
        "by" in v and action in ("undo", "amend") and (by is None or type(by) is str) and (action == "amend") == (by is not None)
        and type(v.get("reason")) is str and type(v.get("created_at")) is str
    )


def check_session(s: Any, i: int, seen_sessions: set[str], seen_entries: set[str]) -> None:
    """Check the shape of the ``i``-th session of an export document; raises WiezenError naming the bad part."""
    from ..core.dates import parse_date
    from .rows import _rules_cache
    from .store import check_player_names

    try:
        w = f"sessions[{i}]"
        _need(isinstance(s, dict), w, lambda: _("must be an object"))
        missing = [k for k in _SESSION_KEYS if k not in s]
        _need(not missing, w, lambda: _('lacks {missing}').format(missing=', '.join(missing)))
        _need(isinstance(s["uid"], str) and s["uid"] != "", w, lambda: _('"uid" must be a non-empty text'))
        _need(s["uid"] not in seen_sessions, w, lambda: _('uid {uid} appears twice in the file').format(uid=s['uid']))
        seen_sessions.add(s["uid"])
        w = _("session {uid}").format(uid=s["uid"])
        for k in ("name", "date", "rules_name", "rules_toml", "started_at"):
            _need(isinstance(s[k], str), w, lambda: _('"{k}" must be text').format(k=k))
        for k in ("ended_at", "source_hash"):
            _need(_opt_str(s[k]), w, lambda: _('"{k}" must be text or null').format(k=k))
        if s.get("plan") is not None:
            from ..core.evening import parse_plan

            _need(isinstance(s["plan"], str), w, lambda: _('"plan" must be text or null'))
            try:
                parse_plan(s["plan"])
            except WiezenError as err:
                raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        from ..core.sessionfile import TAG_RE, MAX_ROUND

        _need(s.get("tag") is None or (isinstance(s["tag"], str) and bool(TAG_RE.match(s["tag"]))), w,
              lambda: _('"tag" must be one word (letters, digits, -, ., _) or null'))
        for k in ("round", "table"):
            _need(s.get(k) is None or (_is_int(s[k]) and 1 <= s[k] <= MAX_ROUND), w, lambda: _('"{k}" must be 1 to {max_round} or null').format(k=k, max_round=MAX_ROUND))
        try:
            _need(parse_date(s["date"]).isoformat() == s["date"], w, lambda: _('bad date {date}').format(date=repr(s['date'])))
            _rules_cache(s["rules_toml"], s["rules_name"])
        except WiezenError as err:
            raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        players = s["players"]
        _need(isinstance(players, list) and all(isinstance(p, str) for p in players), w, lambda: _('"players" must be a list of names'))
        try:
            check_player_names(players)
        except WiezenError as err:
            raise _Bad(_('{w}: {error}').format(w=w, error=err)) from None
        n = len(players)
        _need(_is_int(s["first_dealer"]) and 0 <= s["first_dealer"] < n, w, lambda: _('"first_dealer" must be a seat number'))
        seated = {p.casefold(): p for p in players}
        _need(isinstance(s["entries"], list), w, lambda: _('"entries" must be a list'))
        uids_here: set[str] = set()
        for j, e in enumerate(s["entries"]):
            if _entry_fits(e, n, seated, seen_entries, uids_here):
                seen_entries.add(e["uid"])
                uids_here.add(e["uid"])
                continue
            we = f"{w}, entries[{j}]"
            _need(isinstance(e, dict), we, lambda: _("must be an object"))
            missing = [k for k in ("uid", *_ENTRY_FIELDS, "void") if k not in e]
            _need(not missing, we, lambda: _('lacks {missing}').format(missing=', '.join(missing)))
            _need(isinstance(e["uid"], str) and e["uid"] != "", we, lambda: _('"uid" must be a non-empty text'))
            _need(e["uid"] not in seen_entries, we, lambda: _('uid {uid} appears twice in the file').format(uid=e['uid']))
            seen_entries.add(e["uid"])
            we = _("{session}, entry {uid}").format(session=w, uid=e["uid"])
            _need(e["kind"] in _KINDS, we, lambda: _('kind must be one of {kinds}').format(kinds=', '.join(_KINDS)))
            for k in ("no", "multiplier", "next_multiplier"):
                _need(_is_int(e[k]) and 1 <= e[k] <= 2**40, we, lambda: _('"{k}" must be a whole number from 1 to {value}').format(k=k, value=2**40))
            for k in ("dealer", "next_dealer"):
                _need(_is_int(e[k]) and 0 <= e[k] < n, we, lambda: _('"{k}" must be a seat number').format(k=k))
            _need(e["deal_no"] is None or (_is_int(e["deal_no"]) and 1 <= e["deal_no"] <= 2**40), we,
                  lambda: _('"deal_no" must be an entry number or null'))
            _need(isinstance(e["round"], bool), we, lambda: _('"round" must be true or false'))
            for k in ("text", "reason", "created_at"):
                _need(isinstance(e[k], str), we, lambda: _('"{k}" must be text').format(k=k))
            for k in ("contract", "offender", "replaces"):
                _need(_opt_str(e[k]), we, lambda: _('"{k}" must be text or null').format(k=k))
            _need(e["offender"] is None or e["offender"].casefold() in seated, we, lambda: _("the offender is not at the table"))
            _need(e["replaces"] is None or e["replaces"] in uids_here, we,
                  lambda: _("it replaces an entry that is not listed before it in its session"))
            pts = e["points"]
            _need(isinstance(pts, dict) and all(map(_is_num, pts.values())), we, lambda: _('"points" must map players to numbers'))
            folded = [p.casefold() for p in pts]
            _need(all(map(seated.__contains__, folded)), we, lambda: _("points for a player who is not at the table"))
            _need(len(set(folded)) == len(pts), we, lambda: _("a player has points twice"))
            _need(_adds_to_zero(pts.values()), we, lambda: _("the points do not add up to 0"))
            tk = e["takers"]
            _need(isinstance(tk, dict) and set(map(type, tk.values())) <= {bool}, we, lambda: _('"takers" must map players to true/false'))
            _need(tk.keys() <= pts.keys(), we, lambda: _("a taker without points"))
            v = e["void"]
            if v is not None:
                _need(isinstance(v, dict), we, lambda: _('"void" must be an object or null'))
                _need(v.get("action") in ("undo", "amend"), we, lambda: _('the void\'s "action" must be undo or amend'))
                _need("by" in v and _opt_str(v.get("by")) and (v.get("action") == "amend") == (v.get("by") is not None), we,
                      lambda: _('an amend void names the entry that replaced it ("by"), an undo does not'))
                _need(isinstance(v.get("reason"), str) and isinstance(v.get("created_at"), str), we,
                      lambda: _('the void needs "reason" and "created_at" texts'))
            uids_here.add(e["uid"])
        hist = s.get("history")
        _need(hist is None or (isinstance(hist, list) and all(
            isinstance(h, list) and len(h) == 2 and h[0] in ("entry", "void", "seal")
            and (_is_int(h[1]) if h[0] == "seal" else isinstance(h[1], str)) for h in hist)), w,
            lambda: _('"history" must be a list of ["entry", UID], ["void", UID] or ["seal", N]'))
        seals = s.get("seals")
        _need(seals is None or (isinstance(seals, list) and all(
            isinstance(x, dict) and _is_int(x.get("n")) and 1 <= x["n"] <= 100_000 and isinstance(x.get("seal"), str)
            and isinstance(x.get("sealed_at"), str) for x in seals)), w,
            lambda: _('"seals" must be a list of {"n": N, "seal": CODE, "sealed_at": TIME}'))
        _need(seals is None or [x["n"] for x in seals] == list(range(1, len(seals) + 1)), w,
              lambda: _("the seals must be numbered 1, 2, 3 ... in order"))
        _need(not seals or s["ended_at"] is not None, w, lambda: _("an open session cannot carry a seal"))
        _need(not seals or seals[0]["sealed_at"] == s["ended_at"], w, lambda: _("its first seal is not at its end"))
        for j, e in enumerate(s["entries"]):
            v = e["void"]
            if v is not None and v["by"] is not None:
                _need(v["by"] in uids_here, _("{session}, entry {uid}").format(session=w, uid=e["uid"]), lambda: _("voided by an entry that is not in its session"))
    except _Bad as bad:
        raise WiezenError(_('cannot import: {bad}').format(bad=bad)) from None


def _norm_entry(e: Mapping[str, Any]) -> tuple[Any, ...]:
    """The content of an entry that must be identical for the same uid (its void is compared apart)."""
    out: list[Any] = []
    for k in _ENTRY_FIELDS:
        v = e[k]
        if k == "points":
            v = tuple(sorted((p.casefold(), float(x)) for p, x in v.items()))
        elif k == "takers":
            v = tuple(sorted((p.casefold(), bool(x)) for p, x in v.items()))
        elif k == "offender" and v is not None:
            v = v.casefold()
        elif k == "round":
            v = bool(v)
        out.append(v)
    return tuple(out)


def _norm_void(v: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    return None if v is None else (v["action"], v["by"], v["reason"], v["created_at"])


def _session_label(s: Mapping[str, Any]) -> str:
    if s["name"]:
        return _("session {uid} ({date}, {name})").format(uid=s["uid"][:8], date=s["date"], name=s["name"])
    return _("session {uid} ({date})").format(uid=s["uid"][:8], date=s["date"])


def _differences(here: Mapping[str, Any], there: Mapping[str, Any], keys: Iterable[str]) -> list[str]:
    out = []
    for k in keys:
        a, b = here[k], there[k]
        if k == "players":
            a, b = [p.casefold() for p in a], [p.casefold() for p in b]
        if a != b:
            out.append(k)
    return out


def import_doc(led: Any, doc: Mapping[str, Any], dry_run: bool = False,
               progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Merge an export document into the ledger ``led`` in one write transaction (all or nothing).

    Raises WiezenError, with nothing written, when the document is malformed or conflicts with this ledger.
    """
    validate_header(doc)
    report = ImportReport()
    conflicts: list[str] = []
    conn: sqlite3.Connection = led.conn
    seen_sessions: set[str] = set()
    seen_entries: set[str] = set()

    class _DryRun(Exception):
        pass

    listed = isinstance(doc["sessions"], list)  # a ledger's sessions come one by one (a generator)
    try:
        with led.write():
            open_row = conn.execute("SELECT id, uid FROM sessions WHERE ended_at IS NULL").fetchone()
            touched: list[int] = []
            file_seals: dict[int, tuple[Mapping[str, Any], Any]] = {}
            sizes = [1 + (len(s["entries"]) if isinstance(s, Mapping) and isinstance(s.get("entries"), list) else 0)
                     for s in doc["sessions"]] if listed and progress is not None else []  # fmt: skip
            total, done = sum(sizes), 0
            for i, s in enumerate(doc["sessions"]):
                if sizes and progress is not None:
                    progress(done, total)
                    done += sizes[i]
                check_session(s, i, seen_sessions, seen_entries)
                row = conn.execute(f"SELECT {_session_cols(conn)} FROM sessions s WHERE s.uid = ?", (s["uid"],)).fetchone()
                local = None if row is None else _session_doc(conn, row)
                if local is None:
                    sid = _add_session(led, s, open_row, conflicts)
                    if sid is None:
                        continue
                    if s["ended_at"] is None:
                        open_row = (sid, s["uid"])
                    report.sessions += 1
                    added, voids = _add_entries(led, sid, s, s["entries"], conflicts)
                    report.entries += added
                    report.voids += voids
                    report.session_ids.append(sid)
                    touched.append(sid)
                    file_seals[sid] = (s, s.get("seals"))
                    continue
                sid = row[0]
                diff = _differences(local, s, ("name", "date", "rules_name", "rules_toml", "first_dealer",
                                               "started_at", "source_hash", "players"))
                diff += [k for k in ("tag", "round", "table") if local.get(k) != s.get(k)]
                if local["ended_at"] is not None and s["ended_at"] is not None and local["ended_at"] != s["ended_at"]:
                    diff.append("ended_at")
                if diff:
                    conflicts.append(_('{session} is here with another {diff}').format(session=_session_label(local), diff=', '.join(diff)))
                    continue
                local_entries = {e["uid"]: e for e in local["entries"]}
                new_entries = []
                new_voids = []
                for e in s["entries"]:
                    mine = local_entries.get(e["uid"])
                    if mine is None:
                        new_entries.append(e)
                        continue
                    if _norm_entry(mine) != _norm_entry(e):
                        a, b = _norm_entry(mine), _norm_entry(e)
                        fields = [k for k, x, y in zip(_ENTRY_FIELDS, a, b) if x != y]
                        conflicts.append(
                            _('{session}, entry {no} ({uid}) is here with another {fields}').format(session=_session_label(local), no=mine['no'], uid=e['uid'][:8], fields=', '.join(fields))
                        )
                        continue
                    if mine["void"] is None and e["void"] is not None:
                        new_voids.append(e)
                    elif mine["void"] is not None and e["void"] is not None and _norm_void(mine["void"]) != _norm_void(e["void"]):
                        conflicts.append(
                            _('{session}, entry {no} ({uid}) was voided differently here').format(session=_session_label(local), no=mine['no'], uid=e['uid'][:8])
                        )
                added, voids = _add_entries(led, sid, s, new_entries, conflicts, new_voids)
                report.entries += added
                report.voids += voids
                ended = local["ended_at"] is None and s["ended_at"] is not None
                if ended:
                    end_session_row(conn, sid, s["ended_at"])
                    report.ended += 1
                    if open_row and open_row[0] == sid:
                        open_row = None
                if added or new_voids or ended:
                    report.session_ids.append(sid)
                    touched.append(sid)
                    file_seals[sid] = (s, s.get("seals"))
                else:
                    report.unchanged += 1
            for sid in touched:
                dup = conn.execute(
                    f"SELECT e.no FROM entries e WHERE e.session_id = ? AND {COUNTS} GROUP BY e.no HAVING count(*) > 1 LIMIT 1",
                    (sid,),
                ).fetchone()
                if dup:
                    conflicts.append(
                        _('session {id}: entry {no} would count twice (the file and this ledger recorded different entries after a common start: the ledgers have diverged)').format(id=sid, no=dup[0])
                    )
            if touched and not conflicts:
                # what comes in must score as recorded: re-score every session it touches before committing
                from .check import rescore_sessions

                seal_conflicts = _seals_fit(conn, file_seals)
                for p in rescore_sessions(conn, touched):
                    if p.session_id in file_seals:  # name the session as the file does, the entry by number
                        label = _session_label(file_seals[p.session_id][0])
                        where = label + (f", entry #{p.entry_no}" if p.entry_no is not None else "")
                        conflicts.append(_('{where}: {message}').format(where=where, message=p.message))
                    else:
                        conflicts.append(f"{p.where()}: {p.message}" if p.where() else p.message)
                conflicts += seal_conflicts
            elif touched:
                conflicts += _seals_fit(conn, file_seals)
            precs = doc.get("precedents")
            if precs:
                if has_table(conn, "precedents") and has_table(conn, "precedent_versions"):
                    report.precedents = _import_precedents(conn, precs, conflicts)
                else:
                    report.precedents_skipped = True
            if conflicts:
                shown = "; ".join(conflicts[:5]) + (_("; and {n} more").format(n=len(conflicts) - 5) if len(conflicts) > 5 else "")
                raise WiezenError(
                    ngettext('import refused, nothing was written: {n} conflict with this ledger or with what the command line writes: {shown}',
                             'import refused, nothing was written: {n} conflicts with this ledger or with what the command line writes: {shown}',
                             len(conflicts)).format(n=len(conflicts), shown=shown)
                )
            if dry_run:
                raise _DryRun
    except _DryRun:
        pass
    return report


def _seals_fit(conn: sqlite3.Connection, file_seals: Mapping[int, tuple[Mapping[str, Any], Any]]) -> list[str]:
    """The seals the file carries must be the seals of the history as recorded here: the chain fits."""
    from .chain import sync
    from .seals import normalize_code, seals
    from .rows import now

    sync(conn, now())  # link what this import recorded, so that the seals are computed
    out = []
    for sid, (s, theirs) in file_seals.items():
        mine = {x.n: x.code for x in seals(conn, sid)}
        for x in theirs or []:
            if mine.get(x["n"]) != normalize_code(x["seal"]):
                out.append(
                    _('{session}: its seal {n} in the file is {seal}, but the history in the file gives {computed}: the file was changed after it was sealed').format(session=_session_label(s), n=x['n'], seal=x['seal'], computed=mine.get(x['n'], _('no such seal')))
                )
        if s["ended_at"] is not None and s.get("history") is not None and not theirs:
            out.append(_('{session} has ended but the file carries no seal for it').format(session=_session_label(s)))
        from .chain import history_problems

        for f in history_problems(conn, sid):
            r = conn.execute("SELECT uid FROM entries WHERE id = ?", (f.entry_id,)).fetchone() if f.entry_id else None
            where = f", entry #{f.entry_no}" + (f" ({r[0][:8]})" if r else "") if f.entry_no is not None else ""
            out.append(_('{session}{where}: {message}').format(session=_session_label(s), where=where, message=f.message))
    return out


def _player_ids(led: Any, names: Sequence[str]) -> list[int]:
    return [led.player_id(led.known_player_name(n)) for n in names]


def _add_session(led: Any, s: Mapping[str, Any], open_row: Any, conflicts: list[str]) -> int | None:
    conn = led.conn
    if s["source_hash"] is not None:
        row = conn.execute("SELECT id FROM sessions WHERE source_hash = ?", (s["source_hash"],)).fetchone()
        if row:
            conflicts.append(
                _('{session} was recorded from the same session file as session {id} here, under another id (the evening would count twice)').format(session=_session_label(s), id=row[0])
            )
            return None
    if s["ended_at"] is None and open_row is not None:
        conflicts.append(
            _('{session} is still open in the file, and this ledger has an open session already (session {id}): end one of them (`wiezen session end`), then import again').format(session=_session_label(s), id=open_row[0])
        )
        return None
    return insert_session(
        conn, uid=s["uid"], name=s["name"], date=s["date"], rules_name=s["rules_name"], rules_toml=s["rules_toml"],
        first_dealer=s["first_dealer"], started_at=s["started_at"], ended_at=s["ended_at"],
        source_hash=s["source_hash"], player_ids=_player_ids(led, s["players"]), plan=s.get("plan"),
        tag=s.get("tag"), round=s.get("round"), table=s.get("table"),
    )


def _add_entries(
    led: Any,
    sid: int,
    s: Mapping[str, Any],
    entries: Sequence[Mapping[str, Any]],
    conflicts: list[str],
    extra_voids: Sequence[Mapping[str, Any]] = (),
) -> tuple[int, int]:
    """Insert ``entries`` (in file order) into session ``sid``, then their voids and ``extra_voids``.

    Returns the numbers of entries and voids added."""
    conn = led.conn
    seats = {name.casefold(): pid for name, pid in conn.execute(
        "SELECT p.name, p.id FROM seats st JOIN players p ON p.id = st.player_id WHERE st.session_id = ?", (sid,)
    )}
    local_id = {uid: eid for uid, eid in conn.execute("SELECT uid, id FROM entries WHERE session_id = ?", (sid,))}
    # the entries of the file that this ledger holds already (a uid is unique in the file: check_session), read
    # in chunks rather than one query an entry
    uids = [e["uid"] for e in entries]
    here: dict[str, int] = {}
    for k in range(0, len(uids), 500):
        chunk = uids[k:k + 500]
        here.update(conn.execute(
            f"SELECT uid, session_id FROM entries WHERE uid IN ({','.join('?' * len(chunk))})", chunk
        ).fetchall())
    added = voids = 0
    # the points rows of an entry, by its points and takers as the file gives them: many entries of an evening
    # score alike (the same line), and their rows are made once (equal values give equal rows: 1 and 1.0 points
    # are both stored as 2)
    points_rows: dict[tuple[Any, ...], tuple[tuple[int, int, bool | None], ...]] = {}
    batch: list[NewEntry] = []  # entries not written yet: written together, in order, before the next void or seal

    def flush() -> None:
        for ne, eid in zip(batch, insert_entries(conn, batch)):
            local_id[ne.uid] = eid
        batch.clear()

    def add_entry(e: Mapping[str, Any]) -> None:
        nonlocal added
        if e["replaces"] is not None:
            flush()  # the entry it replaces may be waiting in the batch
        replaces = local_id.get(e["replaces"]) if e["replaces"] is not None else None
        if e["replaces"] is not None and replaces is None:
            conflicts.append(_('{session}, entry {uid} replaces an entry that is not here').format(session=_session_label(s), uid=e['uid'][:8]))
            return
        clash = here.get(e["uid"])
        if clash is not None:
            conflicts.append(_('entry {uid} of {session} is here already, in session {id}').format(uid=e['uid'][:8], session=_session_label(s), id=clash))
            return
        pts = e["points"]
        key = (tuple(pts.items()), tuple(e["takers"].items()))
        rows = points_rows.get(key)
        if rows is None:
            try:
                halves = [half_points(v) for v in pts.values()]
            except WiezenError as err:
                conflicts.append(_('{session}, entry #{no} ({uid}): {error}').format(session=_session_label(s), no=e['no'], uid=e['uid'][:8], error=err))
                return
            tk = {p.casefold(): bool(m) for p, m in e["takers"].items()}
            rows = points_rows[key] = tuple((seats[p.casefold()], h, tk.get(p.casefold())) for p, h in zip(pts, halves))
        batch.append(NewEntry(
            uid=e["uid"], session_id=sid, no=e["no"], kind=e["kind"], text=e["text"], contract=e["contract"],
            dealer=e["dealer"], multiplier=e["multiplier"],
            offender_id=seats[e["offender"].casefold()] if e["offender"] else None, round=bool(e["round"]),
            deal_no=e["deal_no"], reason=e["reason"], next_dealer=e["next_dealer"],
            next_multiplier=e["next_multiplier"], replaces=replaces, created_at=e["created_at"], halves=rows,
        ))
        if len(batch) >= 2000:
            flush()
        added += 1

    def add_void(e: Mapping[str, Any]) -> None:
        nonlocal voids
        flush()
        v = e["void"]
        if e["uid"] not in local_id:
            return
        by = local_id.get(v["by"]) if v["by"] is not None else None
        if v["by"] is not None and by is None:
            conflicts.append(_('{session}, entry {uid} is voided by an entry that is not here').format(session=_session_label(s), uid=e['uid'][:8]))
            return
        insert_void(conn, local_id[e["uid"]], v["action"], by, v["reason"], v["created_at"])
        voids += 1

    new_entries = {e["uid"]: e for e in entries}
    new_voids = {e["uid"]: e for e in [*entries, *extra_voids] if e["void"] is not None}
    have_n = conn.execute("SELECT coalesce(max(n), 0) FROM seals WHERE session_id = ?", (sid,)).fetchone()[0]
    new_seals = {x["n"]: x for x in s.get("seals") or [] if x["n"] > have_n}
    history = s.get("history")
    if history is None:  # an export of format 1: the entries in order, then the voids
        for e in entries:
            add_entry(e)
        flush()
        for e in new_voids.values():
            add_void(e)
        return added, voids
    for kind, ref in history:
        if kind == "entry" and ref in new_entries and new_entries[ref]["replaces"] not in new_entries:
            add_entry(new_entries.pop(ref))
        elif kind == "void" and ref in new_voids:
            add_void(new_voids.pop(ref))
        elif kind == "seal" and ref in new_seals:
            flush()
            x = new_seals.pop(ref)
            insert_seal(conn, sid, x["n"], x["sealed_at"])
    # what the history does not name comes last (its seals, computed here, will not fit those of the file)
    for e in entries:
        if e["uid"] in new_entries:
            add_entry(new_entries.pop(e["uid"]))
    flush()
    for e in list(new_voids.values()):
        add_void(e)
    for x in new_seals.values():
        conflicts.append(_("{session}: its seal {n} has no place in the file's history (the chain does not fit)").format(session=_session_label(s), n=x['n']))
    return added, voids


def _import_precedents(conn: sqlite3.Connection, precs: Sequence[Any], conflicts: list[str]) -> int:
    """Add the precedents and precedent versions not here yet (matched by uid; a precedent's versions only grow).

    Returns how many precedents and later versions were added.
    """
    import json

    sess_id = {uid: sid for sid, uid in conn.execute("SELECT id, uid FROM sessions")}
    added = 0
    for i, p in enumerate(precs):
        try:
            _need(isinstance(p, dict), f"precedents[{i}]", lambda: _("must be an object"))
            missing = [k for k in _PRECEDENT_KEYS if k not in p]
            _need(not missing, f"precedents[{i}]", lambda: _('lacks {missing}').format(missing=', '.join(missing)))
            _need(isinstance(p["uid"], str) and p["uid"] != "", f"precedents[{i}]", lambda: _('"uid" must be a non-empty text'))
            w = _("precedent {uid}").format(uid=p["uid"][:8])
            _need(isinstance(p["date"], str) and isinstance(p["created_at"], str), w, lambda: _('"date" and "created_at" must be text'))
            _need(_opt_str(p["session"]) and _opt_str(p["entry"]), w, lambda: _('"session" and "entry" must be uids or null'))
            _need(p["entry_no"] is None or (_is_int(p["entry_no"]) and 1 <= p["entry_no"] <= 2**40), w,
                  lambda: _('"entry_no" must be a number from 1 to {value} or null').format(value=2**40))
            _need(p["origin"] in ("ruling", "penalty", "house-rules"), w, lambda: _('"origin" must be ruling, penalty or house-rules'))
            _need(isinstance(p["players"], list) and all(isinstance(x, str) for x in p["players"]), w,
                  lambda: _('"players" must be a list of names'))
            vs = p["versions"]
            _need(isinstance(vs, list) and len(vs) > 0 and all(isinstance(v, dict) for v in vs), w,
                  lambda: _('"versions" must be a non-empty list'))
            for k, v in enumerate(vs, 1):
                _need(v.get("version") == k, w, lambda: _("versions must be numbered 1, 2, 3 ... in order"))
                _need(all(isinstance(v.get(x), str) for x in ("title", "ruling", "note", "edited_at")), w,
                      lambda: _('a version needs "title", "ruling", "note" and "edited_at" texts'))
                _need(isinstance(v.get("tags"), list) and all(isinstance(t, str) for t in v["tags"]), w,
                      lambda: _('"tags" must be a list of words'))
                # the same checks as `precedent add` and `precedent edit`: a clear line, never "CHECK constraint failed"
                from ..core.text import require_utf8
                from .precedents import clean_ruling, clean_tags, clean_title

                try:
                    for x in ("title", "ruling", "note"):
                        require_utf8(v[x], f'its "{x}"')
                    clean_title(v["title"])
                    clean_ruling(v["ruling"])
                    clean_tags(v["tags"])
                except WiezenError as e:
                    raise _Bad(_('{w}, version {k}: {error}').format(w=w, k=k, error=str(e).replace(_('; nothing was recorded'), ''))) from None
            from ..core.dates import parse_date

            try:
                _need(parse_date(p["date"]).isoformat() == p["date"], w, lambda: _('bad date {date} (YYYY-MM-DD)').format(date=repr(p['date'])))
            except WiezenError:
                raise _Bad(_('{w}: bad date {date} (YYYY-MM-DD)').format(w=w, date=repr(p['date']))) from None
        except _Bad as e:
            raise WiezenError(_('cannot import: {error}').format(error=e)) from None
        session_id = entry_id = None
        if p["session"] is not None:
            session_id = sess_id.get(p["session"])
            if session_id is None:
                conflicts.append(_("{precedent} belongs to session {uid}, which is neither here nor in the file").format(precedent=w, uid=p["session"][:8]))
                continue
        if p["entry"] is not None:
            row = conn.execute(
                "SELECT id FROM entries WHERE uid = ? AND session_id IS ?", (p["entry"], session_id)
            ).fetchone()
            if row is None:
                conflicts.append(_("{precedent} refers to entry {uid}, which is neither here nor in the file").format(precedent=w, uid=p["entry"][:8]))
                continue
            entry_id = row[0]
        here = conn.execute(
            "SELECT id, date, session_id, entry_no, entry_id, players, origin, created_at FROM precedents WHERE uid = ?",
            (p["uid"],),
        ).fetchone()
        have: list[dict[str, Any]] = []
        if here is None:
            pid = insert_precedent(
                conn, uid=p["uid"], date=p["date"], session_id=session_id, entry_no=p["entry_no"], entry_id=entry_id,
                players=p["players"], origin=p["origin"], created_at=p["created_at"],
            )
            added += 1
        else:
            pid = here[0]
            if (here[1], here[2], here[3], here[4], json.loads(here[5]), here[6], here[7]) != (
                p["date"], session_id, p["entry_no"], entry_id, p["players"], p["origin"], p["created_at"]
            ):
                conflicts.append(_("{precedent} is here with other content").format(precedent=w))
                continue
            have = [
                {"version": v[0], "title": v[1], "ruling": v[2], "tags": json.loads(v[3]), "note": v[4], "edited_at": v[5]}
                for v in conn.execute(
                    "SELECT version, title, ruling, tags, note, edited_at FROM precedent_versions "
                    "WHERE precedent_id = ? ORDER BY version",
                    (pid,),
                )
            ]
        keys = ("version", "title", "ruling", "tags", "note", "edited_at")
        common = min(len(have), len(vs))
        if have[:common] != [{k: v.get(k) for k in keys} for v in vs[:common]]:
            conflicts.append(_("{precedent} was edited differently here").format(precedent=w))
            continue
        for v in vs[len(have):]:
            insert_precedent_version(conn, pid, v["version"], v["title"], v["ruling"], v["tags"], v["note"], v["edited_at"])
            if here is not None:
                added += 1
    return added


# ------------------------------------------------------------------------------------- reading import files


@contextmanager
def import_source(path: str) -> Iterator[tuple[dict[str, Any], str]]:
    """The export document in ``path``: a JSON export, or another wiezen ledger opened read-only.

    Yields the document and what it was (``"file"`` or ``"ledger"``). A ledger's sessions are read one at a
    time, inside one read transaction (a consistent snapshot, however long the history), while the caller
    imports them.
    """

    from .connection import APP_ID, db_error
    from .schema import SCHEMA_VERSION

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
        yield doc, "ledger"
    except sqlite3.Error as e:
        raise db_error(e, path) from None
    finally:
        conn.close()
