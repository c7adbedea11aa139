"""The JSON documents read from the ledger: the sheet (`sheet --json`), `explain --json`, the evening's progress."""

from __future__ import annotations

from typing import Any

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.numbers import plain
from ..core.session import sitting_out


def _void(led: Any, session_id: int) -> dict[str, str]:
    """``{"void": REASON}`` for a session taken out of every count (`session void`), else nothing."""
    row = led.conn.execute("SELECT reason FROM session_voids WHERE session_id = ?", (session_id,)).fetchone()
    return {"void": str(row[0])} if row else {}


def _seat(players: tuple[str, ...], seat: int) -> str:
    """The player in ``seat`` (a damaged row's seat beyond the table reads as '?')."""
    return players[seat] if 0 <= seat < len(players) else "?"


def sheet_doc(led: Any, s: Any, last: int | None = None) -> dict[str, Any]:
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

    def correction(r: Any) -> dict[str, Any]:
        """An entry recorded after the evening ended: when, and why (the reason of what it replaced)."""
        if ("entry", r.id) not in late:
            return {}
        old = by_id.get(r.replaces) if r.replaces is not None else None
        return {"correction": {"at": late[("entry", r.id)], "reason": old.void_reason if old else r.reason}}

    def voided_after(r: Any) -> dict[str, Any]:
        if ("void", r.id) not in late:
            return {}
        return {"voided_after": {"at": late[("void", r.id)], "reason": r.void_reason}}

    return {
        "session": {"id": s.id, "name": s.name, "date": s.date, "rules": s.rules_name, "players": list(s.players),
                    "open": s.ended_at is None, "seal": seals[-1].code if seals else None,
                    "seals": [{"n": x.n, "seal": x.code, "at": x.sealed_at} for x in seals],
                    **({"table": s.table} if s.table is not None else {}),
                    **({"round": s.round} if s.round is not None else {}),
                    **_void(led, s.id)},
        "entries": [
            {
                "no": r.no, "kind": r.kind, "text": r.text, "dealer": _seat(seated(r.no), r.dealer),
                "multiplier": r.multiplier,
                "points": {p: plain(v) for p, v in r.points.items()}, "voided": r.voided,
                **({"reason": r.reason} if r.reason else {}),
                **({"penalty_kind": r.penalty_kind} if r.penalty_kind else {}),
                **({"voided_by": r.void_action} if r.voided else {}),
                **({"precedents": [pid for pid, _ in rulings[r.id]]} if r.id in rulings else {}),
                **correction(r), **voided_after(r),
            }
            for r in rows
        ],
        "totals": {p: plain(v) for p, v in led.totals(s.id).items()},
        "dealer": s.at_table[state.dealer],
        "sitting_out": list(sitting_out(s.at_table, state.dealer)),
        **({"seating": list(s.at_table)} if s.seating else {}),
        "pending_multiplier": state.pending,
        "rounds_owed": led.rounds_owed(s),
        **_evening(led, s),
        **({"running_from": _running_from(led, s, rows)} if start > 1 else {}),
    }


def _running_from(led: Any, s: Any, rows: list[Any]) -> dict[str, Any]:
    """Each player's running total before ``rows``, the end of the sheet: the totals less what those rows gave."""
    out = dict(led.totals(s.id))
    for r in rows:
        if not r.voided:
            for p, v in r.points.items():
                out[p] -= v
    return {p: plain(v) for p, v in out.items()}


def _evening(led: Any, s: Any) -> dict[str, Any]:
    """The evening's planned length and where it stands (only when one was given at the start)."""
    p = evening_progress(led, s)
    if p is None:
        return {}
    kind, n = s.plan.split()
    return {"evening": {kind: int(n), "deals_played": led.deals_played(s), "progress": p.line, "over": p.over}}


def _rulings(led: Any, s: Any, rows: list[Any]) -> dict[int, list[tuple[int, str]]]:
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


def explain_doc(led: Any, s: Any, no: int) -> dict[str, Any]:
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
    running: dict[str, Any] = {p: 0 for p in s.players}
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


def evening_progress(led: Any, s: Any, just_played: bool = False) -> Any:
    """Where the evening stands against its planned length (core/evening.py), or None when it has none."""
    if getattr(s, "plan", None) is None:
        return None  # (without importing core/evening.py: `wiezen deal` stays cheap)
    from ..core.evening import parse_plan, progress

    plan = parse_plan(getattr(s, "plan", None))
    if plan is None:
        return None
    return progress(plan, len(s.at_table), led.deals_played(s), led.totals(s.id), just_played)
