"""core/numbers.py, the one number formatter: the same numbers in English and in Dutch (a decimal comma in text,
never in JSON or CSV)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from wiezen_score.core import i18n
from wiezen_score.core.numbers import (
    decimal,
    fmt,
    grouped,
    money,
    percent,
    plain,
    rounded,
    signed,
    signed_decimal,
)


@pytest.fixture
def dutch():
    i18n.set_language("nl")
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("value, en, nl", [
    (7, "7", "7"),
    (-7, "-7", "-7"),
    (0, "0", "0"),
    (Fraction(-15, 2), "-7.5", "-7,5"),
    (Fraction(14, 2), "7", "7"),
    (7.0, "7", "7"),  # stored as REAL
    (-7.5, "-7.5", "-7,5"),
])
def test_points_as_a_player_writes_them(value, en, nl, dutch):
    assert fmt(value) == nl
    i18n.set_language("en")
    assert fmt(value) == en


@pytest.mark.parametrize("value, en, nl", [
    (7, "+7", "+7"), (-7, "-7", "-7"), (0, "0", "0"), (Fraction(3, 2), "+1.5", "+1,5"), (-0.5, "-0.5", "-0,5"),
])
def test_signed_points(value, en, nl, dutch):
    assert signed(value) == nl
    i18n.set_language("en")
    assert signed(value) == en


def test_a_difference_of_nothing_is_written_plus_zero():
    assert signed(0, plus_zero=True) == "+0" and signed(0.0, plus_zero=True) == "+0"
    assert signed(-2, plus_zero=True) == "-2" and signed(2, plus_zero=True) == "+2"


def test_machine_values_keep_the_decimal_point_in_dutch(dutch):
    assert fmt(Fraction(-15, 2), machine=True) == "-7.5"
    assert signed(1.5, machine=True) == "+1.5"
    assert money(230, machine=True) == "€2.30"
    assert decimal(1 / 3, machine=True) == "0.33"
    # numbers for JSON are numbers: the JSON text has a point whatever the language
    assert plain(Fraction(-15, 2)) == -7.5 and isinstance(plain(Fraction(4, 2)), int)
    assert json.dumps({"p": plain(Fraction(3, 2))}) == '{"p": 1.5}'
    assert rounded(2 / 3) == 0.67 and rounded(5) == 5


@pytest.mark.parametrize("value, en, nl", [
    (1 / 3, "0.33", "0,33"), (2.0, "2", "2"), (-7.25, "-7.25", "-7,25"), (10, "10", "10"), (100.0, "100", "100"),
    (float("nan"), "", ""), (0.001, "0", "0"),
])
def test_any_number_as_a_person_writes_it(value, en, nl, dutch):
    assert decimal(value) == nl
    i18n.set_language("en")
    assert decimal(value) == en


def test_signed_decimal():
    assert [signed_decimal(v) for v in (2.5, -1 / 3, 0.0, 4)] == ["+2.5", "-0.33", "0", "+4"]


@pytest.mark.parametrize("cents, en, nl, en_bare, nl_bare", [
    (230, "€2.30", "€ 2,30", "2.30", "2,30"),
    (5, "€0.05", "€ 0,05", "0.05", "0,05"),
    (-50, "-€0.50", "-€ 0,50", "-0.50", "-0,50"),
    (123456, "€1234.56", "€ 1234,56", "1234.56", "1234,56"),
])
def test_money_from_cents(cents, en, nl, en_bare, nl_bare, dutch):
    assert (money(cents), money(cents, symbol=False)) == (nl, nl_bare)
    i18n.set_language("en")
    assert (money(cents), money(cents, symbol=False)) == (en, en_bare)


def test_percentages_and_large_numbers(dutch):
    assert (percent(2 / 3), percent(0.125, places=1), percent(1.0)) == ("67%", "12,5%", "100%")
    assert grouped(1_000_000_000) == "1.000.000.000"
    i18n.set_language("en")
    assert (percent(2 / 3), percent(0.125, places=1), percent(1.0)) == ("67%", "12.5%", "100%")
    assert grouped(1_000_000_000) == "1,000,000,000"


# -- where the numbers are shown


HALVES = {  # grote miserie, jan made, piet and mieke lost and share -15 (SCORING.md, split): -7.5 each
    "session": {"id": 1, "name": "", "date": "2026-11-27", "rules": "wikibooks-kleurenwiezen",
                "players": ["jan", "piet", "mieke", "lotte"], "open": False, "seal": None, "seals": []},
    "entries": [{"no": 1, "kind": "deal", "text": "grote-miserie jan 0 piet 1 mieke 2", "dealer": "jan",
                 "multiplier": 1, "points": {"jan": 15, "piet": -7.5, "mieke": -7.5, "lotte": 0}, "voided": False}],
    "totals": {"jan": 15, "piet": -7.5, "mieke": -7.5, "lotte": 0},
    "dealer": "piet", "sitting_out": [], "pending_multiplier": 1, "rounds_owed": {},
}


def test_the_sheet_writes_halves_with_a_comma_in_dutch(dutch):
    from wiezen_score.views.render import to_csv
    from wiezen_score.views.sheet import render_sheet, sheet_html, sheet_rows

    text = render_sheet(HALVES)
    assert "-7,5  (-7,5)" in text and "-7.5" not in text
    page = sheet_html(HALVES)
    assert ">-7,5<" in page and ">-7.5<" not in page
    headers, rows = sheet_rows(HALVES)
    assert to_csv(headers, rows).splitlines()[1].endswith(",15,-7.5,-7.5,0")  # CSV: a machine value
    assert to_csv(headers, rows, "excel-nl").splitlines()[1].endswith(";15;-7,5;-7,5;0")  # the dialect's rule
    i18n.set_language("en")
    assert "-7.5  (-7.5)" in render_sheet(HALVES) and ">-7.5<" in sheet_html(HALVES)


def test_the_explanation_writes_halves_with_a_comma_in_dutch(dutch):
    from wiezen_score.core.deal import parse_deal
    from wiezen_score.core.presets import preset_text
    from wiezen_score.core.rules import parse_rules
    from wiezen_score.core.scoring import score

    rules = parse_rules(preset_text("wikibooks-kleurenwiezen"), "preset")
    players = ["jan", "piet", "mieke", "lotte"]
    deal = parse_deal("grote-miserie jan 0 piet 1 mieke 2", rules, players)
    nl = score(deal, rules, players).explanation
    i18n.set_language("en")
    en = score(deal, rules, players)
    assert en.points["piet"] == Fraction(-15, 2)  # the figure itself is exact, whatever the language
    assert any("-7.5" in step for step in en.explanation)
    assert any("-7,5" in step for step in nl) and not any("-7.5" in step for step in nl)
