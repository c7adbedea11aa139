"""Import (merge): an export document, or another wiezen ledger, merged into this one.

The document is written by export.py and its shape checked by import_check.py. Import merges it into this
ledger in one write transaction: rows are matched by their stable ``uid``, so the same data twice adds nothing,
and any row whose uid is known here with other content is a conflict that refuses the whole import.

History only grows: an import may add sessions, entries, voids and the end of a session that was still open
here; it never changes or removes anything that is already recorded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import _, ngettext
from .bulk import insert_entries
from .export import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    ExportEntry,
    ExportPrecedent,
    ExportPrecedentVersion,
    ExportSeal,
    ExportSession,
    ExportVoid,
    _session_cols,
    _session_doc,
    export_doc,
    has_table,
    import_source,
    write_export,
)
from .import_check import _ENTRY_FIELDS, check_precedent, check_session, validate_header
from .rows import (
    COUNTS,
    JOINED_SEAT,
    NewEntry,
    end_session_row,
    insert_precedent,
    insert_precedent_version,
    insert_seal,
    insert_session,
    insert_void,
    sixth_points,
)

__all__ = [
    "EXPORT_FORMAT", "EXPORT_VERSION", "ImportReport", "check_session", "export_doc", "import_doc", "import_source",
    "validate_header", "write_export",
]


class ImportLedger(Protocol):
    """What an import needs of the ledger it merges into: its connection, a write, players by name."""

    conn: sqlite3.Connection

    def write(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def player_id(self, name: str) -> int: ...

    def known_player_name(self, name: str) -> str: ...

    def player_fact(self, action: str, name: str, others: Sequence[str], day: str) -> list[str]: ...

    def person_names(self) -> dict[str, str]: ...


class ImportSummary(TypedDict):
    """What an import added, as `wiezen import --format json` reports it."""

    sessions_added: int
    entries_added: int
    voids_added: int
    sessions_ended: int
    precedents_added: int
    sessions_unchanged: int
    sessions_voided: int
    session_ids: list[int]
    players_added: list[str]
    look_alikes: list[dict[str, str]]
    player_facts_added: int


@dataclass
class ImportReport:
    sessions: int = 0  # sessions added
    entries: int = 0  # entries added (to new and known sessions)
    voids: int = 0  # undo/amend voids added (to new entries and to entries already here)
    ended: int = 0  # sessions open here that the import closed
    sessions_voided: int = 0  # sessions the import took out of every count (`session void`)
    precedents: int = 0
    precedents_skipped: bool = False  # the file has precedents, but this ledger has no precedents log
    unchanged: int = 0  # sessions already here in full
    session_ids: list[int] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # players the import added to this ledger
    look_alikes: list[tuple[str, str]] = field(default_factory=list)  # (added, a player here it looks like)
    player_facts: int = 0  # renames, merges and splits added

    @property
    def added_anything(self) -> bool:
        return bool(self.sessions or self.entries or self.voids or self.ended or self.precedents or self.sessions_voided
                    or self.player_facts)

    def as_dict(self) -> ImportSummary:
        return {
            "sessions_added": self.sessions, "entries_added": self.entries, "voids_added": self.voids,
            "sessions_ended": self.ended, "precedents_added": self.precedents, "sessions_unchanged": self.unchanged,
            "sessions_voided": self.sessions_voided, "session_ids": self.session_ids, "players_added": self.players,
            "look_alikes": [{"player": a, "like": b} for a, b in self.look_alikes], "player_facts_added": self.player_facts,
        }  # fmt: skip


def _norm_entry(e: Mapping[str, Any]) -> tuple[object, ...]:
    """The content of an entry that must be identical for the same uid (its void is compared apart)."""
    out: list[object] = []
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


def _norm_void(v: ExportVoid | None) -> tuple[object, ...] | None:
    return None if v is None else (v["action"], v["by"], v["reason"], v["created_at"])


def _session_label(s: ExportSession) -> str:
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


def import_doc(led: ImportLedger, doc: Mapping[str, Any], dry_run: bool = False,
               progress: Callable[[int, int], None] | None = None, same: Sequence[tuple[str, str]] = (),
               day: str = "") -> ImportReport:
    """Merge an export document into the ledger ``led`` in one write transaction (all or nothing); ``same``:
    pairs (A, B) of players who are one person, merged on the way in (A goes by B), on ``day``.

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
            known_before = [str(r[0]) for r in conn.execute("SELECT name FROM players ORDER BY id")]
            touched: list[int] = []
            file_seals: dict[int, tuple[ExportSession, list[ExportSeal] | None]] = {}
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
                    report.sessions_voided += _add_void(conn, sid, s, None, conflicts)
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
                        fields = [k for k, x, y in zip(_ENTRY_FIELDS, a, b, strict=False) if x != y]
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
                voided = _add_void(conn, sid, s, local.get("void"), conflicts)
                report.sessions_voided += voided
                if added or new_voids or ended or voided:
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
            _import_players(led, doc, report, known_before, same, day, conflicts)
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


def _import_players(led: ImportLedger, doc: Mapping[str, Any], report: ImportReport, known_before: Sequence[str],
                    same: Sequence[tuple[str, str]], day: str, conflicts: list[str]) -> None:
    """The players' facts of the file, the players the import added (and which look like one here), and the
    ``--same`` merges."""
    from ..core.names import name_key
    from ..core.people import look_alike
    from .people import import_facts, rebuild

    conn = led.conn
    report.player_facts = import_facts(conn, doc.get("player_facts") or [], conflicts)
    rebuild(conn)
    before = {name_key(n) for n in known_before}
    report.players = [str(r[0]) for r in conn.execute("SELECT name FROM players ORDER BY id") if name_key(r[0]) not in before]
    persons = led.person_names()
    for n in report.players:
        for like in look_alike(n, known_before):
            if persons.get(n.casefold()) != persons.get(like.casefold()):
                report.look_alikes.append((n, like))
    for a, b in same:
        persons = led.person_names()
        if name_key(a) in {name_key(x) for x in (b, persons.get(b.casefold(), b))} or (
                a.casefold() in persons and persons.get(a.casefold()) == persons.get(b.casefold())):
            continue  # one person already (this file imported before)
        led.player_fact("merge", b, [a], day)
        report.player_facts += 1


def _seals_fit(conn: sqlite3.Connection, file_seals: Mapping[int, tuple[ExportSession, list[ExportSeal] | None]]) -> list[str]:
    """The seals the file carries must be the seals of the history as recorded here: the chain fits."""
    from .chain import sync
    from .rows import now
    from .seals import normalize_code, seals

    sync(conn, now())  # link what this import recorded, so that the seals are computed
    out = []
    for sid, (s, theirs) in file_seals.items():
        mine: dict[int | None, str] = {x.n: x.code for x in seals(conn, sid)}
        for x in theirs or []:
            got = mine.get(x["n"])  # (an export made before the check character has 12-character seals: the same)
            if got is None or normalize_code(got) != normalize_code(x["seal"]):
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


def _add_void(conn: sqlite3.Connection, sid: int, s: Mapping[str, Any], here: Mapping[str, Any] | None,
              conflicts: list[str]) -> bool:
    """A void session of the file is void here too (`session void`); another reason here is a conflict. Returns
    whether a void was added."""
    there = s.get("void")
    if there is None:
        return False
    if here is not None:
        if dict(here) != dict(there):
            conflicts.append(_("{session} was voided here for another reason").format(session=str(s.get("uid", ""))[:8]))
        return False
    conn.execute("INSERT INTO session_voids (session_id, reason, voided_at) VALUES (?, ?, ?)",
                 (sid, there["reason"], there["at"]))
    return True


def _player_ids(led: ImportLedger, names: Sequence[str]) -> list[int]:
    return [led.player_id(led.known_player_name(n)) for n in names]


def _add_session(led: ImportLedger, s: ExportSession, open_row: tuple[int, str] | None,
                 conflicts: list[str]) -> int | None:
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


def _seat_joiners(led: ImportLedger, sid: int, entries: Sequence[Mapping[str, Any]]) -> None:
    """The players who join the session in ``entries`` (`session join`) get their seats (from JOINED_SEAT on, in
    the order they first join) and, when new here, their player rows, before the entries that name them."""
    conn = led.conn
    known = {str(n).casefold() for (n,) in conn.execute(
        "SELECT p.name FROM seats st JOIN players p ON p.id = st.player_id WHERE st.session_id = ?", (sid,))}
    for e in entries:
        who = e["offender"]
        if e["kind"] != "join" or not isinstance(who, str) or who.casefold() in known:
            continue
        known.add(who.casefold())
        top = conn.execute("SELECT max(seat) FROM seats WHERE session_id = ?", (sid,)).fetchone()[0]
        conn.execute("INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                     (sid, max(int(top) + 1, JOINED_SEAT), led.player_id(led.known_player_name(who))))


def _add_entries(
    led: ImportLedger,
    sid: int,
    s: ExportSession,
    entries: Sequence[ExportEntry],
    conflicts: list[str],
    extra_voids: Sequence[ExportEntry] = (),
) -> tuple[int, int]:
    """Insert ``entries`` (in file order) into session ``sid``, then their voids and ``extra_voids``.

    Returns the numbers of entries and voids added."""
    conn = led.conn
    _seat_joiners(led, sid, entries)
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
    points_rows: dict[tuple[tuple[tuple[str, int | float], ...], tuple[tuple[str, bool], ...]],
                      tuple[tuple[int, int, bool | None], ...]] = {}
    batch: list[NewEntry] = []  # entries not written yet: written together, in order, before the next void or seal

    def flush() -> None:
        for ne, eid in zip(batch, insert_entries(conn, batch), strict=False):
            local_id[ne.uid] = eid
        batch.clear()

    def add_entry(e: ExportEntry) -> None:
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
                sixths = [sixth_points(v) for v in pts.values()]
            except WiezenError as err:
                conflicts.append(_('{session}, entry #{no} ({uid}): {error}').format(session=_session_label(s), no=e['no'], uid=e['uid'][:8], error=err))
                return
            tk = {p.casefold(): bool(m) for p, m in e["takers"].items()}
            rows = points_rows[key] = tuple((seats[p.casefold()], h, tk.get(p.casefold())) for p, h in zip(pts, sixths, strict=False))
        batch.append(NewEntry(
            uid=e["uid"], session_id=sid, no=e["no"], kind=e["kind"], text=e["text"], contract=e["contract"],
            dealer=e["dealer"], multiplier=e["multiplier"],
            offender_id=seats[e["offender"].casefold()] if e["offender"] else None, round=bool(e["round"]),
            deal_no=e["deal_no"], reason=e["reason"], next_dealer=e["next_dealer"],
            next_multiplier=e["next_multiplier"], replaces=replaces, created_at=e["created_at"], sixths=rows,
        ))
        if len(batch) >= 2000:
            flush()
        added += 1

    def add_void(e: ExportEntry) -> None:
        nonlocal voids
        flush()
        v = e["void"]
        assert v is not None  # (only the entries with a void come here)
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
            assert x["n"] is not None and x["sealed_at"] is not None  # (check_session: a file's seal has both)
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


def _import_precedents(conn: sqlite3.Connection, precs: Sequence[ExportPrecedent], conflicts: list[str]) -> int:
    """Add the precedents and precedent versions not here yet (matched by uid; a precedent's versions only grow).

    Returns how many precedents and later versions were added.
    """
    import json

    sess_id = {uid: sid for sid, uid in conn.execute("SELECT id, uid FROM sessions")}
    added = 0
    for i, p in enumerate(precs):
        w = check_precedent(p, i)
        vs = p["versions"]
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
        have: list[ExportPrecedentVersion] = []
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
