"""Scoring a deal under house rules (shared/SCORING.md), with the steps that led to the figure.

Points are exact: whole numbers, except a half point (where several players on miserie share an amount: split
miseries, a pool of miseries, core/pool.py) and a third (a solo paid as one sum, payment = "shared"), where a
:class:`fractions.Fraction` is used. Every deal sums to exactly 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

from .deal import Deal, MiserieDeal, TrickDeal
from .errors import WiezenError
from .i18n import _, ngettext
from .numbers import signed
from .rules import HouseRules, MiserieContract, TrickContract

if False:  # pragma: no cover - typing only, keeps fractions off the start-up path
    from fractions import Fraction

Points = Union[int, "Fraction"]


@dataclass(frozen=True, slots=True)
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
    the amount is multiplied by 1 + the number of doublings of the deal. ``why_multiplier`` is shown after
    the factor (already in the language of the explanation).
    """
    if len(active) != 4:
        raise WiezenError(_("a deal is played by exactly four players, not {n}").format(n=len(active)))
    if multiplier < 1:
        raise WiezenError(_("the multiplier must be 1 or more, not {n}").format(n=multiplier))
    add = rules.doubling == "add"
    pass_doublings = multiplier.bit_length() - 1
    if add and multiplier != 1 << pass_doublings:
        raise WiezenError(
            _("house rules '{rules}' add doublings (doubling = \"add\"): the multiplier counts rondje-pas "
              "doublings and is 1, 2, 4, 8 ..., not {n}").format(rules=rules.name, n=multiplier)
        )
    pass_label = "rondje pas" + (f" x{multiplier}" if multiplier > 2 else "")
    made: bool | None
    summary: str | None = None
    if isinstance(deal, TrickDeal):
        pts, made, steps, summary = _trick(deal, active, add, multiplier, pass_doublings, pass_label)
        if add or multiplier == 1:
            return Score(pts, multiplier, made, tuple(steps + ([summary] if summary else [])))
    else:
        pts, made, steps = _miserie(deal, rules, active)
        if deal.times > 1 and not add:  # by agreement first, then the rondje pas (multiplied)
            pts = {p: v * deal.times for p, v in pts.items()}
            steps.append(_agreed_step(deal.times, pts))
    agreed = deal.times - 1 if add and isinstance(deal, MiserieDeal) else 0  # doublings by agreement, when added
    factor = 1 + pass_doublings + agreed if add else multiplier
    if factor != 1:
        pts = {p: v * factor for p, v in pts.items()}
        if add and agreed:
            steps.append(
                _("doublings (added): {what}: 1 + {n} = x{factor}").format(
                    what=", ".join(([_agreed_label(deal.times)]) + ([pass_label] if pass_doublings else [])),
                    n=pass_doublings + agreed, factor=factor,
                )
            )
        elif add and factor != multiplier:
            steps.append(
                _("doublings (added): {what}: 1 + {n} = x{factor}").format(
                    what=pass_label, n=pass_doublings, factor=factor
                )
            )
        all_points = ", ".join(f"{p} {signed(v)}" for p, v in pts.items())
        if why_multiplier and not agreed:
            steps.append(_("x{factor} {why}: {points}").format(factor=factor, why=why_multiplier, points=all_points))
        else:
            steps.append(_("x{factor}: {points}").format(factor=factor, points=all_points))
    if summary:
        steps.append(summary)
    return Score(pts, multiplier, made, tuple(steps))


def _agreed_label(times: int) -> str:
    """A deal doubled by agreement, as the explanation names it."""
    return _("x{n} by agreement").format(n=times)


def _agreed_step(times: int, pts: Mapping[str, Points]) -> str:
    return _("the deal counts x{n} by agreement: {points}").format(
        n=times, points=", ".join(f"{p} {signed(v)}" for p, v in pts.items())
    )


def _settle(
    takers: Sequence[str], active: Sequence[str], x: int, made: bool, solo: bool, shared: bool = False
) -> dict[str, Points]:
    """Each player's points: a team contract x each way; a solo 3x to (or from) the taker and x from (or to) each
    defender, or, paid as one sum (``shared``), x to the taker and x/3 from each defender (thirds, exact)."""
    sign = 1 if made else -1
    each: Points = _share(x, 3) if shared else x
    out: dict[str, Points] = {}
    for p in active:
        if p in takers:
            out[p] = sign * (x if shared else 3 * x if solo else x)
        else:
            out[p] = -sign * each
    return out


def _shared_step(player: str, x: int, made: bool, others: str) -> str:
    """The explanation of a solo paid as one sum: the player's x, and the third each of the three others pays."""
    win, lose = (1, -1) if made else (-1, 1)
    return _("paid as one sum (payment = \"shared\"): {player} {points}, {others} {x}/3 = {share}").format(
        player=player, points=signed(win * x), others=others, x=x, share=signed(lose * _share(x, 3)))


def _trick(
    deal: TrickDeal, active: Sequence[str], add: bool, multiplier: int, pass_doublings: int, pass_label: str
) -> tuple[dict[str, Points], bool, list[str], str]:
    """Points of a trick contract, the steps, and (or "") how the doublings combined when they are multiplied.

    With ``add`` the rondje-pas doublings are counted in; otherwise the caller multiplies by ``multiplier``
    afterwards and shows the summary last."""
    c: TrickContract = deal.contract
    lv, t = deal.level, deal.tricks
    made_amt, lost_amt = c.amounts(lv)
    over_each, under_each, all13 = c.overtrick_at(lv), c.undertrick_at(lv), c.all_tricks_at(lv)  # (per level)
    who = "+".join(deal.takers)
    label = f"{c.name} {lv}" if len(c.levels) > 1 or lv != 13 else c.name
    made = t >= lv
    steps: list[str] = []
    # every doubling of the deal: (what, factor when multiplied, doublings when added, all 13 tricks?)
    doublings: list[tuple[str, int, int, bool]] = []
    if c.doublings:
        what = c.name if c.doublings == 1 else _("{contract} ({n} doublings)").format(contract=c.name, n=c.doublings)
        doublings.append((what, 2**c.doublings, c.doublings, False))
    # a deal doubled by agreement (x2, x3, x4): a factor when multiplied, times - 1 doublings when added (after the
    # contract's own and all 13 tricks in the explanation: appended below)
    agreed = (_agreed_label(deal.times), deal.times, deal.times - 1, False) if deal.times > 1 else None
    if made:
        steps.append(
            ngettext("{label} by {who}: made with {tricks} tricks", "{label} by {who}: made with {tricks} tricks", t)
            .format(label=label, who=who, tricks=t)
        )
        if t == 13 and all13 is not None:
            x = all13
            steps.append(_("all 13 tricks: {points}").format(points=x))
        else:
            if t == 13 and isinstance(c.all_tricks, tuple):
                steps.append(_("all 13 tricks: no all-tricks amount at level {level} (0 in the list), "
                               "the tricks count as usual").format(level=lv))
            if c.promote and t > lv:
                top = max(lv2 for lv2 in c.levels if lv2 <= t)
                x = c.amounts(top)[0]
                steps.append(
                    _("{tricks} tricks score as {contract} {level}: {points}").format(
                        tricks=t, contract=c.name, level=top, points=x
                    )
                    if top != lv
                    else _("{contract} {level} made: {points}").format(contract=c.name, level=lv, points=x)
                )
            elif over_each and t > lv:
                counted = min(t, c.overtrick_cap) if c.overtrick_cap is not None else t
                over = max(counted - lv, 0)  # a cap below the level bid: no overtrick counts
                x = made_amt + over_each * over
                cap_note = (
                    _(" (none beyond the {cap}th trick)").format(cap=c.overtrick_cap) if counted < t else ""
                )
                steps.append(
                    ngettext(
                        "{made} + {over} overtrick x {each} = {points}{cap_note}",
                        "{made} + {over} overtricks x {each} = {points}{cap_note}",
                        over,
                    ).format(made=made_amt, over=over, each=over_each, points=x, cap_note=cap_note)
                )
            else:
                x = made_amt
                steps.append(
                    (_("{label} made: {points} (no overtrick points)") if t > lv else _("{label} made: {points}"))
                    .format(label=label, points=x)
                )
            if t == 13 and c.all_tricks_times and c.all_tricks_times != 1:
                doublings.append((_("all 13 tricks"), c.all_tricks_times, 1, True))
    else:
        short = lv - t
        x = lost_amt + under_each * (short - 1)
        steps.append(
            ngettext(
                "{label} by {who}: lost with {tricks} tricks, {short} short",
                "{label} by {who}: lost with {tricks} tricks, {short} short",
                t,
            ).format(label=label, who=who, tricks=t, short=short)
        )
        if under_each and short > 1:
            steps.append(
                ngettext(
                    "{lost} + {n} further undertrick x {each} = {points}",
                    "{lost} + {n} further undertricks x {each} = {points}",
                    short - 1,
                ).format(lost=lost_amt, n=short - 1, each=under_each, points=x)
            )
        else:
            steps.append(_("{label} lost: {points}").format(label=label, points=x))
    summary = ""
    if agreed is not None:
        doublings.append(agreed)
    if add:
        if pass_doublings:
            doublings.append((pass_label, multiplier, pass_doublings, False))
        if doublings:
            n = sum(d[2] for d in doublings)
            x2 = x * (1 + n)
            steps.append(
                _("doublings (added): {what}: 1 + {n} = x{factor}: {points} x {factor} = {result}").format(
                    what=", ".join(d[0] for d in doublings), n=n, factor=1 + n, points=x, result=x2
                )
            )
            x = x2
    else:
        for what, factor, n, all13 in doublings:
            x2 = x * factor
            if (what, factor, n, all13) == agreed:
                steps.append(
                    _("{what}: {points} x {factor} = {result}").format(what=what, points=x, factor=factor, result=x2)
                )
            elif all13:
                steps.append(
                    _("all 13 tricks (onder tafel): {points} x {factor} = {result}").format(
                        points=x, factor=factor, result=x2
                    )
                )
            elif n == 1:
                steps.append(
                    _("{contract} counts double (doublings = {n}): {points} x {factor} = {result}").format(
                        contract=c.name, n=n, points=x, factor=factor, result=x2
                    )
                )
            else:
                steps.append(
                    _("{contract} counts x{factor} (doublings = {n}): {points} x {factor} = {result}").format(
                        contract=c.name, n=n, points=x, factor=factor, result=x2
                    )
                )
            x = x2
        if multiplier > 1:
            doublings.append((pass_label, multiplier, pass_doublings, False))
        if len(doublings) > 1:
            factors = [d[1] for d in doublings]
            total = 1
            for f in factors:
                total *= f
            summary = _("doublings (multiplied): {what}: {factors} = x{total}").format(
                what=", ".join(d[0] for d in doublings), factors=" x ".join(str(f) for f in factors), total=total
            )
    shared = c.payment == "shared"
    pts = _settle(deal.takers, active, x, made, solo=not c.team, shared=shared)
    win, lose = ("+", "-") if made else ("-", "+")
    if shared:
        steps.append(_shared_step(deal.takers[0], x, made, _("each defender")))
    elif c.team:
        steps.append(
            _("team contract: each taker {taker}, each defender {defender}").format(
                taker=f"{win}{x}", defender=f"{lose}{x}"
            )
        )
    else:
        steps.append(
            _("solo contract: {player} {times} = {points}, each defender {defender}").format(
                player=deal.takers[0], times=f"{win}3 x {x}", points=f"{win}{3 * x}", defender=f"{lose}{x}"
            )
        )
    return pts, made, steps, summary


def _miserie(deal: MiserieDeal, rules: HouseRules, active: Sequence[str]) -> tuple[dict[str, Points], bool | None, list[str]]:
    c: MiserieContract = deal.contract
    x = c.points
    steps: list[str] = []
    if deal.over_troel and c.over_troel is not None:
        x = c.over_troel
        steps.append(
            _("{contract} bid over a troel: {points} instead of {usual}").format(
                contract=c.name, points=x, usual=c.points
            )
        )
    elif deal.over_troel:
        steps.append(
            _("bid over a troel: house rules '{rules}' give {contract} no other amount for that").format(
                rules=rules.name, contract=c.name
            )
        )
    need = (
        _("no trick")
        if c.tricks == 0
        else ngettext("exactly {n} trick", "exactly {n} tricks", c.tricks).format(n=c.tricks)
    )
    results = [(p, t == c.tricks) for p, t in deal.plays]
    amounts: dict[str, int] = {}  # each miserie player's amount: x when made, else what it costs (lost = N)
    for p, ok in results:
        t = dict(deal.plays)[p]
        amounts[p] = x if ok else c.lost_amount(t, deal.over_troel)
        if ok:
            line = ngettext(
                "{contract} by {player} ({need}): made with {tricks} trick, {points}",
                "{contract} by {player} ({need}): made with {tricks} tricks, {points}",
                t,
            )
        else:
            line = ngettext(
                "{contract} by {player} ({need}): lost with {tricks} trick, {points}",
                "{contract} by {player} ({need}): lost with {tricks} tricks, {points}",
                t,
            )
        steps.append(line.format(contract=c.name, player=p, need=need, tricks=t, points=amounts[p]))
        if amounts[p] != x:
            steps.append(_lost_step(c, p, t, amounts[p]))
    if rules.multi_miserie == "pool" and 1 < len(results) < len(active):
        from .pool import pool

        pool_pts, pool_steps = pool(amounts, dict(results), active, rules.pool_times)
        made_all = {ok for _p, ok in results}
        return dict(pool_pts), (made_all.pop() if len(made_all) == 1 else None), steps + pool_steps
    pts: dict[str, Points] = {p: 0 for p in active}
    shared = c.payment == "shared"

    def big(p: str) -> int:
        """What miserie player ``p`` wins or pays: his amount, three times over unless paid as one sum."""
        return amounts[p] if shared else 3 * amounts[p]

    def each_other(p: str, ok: bool) -> Points:
        return (-1 if ok else 1) * (_share(amounts[p], 3) if shared else amounts[p])

    if len(results) == 1 or rules.multi_miserie in ("alone", "pool"):
        if len(results) > 1 and rules.multi_miserie == "pool":  # every player of the deal is on miserie
            steps.append(_("every player of the deal is on miserie: under the pool each is settled alone"))
        for p, ok in results:
            for q, v in _settle([p], active, amounts[p], ok, solo=True, shared=shared).items():
                pts[q] += v
            if len(results) > 1:
                steps.append(
                    (_("  {player} made: {player} {points}, each other player {others}") if ok
                     else _("  {player} lost: {player} {points}, each other player {others}"))
                    .format(player=p, points=signed(big(p) if ok else -big(p)), others=signed(each_other(p, ok)))
                )
        if len(results) > 1:
            steps.append(
                _("several miseries (alone): each settled against the other three, then added up: {points}").format(
                    points=", ".join(f"{p} {signed(v)}" for p, v in pts.items())
                )
            )
        elif shared:
            steps.append(_shared_step(results[0][0], amounts[results[0][0]], results[0][1], _("each other player")))
        else:
            p, ok = results[0]
            x = amounts[p]
            win, lose = ("+", "-") if ok else ("-", "+")
            steps.append(
                _("solo: {player} {times} = {points}, each other player {others}").format(
                    player=p, times=f"{win}3 x {x}", points=f"{win}{3 * x}", others=f"{lose}{x}"
                )
            )
        made_all = {ok for _p, ok in results}
        return pts, (made_all.pop() if len(made_all) == 1 else None), steps
    # split (several miserie players)
    on = [p for p, _ok in results]
    winners = [p for p, ok in results if ok]
    losers = [p for p, ok in results if not ok]
    others = [p for p in active if p not in on]
    if not winners or not losers:
        sign = 1 if winners else -1
        for p in on:
            pts[p] = sign * big(p)  # (lost amounts may differ: lost_per_trick)
        if others:
            total = -sign * sum(big(p) for p in on)
            share = _share(total, len(others))
            for p in others:
                pts[p] = share
            if len({big(p) for p in on}) == 1:
                steps.append(
                    (_("several miseries (split), all made: each {each}; the others share {total}: {share} each")
                     if winners else
                     _("several miseries (split), all lost: each {each}; the others share {total}: {share} each"))
                    .format(each=f"{'+' if sign > 0 else '-'}{big(on[0])}", total=signed(total), share=signed(share))
                )
            else:
                steps.append(
                    _("several miseries (split), all lost: {each}; the others share {total}: {share} each").format(
                        each=", ".join(f"{p} {signed(pts[p])}" for p in on), total=signed(total), share=signed(share),
                    )
                )
        else:
            pts = {p: 0 for p in active}
            steps.append(_("all four on miserie with the same result: nobody to settle with, 0 for everyone"))
        return pts, bool(winners), steps
    gain = sum(big(p) for p in winners)
    share = _share(-gain, len(losers))
    for p in winners:
        pts[p] = big(p)
    for p in losers:
        pts[p] = share
    steps.append(
        _("several miseries (split), mixed: each who made it {each}; those who lost share {total}: "
          "{share} each; the others 0").format(each=f"+{big(winners[0])}", total=f"-{gain}", share=signed(share))
    )
    return pts, None, steps


def _lost_step(c: MiserieContract, player: str, tricks: int, amount: int) -> str:
    """How a lost miserie's amount came about, when it is not the made amount (``lost``, ``lost_per_trick``)."""
    further = abs(tricks - c.tricks) - 1
    if c.lost_per_trick and further:
        return ngettext(
            "  {player} lost: {lost} + {n} further trick x {each} = {points}",
            "  {player} lost: {lost} + {n} further tricks x {each} = {points}",
            further,
        ).format(player=player, lost=amount - c.lost_per_trick * further, n=further, each=c.lost_per_trick,
                 points=amount)
    return _("  {player} lost: a lost {contract} costs {points}").format(player=player, contract=c.name, points=amount)


def _share(total: int, n: int) -> Points:
    if total % n == 0:
        return total // n
    from fractions import Fraction

    return Fraction(total, n)
