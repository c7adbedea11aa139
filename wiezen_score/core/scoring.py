"""Scoring a deal under house rules (shared/SCORING.md), with the steps that led to the figure.

Points are exact: whole numbers, except the one case SCORING.md allows a half point (split miseries),
where a :class:`fractions.Fraction` is used. Every deal sums to exactly 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence, Union

from .deal import Deal, MiserieDeal, TrickDeal
from .errors import WiezenError
from .numbers import signed
from .rules import HouseRules, MiserieContract, TrickContract

if False:  # pragma: no cover - typing only, keeps fractions off the start-up path
    from fractions import Fraction

Points = Union[int, "Fraction"]


@dataclass(frozen=True)
class Score:
    points: Mapping[str, Points]  # every active player of the deal, in seat order
    multiplier: int
    made: bool | None  # None for several miseries with mixed results
    explanation: tuple[str, ...]


def score(
    deal: Deal,
    rules: HouseRules,
    active: Sequence[str],
    multiplier: int = 1,
    why_multiplier: str = "",
) -> Score:
    """Score ``deal`` for the four ``active`` players.

    ``multiplier`` >= 1 is the pending rondje-pas doubling (x2 once, x4 after two stacked rondjes pas ...).
    Under ``doubling = "multiply"`` it multiplies every amount, like the contract's own doublings and all 13
    tricks with ``all_tricks_times``; under ``doubling = "add"`` it counts as log2(multiplier) doublings, and
    the amount is multiplied by 1 + the number of doublings of the deal.
    """
    if len(active) != 4:
        raise WiezenError(f"a deal is played by exactly four players, not {len(active)}")
    if multiplier < 1:
        raise WiezenError(f"the multiplier must be 1 or more, not {multiplier}")
    add = rules.doubling == "add"
    pass_doublings = multiplier.bit_length() - 1
    if add and multiplier != 1 << pass_doublings:
        raise WiezenError(
            f"house rules '{rules.name}' add doublings (doubling = \"add\"): the multiplier counts rondje-pas "
            f"doublings and is 1, 2, 4, 8 ..., not {multiplier}"
        )
    pass_label = "rondje pas" + (f" x{multiplier}" if multiplier > 2 else "")
    made: bool | None
    if isinstance(deal, TrickDeal):
        pts, made, steps = _trick(deal, active, add, multiplier, pass_doublings, pass_label)
        if add or multiplier == 1:
            return Score(pts, multiplier, made, tuple(steps))
        summary = steps.pop() if steps and steps[-1].startswith("doublings") else None
    else:
        pts, made, steps = _miserie(deal, rules, active)
        summary = None
    factor = 1 + pass_doublings if add else multiplier
    if factor != 1:
        pts = {p: v * factor for p, v in pts.items()}
        if add and factor != multiplier:
            steps.append(f"doublings (added): {pass_label}: 1 + {pass_doublings} = x{factor}")
        steps.append(
            f"x{factor}{' ' + why_multiplier if why_multiplier else ''}: "
            + ", ".join(f"{p} {signed(v)}" for p, v in pts.items())
        )
    if summary:
        steps.append(summary)
    return Score(pts, multiplier, made, tuple(steps))


def _settle(takers: Sequence[str], active: Sequence[str], x: int, made: bool, solo: bool) -> dict[str, Points]:
    sign = 1 if made else -1
    out: dict[str, Points] = {}
    for p in active:
        if p in takers:
            out[p] = sign * (3 * x if solo else x)
        else:
            out[p] = -sign * x
    return out


def _trick(
    deal: TrickDeal, active: Sequence[str], add: bool, multiplier: int, pass_doublings: int, pass_label: str
) -> tuple[dict[str, Points], bool, list[str]]:
    """Points of a trick contract. With ``add`` the rondje-pas doublings are counted in; otherwise the caller
    multiplies by ``multiplier`` afterwards, and the last step (when it starts with "doublings") sums up how the
    doublings combined."""
    c: TrickContract = deal.contract
    lv, t = deal.level, deal.tricks
    made_amt, lost_amt = c.amounts(lv)
    who = "+".join(deal.takers)
    label = f"{c.name} {lv}" if len(c.levels) > 1 or lv != 13 else c.name
    made = t >= lv
    steps: list[str] = []
    # every doubling of the deal: (what, factor when multiplied, doublings when added)
    doublings: list[tuple[str, int, int]] = []
    if c.doublings:
        doublings.append((c.name if c.doublings == 1 else f"{c.name} ({c.doublings} doublings)", 2**c.doublings, c.doublings))
    if made:
        steps.append(f"{label} by {who}: made with {t} tricks")
        if t == 13 and c.all_tricks is not None:
            x = c.all_tricks
            steps.append(f"all 13 tricks: {x}")
        else:
            if c.promote and t > lv:
                top = max(lv2 for lv2 in c.levels if lv2 <= t)
                x = c.amounts(top)[0]
                steps.append(
                    f"{t} tricks score as {c.name} {top}: {x}" if top != lv else f"{c.name} {lv} made: {x}"
                )
            elif c.overtrick and t > lv:
                counted = min(t, c.overtrick_cap) if c.overtrick_cap is not None else t
                over = max(counted - lv, 0)  # a cap below the level bid: no overtrick counts
                x = made_amt + c.overtrick * over
                cap_note = f" (none beyond the {c.overtrick_cap}th trick)" if counted < t else ""
                steps.append(
                    f"{made_amt} + {over} overtrick{'s' if over != 1 else ''} x {c.overtrick} = {x}{cap_note}"
                )
            else:
                x = made_amt
                steps.append(f"{label} made: {x}" + (" (no overtrick points)" if t > lv else ""))
            if t == 13 and c.all_tricks_times and c.all_tricks_times != 1:
                doublings.append(("all 13 tricks", c.all_tricks_times, 1))
    else:
        short = lv - t
        x = lost_amt + c.undertrick * (short - 1)
        steps.append(f"{label} by {who}: lost with {t} tricks, {short} short")
        if c.undertrick and short > 1:
            steps.append(f"{lost_amt} + {short - 1} further undertrick{'s' if short > 2 else ''} x {c.undertrick} = {x}")
        else:
            steps.append(f"{label} lost: {x}")
    summary = ""
    if add:
        if pass_doublings:
            doublings.append((pass_label, multiplier, pass_doublings))
        if doublings:
            n = sum(d[2] for d in doublings)
            x2 = x * (1 + n)
            steps.append(
                f"doublings (added): {', '.join(d[0] for d in doublings)}: 1 + {n} = x{1 + n}: {x} x {1 + n} = {x2}"
            )
            x = x2
    else:
        for what, factor, n in doublings:
            x2 = x * factor
            if what == "all 13 tricks":
                steps.append(f"all 13 tricks (onder tafel): {x} x {factor} = {x2}")
            else:
                steps.append(f"{c.name} counts {'double' if n == 1 else f'x{factor}'} (doublings = {n}): {x} x {factor} = {x2}")
            x = x2
        if multiplier > 1:
            doublings.append((pass_label, multiplier, pass_doublings))
        if len(doublings) > 1:
            factors = [d[1] for d in doublings]
            total = 1
            for f in factors:
                total *= f
            summary = (
                f"doublings (multiplied): {', '.join(d[0] for d in doublings)}: "
                f"{' x '.join(str(f) for f in factors)} = x{total}"
            )
    pts = _settle(deal.takers, active, x, made, solo=not c.team)
    if c.team:
        steps.append(
            f"team contract: each taker {'+' if made else '-'}{x}, each defender {'-' if made else '+'}{x}"
        )
    else:
        steps.append(
            f"solo contract: {deal.takers[0]} {'+' if made else '-'}3 x {x} = {'+' if made else '-'}{3 * x}, "
            f"each defender {'-' if made else '+'}{x}"
        )
    if summary:
        steps.append(summary)
    return pts, made, steps


def _miserie(deal: MiserieDeal, rules: HouseRules, active: Sequence[str]) -> tuple[dict[str, Points], bool | None, list[str]]:
    c: MiserieContract = deal.contract
    x = c.points
    steps: list[str] = []
    if deal.over_troel and c.over_troel is not None:
        x = c.over_troel
        steps.append(f"{c.name} bid over a troel: {x} instead of {c.points}")
    elif deal.over_troel:
        steps.append(f"bid over a troel: house rules '{rules.name}' give {c.name} no other amount for that")
    need = "no trick" if c.tricks == 0 else f"exactly {c.tricks} trick{'s' if c.tricks != 1 else ''}"
    results = [(p, t == c.tricks) for p, t in deal.plays]
    for p, ok in results:
        t = dict(deal.plays)[p]
        steps.append(f"{c.name} by {p} ({need}): {'made' if ok else 'lost'} with {t} trick{'s' if t != 1 else ''}, {x}")
    pts: dict[str, Points] = {p: 0 for p in active}
    if len(results) == 1 or rules.multi_miserie == "alone":
        for p, ok in results:
            for q, v in _settle([p], active, x, ok, solo=True).items():
                pts[q] += v
            if len(results) > 1:
                steps.append(
                    f"  {p} {'made' if ok else 'lost'}: {p} {'+' if ok else '-'}{3 * x}, "
                    f"each other player {'-' if ok else '+'}{x}"
                )
        if len(results) > 1:
            steps.append(
                "several miseries (alone): each settled against the other three, then added up: "
                + ", ".join(f"{p} {signed(v)}" for p, v in pts.items())
            )
        else:
            p, ok = results[0]
            steps.append(f"solo: {p} {'+' if ok else '-'}3 x {x} = {'+' if ok else '-'}{3 * x}, each other player {'-' if ok else '+'}{x}")
        made_all = {ok for _, ok in results}
        return pts, (made_all.pop() if len(made_all) == 1 else None), steps
    # split (several miserie players)
    on = [p for p, _ in results]
    winners = [p for p, ok in results if ok]
    losers = [p for p, ok in results if not ok]
    others = [p for p in active if p not in on]
    if not winners or not losers:
        sign = 1 if winners else -1
        for p in on:
            pts[p] = sign * 3 * x
        if others:
            share = _share(-sign * 3 * x * len(on), len(others))
            for p in others:
                pts[p] = share
            steps.append(
                f"several miseries (split), all {'made' if winners else 'lost'}: each {'+' if sign > 0 else '-'}{3 * x}; "
                f"the others share {signed(-sign * 3 * x * len(on))}: {signed(share)} each"
            )
        else:
            pts = {p: 0 for p in active}
            steps.append("all four on miserie with the same result: nobody to settle with, 0 for everyone")
        return pts, bool(winners), steps
    gain = 3 * x * len(winners)
    share = _share(-gain, len(losers))
    for p in winners:
        pts[p] = 3 * x
    for p in losers:
        pts[p] = share
    steps.append(
        f"several miseries (split), mixed: each who made it +{3 * x}; those who lost share -{gain}: "
        f"{signed(share)} each; the others 0"
    )
    return pts, None, steps


def _share(total: int, n: int) -> Points:
    if total % n == 0:
        return total // n
    from fractions import Fraction

    return Fraction(total, n)
