"""The Ledger: reading and recording sessions and entries, and the conveniences the command line opens it with."""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from datetime import date as Date
from datetime import datetime
from typing import Any, Callable, Iterator, Sequence

from ..core.errors import WiezenError
from ..core.rules import HouseRules
from ..core.scoring import Points
from ..core.session import EntryInput, Fold, Scored, TableState, fold, queue_state, queued_after
from .connection import APP_ID, _connect, checkpoint, db_error
from .paths import existing_db_path, resolve_path
from .rows import (
    COUNTS, EntryRow, NewEntry, SessionInfo, _num, end_session_row, half_points, insert_entry, insert_house_rules,
    insert_player, insert_seal, insert_session, insert_void, new_uid, now,
)
from .bulk import insert_entries

__all__ = ["Ledger", "half_points", "open_ledger", "session_setup"]



from .schema import SCHEMA_VERSION, _migrations
from ..core.i18n import _, ngettext


class Ledger:
    def __init__(self, path: str, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self._recording = False
        self._writing = False  # inside write(): a nested write() joins the transaction
        # "queue" house rules: the doubled deals still owed, counted from the whole session (see state()), kept
        # per session with what would change it: (PRAGMA data_version, conn.total_changes) -> owed
        self._owed: dict[int, tuple[tuple[int, int], int]] = {}
        self.notes: list[str] = []  # what an upgrade of the ledger did, for the user
        existed = os.path.exists(path) and os.path.getsize(path) > 0
        self.conn = _connect(path, readonly)
        try:
            try:
                self._check_schema(existed)
            except sqlite3.OperationalError as e:
                folder = os.path.dirname(os.path.abspath(path))
                low = str(e).lower()
                if not (readonly and ("unable to open" in low or "readonly" in low) and not os.access(folder, os.W_OK)
                        and not os.path.exists(path + "-wal")):
                    raise
                # a WAL ledger in a folder we may not write: SQLite cannot make its -shm file there. With no
                # -wal file, every committed change is in the file itself: read it as an immutable file
                self.conn.close()
                self.conn = _connect(path, readonly=True, immutable=True)
                self._check_schema(existed)
        except sqlite3.Error as e:
            self.conn.close()
            raise db_error(e, path, reading=readonly) from None
        except BaseException:
            self.conn.close()
            raise

    # -- schema -----------------------------------------------------------
    def _check_schema(self, existed: bool) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise WiezenError(
                _("the ledger '{path}' was written by a newer wiezen (schema {version}, this one knows {schema}): upgrade wiezen").format(path=self.path, version=version, schema=SCHEMA_VERSION)
            )
        if version == 0 and existed:
            app = self.conn.execute("PRAGMA application_id").fetchone()[0]
            tables = self.conn.execute("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0]
            if tables and app != APP_ID:
                raise WiezenError(_("'{path}' is an SQLite database, but not a wiezen ledger").format(path=self.path))
        if self.readonly and 0 < version:
            # a reading command on a ledger of an older wiezen: upgrade it (backup first), then read
            self.conn.close()
            try:
                upgraded = Ledger(self.path)
                self.notes += upgraded.notes
                upgraded.close()
            except WiezenError as e:
                raise WiezenError(_('the ledger needs an upgrade to schema {schema} before it can be read: {error}').format(schema=SCHEMA_VERSION, error=e)) from None
            self.conn = _connect(self.path, readonly=True)
            return
        if self.readonly:
            raise WiezenError(_("the ledger '{path}' is empty: start a session first").format(path=self.path))
        self._migrate(version, existed)

    def _migrate(self, version: int, existed: bool) -> None:
        try:
            self.conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError:
            pass  # another process holds it; it is already WAL or will be
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:  # another process migrated while we waited
                self.conn.execute("COMMIT")
                return
            if version > 0 and existed:
                self.last_backup = self._backup_before_migration(version)
            had_chain = version >= 6
            if version == 0 and self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                from .fresh_build import create

                create(self.conn)  # a new ledger: the schema the migrations leave, made in one step (fresh.py)
            else:
                from sqlite_utils import Database

                _migrations().apply(Database(self.conn))
            if version > 0 and existed and not had_chain:
                n = self.conn.execute("SELECT count(*) FROM seals").fetchone()[0]
                self.notes.append(
                    ngettext(
                        "the ledger now keeps its history in a hash chain: {n} ended session "
                        "sealed as they were (`wiezen sheet --session ID` shows a session's seal)",
                        "the ledger now keeps its history in a hash chain: {n} ended sessions "
                        "sealed as they were (`wiezen sheet --session ID` shows a session's seal)",
                        n,
                    ).format(n=n)
                )
            self.conn.execute(f"PRAGMA application_id = {APP_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.conn.execute("COMMIT")
            checkpoint(self.conn)
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def _backup_before_migration(self, version: int) -> str:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.before-schema-{SCHEMA_VERSION}-from-{version}-{stamp}.bak"
        n = 1
        while os.path.exists(target):  # never overwrite an earlier backup
            n += 1
            target = f"{self.path}.before-schema-{SCHEMA_VERSION}-from-{version}-{stamp}-{n}.bak"
        # self.conn holds the write lock (BEGIN IMMEDIATE): a backup from it would get SQLITE_LOCKED, on
        # which Python's backup() retries forever. A second connection reads the same, pre-migration state.
        from .files import atomic_file

        src = _connect(self.path, readonly=True)
        try:
            with atomic_file(target, "copy made before the upgrade") as tmp:
                self._copy_to(tmp, src)
        finally:
            src.close()
        return target

    def _copy_to(self, target: str, src: sqlite3.Connection | None = None) -> None:
        """SQLite's online backup API into a new file; a half-written copy is removed."""
        try:
            dst = sqlite3.connect(target)
            try:
                (src or self.conn).backup(dst)
            finally:
                dst.close()
        except BaseException:
            for suffix in ("", "-journal", "-wal", "-shm"):
                try:
                    os.remove(target + suffix)
                except OSError:
                    pass
            raise

    def backup(self, target: str, force: bool = False) -> None:
        """A consistent copy through SQLite's online backup API, written under a temporary name and renamed
        when whole. Never over this ledger; over an existing file only with ``force``."""
        from .files import atomic_file, refuse_target

        refuse_target(target, self.path, force, "backup", any_file=True)
        try:
            with atomic_file(target, "backup") as tmp:
                self._copy_to(tmp)
        except sqlite3.Error as e:
            folder = os.path.dirname(os.path.abspath(target))
            if not os.path.isdir(folder):
                raise WiezenError(_("cannot write the backup '{target}': the folder '{folder}' does not exist").format(target=target, folder=folder)) from None
            if not os.access(folder, os.W_OK):
                raise WiezenError(_("cannot write the backup '{target}': the folder '{folder}' is read-only").format(target=target, folder=folder)) from None
            raise WiezenError(_("cannot write the backup '{target}': {error}").format(target=target, error=e)) from None

    def close(self) -> None:
        """Close the connection; a writable ledger first copies its journal into the file (connection.checkpoint),
        so that the bare file is whole even when another process keeps a reader open."""
        if not self.readonly:
            checkpoint(self.conn)
        self.conn.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction taken at once (BEGIN IMMEDIATE): all or nothing.

        A write() inside another one joins it: the outer one commits (or rolls back) the whole.
        """
        if self.readonly:
            raise WiezenError(_("the ledger '{path}' is open read-only").format(path=self.path))
        c = self.conn
        if self._writing:
            yield c
            return
        if not self._recording:
            from .chain import install_recorders

            install_recorders(c)
            self._recording = True
        try:
            c.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise db_error(e, self.path) from None
        self._writing = True
        try:
            yield c
            from .chain import sync

            sync(c, now())  # every fact written gets its link in the chain, in the same transaction
            c.execute("COMMIT")
            checkpoint(c)  # the bare file holds this write at once, whatever ends the command next
        except BaseException as e:
            self._owed.clear()  # counted from rows that are gone now
            if c.in_transaction:
                c.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise db_error(e, self.path) from None
            raise
        finally:
            self._writing = False

    # -- players ------------------------------------------------------------
    def player_id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        return insert_player(self.conn, name)

    def known_player_name(self, name: str) -> str:
        """The spelling a player was first recorded with: names match by NFC and Unicode case folding
        (``Émile`` is ``émile``). A new name that looks like a known player's (``jаn`` with a Cyrillic
        ``а`` beside ``jan``) is refused."""
        from ..core.names import confusable, name_key, normalize_name

        name = normalize_name(name)
        row = self.conn.execute("SELECT name FROM players WHERE name = ?", (name,)).fetchone()
        if row:
            return str(row[0])
        known = [str(r[0]) for r in self.conn.execute("SELECT name FROM players ORDER BY id")]
        key = name_key(name)
        same = next((k for k in known if name_key(k) == key), None)
        if same is not None:
            return same
        other = confusable(name, known)
        if other is not None:
            raise WiezenError(
                _("'{name}' looks the same on screen as '{other}', a player this ledger knows: if it is {other}, type {other}; else give the new player another name").format(name=name, other=other)
            )
        return name

    # -- house rules ----------------------------------------------------------
    def rules_text(self, name: str) -> str | None:
        row = self.conn.execute(
            "SELECT toml FROM house_rules WHERE name = ? ORDER BY id DESC LIMIT 1", (name,)
        ).fetchone()
        return str(row[0]) if row else None

    def added_rules(self) -> list[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT name, toml FROM house_rules h WHERE id = (SELECT max(id) FROM house_rules WHERE name = h.name) "
            "ORDER BY name"
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def add_rules(self, name: str, text: str, reason: str | None = None) -> str:
        with self.write() as c:
            old = self.rules_text(name)
            if old == text:
                return _("house rules '{name}' are already added, unchanged").format(name=name)
            insert_house_rules(c, name, text, reason or "")
            pid = self._on_rules_added(name, old, text, reason)
        if old is None:
            return _("added house rules '{name}'").format(name=name)
        return _("replaced house rules '{name}' for new sessions (sessions already recorded keep theirs)").format(
            name=name
        ) + (_("; recorded as precedent {id} (`wiezen precedent show {id}`)").format(id=pid) if pid else "")

    def _on_rules_added(self, name: str, old: str | None, new: str, reason: str | None) -> int | None:
        """Hook for the precedents log: replaced house rules are a ruling worth keeping.

        Records a precedent listing what changed (old and new values); returns its id, or None when the
        house rules are new or only their comments changed.
        """
        from ..core import dates
        if old is None:
            return None

        from .precedents import rules_changed

        return rules_changed(self, name, old, new, reason, dates.today().isoformat())

    # -- sessions -------------------------------------------------------------
    def _session(self, where: str, args: Sequence[Any]) -> SessionInfo | None:
        row = self.conn.execute(
            "SELECT id, uid, name, date, rules_name, rules_toml, first_dealer, started_at, ended_at, plan, tag, round, "
            "table_no "
            f"FROM sessions WHERE {where}",
            tuple(args),
        ).fetchone()
        if row is None:
            return None
        seats = self.conn.execute(
            "SELECT p.name, p.id FROM seats s JOIN players p ON p.id = s.player_id WHERE s.session_id = ? ORDER BY s.seat",
            (row[0],),
        ).fetchall()
        return SessionInfo(
            id=row[0], uid=row[1], name=row[2], date=row[3], rules_name=row[4], rules_toml=row[5],
            players=tuple(s[0] for s in seats), player_ids=tuple(s[1] for s in seats), first_dealer=row[6],
            started_at=row[7], ended_at=row[8], plan=row[9], tag=row[10], round=row[11], table=row[12],
        )

    def open_session(self) -> SessionInfo | None:
        return self._session("ended_at IS NULL ORDER BY id DESC LIMIT 1", ())

    def session(self, session_id: int | None = None) -> SessionInfo:
        """Session ``session_id``, or the open one, or the newest one when none is open."""
        if session_id is not None:
            s = self._session("id = ?", (session_id,))
            if s is None:
                raise WiezenError(_('no session {session_id} (see `wiezen sessions`)').format(session_id=session_id))
            return s
        s = self.open_session() or self._session("1 ORDER BY date DESC, id DESC LIMIT 1", ())
        if s is None:
            raise WiezenError(_("no sessions yet: start one with `wiezen session start --players jan,piet,mieke,lotte`"))
        return s

    def require_open(self) -> SessionInfo:
        s = self.open_session()
        if s is None:
            raise WiezenError(_("no open session: start one with `wiezen session start --players jan,piet,mieke,lotte`"))
        return s

    def start_session(
        self,
        players: Sequence[str],
        rules_name: str,
        rules_toml: str,
        first_dealer: int = 0,
        name: str = "",
        date: str = "",
        source_hash: str | None = None,
        closed: bool = False,
        uid: str | None = None,
        plan: str | None = None,
        tag: str | None = None,
        round: int | None = None,
        table: int | None = None,
    ) -> int:
        """Insert a session (inside a write transaction); players are named as first recorded. ``plan``: the
        evening's length (core/evening.py)."""
        if not closed and self.open_session() is not None:
            s = self.open_session()
            assert s is not None
            raise WiezenError(
                _('session {id} ({value}) is still open: end it first with `wiezen session end`').format(id=s.id, value=s.name or s.date)
            )
        ts = now()
        return insert_session(
            self.conn, uid=uid or new_uid(), name=name, date=date, rules_name=rules_name, rules_toml=rules_toml,
            first_dealer=first_dealer, started_at=ts, ended_at=ts if closed else None, source_hash=source_hash,
            player_ids=[self.player_id(self.known_player_name(p)) for p in players], plan=plan,
            tag=tag, round=round, table=table,
        )

    def begin(
        self,
        players: Sequence[str],
        rules: HouseRules,
        rules_text: str,
        dealer: str | None = None,
        name: str = "",
        date: str = "",
        source_hash: str | None = None,
        closed: bool = False,
        plan: str | None = None,
        tag: str | None = None,
        round: int | None = None,
        table: int | None = None,
    ) -> SessionInfo:
        """Start a session: the one way `session start`, `play` and `replay` open one.

        Checks the names, finds the first dealer, reads the date (today when empty) and writes the session,
        in the write transaction that is open, else in its own.
        """
        names, first, day = session_setup(players, dealer, date)
        if self.conn.in_transaction:
            sid = self.start_session(names, rules.name, rules_text, first, name, day, source_hash, closed, plan=plan,
                                     tag=tag, round=round, table=table)
        else:
            with self.write():
                sid = self.start_session(names, rules.name, rules_text, first, name, day, source_hash, closed, plan=plan,
                                     tag=tag, round=round, table=table)
        return self.session(sid)

    def end_session(self) -> SessionInfo:
        """End the open session and seal it (see :meth:`seals`)."""
        with self.write() as c:
            s = self.require_open()
            ts = now()
            end_session_row(c, s.id, ts)
            insert_seal(c, s.id, 1, ts)
        return s

    def seals(self, session_id: int) -> list[Any]:
        """The session's seals, oldest first: the first when it ended, one more after each correction."""
        from .seals import seals

        return seals(self.conn, session_id)

    def seal(self, session_id: int) -> str | None:
        """The session's current seal, None while it is open."""
        found = self.seals(session_id)
        return found[-1].code if found else None

    def corrections(self, session_id: int) -> dict[tuple[str, int], str]:
        """(\"entry\" or \"void\", row id) -> time, of what was recorded after the session ended."""
        from .seals import corrections

        return corrections(self.conn, session_id)

    def session_by_hash(self, source_hash: str) -> int | None:
        row = self.conn.execute("SELECT id FROM sessions WHERE source_hash = ?", (source_hash,)).fetchone()
        return int(row[0]) if row else None

    def sessions(self, since: str | None = None, until: str | None = None) -> list[dict[str, Any]]:
        q = (
            "SELECT s.id, s.date, s.name, s.rules_name, s.ended_at IS NULL AS open, "
            "(SELECT group_concat(name, ',') FROM (SELECT p.name FROM seats st JOIN players p ON p.id = st.player_id "
            "  WHERE st.session_id = s.id ORDER BY st.seat)) AS players, "
            "(SELECT count(*) FROM entries e WHERE e.session_id = s.id AND e.kind = 'deal' "
            f"  AND {COUNTS}) AS deals "
            "FROM sessions s WHERE (? IS NULL OR s.date >= ?) AND (? IS NULL OR s.date <= ?) "
            "ORDER BY s.date DESC, s.id DESC"
        )
        out = []
        for r in self.conn.execute(q, (since, since, until, until)).fetchall():
            totals = self.totals(r[0])
            top = max(totals.values()) if totals and any(totals.values()) else None
            leader = ", ".join(p for p, v in totals.items() if v == top) if top is not None else ""  # ties: all
            out.append({
                "id": r[0], "date": r[1], "name": r[2], "rules": r[3], "open": bool(r[4]),
                "players": (r[5] or "").split(","), "deals": r[6], "leader": leader,
                "totals": totals,
            })
        return out

    def deals_played(self, s: SessionInfo) -> int:
        """Deals with a contract that count (not a rondje pas, a redeal or a penalty)."""
        return int(self.conn.execute(
            "SELECT count(*) FROM entries e WHERE e.session_id = ? AND e.kind = 'deal' "
            "AND NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id)", (s.id,),
        ).fetchone()[0])

    # -- entries --------------------------------------------------------------
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

    def _unchanged(self) -> tuple[int, int]:
        """What changes with every change to the ledger: another connection's commit (PRAGMA data_version) or
        a row this connection wrote, committed or rolled back (total_changes)."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes

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
                   halves: dict[int, tuple[Scored, tuple[tuple[int, int, bool | None], ...]]] | None = None) -> NewEntry:
        """The row of entry ``no`` as scored (``ids``: the players' row ids by name, when known already;
        ``halves``: the points rows of entries scored before, by ``id(scored)``: a replay scores a line once
        and records it many times)."""
        if ids is None:
            ids = dict(zip(s.players, s.player_ids))
        if halves is not None:
            got = halves.get(id(sc))
            if got is None or got[0] is not sc:
                got = halves[id(sc)] = (sc, tuple((ids[p], half_points(v), sc.takers.get(p)) for p, v in sc.points.items()))
            rows: Sequence[tuple[int, int, bool | None]] = got[1]
        else:
            rows = [(ids[p], half_points(v), sc.takers.get(p)) for p, v in sc.points.items()]
        return NewEntry(
            uid=uid or new_uid(), session_id=s.id, no=no, kind=sc.kind, text=sc.text, contract=sc.contract or None,
            dealer=sc.dealer, multiplier=sc.multiplier, offender_id=ids[sc.offender] if sc.offender else None,
            round=sc.round, deal_no=sc.deal_no, reason=sc.reason, next_dealer=sc.after.dealer,
            next_multiplier=sc.after.pending, replaces=replaces, created_at=created_at or now(),
            halves=rows,
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
        then: Callable[[SessionInfo, int, Scored], Any] | None = None,
    ) -> tuple[int, Scored]:
        """Score and append one entry to the open session (or ``session_id``). Returns (entry no, scored).

        ``then(session, no, scored)`` runs in the same transaction (e.g. to record a precedent with it).
        """
        outermost = not self._writing  # (a write joined to an outer one may still be rolled back)
        with self.write():
            s = self.require_open() if session_id is None else self.session(session_id)
            state, no = self.state(s)
            owed = self._owed.get(s.id)
            before = owed[1] if owed is not None and owed[0] == self._unchanged() else None
            dp = self._deal_players(s) if e.kind == "penalty" and e.deal_no is not None else None
            sc = Fold(s.rules, s.players, state, dp).step(no, e)
            self._insert(s, no, sc)
            if then is not None:
                then(s, no, sc)
        if outermost and before is not None:  # committed: the owed count after the new last entry
            self._owed[s.id] = (self._unchanged(), queued_after([sc.kind], before))
        return no, sc

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
            inputs = [(r.no, e if r.no == no else r.as_input()) for r in rows]
            result = fold(inputs, s.rules, s.players, s.first_dealer)
            new_id: int | None = None
            rescored: list[int] = []
            for r, sc in zip(rows, result.scored):
                if r.no == no:
                    new_id = self._insert(s, no, sc, replaces=r.id)
                    self._void(r.id, "amend", new_id, reason)
                    new_sc = sc
                elif r.no > no and not _same(r, sc):
                    nid = self._insert(s, r.no, sc, replaces=r.id)
                    self._void(r.id, "amend", nid, f"re-scored after the amendment of entry {no}")
                    rescored.append(r.no)
        return new_sc, rescored

    def entry_count(self) -> int:
        """How many entries the ledger holds, in every session (voided ones too)."""
        return int(self.conn.execute("SELECT count(*) FROM entries").fetchone()[0])

    def row_count(self, s: SessionInfo) -> int:
        """How many rows the session's sheet has (voided entries too)."""
        return int(self.conn.execute("SELECT count(*) FROM entries WHERE session_id = ?", (s.id,)).fetchone()[0])

    def window_start(self, s: SessionInfo, last: int) -> int:
        """The entry number the last ``last`` rows of the sheet start at (one indexed read; 0 for all of them)."""
        row = self.conn.execute(
            "SELECT no FROM entries WHERE session_id = ? ORDER BY no DESC, id DESC LIMIT 1 OFFSET ?", (s.id, last - 1)
        ).fetchone()
        return int(row[0]) if row else 0

    def entries(self, s: SessionInfo, since_no: int = 0) -> list[EntryRow]:
        """Every entry of the session (voided ones too), in sheet order."""
        names = dict(zip(s.player_ids, s.players))
        pts: dict[int, dict[str, float]] = {}
        tk: dict[int, dict[str, bool]] = {}
        for eid, pid, v, taker, made in self.conn.execute(
            "SELECT ep.entry_id, ep.player_id, ep.points, ep.taker, ep.made FROM entry_points ep "
            "JOIN entries e ON e.id = ep.entry_id WHERE e.session_id = ? AND e.no >= ?",
            (s.id, since_no),
        ):
            pts.setdefault(eid, {})[names[pid]] = v
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

    def totals(self, session_id: int) -> dict[str, Points]:
        """Each player's total, in seat order: one indexed read of the session_totals cache."""
        rows = self.conn.execute(
            "SELECT p.name, coalesce(t.points, 0) FROM seats st JOIN players p ON p.id = st.player_id "
            "LEFT JOIN session_totals t ON t.session_id = st.session_id AND t.player_id = st.player_id "
            "WHERE st.session_id = ? ORDER BY st.seat",
            (session_id,),
        ).fetchall()
        return {name: _num(v) for name, v in rows}

    def summed_totals(self, session_id: int) -> dict[str, Points]:
        """The same totals summed from the entries themselves (what the cache must equal)."""
        rows = self.conn.execute(
            "SELECT p.name, coalesce(sum(ep.points), 0) FROM seats st JOIN players p ON p.id = st.player_id "
            "LEFT JOIN (SELECT ep.player_id, ep.points FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
            f"  WHERE e.session_id = ? AND {COUNTS}) ep "
            "  ON ep.player_id = st.player_id "
            "WHERE st.session_id = ? GROUP BY st.seat ORDER BY st.seat",
            (session_id, session_id),
        ).fetchall()
        return {name: _num(v) for name, v in rows}

    def rounds_owed(self, s: SessionInfo) -> dict[str, int]:
        out = {p: 0 for p in s.players}
        for name, n in self.conn.execute(
            "SELECT p.name, count(*) FROM entries e JOIN players p ON p.id = e.offender_id WHERE e.session_id = ? "
            f"AND e.round = 1 AND {COUNTS} GROUP BY p.name",
            (s.id,),
        ):
            out[name] = n
        return out


    # -- replay -------------------------------------------------------------
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
        from ..core.sessionfile import Amend, Header, Undo, parse_line
        from .memo import MemoFold

        digest = content_hash(text)
        existing = self.session_by_hash(digest) or self.session_by_hash(file_hash(text))  # (older wiezen: bytes)
        if existing is not None:
            return existing, False
        lines: list[tuple[int, Any]] = []
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
        for i, (no, item) in enumerate(lines):
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
        for no, item in lines[body_start:]:
            if isinstance(item, Header):
                raise WiezenError(_("line {no}: '{key}' belongs at the top of the file, before the first deal").format(no=no, key=item.key))
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
            pids = dict(zip(s.players, s.player_ids))
            halves: dict[int, tuple[Scored, tuple[tuple[int, int, bool | None], ...]]] = {}

            def flush() -> None:
                for (no, _entry), eid in zip(batch, insert_entries(self.conn, [ne for _no, ne in batch])):
                    ids[no] = eid
                batch.clear()

            next_no = 1
            for i, (lineno, item) in enumerate(lines[body_start:]):
                if progress is not None and i % 100 == 99:
                    progress(100)
                try:
                    if isinstance(item, Undo):
                        flush()  # an undo voids a written entry, after every entry before it
                        self._void(ids.pop(f.undo()), "undo", None, item.reason)
                    elif isinstance(item, Amend):
                        raise WiezenError(_("amend is for correcting a recorded session; in a session file, fix the line instead"))
                    else:
                        sc = f.score(item)
                        batch.append((next_no, self._new_entry(s, next_no, sc, ids=pids, halves=halves)))
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
        and dict(r.points) == {p: float(v) for p, v in sc.points.items()}
    )


# ---------------------------------------------------------------------------
# Module-level conveniences for the command line


@contextmanager
def open_ledger(
    opt: str | None, readonly: bool = False, create: Callable[[str], None] | None = None
) -> Iterator[Ledger]:
    """The ledger of --db / $WIEZEN_DB / the user data folder, checked before anything is created.

    Only a command that starts something may create a new ledger and its folder (``create``: called with the
    path when the command succeeded, to say so); for any other, a missing ledger is an error and no file
    appears. When the command fails, a new ledger it leaves empty is removed again, with the folders made for it.
    """
    from .paths import check_ledger_path, missing_folder, remove_ledger_files

    path = resolve_path(opt)
    exists = check_ledger_path(path)
    made: list[str] = []
    if not exists:
        if readonly or create is None:
            folder = missing_folder(path)
            raise WiezenError(
                (_("no ledger at '{path}' yet (its folder '{folder}' does not exist either): start a session first "
                   "(`wiezen session start --players ...`)") if folder
                 else _("no ledger at '{path}' yet: start a session first (`wiezen session start --players ...`)"))
                .format(path=path, folder=folder)
            )
        folder = missing_folder(path)
        while folder is not None:  # the folders to make, deepest first, so that a failure can remove them
            made.append(folder)
            parent = os.path.dirname(folder)
            folder = parent if parent != folder and not os.path.isdir(parent) else None
    ok = False
    try:
        led = Ledger(path, readonly=readonly)
        for note in led.notes:  # what an upgrade did: said once, on stderr, so that output stays clean
            import sys

            sys.stderr.write(_("note: {note}").format(note=note) + "\n")
        try:
            yield led
            ok = True
        except sqlite3.Error as e:
            raise db_error(e, path, reading=readonly) from None
        finally:
            led.close()
    finally:
        if not exists and create is not None:
            if not ok and _holds_nothing(path):  # the command failed: no new file is left behind
                remove_ledger_files(path)
                for folder in made:
                    try:
                        os.rmdir(folder)
                    except OSError:
                        break
            else:
                create(path)


def _holds_nothing(path: str) -> bool:
    """A ledger this command created holds no session, house rules or precedent (so nobody else wrote to it
    meanwhile): only then may the command that failed remove it again."""
    if not os.path.exists(path):
        return True
    try:
        from urllib.parse import quote

        conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            return not any(
                conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone()
                for t in ("sessions", "house_rules", "precedents", "players") if t in tables
            )
        finally:
            conn.close()
    except sqlite3.Error:
        return os.path.getsize(path) == 0


def peek_open_session(path: str) -> tuple[list[str], str] | None:
    """The four players of the open session's next deal and its house-rules text (read-only; None if none).

    At a table of five or six, those are the players who do not sit out the deal about to be dealt.
    """
    from ..core.session import active_players

    try:
        led = Ledger(path, readonly=True)
    except WiezenError:
        return None
    try:
        s = led.open_session()
        if s is None:
            return None
        state, _ = led.state(s)
        return list(active_players(s.players, state.dealer)), s.rules_toml
    except sqlite3.Error:
        return None
    finally:
        led.close()


def rules_lookup(opt: str | None) -> Callable[[str], str | None]:
    def lookup(name: str) -> str | None:
        path = existing_db_path(opt)
        if path is None:
            return None
        with open_ledger(path, readonly=True) as led:
            return led.rules_text(name)

    return lookup


def added_rules(opt: str | None) -> list[tuple[str, str]]:
    path = existing_db_path(opt)
    if path is None:
        return []
    with open_ledger(path, readonly=True) as led:
        return led.added_rules()


def session_setup(
    players: Sequence[str], dealer: str | None, date: str, today: Date | None = None
) -> tuple[list[str], int, str]:
    """A new session's names (checked), first dealer's seat and date (YYYY-MM-DD; any form `parse_when` reads,
    relative to ``today``; today when empty)."""
    from ..core import dates
    from ..core.dates import parse_when
    from ..core.deal import resolve_player

    names = check_player_names(list(players))
    first = names.index(resolve_player(dealer, names)) if dealer else 0
    today = today or dates.today()
    day = parse_when(date, today).isoformat() if date else today.isoformat()
    return names, first, day


def check_player_names(names: Sequence[str]) -> list[str]:
    """4 to 6 distinct names a spreadsheet cannot mistake for a formula (they start with a letter), each in
    one script and none looking like another (core/names.py). Returns them in NFC, the form stored."""
    import re

    from ..core.names import check_table, name_key, normalize_name
    from ..core.text import require_utf8

    names = [normalize_name(require_utf8(n, _("the player name '{name}'").format(name=n))) for n in names]
    if not 4 <= len(names) <= 6:
        raise WiezenError(_('a table has 4 to 6 players, not {n}').format(n=len(names)))
    for n in names:
        if not re.match(r"^[^\W\d_][\w.'-]{0,29}$", n):
            raise WiezenError(
                _("'{name}' is not a usable player name: start with a letter; then letters, digits, . ' _ or - (no spaces, no '+', at most 30 characters)").format(name=n)
            )
    if len({name_key(n) for n in names}) != len(names):
        raise WiezenError(_('a player is named twice: {names}').format(names=', '.join(names)))
    check_table(names)
    return names


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
