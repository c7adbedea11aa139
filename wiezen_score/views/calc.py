"""`wiezen calc`'s JSON document: one deal line scored under the house rules, with its explanation."""

from __future__ import annotations

from typing import Any

from ..core.numbers import plain
from ..core.rules import HouseRules
from ..core.scoring import Score


def _doc(line: str, rules: HouseRules, s: Score) -> dict[str, Any]:
    return {
        "deal": line,
        "rules": rules.name,
        "points": {p: plain(v) for p, v in s.points.items()},
        "multiplier": s.multiplier,
        "explanation": list(s.explanation),
    }
