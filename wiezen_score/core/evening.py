"""How long an evening is meant to last: a number of deals, of rounds, or a target score. Pure.

A deal is a deal with a contract (a rondje pas, a redeal or a penalty is not one); a round is one deal per
player, so six rounds at four players are 24 deals. With a target score the evening ends when a player's
total reaches it. Stored in a session as its ``plan`` text: ``deals 24``, ``rounds 6`` or ``target 100``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import WiezenError
from .i18n import _, ngettext
from .numbers import fmt

if TYPE_CHECKING:
    from .scoring import Points

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
            return _("{n} deals").format(n=self.n)
        if self.kind == "rounds":
            return ngettext("{n} round ({deals} deals)", "{n} rounds ({deals} deals)", self.n).format(
                n=self.n, deals=self.n * players
            )
        return _("until a player reaches {n} points").format(n=self.n)


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
        raise WiezenError(
            _("'{text}' is not an evening's length: write deals N, rounds N or target N (N at least 1)").format(text=text)
        )
    return Plan(parts[0], int(parts[1]))


def make_plan(deals: int | None, rounds: int | None, target: int | None) -> Plan | None:
    given = [(k, v) for k, v in (("deals", deals), ("rounds", rounds), ("target", target)) if v is not None]
    if len(given) > 1:
        raise WiezenError(_("an evening has one length: give --deals, --rounds or --target, not several"))
    if not given:
        return None
    kind, n = given[0]
    if n < 1:
        raise WiezenError(_("--{kind} {n}: the evening's length is at least 1").format(kind=kind, n=n))
    return Plan(kind, n)


def progress(plan: Plan, players: int, deals_played: int, totals: Mapping[str, Points], just_played: bool) -> Progress:
    """Where the evening stands. ``just_played``: the entry just recorded was a deal (for the warning)."""
    if plan.kind == "target":
        top = max(totals.values()) if totals else 0
        leaders = [p for p, v in totals.items() if v == top]
        shown = fmt(top)
        over = top >= plan.n
        who = _(" and ").join(leaders)
        lead = ngettext("{players} leads with {points}", "{players} lead with {points}", len(leaders)).format(
            players=who, points=shown
        )
        short = _("target {n}: {lead}").format(n=plan.n, lead=lead) if top > 0 else _("target {n}").format(n=plan.n)
        line = _("evening: until a player reaches {n} points; {lead}").format(
            n=plan.n, lead=lead if top > 0 else _("nobody is ahead yet")
        )
        warning = ""
        if over and just_played:
            warning = _("{players} reached {points} points, the target of {n}: the evening is "
                        "over (type 'end', or `wiezen session end`)").format(players=who, points=shown, n=plan.n)
        return Progress(short, line, over, warning)
    total = plan.n if plan.kind == "deals" else plan.n * players
    rounds = (
        _(", round {n} of {total}").format(n=min(deals_played // players + 1, plan.n), total=plan.n)
        if plan.kind == "rounds"
        else ""
    )
    over = deals_played >= total
    if not over:
        short = _("deal {n} of {total}").format(n=deals_played + 1, total=total)
        line = _("evening: {n} of {total} deals played{rounds}").format(n=deals_played, total=total, rounds=rounds)
    else:
        short = _("{n} of {total} deals played").format(n=deals_played, total=total)
        line = _("evening: {n} of {total} deals played: the planned length is reached").format(
            n=deals_played, total=total
        )
    warning = ""
    if just_played and deals_played == total:
        warning = _("that was the last deal of the evening ({n} of {total}): type 'end', or `wiezen session end`").format(
            n=total, total=total
        )
    elif just_played and deals_played > total:
        warning = _("deal {n} is beyond the {total} deals planned for this evening").format(n=deals_played, total=total)
    return Progress(short, line, over, warning)
