"""Dutch settle lines with money (`settle --cents 5`): decimal comma and `€ 2,30` (issue 16).

The payments come from core/settle.py; the expected Dutch lines are written by hand.
"""

from __future__ import annotations

from types import SimpleNamespace

from wiezen_score.core.settle import settle
from wiezen_score.views.settle import settle_text

EVENING = SimpleNamespace(id=3, name="", date="2026-11-27")
TOTALS = {"jan": 46, "piet": -46.5, "mieke": 0.5, "lotte": 0}


def _words(text: str) -> list[list[str]]:
    return [line.split() for line in text.splitlines()]


def test_settle_with_cents_in_dutch(nl):
    text = settle_text(EVENING, settle(TOTALS, 5), 5, "", None)
    assert _words(text) == [
        ["sessie", "3:", "vr", "27/11/2026,", "aan", "5", "cent", "per", "punt"],
        ["piet", "betaalt", "jan", "46", "punten", "€", "2,30"],
        ["piet", "betaalt", "mieke", "0,5", "punten", "€", "0,03"],
    ]


def test_settle_with_cents_in_english_is_unchanged():
    text = settle_text(EVENING, settle(TOTALS, 5), 5, "", None)
    assert _words(text) == [
        ["session", "3:", "2026-11-27,", "at", "5", "cents", "a", "point"],
        ["piet", "pays", "jan", "46", "points", "€2.30"],
        ["piet", "pays", "mieke", "0.5", "points", "€0.03"],
    ]


def test_all_square_in_dutch(nl):
    assert settle_text(EVENING, [], None, "", None).splitlines() == [
        "sessie 3: vr 27/11/2026",
        "alles effen: niemand moet iets betalen",
    ]
