"""The JSON documents read from the ledger: the sheet (`sheet --json`), `explain --json`, the evening's progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.documents import DocPoints, EveningDoc, ExplainDoc, SheetDoc, SheetEntry, SheetSession
from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.numbers import plain
from ..core.scoring import Points
from ..core.session import sitting_out

if TYPE_CHECKING:
    from ..core.evening import Progress
    from .rows import EntryRow, SessionInfo
    from .store import Ledger

def _void(led: Ledger, session_id: int) -> str | None:
    """Why a session was taken out of every count (`session void`), or None."""
    row = led.conn.execute("SELECT reason FROM session_voids WHERE session_id = ?", (session_id,)).fetchone()
    return str(row[0]) if row else None


def _seat(players: tuple[str, ...], seat: int) -> str:
    """The player in ``seat`` (a damaged row's seat beyond the table reads as '?')."""
    return players[seat] if 0 <= seat < len(players) else "?"


def sheet_doc(led: Ledger, s: SessionInfo, last: int | None = None) -> SheetDoc:
    """The sheet as INTERFACE.md's JSON document.

    With ``last``: only (about) the last rows, read from the ledger with the running totals before them
    (``running_from``), so that showing the end of a long sheet costs the same as of a short one.
    """
    start = led.window_start(s, last) if last is not None else 0
    rows = led.entries(s, since_no=start)
    state, _ = led.state(s)
    rulings = _rulings(led, s, rows)
    seals = led.seals(s.id)
    late = led.corrections(s.id) if seals else {}
    by_id = {r.id: r for r in rows}
    seated = led.seating_at(s)  # players came and went: an entry's dealer counts in the seats of its time

    def entry(r: EntryRow) -> SheetEntry:
        e: SheetEntry = {
            "no": r.no, "kind": r.kind, "text": r.text, "dealer": _seat(seated(r.no), r.dealer),
            "multiplier": r.multiplier, "points": {p: plain(v) for p, v in r.points.items()}, "voided": r.voided,
        }
        if r.reason:
            e["reason"] = r.reason
        if r.penalty_kind:
            e["penalty_kind"] = r.penalty_kind
        if r.voided:
            e["voided_by"] = r.void_action
        if r.id in rulings:
            e["precedents"] = [pid for pid, _ in rulings[r.id]]
        if ("entry", r.id) in late:  # recorded after the evening ended: when, and why (the reason of what it replaced)
            old = by_id.get(r.replaces) if r.replaces is not None else None
            e["correction"] = {"at": late[("entry", r.id)], "reason": old.void_reason if old else r.reason}
        if ("void", r.id) in late:
            e["voided_after"] = {"at": late[("void", r.id)], "reason": r.void_reason}
        return e

    session: SheetSession = {
        "id": s.id, "name": s.name, "date": s.date, "rules": s.rules_name, "players": list(s.players),
        "open": s.ended_at is None, "seal": seals[-1].code if seals else None,
        "seals": [{"n": x.n, "seal": x.code, "at": x.sealed_at} for x in seals],
    }
    if s.table is not None:
        session["table"] = s.table
    if s.round is not None:
        session["round"] = s.round
    void = _void(led, s.id)
    if void is not None:
        session["void"] = void
    doc: SheetDoc = {
        "session": session,
        "entries": [entry(r) for r in rows],
        "totals": {p: plain(v) for p, v in led.totals(s.id).items()},
        "dealer": s.at_table[state.dealer],
        "sitting_out": list(sitting_out(s.at_table, state.dealer)),
        "pending_multiplier": state.pending,
        "rounds_owed": led.rounds_owed(s),
    }
    if s.seating:  # players came and went: the seat order now
        doc["seating"] = list(s.at_table)
    evening = _evening(led, s)
    if evening is not None:
        doc["evening"] = evening
    if start > 1:
        doc["running_from"] = _running_from(led, s, rows)
    return doc


def _running_from(led: Ledger, s: SessionInfo, rows: list[EntryRow]) -> DocPoints:
    """Each player's running total before ``rows``, the end of the sheet: the totals less what those rows gave."""
    out: dict[str, Points | float] = dict(led.totals(s.id))
    for r in rows:
        if not r.voided:
            for p, v in r.points.items():
                out[p] -= v
    return {p: plain(v) for p, v in out.items()}


def _evening(led: Ledger, s: SessionInfo) -> EveningDoc | None:
    """The evening's planned length and where it stands (only when one was given at the start)."""
    p = evening_progress(led, s)
    if p is None or s.plan is None:
        return None
    kind, n = s.plan.split()
    ev: EveningDoc = {"deals": int(n)} if kind == "deals" else {"rounds": int(n)} if kind == "rounds" else {"target": int(n)}
    ev.update({"deals_played": led.deals_played(s), "progress": p.line, "over": p.over})
    return ev


def _rulings(led: Ledger, s: SessionInfo, rows: list[EntryRow]) -> dict[int, list[tuple[int, str]]]:
    """Entry row id -> [(precedent id, title)] of the rulings attached to its number: on the row that
    counts, or on the last version when every version is voided."""
    from .precedents import for_session

    by_no = for_session(led, s.id)
    out: dict[int, list[tuple[int, str]]] = {}
    for no, found in by_no.items():
        versions = [r for r in rows if r.no == no]
        if versions:
            out[next((r for r in versions if not r.voided), versions[-1]).id] = found
    return out


def explain_doc(led: Ledger, s: SessionInfo, no: int) -> ExplainDoc:
    """How entry ``no`` of session ``s`` was scored (the `explain --json` document); also used by `play`."""
    from ..core.session import fold

    rows = led.entries(s)
    versions = [r for r in rows if r.no == no]
    if not versions:
        others = [int(r[0]) for r in led.conn.execute(
            "SELECT DISTINCT session_id FROM entries WHERE no = ? AND session_id <> ? ORDER BY session_id DESC LIMIT 6",
            (no, s.id))]
        last = max((r.no for r in rows), default=0)
        if others:
            raise WiezenError(_("no entry {no} in session {id} (its last is #{last}); sessions with an entry {no}: "
                                "{sessions}: give --session ID").format(
                no=no, id=s.id, last=last, sessions=", ".join(map(str, others))))
        raise WiezenError(_("no entry {no} in session {id}").format(no=no, id=s.id))
    current = [r for r in rows if not r.voided]
    result = fold([(r.no, r.as_input()) for r in current], s.rules, s.first_players, s.first_dealer)
    seated = led.seating_at(s)
    steps: list[str] = []
    running: dict[str, Points] = {p: 0 for p in s.players}
    before = after = None
    for r, sc in zip(current, result.scored, strict=False):
        if r.no == no:
            steps = list(sc.explanation)
            before = dict(running)
        for p, v in sc.points.items():
            running[p] += v
        if r.no == no:
            after = dict(running)
    if before is None:  # a voided entry: it changed nothing; the totals of what counted before it
        before = {p: 0 for p in s.players}
        for r, sc in zip(current, result.scored, strict=False):
            if r.no < no:
                for p, v in sc.points.items():
                    before[p] += v
        after = before
    target = next((r for r in versions if not r.voided), versions[-1])
    rulings = _rulings(led, s, rows).get(target.id, [])
    return {
        "session": s.id, "no": no, "kind": target.kind, "text": target.text, "rules": s.rules_name,
        "dealer": _seat(seated(target.no), target.dealer), "multiplier": target.multiplier,
        "points": {p: plain(v) for p, v in target.points.items()}, "voided": target.voided,
        "explanation": steps,
        "totals_before": {p: plain(v) for p, v in before.items()},
        "totals_after": {p: plain(v) for p, v in (after or before).items()},
        "history": [
            {"text": r.text, "voided": r.voided, "how": r.void_action, "reason": r.void_reason, "at": r.created_at,
             "dealer": _seat(seated(r.no), r.dealer), "multiplier": r.multiplier, "points": {p: plain(v) for p, v in r.points.items()}}
            for r in versions
        ],
        "precedents": [{"id": pid, "title": title} for pid, title in rulings],
    }


def evening_progress(led: Ledger, s: SessionInfo, just_played: bool = False) -> Progress | None:
    """Where the evening stands against its planned length (core/evening.py), or None when it has none."""
    if getattr(s, "plan", None) is None:
        return None  # (without importing core/evening.py: `wiezen deal` stays cheap)
    from ..core.evening import parse_plan, progress

    plan = parse_plan(getattr(s, "plan", None))
    if plan is None:
        return None
    return progress(plan, len(s.at_table), led.deals_played(s), led.totals(s.id), just_played)
