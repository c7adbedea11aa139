"""The ledger's sessions: starting, ending and finding one, its seals, totals and counts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from datetime import date as Date
from typing import TYPE_CHECKING, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.rules import HouseRules
from ..core.scoring import Points
from ..core.session import seating_after
from .players import Players
from .rows import COUNTS, JOINED_SEAT, SessionInfo, _num, end_session_row, insert_seal, insert_session, new_uid, now

if TYPE_CHECKING:
    from .seals import Seal


#: the table a command works at (`--table N`, $WIEZEN_TABLE), for every ledger opened while it runs; None: the open
#: session when only one is open (a server that follows several tables gives each ledger its own, ``Sessions.table``)
CHOSEN_TABLE: ContextVar[int | str | None] = ContextVar("wiezen_table", default=None)


class SessionItem(TypedDict):
    """One session of the `sessions` list."""

    id: int
    date: str
    name: str
    rules: str
    open: bool
    players: list[str]
    deals: int
    leader: str  # the players with the highest total (ties: all), "" before anyone scored
    totals: dict[str, Points]
    void: str | None  # why the session counts nowhere (`session void`), else None


class Sessions(Players):
    """Sessions: one open session, or one open session per table on a club night; an ended one is sealed."""

    #: the table this ledger works at: set by its user, else :data:`CHOSEN_TABLE` when it is read
    table: int | str | None = None

    def chosen_table(self) -> int | str | None:
        return self.table if self.table is not None else CHOSEN_TABLE.get()

    def open_sessions(self) -> list[SessionInfo]:
        """Every open session, by table."""
        ids = [int(r[0]) for r in self.conn.execute(
            "SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY table_no, id")]
        return [s for s in (self._session("id = ?", (i,)) for i in ids) if s is not None]

    def several_open_error(self, open_now: list[SessionInfo]) -> WiezenError:
        tables = "; ".join(f"{s.table}: {', '.join(s.at_table)}" for s in open_now)
        return WiezenError(_("{n} tables are open ({tables}): choose one with --table (or $WIEZEN_TABLE)").format(
            n=len(open_now), tables=tables))

    def _session(self, where: str, args: Sequence[object]) -> SessionInfo | None:
        row = self.conn.execute(
            "SELECT id, uid, name, date, rules_name, rules_toml, first_dealer, started_at, ended_at, plan, tag, round, "
            "table_no "
            f"FROM sessions WHERE {where}",
            tuple(args),
        ).fetchone()
        if row is None:
            return None
        seats = self.conn.execute(
            "SELECT p.name, p.id, s.seat FROM seats s JOIN players p ON p.id = s.player_id WHERE s.session_id = ? "
            "ORDER BY s.seat",
            (row[0],),
        ).fetchall()
        # the players who came and went (`session join`, `session leave`; an index of their own)
        moves = [t for (t,) in self.conn.execute(
            "SELECT e.text FROM entries e WHERE e.session_id = ? AND e.kind IN ('join', 'leave') "
            f"AND {COUNTS} ORDER BY e.no, e.id", (row[0],))]
        initial = tuple(s[0] for s in seats if s[2] < JOINED_SEAT)
        return SessionInfo(
            id=row[0], uid=row[1], name=row[2], date=row[3], rules_name=row[4], rules_toml=row[5],
            players=tuple(s[0] for s in seats), player_ids=tuple(s[1] for s in seats), first_dealer=row[6],
            started_at=row[7], ended_at=row[8], plan=row[9], tag=row[10], round=row[11], table=row[12],
            **({"initial": initial, "seating": seating_after(initial, moves)} if len(initial) < len(seats) or moves
               else {}),
        )

    def seating_at(self, s: SessionInfo) -> Callable[[int], tuple[str, ...]]:
        """The seat order at entry number N of session ``s`` (what its dealer seat counts in): the seats it
        started with, after the joins and leaves that count before N."""
        if not s.initial:
            return lambda _no: s.players
        moves = [(int(no), str(t)) for no, t in self.conn.execute(
            "SELECT e.no, e.text FROM entries e WHERE e.session_id = ? AND e.kind IN ('join', 'leave') "
            f"AND {COUNTS} ORDER BY e.no, e.id", (s.id,))]
        cache: dict[int, tuple[str, ...]] = {}

        def at(no: int) -> tuple[str, ...]:
            k = sum(1 for n, _t in moves if n < no)
            if k not in cache:
                cache[k] = seating_after(s.initial, [t for _n, t in moves[:k]])
            return cache[k]

        return at

    def open_session(self) -> SessionInfo | None:
        """The open session at the chosen table; with none chosen, the open session, or an error naming the tables
        when several are open (a club night)."""
        table = self.chosen_table()
        if table is not None:
            return self._session("ended_at IS NULL AND table_no = ? ORDER BY id DESC LIMIT 1", (table,))
        ids = self.conn.execute("SELECT id FROM sessions WHERE ended_at IS NULL ORDER BY id DESC LIMIT 2").fetchall()
        if len(ids) > 1:
            raise self.several_open_error(self.open_sessions())
        return self._session("id = ?", (ids[0][0],)) if ids else None

    def session(self, session_id: int | None = None) -> SessionInfo:
        """Session ``session_id``, or the open one, or the newest one when none is open."""
        if session_id is not None:
            s = self._session("id = ?", (session_id,))
            if s is None:
                raise WiezenError(_('no session {session_id} (see `wiezen sessions`)').format(session_id=session_id))
            return s
        table = self.chosen_table()
        if table is not None:  # the table's open session, else its latest
            s = self.open_session() or self._session("table_no = ? ORDER BY id DESC LIMIT 1", (table,))
            if s is None:
                raise WiezenError(_("no session at table {table} yet").format(table=table))
            return s
        s = self.open_session() or self._session("1 ORDER BY date DESC, id DESC LIMIT 1", ())
        if s is None:
            raise WiezenError(_("no sessions yet: start one with `wiezen session start --players jan,piet,mieke,lotte`"))
        return s

    def require_open(self) -> SessionInfo:
        s = self.open_session()
        if s is None:
            table = self.chosen_table()
            if table is not None:
                others = [str(o.table) if o.table is not None else _("an evening without a table")
                          for o in self.open_sessions()]
                raise WiezenError(_("no open session at table {table} (open tables: {tables}): start one with "
                                    "`wiezen session start --players ... --table {table}`").format(
                    table=table, tables=", ".join(others) or _("none")))
            raise WiezenError(_("no open session: start one with `wiezen session start --players jan,piet,mieke,lotte`"))
        return s

    def _may_open(self, names: Sequence[str], table: int | str | None) -> None:
        """A new open session: alone, or at a table of its own beside other tables, none of its players at another."""
        open_now = self.open_sessions()
        if not open_now:
            return
        if table is None:
            s = open_now[0]
            if len(open_now) > 1 or s.table is not None:
                raise WiezenError(_("tables {tables} are open: start this one at a table of its own (--table N), or end "
                                    "them first").format(tables=", ".join(str(o.table) for o in open_now)))
            raise WiezenError(
                _('session {id} ({value}) is still open: end it first with `wiezen session end`').format(id=s.id, value=s.name or s.date)
            )
        for s in open_now:
            if s.table is None:
                raise WiezenError(_("session {id} ({players}) is open without a table: end it first, or start every table "
                                    "of the night with --table").format(id=s.id, players=", ".join(s.players)))
            if s.table == table:
                raise WiezenError(_("table {table} is in use by session {id} ({players}): end it first, or choose another "
                                    "table").format(table=table, id=s.id, players=", ".join(s.players)))
        from ..core.names import name_key

        seated = {name_key(p): o for o in open_now for p in o.at_table}  # (who left a table is free)
        for p in names:
            at = seated.get(name_key(p))
            if at is not None:
                raise WiezenError(_("{player} sits at table {table} (session {id}): a player sits at one open table at a "
                                    "time").format(player=p, table=at.table, id=at.id))

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
        table: int | str | None = None,
    ) -> int:
        """Insert a session (inside a write transaction); players are named as first recorded. ``plan``: the
        evening's length (core/evening.py)."""
        if not closed:
            self._may_open(players, table)
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
        table: int | str | None = None,
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

    def seals(self, session_id: int) -> list[Seal]:
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

    def sessions(self, since: str | None = None, until: str | None = None) -> list[SessionItem]:
        q = (
            "SELECT s.id, s.date, s.name, s.rules_name, s.ended_at IS NULL AS open, "
            "(SELECT group_concat(name, ',') FROM (SELECT p.name FROM seats st JOIN players p ON p.id = st.player_id "
            "  WHERE st.session_id = s.id ORDER BY st.seat)) AS players, "
            "(SELECT count(*) FROM entries e WHERE e.session_id = s.id AND e.kind = 'deal' "
            f"  AND {COUNTS}) AS deals, "
            "(SELECT reason FROM session_voids sv WHERE sv.session_id = s.id) AS void "
            "FROM sessions s WHERE (? IS NULL OR s.date >= ?) AND (? IS NULL OR s.date <= ?) "
            "ORDER BY s.date DESC, s.id DESC"
        )
        out: list[SessionItem] = []
        for r in self.conn.execute(q, (since, since, until, until)).fetchall():
            totals = self.totals(r[0])
            top = max(totals.values()) if totals and any(totals.values()) else None
            leader = ", ".join(p for p, v in totals.items() if v == top) if top is not None else ""  # ties: all
            out.append({
                "id": r[0], "date": r[1], "name": r[2], "rules": r[3], "open": bool(r[4]),
                "players": (r[5] or "").split(","), "deals": r[6], "leader": leader,
                "totals": totals, "void": r[7],  # the reason a void session counts nowhere, else None
            })
        return out

    def deals_played(self, s: SessionInfo) -> int:
        """Deals with a contract that count (not a rondje pas, a redeal or a penalty)."""
        return int(self.conn.execute(
            "SELECT count(*) FROM entries e WHERE e.session_id = ? AND e.kind = 'deal' "
            "AND NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id)", (s.id,),
        ).fetchone()[0])

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

    from ..core.names import check_table, name_key, normalize_name
    from ..core.text import require_utf8

    names = [normalize_name(require_utf8(n, _("the player name '{name}'").format(name=n))) for n in names]
    if not 4 <= len(names) <= 6:
        raise WiezenError(_('a table has 4 to 6 players, not {n}').format(n=len(names)))
    for n in names:
        check_player_name(n)
    if len({name_key(n) for n in names}) != len(names):
        raise WiezenError(_('a player is named twice: {names}').format(names=', '.join(names)))
    check_table(names)
    return names


def check_player_name(name: str) -> None:
    """A name a spreadsheet cannot mistake for a formula: a letter first; then letters, digits, . ' _ or -."""
    import re

    if not re.match(r"^[^\W\d_][\w.'-]{0,29}$", name):
        raise WiezenError(
            _("'{name}' is not a usable player name: start with a letter; then letters, digits, . ' _ or - (no spaces, no '+', at most 30 characters)").format(name=name)
        )
