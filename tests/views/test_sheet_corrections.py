"""The text sheet of a corrected evening (issue 25, item 6): a correction's reason is printed once, under the table
(not in the entry column of both versions: rows reached 220 characters), and a voided entry shows its points struck
through (~-15~), never as if they counted, in the wide, compact and narrowest layouts; the totals leave them out."""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import ok

from wiezen_score.views.sheet import render_sheet

REASON = "mieke telde haar slagen opnieuw na het spel en had er een te veel geteld, zei lotte de volgende ochtend"


@pytest.fixture
def doc(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9")  # jan, piet +3; mieke, lotte -3
    ok(db, "penalty", "jan")  # jan -15, the others +5 ...
    ok(db, "undo")  # ... voided at the table
    ok(db, "session", "end")
    ok(db, "amend", "--session", "1", "1", "samen", "8", "jan+piet", "8", "--reason", REASON)  # 2 each
    return json.loads(ok(db, "sheet", "--session", "1", "--json").stdout)


@pytest.mark.parametrize("width", [None, 100, 60, 30])
def test_the_reason_of_a_correction_once_under_the_table(doc, width):
    text = render_sheet(doc, width=width)
    flat = " ".join(text.split())  # wrapped lines joined again
    assert flat.count(REASON) == 1, text
    notes = flat.index("[1] corrected after the evening")
    rows = flat[:notes]  # the table (or the entries' lines) above the note
    assert REASON[:20] not in rows
    assert rows.count("[1]") == 2  # the voided version and the one that replaced it
    if width is not None:
        assert max(len(line) for line in text.splitlines()) <= width


@pytest.mark.parametrize("width", [None, 60, 30])
def test_a_voided_entry_shows_its_points_struck_and_they_count_nowhere(doc, width):
    flat = " ".join(render_sheet(doc, width=width).split())  # wrapped lines joined again
    penalty = flat[flat.index("penalty jan~ voided"):flat.index("[1] corrected")]
    assert "~-15~" in penalty and penalty.count("~+5~") == 3, penalty
    assert "totals: jan +2, piet +2, mieke -2, lotte -2" in flat  # the penalty is in no total
    assert "(-15)" not in flat and "-13" not in flat  # never shown as if it counted


def test_the_html_sheet_says_the_reason_once_too(doc):
    from wiezen_score.views.sheet import sheet_html

    page = sheet_html(doc)
    assert page.count(REASON) == 1 and "<h2>Corrections after the evening</h2>" in page
    assert page.count("[1]") == 3  # both versions, and the note
