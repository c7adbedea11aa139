"""Several miseries paid into a pool (house rules ``multi_miserie = "pool"``, issue 30), with the steps.

Pure. Each miserie player who made it wins ``pool_times`` x his amount, each who lost pays ``pool_times`` x his
lost amount, and the players not on miserie take the opposite of that sum in equal shares. With four players in a
deal and at least two of them on miserie, one or two players share: a share is at most a half point, which the
ledger keeps exactly (it stores twice the points).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from .i18n import _
from .numbers import signed

if TYPE_CHECKING:  # keeps fractions off the start-up path
    from fractions import Fraction


def pool(
    amounts: Mapping[str, int], made: Mapping[str, bool], active: Sequence[str], times: int
) -> tuple[dict[str, int | Fraction], list[str]]:
    """The points of the deal's players and the steps: ``amounts`` is each miserie player's amount (his made
    amount when he made it, else what his miserie costs), ``made`` whether he made it."""
    pts: dict[str, int | Fraction] = {p: 0 for p in active}
    steps = [_("several miseries (pool): each miserie player wins or pays {times} x his amount").format(times=times)]
    for p, amount in amounts.items():
        v = (1 if made[p] else -1) * times * amount
        pts[p] = v
        steps.append(
            (_("  {player} made: +{times} x {amount} = {points}") if made[p]
             else _("  {player} lost: -{times} x {amount} = {points}"))
            .format(player=p, times=times, amount=amount, points=signed(v))
        )
    others = [p for p in active if p not in amounts]
    total = -sum(int(pts[p]) for p in amounts)
    if total % len(others) == 0:
        share: int | Fraction = total // len(others)
    else:
        from fractions import Fraction

        share = Fraction(total, len(others))
    for p in others:
        pts[p] = share
    steps.append(
        _("the others take the opposite, {total}, in equal shares: {share} each ({players})").format(
            total=signed(total), share=signed(share), players=", ".join(others)
        )
    )
    return pts, steps
