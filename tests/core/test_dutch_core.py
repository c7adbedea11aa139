"""Dutch from the pure core: the scoring explanation, a rondje pas, dates, the evening and errors (issue 16).

The expected Dutch is written here by hand, as players at a Flemish table say it; English is checked next
to it so that a missing translation (English leaking through) fails, and so does a translation shown in
English mode.
"""

from __future__ import annotations

import pytest

from wiezen_score.core import i18n
from wiezen_score.core.dates import date_text, day_text, parse_date, parse_when
from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.evening import Plan, progress
from wiezen_score.core.presets import load_preset
from wiezen_score.core.scoring import score
from wiezen_score.core.session import EntryInput, TableState, apply

PLAYERS = ["jan", "piet", "mieke", "lotte"]


def _explain(line: str, rules: str = "whisthub", multiplier: int = 1) -> tuple[str, ...]:
    r = load_preset(rules)
    return score(parse_deal(line, r, ["A", "B", "C", "D"]), r, ["A", "B", "C", "D"], multiplier).explanation


def test_samen_explained_in_dutch(nl):
    assert _explain("samen 9 A+B 11") == (
        "samen 9 door A+B: gehaald met 11 slagen",
        "11 + 2 overslagen x 3 = 17",
        "spel met maat: elke bieder +17, elke tegenspeler -17",
    )


def test_samen_explained_in_english_is_unchanged():
    assert _explain("samen 9 A+B 11") == (
        "samen 9 by A+B: made with 11 tricks",
        "11 + 2 overtricks x 3 = 17",
        "team contract: each taker +17, each defender -17",
    )


def test_lost_solo_with_one_trick_short_and_one_overtrick_in_dutch(nl):
    steps = _explain("alleen 5 A 4")
    assert steps[0] == "alleen 5 door A: verloren met 4 slagen, 1 te kort"
    assert steps[-1].startswith("spel alleen: A -3 x ")
    assert "elke tegenspeler +" in steps[-1]
    assert _explain("samen 9 A+B 10")[1] == "11 + 1 overslag x 3 = 14"


def test_doubled_deal_after_rondje_pas_in_dutch(nl):
    r = load_preset("rupelstreek")
    s = apply(EntryInput("deal", "samen 8 jan+piet 8"), r, PLAYERS, TableState(0, 2))
    assert s.explanation[0] == "samen 8 door jan+piet: gehaald met 8 slagen"
    assert s.explanation[-1].startswith("x2 na rondje pas: jan +")


def test_miserie_in_dutch(nl):
    steps = _explain("kleine-miserie A 0")
    assert steps[0].startswith("kleine-miserie door A (geen slag): gehaald met 0 slagen, ")
    steps = _explain("kleine-miserie A 1")
    assert steps[0].startswith("kleine-miserie door A (geen slag): verloren met 1 slag, ")


def test_rondje_pas_in_dutch(nl):
    r = load_preset("rupelstreek")
    s = apply(EntryInput("pass"), r, PLAYERS, TableState(0, 1))
    assert s.explanation == (
        "rondje pas: iedereen paste, er wordt niets gespeeld: 0 voor iedereen",
        "het volgende spel dat gespeeld wordt telt dubbel",
        "piet deelt nu",
    )
    assert s.points == {p: 0 for p in PLAYERS}


def test_penalty_in_dutch(nl):
    r = load_preset("whisthub")
    s = apply(EntryInput("penalty", offender="jan", reason="renonce"), r, PLAYERS, TableState(0, 1))
    assert s.explanation[0] == "reden: renonce"
    assert s.explanation[1].startswith("strafpunten voor jan: betaalt ")
    assert "aan elke andere speler van het spel dat bezig is (piet, mieke, lotte)" in s.explanation[1]
    s = apply(EntryInput("penalty", offender="jan", round=True), r, PLAYERS, TableState(0, 1))
    assert s.explanation == ("straf voor jan: een rondje geven: geen punten, een rondje meer te geven",)


def test_dates_in_dutch(nl):
    assert date_text("2026-11-27") == "vr 27/11/2026"
    assert day_text("2026-11-27") == "vr 27/11/2026"
    assert day_text("2026-11-30") == "ma 30/11/2026"
    assert date_text("2027-01-03") == "zo 03/01/2027"


def test_dates_in_english_are_unchanged():
    assert date_text("2026-11-27") == "2026-11-27"
    assert day_text("2026-11-27") == "Fri 2026-11-27"


def test_date_errors_in_dutch(nl):
    with pytest.raises(WiezenError) as e:
        parse_date("2026-02-30")
    assert str(e.value) == "'2026-02-30' is geen datum: februari 2026 heeft 28 dagen."
    with pytest.raises(WiezenError) as e:
        parse_when("morgen", parse_date("2026-11-27"))
    assert str(e.value).startswith("'morgen' is geen datum; gebruik JJJJ-MM-DD, DD/MM/JJJJ, DD-MM-JJJJ, vandaag,")


def test_deal_errors_in_dutch(nl):
    r = load_preset("whisthub")
    with pytest.raises(WiezenError) as e:
        parse_deal("samen 9 A+B 14", r, ["A", "B", "C", "D"])
    assert str(e.value) == "14 slagen: een spel heeft 13 slagen, dus 0 tot 13 slagen"
    with pytest.raises(WiezenError) as e:
        parse_deal("samen 9 A+Z 9", r, ["A", "B", "C", "D"])
    assert str(e.value) == "geen speler 'Z' aan deze tafel (spelers: A, B, C, D)"
    with pytest.raises(WiezenError) as e:
        parse_deal("samen 9 A 9", r, ["A", "B", "C", "D"])
    assert str(e.value) == "samen speel je met twee: schrijf BIEDER+MAAT, bv. jan+piet"


def test_sitting_out_in_dutch(nl):
    r = load_preset("whisthub")
    five = [*PLAYERS, "rene"]
    with pytest.raises(WiezenError) as e:
        apply(EntryInput("deal", "samen 8 jan+piet 9"), r, five, TableState(0, 1))
    assert str(e.value) == "jan zit dit spel uit (jan deelt; spelen mee: piet, mieke, lotte, rene)"


def test_sitting_out_in_english_is_unchanged():
    r = load_preset("whisthub")
    with pytest.raises(WiezenError) as e:
        apply(EntryInput("deal", "samen 8 jan+piet 9"), r, [*PLAYERS, "rene"], TableState(0, 1))
    assert str(e.value) == "jan sits out this deal (jan deals; playing: piet, mieke, lotte, rene)"


def test_evening_in_dutch(nl):
    p = progress(Plan("deals", 24), 4, 13, {"jan": 10, "piet": -10}, False)
    assert (p.short, p.line) == ("spel 14 van 24", "avond: 13 van 24 spelen gespeeld")
    p = progress(Plan("target", 50), 4, 3, {"jan": 12, "piet": 12, "mieke": -24}, False)
    assert p.line == "avond: tot een speler 50 punten haalt; jan en piet staan voor met 12"


def test_english_block_inside_dutch(nl):
    """JSON documents are built inside ``english()``: their texts stay English whatever the language."""
    with i18n.english():
        assert _explain("samen 9 A+B 11")[0] == "samen 9 by A+B: made with 11 tricks"
        assert date_text("2026-11-27") == "2026-11-27"
    assert i18n.dutch()
    assert _explain("samen 9 A+B 11")[0] == "samen 9 door A+B: gehaald met 11 slagen"


def test_competition_rules_in_dutch(nl):
    from wiezen_score.core.competition import in_words, parse_competition

    c = parse_competition(
        'name = "Kampioenschap"\nsince = 2026-09-01\nuntil = 2027-06-30\nbest = 10\nmin_evenings = 5\nprizes = 3\n',
        "kampioenschap.toml",
    )
    words = in_words(c)
    assert words[0].startswith("De sessies van di 01/09/2026 tot wo 30/06/2027 tellen. Een avond is een datum")
    assert "De beste 10 avonden van elke speler tellen." in words
    assert "Om in het klassement te komen heeft een speler minstens 5 avonden nodig; de anderen staan apart, " \
           "niet gerangschikt." in words
    assert words[-1] == "De prijzen gaan naar de eerste 3 (een gedeelde plaats op de grens inbegrepen)."


def test_final_table_reasons_in_dutch(nl):
    from wiezen_score.core.seating import final_table

    seated = final_table(["jan", "jan", "piet"], ["jan", "piet", "mieke", "lotte", "rene"])
    assert [d["why"] for d in seated] == ["won rondes 1, 2", "won ronde 3", "3e in het klassement", "4e in het klassement"]


def test_half_points_with_a_decimal_comma_in_dutch(nl):
    # one made it, two lost: the two share the 9 points the one gets (wikibooks-kleurenwiezen splits miseries)
    steps = _explain("kleine-miserie A 0 B 1 C 1", "wikibooks-kleurenwiezen")
    assert steps[-1] == "meerdere miseries (gedeeld), gemengd: wie haalde +9; wie verloor verdeelt -9: -4,5 elk; de anderen 0"


def test_half_points_in_english_keep_the_point():
    steps = _explain("kleine-miserie A 0 B 1 C 1", "wikibooks-kleurenwiezen")
    assert steps[-1].endswith("those who lost share -9: -4.5 each; the others 0")
