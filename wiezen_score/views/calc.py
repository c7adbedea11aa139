"""`wiezen calc`'s JSON document: one deal line scored under the house rules, with its explanation."""

from __future__ import annotations

from typing import TypedDict

from ..core.numbers import plain
from ..core.rules import HouseRules
from ..core.scoring import Score


class CalcDoc(TypedDict):
    """`wiezen calc --json`: the line, the house rules' name, the points, the multiplier, the steps."""

    deal: str
    rules: str
    points: dict[str, int | float]
    multiplier: int
    explanation: list[str]


def _doc(line: str, rules: HouseRules, s: Score) -> CalcDoc:
    return {
        "deal": line,
        "rules": rules.name,
        "points": {p: plain(v) for p, v in s.points.items()},
        "multiplier": s.multiplier,
        "explanation": list(s.explanation),
    }
