"""How long `settle` takes for the largest table it settles exactly (EXACT_LIMIT players: a dynamic programme over
the subsets of the players), and for 60 players (the greedy fallback). Prints the best of five runs of each.

    python benchmarks/settle.py

The goal: under 2 s for the exact case (a club night's settle after the last deal). This was a timed assertion in
tests/core/test_settle_fewest_payments.py; timings belong here, where a slow machine makes a slow figure, not a red test run.
"""

from __future__ import annotations

import time
from fractions import Fraction

from wiezen_score.core.settle import EXACT_LIMIT, settle


def zero_sum(values: list[Fraction]) -> dict[str, Fraction]:
    totals = {f"p{i}": v for i, v in enumerate(values)}
    totals[f"p{len(values)}"] = -sum(values, Fraction(0))
    return totals


def best_of(runs: int, totals: dict[str, Fraction]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        settle(totals)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    exact = zero_sum([Fraction(3**i % 997 + 1) for i in range(EXACT_LIMIT - 1)])
    greedy = zero_sum([Fraction(i % 7 - 3) for i in range(59)])
    t = best_of(5, exact)
    print(f"{'PASS' if t < 2 else 'FAIL'} settle, {EXACT_LIMIT} players (exact): {t * 1000:.0f} ms  (goal < 2 s)")
    print(f"     settle, 60 players (greedy): {best_of(5, greedy) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
