"""How many examples a Hypothesis test tries: `examples(n)` is n under the "ci" profile (.ci/run sets
WIEZEN_HYPOTHESIS=ci) and a quarter of it in the default run ("dev"); tests/conftest.py registers both."""

from __future__ import annotations

from hypothesis import settings


def examples(n: int) -> int:
    """n examples scaled to the loaded profile (whose max_examples is 100 in "ci"), at least 10 (or n if less)."""
    return max(min(n, 10), round(n * settings.default.max_examples / 100))
