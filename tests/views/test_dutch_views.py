"""Dutch from the presenters: the sheet (text and HTML with lang="nl"), explain, the live phone page (issue 16).

The evening is recorded through the English command line; its documents are then rendered in Dutch in
process. The expected Dutch is written by hand.
"""

from __future__ import annotations

import pytest
from _ledger_helpers import ok

from wiezen_score.ledger.documents import explain_doc, sheet_doc
from wiezen_score.ledger.store import open_ledger
from wiezen_score.views.explain import render_explain
from wiezen_score.views.live import csp, live_page, script
from wiezen_score.views.sheet import render_sheet, sheet_html


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "club.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-11-27", "--rules", "rupelstreek")
    ok(path, "deal", "samen", "8", "jan+piet", "9")
    ok(path, "pass")
    return path


def _docs(db, no=1):
    with open_ledger(str(db), readonly=True) as led:
        s = led.session()
        return sheet_doc(led, s), explain_doc(led, s, no)


def test_sheet_in_dutch(db, nl):
    sheet, _ex = _docs(db)
    text = render_sheet(sheet)
    lines = text.splitlines()
    assert lines[0] == "sessie 1: vr 27/11/2026 (rupelstreek)"
    assert lines[1].split() == ["#", "deler", "inschrijving", "x", "jan", "piet", "mieke", "lotte"]
    assert "totalen: jan " in text
    assert "volgende: mieke deelt; het volgende spel telt x2" in text
    for english in ("dealer", "entry", "totals", "next:", "deals", "counts"):
        assert english not in text


def test_sheet_in_english_is_unchanged(db):
    sheet, _ex = _docs(db)
    text = render_sheet(sheet)
    assert text.splitlines()[0] == "session 1: 2026-11-27 (rupelstreek)"
    assert "next: mieke deals; the next deal counts x2" in text


def test_sheet_html_in_dutch(db, nl):
    sheet, _ex = _docs(db)
    page = sheet_html(sheet)
    assert '<html lang="nl">' in page
    assert "<title>Scoreblad: vr 27/11/2026</title>" in page
    assert "<h2>Punten over de avond</h2>" in page
    assert "Gemaakt door wiezen." in page
    assert '<th scope="col">deler</th>' in page


def test_sheet_html_in_english_says_lang_en(db):
    sheet, _ex = _docs(db)
    page = sheet_html(sheet)
    assert '<html lang="en">' in page and "<title>Scoresheet: 2026-11-27</title>" in page


def test_explain_in_dutch(db, nl):
    _sheet, ex = _docs(db, 1)
    lines = render_explain(ex).splitlines()
    assert lines[:2] == [
        "#1 samen 8 jan+piet 9 (sessie 1, rupelstreek; deler jan)",
        "  samen 8 door jan+piet: gehaald met 9 slagen",
    ]
    assert lines[-3].startswith("  spel met maat: elke bieder +")
    assert lines[-2:] == ["  totalen ervoor: jan 0, piet 0, mieke 0, lotte 0",
                          "  totalen erna:   jan +3, piet +3, mieke -3, lotte -3"]


def test_explain_rondje_pas_in_dutch(db, nl):
    _sheet, ex = _docs(db, 2)
    assert render_explain(ex).splitlines() == [
        "#2 pas (sessie 1, rupelstreek; deler piet)",
        "  rondje pas: iedereen paste, er wordt niets gespeeld: 0 voor iedereen",
        "  het volgende spel dat gespeeld wordt telt dubbel",
        "  mieke deelt nu",
        "  totalen ervoor: jan +3, piet +3, mieke -3, lotte -3",
        "  totalen erna:   jan +3, piet +3, mieke -3, lotte -3",
    ]


def test_live_page_in_dutch(db, nl):
    sheet, _ex = _docs(db)
    page = live_page(sheet, scorer_action="/s/x", nonce="n")
    assert '<html lang="nl">' in page
    assert "<h2>De avond</h2>" in page and "<h2>Het scoreblad</h2>" in page
    assert '<b class="who">mieke</b> deelt nu' in page
    assert "Het volgende spel telt <b>×2</b>" in page
    assert '"opnieuw verbinden…"' in script() and '"reconnecting…"' not in script()
    assert "De server is niet bereikbaar: de regel blijft bewaard" in page  # the scorer's script's words
    # the page's script is the one the Content-Security-Policy lets run
    import base64
    import hashlib

    digest = base64.b64encode(hashlib.sha256(script().encode()).digest()).decode()
    assert f"'sha256-{digest}'" in csp()


def test_live_page_in_english_is_unchanged(db):
    sheet, _ex = _docs(db)
    page = live_page(sheet)
    assert '<html lang="en">' in page and '<b class="who">mieke</b> deals next' in page
    assert '"reconnecting…"' in page


def test_explain_of_an_amended_entry_in_dutch(db, nl):
    ok(db, "amend", "1", "samen", "8", "jan+piet", "10")
    with open_ledger(str(db), readonly=True) as led:
        s = led.session()
        text = render_explain(explain_doc(led, s, 1))
    assert text.splitlines()[0] == "#1 samen 8 jan+piet 10 (sessie 1, rupelstreek; deler jan)"
    assert text.splitlines()[-1] == "  eerdere versies: samen 8 jan+piet 9 (verbetering)"
