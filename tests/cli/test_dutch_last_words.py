"""The last English and wrong words in Dutch output (issue 25, item 7), each as a person meets it: `--help`'s
"[required]", several miseries in explain, `check --seal` (its "zegel: zegel", "(amend)", ISO moments, the English
name of a failed check), the HTML standings' chart, and examples that the house rules take."""

from __future__ import annotations

import re

import pytest
from _ledger_helpers import ok, refused, wz

from wiezen_score.core import i18n
from wiezen_score.core.deal import deal_example, miserie_example, parse_deal
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import PRESETS, parse_rules
from wiezen_score.core.sealcode import luhn32

ISO_MOMENT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def nl_run(db, *args):
    r = wz(db, "--lang", "nl", *args)
    assert r.exit_code in (0, 1), r.output
    return r


def test_a_required_option_says_verplicht_in_dutch_help(tmp_path):
    out = ok(tmp_path / "w.db", "--lang", "nl", "session", "start", "--help").stdout
    assert "[verplicht]" in out and "[required]" not in out
    assert "[required]" in ok(tmp_path / "w.db", "session", "start", "--help").stdout  # English stays English


def test_several_miseries_are_explained_in_dutch_words(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "whisthub")
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "0")
    out = nl_run(db, "explain", "1").stdout
    assert "meerdere miseries (elk apart)" in out and "(alone)" not in out


def _corrected_evening(db):
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    first = ok(db, "session", "end").stdout.split("seal: ")[1].split()[0]
    ok(db, "amend", "--session", "1", "1", "samen", "8", "jan+piet", "8", "--reason", "piet telde verkeerd")
    return first


def test_check_of_a_seal_in_dutch_names_it_once_with_dutch_moments(tmp_path):
    db = tmp_path / "w.db"
    first = _corrected_evening(db)
    out = nl_run(db, "check", "--session", "1", "--seal", first).stdout
    assert out.startswith(f"zegel {first} staat borg voor sessie 1"), out
    assert "zegel: zegel" not in out and "(amend)" not in out and "(verbetering)" in out
    assert not ISO_MOMENT.search(out), out
    assert re.search(r"verzegeld op \w\w \d\d/\d\d/\d{4} \d\d:\d\d UTC", out), out
    english = ok(db, "check", "--session", "1", "--seal", first).stdout
    assert english.startswith(f"seal {first} vouches for session 1") and "voided (amend)" in english


def test_a_failed_check_is_named_in_dutch(tmp_path):
    db = tmp_path / "w.db"
    _corrected_evening(db)
    body = "ZZZZYYYYXXXX"
    wrong = f"{body[:4]}-{body[4:8]}-{body[8:]}-{luhn32(body)}"  # well formed, vouches for nothing here
    r = nl_run(db, "check", "--session", "1", "--seal", wrong)
    assert r.exit_code == 1
    assert r.stdout.startswith("zegel: sessie 1: de zegel"), r.stdout
    assert r.stdout.splitlines()[0].startswith("seal:") is False
    assert wz(db, "check", "--session", "1", "--seal", wrong).stdout.startswith("seal: session 1: the seal")


def test_the_html_standings_chart_says_its_dates_in_dutch(tmp_path):
    db = tmp_path / "w.db"
    _corrected_evening(db)
    page = nl_run(db, "standings", "--format", "html").stdout
    chart = page[page.index("<svg"):page.index("</svg>")]
    assert not ISO_DATE.search(chart), ISO_DATE.findall(chart)
    assert re.search(r"<title>jan, \w\w \d\d/\d\d/\d{4}: ", chart), chart


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_examples_are_lines_every_preset_takes(name):
    rules = parse_rules(preset_text(name), name)
    players = ("an", "bert", "carla", "dirk")
    line = deal_example(rules, players)
    assert parse_deal(line, rules, players).text == line
    assert line.split()[1] == str(rules.contract(line.split()[0]).levels[0])  # samen 8 where samen has only 8
    miserie = miserie_example(rules, players)
    if miserie:
        assert parse_deal(miserie, rules, players).text == miserie


def test_an_empty_deal_line_names_an_example_of_the_house_rules(tmp_path):
    from wiezen_score.core.errors import WiezenError

    rules = parse_rules(preset_text("rupelstreek"), "rupelstreek")
    with pytest.raises(WiezenError, match="samen 8 an\\+bert 9"):
        parse_deal("", rules, ("an", "bert", "carla", "dirk"))


def test_the_moment_of_a_seal_in_either_language():
    from wiezen_score.core.dates import moment_text

    stamp = "2026-12-04T06:58:57+00:00"
    assert moment_text(stamp) == stamp
    i18n.set_language("nl")
    try:
        assert moment_text(stamp) == "vr 04/12/2026 06:58 UTC"
        assert moment_text("2026-12-04T07:58:57+01:00") == "vr 04/12/2026 06:58 UTC"
        assert moment_text("not a moment") == "not a moment"
    finally:
        i18n.set_language("en")


def test_a_seal_of_the_wrong_shape_stays_one_line(tmp_path):
    db = tmp_path / "w.db"
    _corrected_evening(db)
    assert "is not a seal" in refused(db, "check", "--seal", "XYZ")


def test_a_header_line_too_late_is_named_as_typed_in_dutch(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    r = wz(db, "--lang", "nl", "play", input="spelers an bert carla dirk\n")  # (another table: not a join)
    assert "regels 'spelers' komen voor een sessie begint" in r.stderr and "'players'" not in r.stderr, r.stderr
    r = wz(db, "play", input="players an bert carla dirk\n")
    assert "'players' lines come before a session starts" in r.stderr
