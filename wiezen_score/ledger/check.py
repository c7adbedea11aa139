"""`wiezen check`: the ledger's own bean-check.

Reads the database with plain SQL (it must not trust the data it checks, so it does not go through
:class:`Ledger`'s readers) and returns the problems as data, one small frozen record per problem:

- ``integrity``: SQLite's ``PRAGMA integrity_check`` is not ok;
- ``foreign-key``: a row refers to a row that does not exist (``PRAGMA foreign_key_check``);
- ``triggers``: an append-only trigger is missing, so rows could be changed behind the ledger's back;
- ``sum``: an entry's points do not add up to 0, or it has no points rows at all;
- ``chain``: the append-only chain is broken: a voided entry does not point at what voided it, an
  amendment does not point at the entry it replaced, two entries that count share a number;
- ``totals``: a session's stored totals (a cache kept by triggers) differ from the sum of its entries;
- ``session``: a session's seats or stored house rules cannot be used;
- ``rescore``: an entry that counts, re-scored from its deal line in the session's fold under the
  session's stored house rules, differs from what is stored (points, takers, dealer, multiplier, or the
  table state after it).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import NP_, _, pgettext
from ..core.numbers import signed
from .migrations import SCHEMA_VERSION
from .rows import COUNTS, JOINED_SEAT, from_sixths

if TYPE_CHECKING:
    from ..core.rules import HouseRules

APPEND_ONLY_TABLES = ("entries", "entry_points", "voids", "house_rules", "seats", "players")
NO_REPLACE_TABLES = ("entries", "entry_points", "voids", "seats", "house_rules", "sessions", "players")
REQUIRED_TRIGGERS = (
    tuple(f"{t}_no_{op}" for t in APPEND_ONLY_TABLES for op in ("update", "delete"))
    + ("sessions_keep_history", "sessions_no_delete")
    + tuple(f"{t}_no_replace" for t in NO_REPLACE_TABLES)
)


class ProblemDoc(TypedDict):
    """One problem of `wiezen check --json`."""

    check: str
    session: int | None
    entry: int | None
    entry_id: int | None
    message: str

#: each check by its name (JSON's "check", always English) as a line of `wiezen check` names it
CHECK_NAMES = {
    "integrity": NP_("check", "integrity"), "foreign-key": NP_("check", "foreign-key"), "sum": NP_("check", "sum"),
    "chain": NP_("check", "chain"), "totals": NP_("check", "totals"), "session": NP_("check", "session"),
    "rescore": NP_("check", "rescore"), "seal": NP_("check", "seal"), "search-index": NP_("check", "search-index"),
}


@dataclass(frozen=True)
class Problem:
    check: str  # integrity | foreign-key | triggers | sum | chain | totals | session | rescore
    message: str
    session_id: int | None = None
    entry_no: int | None = None  # the entry's number on its session's sheet
    entry_id: int | None = None  # the row id in the entries table

    def where(self) -> str:
        parts = []
        if self.session_id is not None:
            parts.append(_('session {session_id}').format(session_id=self.session_id))
        if self.entry_no is not None:
            parts.append(_('entry #{entry_no}').format(entry_no=self.entry_no))
        if self.entry_id is not None:
            parts.append(_('(id {entry_id})').format(entry_id=self.entry_id))
        return " ".join(parts)

    def line(self) -> str:
        where = self.where()
        name = pgettext("check", CHECK_NAMES[self.check]) if self.check in CHECK_NAMES else self.check
        return f"{name}: {where + ': ' if where else ''}{self.message}"

    def as_dict(self) -> ProblemDoc:
        return {
            "check": self.check, "session": self.session_id, "entry": self.entry_no, "entry_id": self.entry_id,
            "message": self.message,
        }


@dataclass(frozen=True)
class CheckResult:
    problems: tuple[Problem, ...]
    sessions: int = 0
    entries: int = 0
    voided: int = 0
    rescored: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems


def _fmt_points(d: dict[str, float]) -> str:
    return ", ".join(f"{p} {signed(float(v), plus_zero=True)}" for p, v in d.items()) or _("(none)")


# From this many links on, `wiezen check` verifies the chain in a second process while it runs its other checks
# (the two take about as long on a long ledger); below it the second process's start-up is not worth it.
def check_ledger(conn: sqlite3.Connection, progress: Callable[[int, int], None] | None = None) -> CheckResult:
    """Every check, in order; a check that cannot run (a damaged file) becomes a problem itself.

    ``progress(done, total)`` is called after each check (for a progress bar)."""
    problems: list[Problem] = []
    counts = {"sessions": 0, "entries": 0, "voided": 0, "rescored": 0}
    steps = (_integrity, _foreign_keys, _triggers, _chain_links, _sums, _chain, _totals, _evenings, _people,
             _search_index, _rescore)
    for i, step in enumerate(steps):
        if progress is not None and i:
            progress(i, len(steps))
        if not _run(step, conn, problems, counts):
            break  # the file is damaged: every further check would stumble on the same damage
    if progress is not None:
        progress(len(steps), len(steps))
    return CheckResult(tuple(problems), counts["sessions"], counts["entries"], counts["voided"], counts["rescored"])


def _run(step: Callable[[sqlite3.Connection, list[Problem], dict[str, int]], None], conn: sqlite3.Connection,
         problems: list[Problem], counts: dict[str, int]) -> bool:
    """Run one check; False when the file is damaged and no further check can read it."""
    try:
        step(conn, problems, counts)
    except sqlite3.DatabaseError as e:
        if "malformed" in str(e).lower() or "not a database" in str(e).lower():
            problems.append(Problem(
                "integrity", _('the file is damaged ({error}): restore a backup (`wiezen db path` lists those made before upgrades)').format(error=e),
            ))
            return False  # every further check would stumble on the same damage
        problems.append(Problem("integrity", _('the {check} check could not read the ledger: {error}').format(check=step.__name__.strip('_'), error=e)))
    except UnicodeDecodeError:
        # SQLite's own message quoted damaged bytes of the schema: the file is damaged all the same
        problems.append(Problem(
            "integrity", _("the file is damaged (its schema cannot be read): restore a backup "
            "(`wiezen db path` lists those made before upgrades)"),
        ))
        return False
    return True


def _integrity(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    rows = [str(r[0]) for r in conn.execute("PRAGMA integrity_check").fetchall()]
    if rows != ["ok"]:
        problems.extend(Problem("integrity", _('SQLite integrity_check: {r}').format(r=r)) for r in rows)


def _foreign_keys(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    for table, rowid, parent, _fkid in conn.execute("PRAGMA foreign_key_check").fetchall():
        if table == "entries" and rowid is not None:
            sid_no = conn.execute("SELECT session_id, no FROM entries WHERE id = ?", (rowid,)).fetchone()
            problems.append(Problem(
                "foreign-key", _('the entry refers to a missing row of {parent}').format(parent=parent),
                sid_no[0] if sid_no else None, sid_no[1] if sid_no else None, rowid,
            ))
        else:
            what = (_("row {id} of {table}").format(id=rowid, table=table) if rowid is not None
                    else _("a row of {table}").format(table=table))
            problems.append(Problem("foreign-key", _('{what} refers to a missing row of {parent}').format(what=what, parent=parent)))


_EXPECTED: dict[int, dict[tuple[str, str], str]] = {}


def expected_schema(version: int) -> dict[tuple[str, str], str]:
    """(type, name) -> SQL of every table, index, trigger and view that the migrations up to ``version`` make,
    built afresh in memory."""
    if version not in _EXPECTED and version == SCHEMA_VERSION:
        from .fresh_build import fresh_schema

        _EXPECTED[version] = fresh_schema()  # the same as the migrations make (tests/ledger/test_fresh_schema.py)
    if version not in _EXPECTED:
        from sqlite_utils import Database

        from .migrations import _migration_list, _migrations

        mem = sqlite3.connect(":memory:", isolation_level=None)
        try:
            names = [n for n, _ in _migration_list()][:version]
            stop = [n for n, _ in _migration_list()][version:version + 1]
            _migrations().apply(Database(mem), stop_before=stop[0] if stop else None)
            _EXPECTED[version] = _schema_of(mem)
            assert len(names) == version
        finally:
            mem.close()
    return _EXPECTED[version]


def _schema_of(conn: sqlite3.Connection) -> dict[tuple[str, str], str]:
    return {
        (t, n): " ".join(str(sql).split())
        for t, n, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
            "AND name <> '_sqlite_migrations'"
        )
    }


def _triggers(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """Every trigger, table, index and view must be exactly as the migrations made it: compared by SQL."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    want = expected_schema(version)
    have = _schema_of(conn)
    for (kind, name), sql in sorted(want.items()):
        got = have.get((kind, name))
        what = _("append-only trigger") if kind == "trigger" and ("_no_" in name or "keep_history" in name) else kind
        if got is None:
            problems.append(Problem(
                "triggers" if kind == "trigger" else "schema",
                _("the {what} {name} is missing: rows can be changed behind the ledger's back").format(what=what, name=name)
                if kind == "trigger"
                else _("the {kind} {name} is missing").format(kind=kind, name=name),
            ))
        elif got != sql:
            problems.append(Problem(
                "triggers" if kind == "trigger" else "schema",
                _('the {what} {name} is not the one wiezen made (its SQL was changed): {got}').format(what=what, name=name, got=got[:80]),
            ))
    for (kind, name) in sorted(set(have) - set(want)):
        problems.append(Problem(
            "triggers" if kind == "trigger" else "schema",
            _("the {kind} {name} is not one of wiezen's: it was added by hand").format(kind=kind, name=name),
        ))


def _chain_links(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """The hash chain: every row fits its link, every link its row, every ended session its seal."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chain'").fetchone() is None:
        return
    from .chain import verify

    for f in verify(conn):
        problems.append(Problem("chain", f.message, f.session_id, f.entry_no, f.entry_id))


def _search_index(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """The precedents' search index holds exactly the current version of every precedent."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'precedents_fts'").fetchone() is None:
        return
    want = {
        pid: (title, ruling, tags)
        for pid, title, ruling, tags in conn.execute(
            "SELECT v.precedent_id, v.title, v.ruling, (SELECT coalesce(group_concat(value, ' '), '') FROM json_each(v.tags)) "
            "FROM precedent_versions v WHERE v.version = (SELECT max(version) FROM precedent_versions w "
            "WHERE w.precedent_id = v.precedent_id)"
        )
    }
    have = {pid: (t, r, g) for pid, t, r, g in conn.execute("SELECT rowid, title, ruling, tags FROM precedents_fts")}
    for pid in sorted(set(want) | set(have)):
        if want.get(pid) != have.get(pid):
            how = (_("is missing") if pid not in have else _("has no precedent") if pid not in want
                   else _("differs from its current text"))
            problems.append(Problem("search-index", _('the search index of precedent {pid} {how}').format(pid=pid, how=how)))


def _sums(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    # points are stored in sixths (six times the points, an integer): the sum is exactly 0
    for eid, sid, no, n, total in conn.execute(
        "SELECT e.id, e.session_id, e.no, count(ep.entry_id), coalesce(sum(ep.sixth), 0) FROM entries e "
        "LEFT JOIN entry_points ep ON ep.entry_id = e.id GROUP BY e.id "
        # a join or a leave has no points (re-scoring holds it to that)
        "HAVING (count(ep.entry_id) = 0 AND e.kind NOT IN ('join', 'leave')) OR coalesce(sum(ep.sixth), 0) != 0 "
        "ORDER BY e.session_id, e.no, e.id"
    ):
        if n == 0:
            problems.append(Problem("sum", _("the entry has no points at all (not even 0 for the players of the deal)"), sid, no, eid))
        else:
            problems.append(Problem("sum", _('the points add up to {total}, not 0').format(total=signed(from_sixths(total), plus_zero=True)), sid, no, eid))


def _chain(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    # an amendment voids the entry it replaces, pointing at the amendment; the amendment points back
    for eid, sid, no, action, by, b_replaces, b_sid, b_no, b_exists in conn.execute(
        "SELECT e.id, e.session_id, e.no, v.action, v.by_entry, b.replaces, b.session_id, b.no, b.id IS NOT NULL "
        "FROM voids v JOIN entries e ON e.id = v.entry_id LEFT JOIN entries b ON b.id = v.by_entry "
        "ORDER BY e.session_id, e.no, e.id"
    ):
        if action == "undo":
            if by is not None:
                problems.append(Problem("chain", _('voided by undo, yet it points at entry id {by}').format(by=by), sid, no, eid))
            continue
        if by is None:
            problems.append(Problem("chain", _("voided by an amendment that it does not name"), sid, no, eid))
        elif not b_exists:
            problems.append(Problem("chain", _('voided by entry id {by}, which does not exist').format(by=by), sid, no, eid))
        elif b_replaces != eid or b_sid != sid or b_no != no:
            problems.append(Problem(
                "chain", _('voided by entry id {by}, but that entry (session {b_sid}, #{b_no}) does not replace it').format(by=by, b_sid=b_sid, b_no=b_no), sid, no, eid,
            ))
    for eid, sid, no, rep, r_sid, r_no, action, by in conn.execute(
        "SELECT e.id, e.session_id, e.no, e.replaces, r.session_id, r.no, v.action, v.by_entry FROM entries e "
        "LEFT JOIN entries r ON r.id = e.replaces LEFT JOIN voids v ON v.entry_id = e.replaces "
        "WHERE e.replaces IS NOT NULL ORDER BY e.session_id, e.no, e.id"
    ):
        if r_sid is None:
            problems.append(Problem("chain", _('replaces entry id {rep}, which does not exist').format(rep=rep), sid, no, eid))
        elif r_sid != sid or r_no != no:
            problems.append(Problem("chain", _('replaces entry id {rep} (session {r_sid}, #{r_no}): another session or number').format(rep=rep, r_sid=r_sid, r_no=r_no), sid, no, eid))
        elif action != "amend" or by != eid:
            how = (_("is not voided") if action is None
                   else _("is voided by {action} (entry id {by})").format(action=action, by=by) if by
                   else _("is voided by {action}").format(action=action))
            problems.append(Problem("chain", _('replaces entry id {rep}, but that entry {how}').format(rep=rep, how=how), sid, no, eid))
    for sid, no, n in conn.execute(
        f"SELECT e.session_id, e.no, count(*) FROM entries e WHERE {COUNTS} "
        "GROUP BY e.session_id, e.no HAVING count(*) > 1 ORDER BY e.session_id, e.no"
    ):
        problems.append(Problem("chain", _('{n} entries that count share this number (one should void the other)').format(n=n), sid, no))


def _totals(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """The per-session totals cache (schema 4 on), when there is one, must equal the summed entries."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_totals'").fetchone() is None:
        return
    for sid, name, cached, summed in conn.execute(
        "WITH summed AS (SELECT e.session_id AS sid, ep.player_id AS pid, sum(ep.sixth) / 6.0 AS pts FROM entry_points ep "
        f"  JOIN entries e ON e.id = ep.entry_id WHERE {COUNTS} "
        "  GROUP BY e.session_id, ep.player_id), "
        "keys AS (SELECT sid, pid FROM summed UNION SELECT session_id, player_id FROM session_totals) "
        "SELECT k.sid, coalesce(p.name, 'player id ' || k.pid), coalesce(t.points, 0), coalesce(s.pts, 0) FROM keys k "
        "LEFT JOIN summed s ON s.sid = k.sid AND s.pid = k.pid "
        "LEFT JOIN session_totals t ON t.session_id = k.sid AND t.player_id = k.pid "
        "LEFT JOIN players p ON p.id = k.pid "
        # (a REAL total of thirds is the nearest REAL, give or take its last bits: compared in sixths)
        "WHERE round(coalesce(t.points, 0) * 6) != round(coalesce(s.pts, 0) * 6) "
        "   OR (s.sid IS NOT NULL AND t.session_id IS NULL) "
        "ORDER BY k.sid, k.pid"
    ):
        problems.append(Problem("totals", _('the stored total of {name} is {stored}, the entries add up to {summed}').format(name=name, stored=signed(float(cached), plus_zero=True), summed=signed(float(summed), plus_zero=True)), sid))


def _evenings(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """The standings' per-evening figures (player_evenings, migration m003), when there are some, must equal
    the summed entries."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'player_evenings'").fetchone() is None:
        return
    from .standings import check_player_evenings

    for sid, message in check_player_evenings(conn):
        problems.append(Problem("totals", message, sid))


def _people(conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int]) -> None:
    """Who is whom (the ``people`` cache, migration m013) must be what the players' facts say."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'people'").fetchone() is None:
        return
    from .people import people

    persons, recorded = people(conn)
    cached = {int(i): (p, str(n)) for i, p, n in conn.execute("SELECT player_id, person_id, name FROM people")}
    for pid in sorted(set(persons) | set(cached)):
        want = (persons[pid].id, persons[pid].name) if pid in persons else None
        if cached.get(pid) != want:
            problems.append(Problem("totals", _("who {name} is (the people table) is not what the players' renames "
                                                "and merges say: {want}").format(
                name=recorded.get(pid, f"id {pid}"), want=want[1] if want else "-")))


def rescore_sessions(conn: sqlite3.Connection, session_ids: Sequence[int]) -> list[Problem]:
    """Re-score only these sessions (an import checks what it brings in before it commits)."""
    problems: list[Problem] = []
    _rescore(conn, problems, {"sessions": 0, "entries": 0, "voided": 0, "rescored": 0}, session_ids)
    return problems


def _rescore(
    conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int], only: Sequence[int] | None = None
) -> None:
    from ..core.rules import parse_rules
    from ..core.session import EntryInput, Scored, TableState
    from .memo import MemoFold
    from .rows import stored_input

    counts["entries"] = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
    counts["voided"] = conn.execute("SELECT count(*) FROM entries e JOIN voids v ON v.entry_id = e.id").fetchone()[0]
    rules_cache: dict[str, HouseRules] = {}
    sessions = conn.execute("SELECT id, rules_name, rules_toml, first_dealer FROM sessions ORDER BY id").fetchall()
    if only is not None:
        wanted = set(only)
        sessions = [s for s in sessions if s[0] in wanted]
    counts["sessions"] = len(sessions)
    for sid, rules_name, rules_toml, first_dealer in sessions:
        seats = conn.execute(
            "SELECT st.seat, st.player_id, p.name FROM seats st LEFT JOIN players p ON p.id = st.player_id "
            "WHERE st.session_id = ? ORDER BY st.seat",
            (sid,),
        ).fetchall()
        joined = [s for s in seats if type(s[0]) is int and s[0] >= JOINED_SEAT]  # `session join`: entries' facts
        seats = [s for s in seats if s not in joined]
        if [s[0] for s in seats] != list(range(len(seats))) or not 4 <= len(seats) <= 6 or any(s[2] is None for s in seats):
            problems.append(Problem("session", _('the seats are not 4 to 6 known players in seats 0..n-1: {seats}').format(seats=seats), sid))
            continue
        problem = _joined_seats(conn, sid, seats, joined)
        if problem:
            problems.append(Problem("session", problem, sid))
        if not 0 <= first_dealer < len(seats):
            problems.append(Problem("session", _("the first dealer's seat {first_dealer} is not at the table").format(first_dealer=first_dealer), sid))
            continue
        players = tuple(s[2] for s in seats)
        names = {s[1]: s[2] for s in seats + joined}
        try:
            rules = rules_cache.get(rules_toml)
            if rules is None:
                rules = rules_cache[rules_toml] = parse_rules(rules_toml, _("house rules '{name}' of session {id}").format(name=rules_name, id=sid))
        except WiezenError as e:
            problems.append(Problem("session", _('its stored house rules cannot be read: {error}').format(error=e), sid))
            continue
        points: dict[int, dict[str, float]] = {}
        takers: dict[int, dict[str, bool]] = {}
        strangers: dict[int, list[int]] = {}
        for eid, pid, v, taker, made in conn.execute(
            "SELECT ep.entry_id, ep.player_id, ep.points, ep.taker, ep.made FROM entry_points ep JOIN entries e "
            f"ON e.id = ep.entry_id WHERE e.session_id = ? AND {COUNTS} "
            "ORDER BY ep.entry_id, ep.player_id",
            (sid,),
        ):
            if pid not in names:
                strangers.setdefault(eid, []).append(pid)
                continue
            points.setdefault(eid, {})[names[pid]] = float(v)
            if taker:
                takers.setdefault(eid, {})[names[pid]] = bool(made)
        fold = MemoFold(rules, players, TableState(first_dealer, 1))
        order = {p: i for i, p in enumerate(players)}
        # an evening repeats its lines: the input of a stored entry made once per distinct row of the plain
        # types the tool writes (a damaged row of other types is made each time, as it is), and the points
        # and takers of a scored entry as compared made once per scored entry (the memo shares them)
        inputs: dict[tuple[object, ...], EntryInput] = {}
        compared: dict[int, tuple[Scored, dict[str, float], dict[str, bool]]] = {}
        for (eid, no, kind, text, contract, dealer, mult, offender_id, round_, deal_no, reason, nd, nm) in conn.execute(
            "SELECT e.id, e.no, e.kind, e.text, e.contract, e.dealer, e.multiplier, e.offender_id, e.round, e.deal_no, "
            "e.reason, e.next_dealer, e.next_multiplier FROM entries e WHERE e.session_id = ? "
            f"AND {COUNTS} ORDER BY e.no, e.id",
            (sid,),
        ):
            counts["rescored"] += 1
            if eid in strangers:
                problems.append(Problem("rescore", _('points for player id(s) {strangers}, who do not sit at this table').format(strangers=strangers[eid]), sid, no, eid))
            if offender_id is not None and offender_id not in names:
                problems.append(Problem("rescore", _('the offender (player id {offender_id}) does not sit at this table').format(offender_id=offender_id), sid, no, eid))
            raw = (kind, text, offender_id, round_, reason, deal_no)
            plain = (type(kind) is str and type(text) is str and type(round_) is int and type(reason) is str
                     and (offender_id is None or type(offender_id) is int) and (deal_no is None or type(deal_no) is int))
            entry = inputs.get(raw) if plain else None
            if entry is None:
                entry = stored_input(
                    str(kind), str(text), names.get(offender_id, "") if offender_id is not None else "",
                    bool(round_), reason or "", deal_no,
                )
                if plain:
                    inputs[raw] = entry
            try:
                sc = fold.score(entry)
            except WiezenError as err:
                problems.append(Problem("rescore", _("'{text}' cannot be re-scored: {error}").format(text=text, error=err), sid, no, eid))
                if 0 <= nd < len(players) and nm >= 1:
                    fold.resync(TableState(nd, nm))  # go on from what the ledger says the state was
                continue
            except Exception as err:  # noqa: BLE001 - data the scorer never wrote can break it in any way
                problems.append(Problem("rescore", _("'{text}' cannot be re-scored ({kind}: {error})").format(text=text, kind=type(err).__name__, error=err), sid, no, eid))
                continue
            diffs: list[str] = []
            if sc.kind != kind:
                diffs.append(_('kind {kind}, re-scored {kind2}').format(kind=kind, kind2=sc.kind))
            if sc.text.casefold() != str(text).casefold():  # names match whatever their case (imports)
                diffs.append(_("text '{text}', re-scored '{text2}'").format(text=text, text2=sc.text))
            if (sc.contract or None) != (contract or None):
                diffs.append(_('contract {contract}, re-scored {rescored}').format(contract=contract, rescored=sc.contract or None))
            if sc.dealer != dealer:
                diffs.append(_('dealer {dealer}, re-scored {rescored}').format(dealer=_seat(fold.players, dealer), rescored=fold.players[sc.dealer]))
            if sc.multiplier != mult:
                diffs.append(_('multiplier x{mult}, re-scored x{multiplier}').format(mult=mult, multiplier=sc.multiplier))
            stored = points.get(eid, {})
            got = compared.get(id(sc))
            if got is None or got[0] is not sc:
                got = compared[id(sc)] = (sc, {p: float(v) for p, v in sc.points.items()}, dict(sc.takers))
            fresh, fresh_takers = got[1], got[2]
            if stored != fresh:  # (the same players and points in any order; the message lists them in seat order)
                stored = dict(sorted(stored.items(), key=lambda kv: order.get(kv[0], len(order))))  # (joiners last)
                diffs.append(_('points {stored}; re-scored {rescored}').format(stored=_fmt_points(stored), rescored=_fmt_points(fresh)))
            elif takers.get(eid, {}) != fresh_takers:
                diffs.append(_('takers {stored}, re-scored {rescored}').format(stored=takers.get(eid, {}), rescored=fresh_takers))
            # the pending doubling a rondje pas, a redeal or a penalty carries is derived (Ledger.state), and an
            # amendment before it does not re-add it: only a deal's own next multiplier is its own fact
            if sc.after.dealer != nd or (sc.kind == "deal" and sc.after.pending != nm):
                diffs.append(
                    _('next dealer {dealer} x{nm}, re-scored {rescored} x{pending}').format(dealer=_seat(sc.seating or fold.players, nd), nm=nm, rescored=(sc.seating or fold.players)[sc.after.dealer], pending=sc.after.pending)
                )
            if diffs:
                problems.append(Problem("rescore", _("stored {differences}").format(differences="; ".join(diffs)), sid, no, eid))
            fold.take(no, sc)
        _rescore_voided(conn, problems, counts, sid, rules, players, names, fold.deal_players)


def _joined_seats(conn: sqlite3.Connection, sid: int, seats: list[tuple[int, int, str]],
                  joined: list[tuple[int, int, str]]) -> str:
    """The seats of the players who joined after the start (JOINED_SEAT, JOINED_SEAT + 1 ...) are exactly those
    of the session's joins, in the order they first joined, and never of a player it started with."""
    first: list[int] = []
    for (pid,) in conn.execute(
        "SELECT offender_id FROM entries WHERE session_id = ? AND kind = 'join' ORDER BY id", (sid,)
    ):
        if pid not in first and pid not in {s[1] for s in seats}:
            first.append(pid)
    want = [(JOINED_SEAT + i, pid) for i, pid in enumerate(first)]
    if [(s[0], s[1]) for s in joined] != want:
        return _("the seats of the players who joined ({seats}) are not those of its joins").format(
            seats=[(s[0], s[2]) for s in joined])
    return ""


def _rescore_voided(
    conn: sqlite3.Connection, problems: list[Problem], counts: dict[str, int], sid: int, rules: HouseRules,
    players: tuple[str, ...], names: dict[int, str], deal_players: dict[int, tuple[str, ...]],
) -> None:
    """A voided entry no longer counts, but it was recorded by the command line all the same: re-scored from its
    deal line at the dealer and doubling it names, it must give what it stores (no 1e300 points in the bin)."""
    from ..core.session import Fold, TableState, seating_after
    from .rows import stored_input

    first = players
    # the joins and leaves, with when each was recorded and (if so) voided, in the order of the chain
    moves = [(n, str(t), es, vs) for n, t, es, vs in conn.execute(
        "SELECT e.no, e.text, (SELECT seq FROM chain WHERE kind = 'entry' AND rid = e.id), "
        "(SELECT seq FROM chain WHERE kind = 'void' AND rid = e.id) FROM entries e "
        "WHERE e.session_id = ? AND e.kind IN ('join', 'leave') ORDER BY e.no, e.id", (sid,))]
    points: dict[int, dict[str, float]] = {}
    takers: dict[int, dict[str, bool]] = {}
    for eid, pid, v, taker, made in conn.execute(
        "SELECT ep.entry_id, ep.player_id, ep.points, ep.taker, ep.made FROM entry_points ep JOIN entries e "
        "ON e.id = ep.entry_id JOIN voids v ON v.entry_id = e.id WHERE e.session_id = ?", (sid,)
    ):
        points.setdefault(eid, {})[names.get(pid, f"player id {pid}")] = float(v)
        if taker:
            takers.setdefault(eid, {})[names.get(pid, f"player id {pid}")] = bool(made)
    for (eid, no, kind, text, _contract, dealer, mult, offender_id, round_, deal_no, reason, seq) in conn.execute(
        "SELECT e.id, e.no, e.kind, e.text, e.contract, e.dealer, e.multiplier, e.offender_id, e.round, e.deal_no, "
        "e.reason, (SELECT seq FROM chain WHERE kind = 'entry' AND rid = e.id) FROM entries e "
        "JOIN voids v ON v.entry_id = e.id WHERE e.session_id = ? ORDER BY e.no, e.id",
        (sid,),
    ):
        # the table as it was when this entry was recorded: the joins and leaves that counted then
        players = seating_after(first, [
            t for n, t, es, vs in moves
            if n < no and es is not None and seq is not None and es < seq and (vs is None or vs > seq)
        ]) if moves else first
        if not (isinstance(dealer, int) and 0 <= dealer < len(players)) or not (isinstance(mult, int) and mult >= 1):
            problems.append(Problem("rescore", _('voided, and its dealer {dealer} or doubling {mult} cannot be').format(dealer=repr(dealer), mult=repr(mult)), sid, no, eid))
            continue
        e = stored_input(str(kind), str(text), names.get(offender_id, "") if offender_id is not None else "",
                         bool(round_), reason or "", deal_no)
        try:
            sc = Fold(rules, players, TableState(dealer, mult if kind == "deal" else 1), deal_players).score(e)
        except WiezenError as err:
            problems.append(Problem("rescore", _("voided, and '{text}' cannot be re-scored: {error}").format(text=text, error=err), sid, no, eid))
            continue
        except Exception as err:  # noqa: BLE001 - data the scorer never wrote can break it in any way
            problems.append(Problem("rescore", _("voided, and '{text}' cannot be re-scored ({kind})").format(text=text, kind=type(err).__name__), sid, no, eid))
            continue
        diffs = []
        if sc.kind != kind or sc.text.casefold() != str(text).casefold():
            diffs.append(_("'{text}', re-scored '{text2}'").format(text=text, text2=sc.text))
        if sc.kind == "deal" and sc.multiplier != mult:
            diffs.append(_('multiplier x{mult}, re-scored x{multiplier}').format(mult=mult, multiplier=sc.multiplier))
        order = {p: i for i, p in enumerate(players)}
        stored = dict(sorted(points.get(eid, {}).items(), key=lambda kv: order.get(kv[0], 99)))
        fresh = {p: float(v) for p, v in sc.points.items()}
        if stored != fresh:
            diffs.append(_('points {stored}; re-scored {rescored}').format(stored=_fmt_points(stored), rescored=_fmt_points(fresh)))
        elif takers.get(eid, {}) != dict(sc.takers):
            diffs.append(_('takers {stored}, re-scored {rescored}').format(stored=takers.get(eid, {}), rescored=dict(sc.takers)))
        if diffs:
            problems.append(Problem("rescore", _("voided, and it stores {differences}").format(differences="; ".join(diffs)), sid, no, eid))


def _seat(players: tuple[str, ...], seat: object) -> str:
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else f"seat {seat}"
