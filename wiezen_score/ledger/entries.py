"""The ledger's entries: the table state, recording, undo and amend, the sheet, and replay of a session file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date as Date

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.rules import HouseRules
from ..core.scoring import Points
from ..core.session import SEAT_KINDS, EntryInput, Fold, Scored, TableState, fold, queue_state, queued_after
from .bulk import insert_entries
from .rows import (
    COUNTS,
    JOINED_SEAT,
    EntryRow,
    NewEntry,
    SessionInfo,
    from_sixths,
    insert_entry,
    insert_void,
    new_uid,
    now,
    sixth_points,
)
from .sessions import Sessions, check_player_names, session_setup


class Entries(Sessions):
    """A session's entries: appended, voided by undo or amend, never changed."""

    def state(self, s: SessionInfo) -> tuple[TableState, int]:
        """The table state after the last entry that counts, and the next entry number.

        Read back from the last deal that counts: the entries after it (a rondje pas, a redeal, a penalty) only
        carry or double the pending multiplier. An amendment re-adds a later entry only when its dealer,
        multiplier or points change, so a rondje pas or a penalty after it keeps the multiplier it was recorded
        with: the state is derived, not read from that entry's next_multiplier.
        """
        tail: list[tuple[str, int, int]] = []
        for kind, nd, nm in self.conn.execute(
            "SELECT e.kind, e.next_dealer, e.next_multiplier FROM entries e WHERE e.session_id = ? "
            f"AND {COUNTS} ORDER BY e.no DESC, e.id DESC",
            (s.id,),
        ):
            tail.append((kind, nd, nm))
            if kind == "deal":
                break
        state = TableState(s.first_dealer, 1)
        double = s.rules.all_pass_double if tail else "none"
        for kind, nd, nm in reversed(tail):
            if kind == "deal":
                state = TableState(nd, nm)
            elif kind == "pass" and double == "queue":
                state = TableState(nd, 2)  # how many doubled deals are owed follows below
            elif kind == "pass":
                state = TableState(nd, {"none": state.pending, "once": 2, "stack": state.pending * 2}[double])
            else:
                state = TableState(nd, state.pending)
        if double == "queue":  # the doubled deals still owed follow from the whole history
            state = queue_state(state.dealer, self._queued(s))
        top = self.conn.execute("SELECT max(no) FROM entries WHERE session_id = ?", (s.id,)).fetchone()[0]
        return state, (top or 0) + 1

    def _queued(self, s: SessionInfo) -> int:
        """Under "queue" house rules, the doubled deals still owed after session ``s``'s entries that count.

        They follow from the kinds of all its entries (:func:`queued_after`), read once per session and
        process: afterwards the count is kept while nothing in the ledger changes, and record() carries it on by
        the one entry it adds (so a long evening in `play` does not read its whole session for every line)."""
        key = self._unchanged()
        kept = self._owed.get(s.id)
        if kept is not None and kept[0] == key:
            return kept[1]
        kinds = [k for (k,) in self.conn.execute(
            "SELECT e.kind FROM entries e WHERE e.session_id = ? "
            "AND NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id) ORDER BY e.no, e.id",
            (s.id,),
        )]  # fmt: skip
        owed = queued_after(kinds)
        self._owed[s.id] = (key, owed)
        return owed

    def _insert(self, s: SessionInfo, no: int, sc: Scored, replaces: int | None = None, uid: str | None = None,
                created_at: str | None = None) -> int:
        return insert_entry(self.conn, self._new_entry(s, no, sc, replaces, uid, created_at))

    def _new_entry(self, s: SessionInfo, no: int, sc: Scored, replaces: int | None = None, uid: str | None = None,
                   created_at: str | None = None, ids: dict[str, int] | None = None,
                   scored_rows: dict[int, tuple[Scored, tuple[tuple[int, int, bool | None], ...]]] | None = None,
                   ) -> NewEntry:
        """The row of entry ``no`` as scored (``ids``: the players' row ids by name, when known already;
        ``scored_rows``: the points rows of entries scored before, by ``id(scored)``: a replay scores a line once
        and records it many times)."""
        if ids is None:
            ids = dict(zip(s.players, s.player_ids, strict=False))
        if scored_rows is not None:
            got = scored_rows.get(id(sc))
            if got is None or got[0] is not sc:
                got = scored_rows[id(sc)] = (sc, tuple((ids[p], sixth_points(v), sc.takers.get(p))
                                                       for p, v in sc.points.items()))
            rows: Sequence[tuple[int, int, bool | None]] = got[1]
        else:
            rows = [(ids[p], sixth_points(v), sc.takers.get(p)) for p, v in sc.points.items()]
        return NewEntry(
            uid=uid or new_uid(), session_id=s.id, no=no, kind=sc.kind, text=sc.text, contract=sc.contract or None,
            dealer=sc.dealer, multiplier=sc.multiplier, offender_id=ids[sc.offender] if sc.offender else None,
            round=sc.round, deal_no=sc.deal_no, reason=sc.reason, next_dealer=sc.after.dealer,
            next_multiplier=sc.after.pending, replaces=replaces, created_at=created_at or now(),
            sixths=rows,
        )

    def _deal_players(self, s: SessionInfo) -> dict[int, tuple[str, ...]]:
        rows = self.conn.execute(
            "SELECT e.no, p.name FROM entries e JOIN entry_points ep ON ep.entry_id = e.id JOIN players p ON p.id = ep.player_id "
            f"WHERE e.session_id = ? AND e.kind = 'deal' AND {COUNTS} "
            "ORDER BY e.no, p.id",
            (s.id,),
        ).fetchall()
        out: dict[int, list[str]] = {}
        for no, name in rows:
            out.setdefault(no, []).append(name)
        order = {p: i for i, p in enumerate(s.players)}
        return {no: tuple(sorted(ps, key=order.__getitem__)) for no, ps in out.items()}

    def record(
        self,
        e: EntryInput,
        session_id: int | None = None,
        then: Callable[[SessionInfo, int, Scored], object] | None = None,
        uid: str | None = None,
    ) -> tuple[int, Scored]:
        """Score and append one entry to the open session (or ``session_id``). Returns (entry no, scored).

        ``then(session, no, scored)`` runs in the same transaction (e.g. to record a precedent with it). ``uid``: the
        entry's uid (the phone's form: made from its nonce, so that the same form sent again is found, see
        :meth:`entry_of_uid`); a new one otherwise.
        """
        outermost = not self._writing  # (a write joined to an outer one may still be rolled back)
        with self.write():
            s = self.require_open() if session_id is None else self.session(session_id)
            state, no = self.state(s)
            owed = self._owed.get(s.id)
            before = owed[1] if owed is not None and owed[0] == self._unchanged() else None
            dp = self._deal_players(s) if e.kind == "penalty" and e.deal_no is not None else None
            if e.kind == "join" and e.offender.strip():  # the name as the ledger first recorded it
                e = replace(e, offender=self.known_player_name(e.offender.strip()))
            sc = Fold(s.rules, s.at_table, state, dp).step(no, e)
            if sc.kind == "join":
                s = self._seat_newcomer(s, sc)
            self._insert(s, no, sc, uid=uid)
            if then is not None:
                then(s, no, sc)
        if outermost and before is not None:  # committed: the owed count after the new last entry
            self._owed[s.id] = (self._unchanged(), queued_after([sc.kind], before))
        return no, sc

    def entry_of_uid(self, uid: str) -> tuple[int, int, str] | None:
        """(session, entry no, text) of the entry with ``uid``, None when there is none."""
        row = self.conn.execute("SELECT session_id, no, text FROM entries WHERE uid = ?", (uid,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]), str(row[2]))

    def preview(self, e: EntryInput) -> tuple[int, Scored]:
        """What :meth:`record` would record for ``e`` in the open session, without writing anything."""
        s = self.require_open()
        state, no = self.state(s)
        dp = self._deal_players(s) if e.kind == "penalty" and e.deal_no is not None else None
        return no, Fold(s.rules, s.at_table, state, dp).step(no, e)

    def _seat_newcomer(self, s: SessionInfo, sc: Scored) -> SessionInfo:
        """A player who joins gets a seat row of the session (numbered from JOINED_SEAT on, once: a player who
        left and comes back keeps his) and, when new to the ledger, a player row. Returns the session as it
        now reads. Refused for a name no table could take, or a player who sits at another open table."""
        from ..core.names import name_key

        check_player_names(sc.seating)
        for other in self.open_sessions():
            if other.id != s.id and any(name_key(p) == name_key(sc.offender) for p in other.at_table):
                raise WiezenError(_("{player} sits at another open table ({table}: {players}): leave that table "
                                    "first").format(player=sc.offender, table=other.table if other.table is not None
                                                    else other.id, players=", ".join(other.at_table)))
        if not any(name_key(p) == name_key(sc.offender) for p in s.players):
            pid = self.player_id(sc.offender)
            top = self.conn.execute("SELECT max(seat) FROM seats WHERE session_id = ?", (s.id,)).fetchone()[0]
            self.conn.execute("INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                              (s.id, max(int(top) + 1, JOINED_SEAT), pid))
        return self.session(s.id)

    def _void(self, entry_id: int, action: str, by_entry: int | None, reason: str) -> None:
        insert_void(self.conn, entry_id, action, by_entry, reason)

    def undo(self, reason: str = "", session_id: int | None = None, expect: int | None = None) -> EntryRow:
        """Void the last entry that is not voided yet (``expect``: only if that is still entry row ``expect``).

        On an ended session this is a correction after the evening: it needs a reason and gives a new seal."""
        with self.write():
            s = self.require_open() if session_id is None else self.session(session_id)
            _correction_reason(s, reason)
            row = self.conn.execute(
                f"SELECT e.id, e.no, e.text FROM entries e WHERE e.session_id = ? AND {COUNTS} "
                "ORDER BY e.no DESC, e.id DESC LIMIT 1",
                (s.id,),
            ).fetchone()
            if row is None:
                raise WiezenError(_("nothing to undo: the session has no entries that count"))
            if expect is not None and row[0] != expect:
                raise WiezenError(
                    _('nothing undone: #{row} {row2} was recorded meanwhile and is now the last entry; undo again to void that one').format(row=row[1], row2=row[2])
                )
            self._void(row[0], "undo", None, reason)
            target = row[0]
        return next(r for r in self.entries(s) if r.id == target)

    def amend(self, no: int, e: EntryInput, reason: str = "", session_id: int | None = None,
              expect: int | None = None) -> tuple[Scored, list[int]]:
        """Replace entry ``no``; later entries whose dealer, multiplier or points change are re-scored
        (voided and re-added with the same number). Returns the new scoring and the re-scored numbers.

        ``expect``: only if entry ``no`` is still the row ``expect``. On an ended session this is a correction
        after the evening: it needs a reason and gives a new seal."""
        with self.write():
            s = self.require_open() if session_id is None else self.session(session_id)
            _correction_reason(s, reason)
            rows = [r for r in self.entries(s) if not r.voided]
            target = [r for r in rows if r.no == no]
            if not target:
                if any(r.no == no for r in self.entries(s)):
                    raise WiezenError(_('entry {no} is voided: amend an entry that counts').format(no=no))
                raise WiezenError(_('no entry {no} in this session').format(no=no))
            if expect is not None and target[0].id != expect:
                raise WiezenError(_('nothing amended: entry #{no} was changed meanwhile (now {text})').format(no=no, text=target[0].text))
            if target[0].kind in SEAT_KINDS or e.kind in SEAT_KINDS:
                raise WiezenError(_("entry {no}: a player joining or leaving is not amended: undo it while it is the "
                                    "last entry, or record another join or leave").format(no=no))
            inputs = [(r.no, e if r.no == no else r.as_input()) for r in rows]
            result = fold(inputs, s.rules, s.first_players, s.first_dealer)
            new_id: int | None = None
            rescored: list[int] = []
            for r, sc in zip(rows, result.scored, strict=False):
                if r.no == no:
                    new_id = self._insert(s, no, sc, replaces=r.id)
                    self._void(r.id, "amend", new_id, reason)
                    new_sc = sc
                elif r.no > no and not _same(r, sc):
                    nid = self._insert(s, r.no, sc, replaces=r.id)
                    self._void(r.id, "amend", nid, f"re-scored after the amendment of entry {no}")
                    rescored.append(r.no)
        return new_sc, rescored

    def entries(self, s: SessionInfo, since_no: int = 0) -> list[EntryRow]:
        """Every entry of the session (voided ones too), in sheet order."""
        names = dict(zip(s.player_ids, s.players, strict=False))
        pts: dict[int, dict[str, Points]] = {}
        tk: dict[int, dict[str, bool]] = {}
        for eid, pid, six, taker, made in self.conn.execute(
            "SELECT ep.entry_id, ep.player_id, ep.sixth, ep.taker, ep.made FROM entry_points ep "
            "JOIN entries e ON e.id = ep.entry_id WHERE e.session_id = ? AND e.no >= ?",
            (s.id, since_no),
        ):
            pts.setdefault(eid, {})[names[pid]] = from_sixths(six)
            if taker:
                tk.setdefault(eid, {})[names[pid]] = bool(made)
        out = []
        order = {p: i for i, p in enumerate(s.players)}
        for r in self.conn.execute(
            "SELECT e.id, e.uid, e.no, e.kind, e.text, e.contract, e.dealer, e.multiplier, p.name, e.round, e.deal_no, "
            "e.reason, e.next_dealer, e.next_multiplier, e.replaces, e.created_at, v.action, v.by_entry, v.reason "
            "FROM entries e LEFT JOIN players p ON p.id = e.offender_id LEFT JOIN voids v ON v.entry_id = e.id "
            "WHERE e.session_id = ? AND e.no >= ? ORDER BY e.no, e.id",
            (s.id, since_no),
        ):
            p = pts.get(r[0], {})
            out.append(EntryRow(
                id=r[0], uid=r[1], no=r[2], kind=r[3], text=r[4], contract=r[5], dealer=r[6], multiplier=r[7],
                offender=r[8] or "", round=bool(r[9]), deal_no=r[10], reason=r[11], next_dealer=r[12],
                next_multiplier=r[13], replaces=r[14], created_at=r[15],
                points=dict(sorted(p.items(), key=lambda kv: order[kv[0]])), takers=tk.get(r[0], {}),
                voided=r[16] is not None, void_action=r[16], voided_by=r[17], void_reason=r[18] or "",
            ))
        return out

    def replay(
        self,
        text: str,
        resolve_rules: Callable[[str], tuple[HouseRules, str]],
        today: str,
        default_name: str = "",
        keep_open: bool = False,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[int, bool]:
        """Record a whole session file in one transaction. Returns (session id, recorded now?).

        ``progress(n)`` is called as lines are recorded (n lines at a time), for a progress bar."""
        from ..core.sessionfile import Amend, Header, Line, Undo, parse_line
        from .memo import MemoFold

        digest = content_hash(text)
        existing = self.session_by_hash(digest) or self.session_by_hash(file_hash(text))  # (older wiezen: bytes)
        if existing is not None:
            return existing, False
        lines: list[tuple[int, Line]] = []
        for no, raw in enumerate(text.splitlines(), 1):
            try:
                item = parse_line(raw)
            except WiezenError as e:
                raise WiezenError(_('line {no}: {error}').format(no=no, error=e)) from None
            if item is not None:
                lines.append((no, item))
        name, date, rules_spec, players, dealer = default_name, today, "whisthub", None, ""
        tag: str | None = None
        rnd: int | None = None
        tno: int | None = None
        body_start = 0
        for i, (_no, item) in enumerate(lines):
            if not isinstance(item, Header):
                break
            body_start = i + 1
            if item.key == "session":
                name = item.name or name
                date = item.date or date
            elif item.key == "rules":
                rules_spec = item.rules
            elif item.key == "players":
                players, dealer = list(item.players), item.dealer
            elif item.key == "tag":
                tag = item.tag
            elif item.key == "round":
                rnd, tno = item.round or rnd, item.table or tno
        if players is None:
            raise WiezenError(_("the session file has no 'players' line before its first deal"))
        body: list[tuple[int, EntryInput | Undo | Amend]] = []
        for no, item in lines[body_start:]:
            if isinstance(item, Header):
                raise WiezenError(_("line {no}: '{key}' belongs at the top of the file, before the first deal").format(no=no, key=item.key))
            body.append((no, item))
        try:
            date = session_setup(players, dealer, date, Date.fromisoformat(today))[2]
            rules, rules_text = resolve_rules(rules_spec)
        except WiezenError as e:
            raise WiezenError(_('session file: {error}').format(error=e)) from None
        with self.write():
            if self.session_by_hash(digest) is not None:  # recorded by another process meanwhile
                return int(self.session_by_hash(digest) or 0), False
            s = self.begin(players, rules, rules_text, dealer, name, date, digest, closed=not keep_open,
                           tag=tag, round=rnd, table=tno)
            f = MemoFold(rules, s.players, TableState(s.first_dealer, 1))
            ids: dict[int, int] = {}  # entry number -> row id of the entries that count
            batch: list[tuple[int, NewEntry]] = []  # entries not written yet (written together, in order)
            pids = dict(zip(s.players, s.player_ids, strict=False))
            scored_rows: dict[int, tuple[Scored, tuple[tuple[int, int, bool | None], ...]]] = {}

            def flush() -> None:
                for (no, _entry), eid in zip(batch, insert_entries(self.conn, [ne for _no, ne in batch]), strict=False):
                    ids[no] = eid
                batch.clear()

            next_no = 1
            for i, (lineno, item) in enumerate(body):
                if progress is not None and i % 100 == 99:
                    progress(100)
                try:
                    if isinstance(item, Undo):
                        flush()  # an undo voids a written entry, after every entry before it
                        self._void(ids.pop(f.undo()), "undo", None, item.reason)
                    elif isinstance(item, Amend):
                        raise WiezenError(_("amend is for correcting a recorded session; in a session file, fix the line instead"))
                    else:
                        if item.kind == "join" and item.offender.strip():
                            item = replace(item, offender=self.known_player_name(item.offender.strip()))
                        sc = f.score(item)
                        if sc.kind == "join":  # a newcomer: his seat and player rows first
                            flush()
                            s = self._seat_newcomer(s, sc)
                            pids = dict(zip(s.players, s.player_ids, strict=False))
                        batch.append((next_no, self._new_entry(s, next_no, sc, ids=pids, scored_rows=scored_rows)))
                        f.take(next_no, sc)
                        next_no += 1
                        if len(batch) >= 2000:
                            flush()
                except WiezenError as e:
                    raise WiezenError(_('line {no}: {error}').format(no=lineno, error=e)) from None
            flush()
        return s.id, True



def _correction_reason(s: SessionInfo, reason: str) -> None:
    if s.ended_at is not None and not reason.strip():
        raise WiezenError(
            _('session {id} has ended: a correction after the evening needs a reason (--reason TEXT); nothing was changed').format(id=s.id)
        )


def _same(r: EntryRow, sc: Scored) -> bool:
    """The stored entry already says what the corrected history gives: the same dealer, multiplier, line and
    points. (A pending doubling carried through a rondje pas or a penalty is not the entry's own: see state().)"""
    return (
        r.dealer == sc.dealer
        and r.multiplier == sc.multiplier
        and r.text.casefold() == sc.text.casefold()  # an imported entry may spell a name in another case
        and dict(r.points) == dict(sc.points)
    )


def content_hash(text: str) -> str:
    """The evening a session file holds, by its content: the lines that count (no blank lines, no comments),
    in NFC, with runs of spaces as one, case folded (``JAN`` is ``jan``). Replaying the same evening with a
    comment added, a name in capitals or other spacing is recognised; a different deal is a different evening."""
    import hashlib
    import unicodedata

    lines = []
    for raw in text.splitlines():
        line = " ".join(unicodedata.normalize("NFC", raw).split()).lstrip("\ufeff")
        if line and not line.startswith("#"):
            lines.append(unicodedata.normalize("NFC", line.casefold()))
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogatepass")).hexdigest()


def file_hash(text: str) -> str:
    import hashlib

    norm = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha256(norm.encode("utf-8")).hexdigest()
