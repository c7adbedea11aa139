"""How long an evening is meant to last: a number of deals, of rounds, or a target score. Pure.

A deal is a deal with a contract (a rondje pas, a redeal or a penalty is not one); a round is one deal per
player, so six rounds at four players are 24 deals. With a target score the evening ends when a player's
total reaches it. Stored in a session as its ``plan`` text: ``deals 24``, ``rounds 6`` or ``target 100``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import WiezenError
from .numbers import fmt

__all__ = ["Plan", "Progress", "parse_plan", "progress"]

KINDS = ("deals", "rounds", "target")


@dataclass(frozen=True)
class Plan:
    kind: str  # deals | rounds | target
    n: int

    @property
    def text(self) -> str:
        return f"{self.kind} {self.n}"

    def describe(self, players: int) -> str:
        if self.kind == "deals":
            return f"{self.n} deals"
        if self.kind == "rounds":
            return f"{self.n} round{'s' if self.n != 1 else ''} ({self.n * players} deals)"
        return f"until a player reaches {self.n} points"


@dataclass(frozen=True)
class Progress:
    short: str  # for the prompt: "deal 14 of 24"
    line: str  # for the sheet: "evening: 13 of 24 deals played"
    over: bool  # the planned length is reached
    warning: str  # after the entry that reached it, or any deal beyond it; else ""


def parse_plan(text: str | None) -> Plan | None:
    """A stored plan, or what `--deals N`, `--rounds N`, `--target N` give; None for none."""
    if not text:
        return None
    parts = text.split()
    if len(parts) != 2 or parts[0] not in KINDS or not parts[1].isdigit() or int(parts[1]) < 1:
        raise WiezenError(f"'{text}' is not an evening's length: write deals N, rounds N or target N (N at least 1)")
    return Plan(parts[0], int(parts[1]))


def make_plan(deals: int | None, rounds: int | None, target: int | None) -> Plan | None:
    given = [(k, v) for k, v in (("deals", deals), ("rounds", rounds), ("target", target)) if v is not None]
    if len(given) > 1:
        raise WiezenError("an evening has one length: give --deals, --rounds or --target, not several")
    if not given:
        return None
    kind, n = given[0]
    if n < 1:
        raise WiezenError(f"--{kind} {n}: the evening's length is at least 1")
    return Plan(kind, n)


def progress(plan: Plan, players: int, deals_played: int, totals: Mapping[str, float], just_played: bool) -> Progress:
    """Where the evening stands. ``just_played``: the entry just recorded was a deal (for the warning)."""
    if plan.kind == "target":
        top = max(totals.values()) if totals else 0
        leaders = [p for p, v in totals.items() if v == top]
        shown = fmt(top)
        over = top >= plan.n
        lead = f"{' and '.join(leaders)} {'lead' if len(leaders) > 1 else 'leads'} with {shown}"
        short = f"target {plan.n}: {lead}" if top > 0 else f"target {plan.n}"
        line = f"evening: until a player reaches {plan.n} points; {lead if top > 0 else 'nobody is ahead yet'}"
        warning = ""
        if over and just_played:
            warning = (f"{' and '.join(leaders)} reached {shown} points, the target of {plan.n}: the evening is "
                       "over (type 'end', or `wiezen session end`)")
        return Progress(short, line, over, warning)
    total = plan.n if plan.kind == "deals" else plan.n * players
    rounds = f", round {min(deals_played // players + 1, plan.n)} of {plan.n}" if plan.kind == "rounds" else ""
    over = deals_played >= total
    if not over:
        short = f"deal {deals_played + 1} of {total}"
        line = f"evening: {deals_played} of {total} deals played{rounds}"
    else:
        short = f"{deals_played} of {total} deals played"
        line = f"evening: {deals_played} of {total} deals played: the planned length is reached"
    warning = ""
    if just_played and deals_played == total:
        warning = f"that was the last deal of the evening ({total} of {total}): type 'end', or `wiezen session end`"
    elif just_played and deals_played > total:
        warning = f"deal {deals_played} is beyond the {total} deals planned for this evening"
    return Progress(short, line, over, warning)
