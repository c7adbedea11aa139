"""Issue 16, the last gaps: a penalty and a redeal read in Dutch on the Dutch sheet (their stored text stays the
grammar's), and session files given to `replay` take the Dutch words `play` takes, whatever the language.

The expected Dutch and both session files are written by hand.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import ok, wz

from wiezen_score.core import i18n
from wiezen_score.core.numbers import signed
from wiezen_score.core.session import EntryInput
from wiezen_score.core.sessionfile import Amend, Header, Undo, parse_line
from wiezen_score.ledger.documents import sheet_doc
from wiezen_score.ledger.store import open_ledger
from wiezen_score.views.fit import compact_sheet, entry_lines
from wiezen_score.views.sheet import render_sheet, sheet_html, sheet_rows


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "club.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-11-27", "--rules", "rupelstreek")
    ok(path, "deal", "samen", "8", "jan+piet", "9")
    ok(path, "penalty", "piet", "--round", "--reason", "te laat")
    ok(path, "penalty", "jan", "--reason", "renonce in troef")
    ok(path, "redeal", "--reason", "misdeal")
    return path


def _sheet(db):
    with open_ledger(str(db), readonly=True) as led:
        return sheet_doc(led, led.session())


def _entry_cells(text):
    return [line for line in text.splitlines() if line.lstrip().startswith(("2 ", "3 ", "4 "))]


def test_a_penalty_and_a_redeal_read_in_dutch_on_the_dutch_sheet(db, nl):
    text = render_sheet(_sheet(db))
    assert "straf piet rondje - te laat" in text
    assert "straf jan - renonce in troef" in text
    assert "opnieuw delen - misdeal" in text
    for english in ("penalty", " round", "redeal"):
        assert english not in text
    html = sheet_html(_sheet(db))
    assert "straf piet rondje - te laat" in html and "straf jan - renonce in troef" in html
    assert "penalty piet" not in html


def test_the_narrow_dutch_sheets_say_it_in_dutch_too(db, nl):
    doc = _sheet(db)
    compact = "\n".join(compact_sheet(doc, doc["entries"], 60, signed) or [])
    assert "straf piet rondje" in compact and "penalty" not in compact
    lines = "\n".join(entry_lines(doc, doc["entries"], 30, signed))
    assert "straf piet" in lines and "rondje" in lines and "penalty" not in lines


def test_a_voided_penalty_reads_in_dutch(db, nl):
    ok(db, "undo")
    ok(db, "undo")
    text = render_sheet(_sheet(db))
    assert "~straf jan~ geschrapt" in text
    assert "~opnieuw delen~ geschrapt" in text


def test_the_stored_text_and_the_english_sheet_are_unchanged(db, nl):
    doc = _sheet(db)
    texts = [e["text"] for e in doc["entries"]]
    assert texts == ["samen 8 jan+piet 9", "penalty piet round", "penalty jan", "redeal"]
    _headers, rows = sheet_rows(doc)  # the CSV's entry column is the stored text
    assert [r[2] for r in rows] == texts
    i18n.set_language("en")
    text = render_sheet(_sheet(db))
    assert "penalty piet round - te laat" in text
    assert "penalty jan - renonce in troef" in text
    assert "redeal - misdeal" in text
    assert "straf" not in text and "opnieuw" not in text


ENGLISH = """\
# the same evening, in the grammar's words
session "Café De Kroon" 2026-11-27
rules rupelstreek
tag kampioenschap-2026
round 2 table 3
players jan piet mieke lotte dealer piet
samen 8 jan+piet 9
pas
troel mieke+lotte 9
penalty jan round te laat
penalty piet renonce in troef
redeal carte blanche
alleen 5 lotte 6
undo verkeerd geteld
"""

DUTCH = """\
# dezelfde avond, zoals de tafel het zegt
sessie "Café De Kroon" 2026-11-27
regels rupelstreek
label kampioenschap-2026
ronde 2 tafel 3
spelers jan piet mieke lotte deler piet
samen 8 jan+piet 9
rondje pas
troel mieke+lotte 9
straf jan rondje te laat
strafpunten piet renonce in troef
opnieuw delen carte blanche
alleen 5 lotte 6
ongedaan maken verkeerd geteld
"""


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_dutch_session_file_replays_to_the_sheet_of_its_english_twin(tmp_path, lang, monkeypatch):
    monkeypatch.setenv("WIEZEN_LANG", lang)
    sheets = []
    for name, body in (("en", ENGLISH), ("nl", DUTCH)):
        f = tmp_path / f"{name}.txt"
        f.write_text(body, encoding="utf-8")
        db = tmp_path / f"{name}.db"
        ok(db, "replay", str(f))
        doc = json.loads(ok(db, "sheet", "--json").output)
        for key in ("seal", "seals"):  # a seal covers the file's own bytes and the time it was sealed
            doc["session"].pop(key)
        sheets.append(doc)
    english, dutch = sheets
    assert dutch == english
    texts = [e["text"] for e in english["entries"]]
    assert texts[3] == "penalty jan round" and texts[4] == "penalty piet"
    assert english["session"]["name"] == "Café De Kroon"
    assert english["entries"][0]["dealer"] == "piet"
    assert sum(1 for e in english["entries"] if e["voided"]) == 1  # the undone alleen


@pytest.mark.parametrize("line, expected", [
    ("spelers jan piet mieke lotte deler piet", Header("players", players=("jan", "piet", "mieke", "lotte"), dealer="piet")),
    ("ronde 2 tafel 3", Header("round", round=2, table=3)),
    ("label kampioenschap-2026", Header("tag", tag="kampioenschap-2026")),
    ('sessie "De Kroon" 2026-11-27', Header("session", name="De Kroon", date="2026-11-27")),
    ("regels rupelstreek", Header("rules", rules="rupelstreek")),
    ("straf jan rondje te laat", EntryInput("penalty", offender="jan", round=True, reason="te laat")),
    ("herdelen", EntryInput("redeal", reason="")),
    ("verbeter 3 troel mieke+lotte 10", Amend(3, EntryInput("deal", text="troel mieke+lotte 10"))),
    ("ongedaan maken verkeerd geteld", Undo("verkeerd geteld")),
])
def test_the_grammar_reads_dutch_words(line, expected):
    assert parse_line(line) == expected


def test_a_bad_dutch_line_in_a_session_file_is_one_error_and_records_nothing(tmp_path):
    f = tmp_path / "nl.txt"
    f.write_text("spelers jan piet mieke lotte\nstraf\n", encoding="utf-8")
    db = tmp_path / "club.db"
    r = wz(db, "replay", str(f))
    assert r.exit_code == 1
    assert "line 2" in r.output and "penalty needs the offender" in r.output
    assert wz(db, "sheet").exit_code != 0


def test_rules_list_summaries_are_dutch_in_dutch(tmp_path):
    r = wz(tmp_path / "club.db", "--lang", "nl", "rules", "list")
    assert r.exit_code == 0, r.output
    rows = {line.split()[0]: line for line in r.output.splitlines()[2:]}
    assert rows["whisthub"].endswith(
        "Kleurenwiezen zoals gespeeld op Whisthub (bron 002); rondje pas: dezelfde deler, volgend spel x2; "
        "meerdere miseries: elk apart")
    assert "Wikibooks Wiezen, kolom 'puntenverdeling wiezen' (bron 001)" in rows["wikibooks-wiezen"]
    assert rows["wikibooks-wiezen"].endswith("meerdere miseries: gedeeld")
    assert "IWWA-toernooitabel zoals score-apps ze toepassen" in rows["iwwa"]
    for english in ("as played", "source", "column", "alone", "split", "tournament"):
        assert english not in r.output


def test_rules_list_summaries_in_english_and_json_are_unchanged(tmp_path):
    r = wz(tmp_path / "club.db", "rules", "list")
    assert "Kleurenwiezen as played on Whisthub (source 002); rondje pas: same dealer, next deal x2; " \
           "several miseries: alone" in r.output
    for lang in ("en", "nl"):
        items = json.loads(wz(tmp_path / "club.db", "--lang", lang, "rules", "list", "--json").output)
        wiki = next(i for i in items if i["name"] == "wikibooks-wiezen")
        assert wiki["summary"].endswith("several miseries: split")
        assert wiki["description"] == "Wikibooks Wiezen, column 'puntenverdeling wiezen' (source 001)"


def test_a_doubling_that_adds_is_said_in_dutch(nl):
    from dataclasses import replace

    from wiezen_score.core.presets import load_preset
    from wiezen_score.core.rules import summary

    text = summary(replace(load_preset("whisthub"), doubling="add", description="Onze regels"))
    assert text == "Onze regels; rondje pas: dezelfde deler, volgend spel x2; meerdere miseries: elk apart; " \
                   "verdubbelingen opgeteld"


def test_every_preset_description_is_in_the_catalogue():
    from wiezen_score.core.presets import load_preset
    from wiezen_score.core.rules import PRESET_DESCRIPTIONS, PRESETS

    assert sorted(load_preset(p).description for p in PRESETS) == sorted(PRESET_DESCRIPTIONS)


def test_every_preset_comment_is_in_the_catalogue_and_shown_in_dutch(tmp_path):
    from wiezen_score.core.presets import PRESET_COMMENTS, preset_text
    from wiezen_score.core.rules import PRESETS

    found = set()
    for p in PRESETS:
        for line in preset_text(p).splitlines():
            code, sep, comment = line.partition("# ")
            if sep and code.count('"') % 2 == 0:
                found.add(comment.strip())
    assert found == set(PRESET_COMMENTS)
    r = wz(tmp_path / "w.db", "--lang", "nl", "rules", "show", "rupelstreek")
    assert "# strafpunten: de overtreder betaalt dit aan elke andere speler van het spel" in r.stdout
    assert '# "same" (dezelfde) of "next" (de volgende)' in r.stdout and "the offender" not in r.stdout
    english = wz(tmp_path / "w.db", "rules", "show", "rupelstreek").stdout
    assert "# strafpunten: the offender pays this" in english


def test_explain_and_the_live_page_name_a_penalty_in_dutch(db, nl):
    from wiezen_score.ledger.documents import explain_doc
    from wiezen_score.views.explain import render_explain
    from wiezen_score.views.live import live_page

    with open_ledger(str(db), readonly=True) as led:
        ex = explain_doc(led, led.session(), 2)
    assert render_explain(ex).splitlines()[0] == "#2 straf piet rondje (sessie 1, rupelstreek; deler piet)"
    page = live_page(_sheet(db), scorer_action="/s/x", nonce="n")
    assert "straf piet rondje" in page and "straf jan" in page and "penalty piet" not in page
    i18n.set_language("en")
    assert render_explain(ex).splitlines()[0] == "#2 penalty piet round (session 1, rupelstreek; dealer piet)"
    assert "penalty piet round" in live_page(_sheet(db))


def test_recording_and_undoing_a_penalty_says_it_in_dutch(tmp_path):
    path = tmp_path / "club.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    r = ok(path, "--lang", "nl", "penalty", "piet", "--round", "--reason", "te laat")
    assert r.output.splitlines()[0] == "#1 straf piet rondje: jan 0, piet 0, mieke 0, lotte 0"
    assert ok(path, "--lang", "nl", "undo").output.splitlines()[0] == "geschrapt: #1 straf piet rondje"
    r = ok(path, "penalty", "piet", "--round")
    assert r.output.splitlines()[0] == "#2 penalty piet round: jan 0, piet 0, mieke 0, lotte 0"
    assert ok(path, "undo").output.splitlines()[0] == "voided #2 penalty piet round"
    r = ok(path, "--lang", "nl", "play", input="straf jan\nblad\n")
    assert "straf jan" in r.output and "penalty" not in r.output
