"""Who pays whom at the end of the evening, in the fewest payments.

Players whose balance is not zero have to take part in at least one payment. If they can be split into ``g``
disjoint groups that each sum to zero, every group settles on its own with (size - 1) payments, so the evening
needs (non-zero players - g) payments, and no fewer is possible. :func:`settle` finds the largest ``g`` exactly by
a dynamic programme over subsets (up to :data:`EXACT_LIMIT` players), and falls back to "largest debtor pays
largest creditor" above that (still at most non-zero players - 1 payments).

Amounts are exact: :class:`fractions.Fraction` internally, handed back as ``int`` when whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Union

from .errors import WiezenError
from .i18n import _
from .numbers import fmt

if TYPE_CHECKING:  # keeps fractions (and decimal, which it imports) off the start-up path
    from fractions import Fraction

__all__ = ["EXACT_LIMIT", "Payment", "settle"]

Amount = Union[int, "Fraction"]

#: The exact optimum is computed for at most this many players with a non-zero balance (after pairing off
#: players whose balances are exact opposites, which is always part of some optimum).
EXACT_LIMIT = 16


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Amount  # points, always > 0; an int when whole, else a Fraction
    cents: int | None = None  # amount x cents-per-point, rounded half up; None when no rate was given


def _exact(name: str, value: object) -> Fraction:
    from fractions import Fraction

    if isinstance(value, bool) or not isinstance(value, (int, float)) and not hasattr(value, "denominator"):
        raise WiezenError(_("{name}'s total is not a number: {value}.").format(name=name, value=repr(value)))
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise WiezenError(_("{name}'s total is not a number: {value}.").format(name=name, value=repr(value)))
        return Fraction(repr(value))  # 0.1 means 1/10, not the nearest binary fraction
    exact: Fraction = Fraction(value)  # type: ignore[call-overload]
    return exact


def _plain(x: Fraction) -> Amount:
    return x.numerator if x.denominator == 1 else x


def _greedy(balances: list[tuple[str, int]]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor until all is square; ties broken by name.

    Each payment clears at least one player and the last clears two, so a zero-sum group of k players takes
    at most k - 1 payments.
    """
    bal = {name: v for name, v in balances if v}
    out: list[tuple[str, str, int]] = []
    while bal:
        payer = min(bal, key=lambda p: (bal[p], p))  # most negative
        payee = min(bal, key=lambda p: (-bal[p], p))  # most positive
        amount = min(-bal[payer], bal[payee])
        out.append((payer, payee, amount))
        for p, delta in ((payer, amount), (payee, -amount)):
            bal[p] += delta
            if not bal[p]:
                del bal[p]
    return out


def _zero_sum_groups(vals: list[int]) -> list[list[int]]:
    """Split indices of ``vals`` (sum 0, none 0) into the largest number of disjoint zero-sum groups."""
    n = len(vals)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + vals[low.bit_length() - 1]
    # best[mask]: the most zero-sum groups among the "prefixes" of some ordering of mask's elements
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        m = mask
        while m:
            low = m & -m
            b = best[mask ^ low]
            if b > top:
                top = b
            m ^= low
        best[mask] = top + (sums[mask] == 0)
    # walk back along the ordering; every zero-sum prefix closes a group
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        want = best[mask] - (sums[mask] == 0)
        if sums[mask] == 0 and current:
            groups.append(current)
            current = []
        m = mask
        while m:
            low = m & -m
            if best[mask ^ low] == want:
                break
            m ^= low
        current.append(low.bit_length() - 1)
        mask ^= low
    groups.append(current)
    return groups


def settle(totals: Mapping[str, int | float | Fraction], cents: int | None = None) -> list[Payment]:
    """The fewest payments that square everyone's ``totals`` (which must add up to exactly 0).

    ``cents`` is the rate in cents per point; when given, every payment also carries its amount in cents.
    Payments are sorted by payer, then payee.
    """
    from math import lcm

    if cents is not None and (isinstance(cents, bool) or not isinstance(cents, int) or cents < 0):
        raise WiezenError(
            _("The rate must be a whole number of cents per point, 0 or more (got {cents}).").format(cents=repr(cents))
        )
    exact = {name: _exact(name, value) for name, value in totals.items()}
    total = sum(exact.values())
    if total != 0:
        raise WiezenError(
            _("The totals do not add up to 0 (they add up to {total}), so they cannot be settled.").format(total=fmt(total))
        )
    nonzero = {name: v for name, v in exact.items() if v != 0}
    if not nonzero:
        return []
    scale = lcm(*(v.denominator for v in nonzero.values()))
    ints = {name: int(v * scale) for name, v in nonzero.items()}

    raw: list[tuple[str, str, int]] = []
    # exact opposites pay each other directly: some optimal solution always does so
    by_value: dict[int, list[str]] = {}
    for name in sorted(ints):
        by_value.setdefault(ints[name], []).append(name)
    rest: list[str] = []
    for value in sorted(by_value):
        if value > 0:
            break
        debtors, creditors = by_value[value], by_value.get(-value, [])
        k = min(len(debtors), len(creditors))
        raw.extend((d, c, -value) for d, c in zip(debtors, creditors, strict=False))
        rest.extend(debtors[k:])
        rest.extend(creditors[k:])
    rest.extend(n for v, names in by_value.items() if v > 0 and -v not in by_value for n in names)
    rest.sort()

    if rest:
        if len(rest) <= EXACT_LIMIT:
            vals = [ints[n] for n in rest]
            for group in _zero_sum_groups(vals):
                raw.extend(_greedy([(rest[i], vals[i]) for i in group]))
        else:
            raw.extend(_greedy([(n, ints[n]) for n in rest]))

    from fractions import Fraction

    payments = []
    for payer, payee, amount in sorted(raw):
        share = Fraction(amount, scale)
        money = None
        if cents is not None:
            due = share * cents
            money = (2 * due.numerator + due.denominator) // (2 * due.denominator)  # half up
        payments.append(Payment(payer, payee, _plain(share), money))
    return payments
