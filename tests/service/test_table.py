"""The table's service (wiezen_score/service/table.py) on its own: a line in, a structured answer out.

The prompt (`play`) and the scorer's phone (`serve`) both drive it; here it is driven directly on a ledger, and
what it recorded is read back with `wiezen sheet --json`. Points are hand-computed from SCORING.md's presets.
"""

from __future__ import annotations

import pytest
from _ledger_helpers import ok, sheet

from wiezen_score import ledger
from wiezen_score.core.errors import WiezenError
from wiezen_score.service.table import Answer, Note, SessionIsOpen, SheetView, Table

PLAYERS = "jan,piet,mieke,lotte"


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "w.db"
    ok(path, "session", "start", "--players", PLAYERS, "--rules", "rupelstreek")
    return path


def handle(db, line: str, **kw) -> Answer:
    with ledger.open_ledger(str(db)) as led:
        return Table(led).handle(line, **kw)


def test_a_deal_line_records_and_answers_with_its_line_and_the_sheet(db):
    answer = handle(db, "s 8 j+p 9")
    # samen 8 made with one overtrick under rupelstreek: 2 + 1 = 3 each
    assert answer.recorded == "#1 samen 8 jan+piet 9: jan +3, piet +3, mieke -3, lotte -3"
    assert answer.question is None and answer.stop is False
    views = [p for p in answer.parts if isinstance(p, SheetView)]
    assert len(views) == 1 and views[0].doc["totals"] == {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3}
    assert views[0].rows == 6 and views[0].heading is False
    assert sheet(db)["totals"] == {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3}


def test_a_dutch_penalty_with_a_reason_records_and_offers_a_precedent(db):
    answer = handle(db, "straf jan te laat")
    doc = sheet(db)
    assert [(e["text"], e["reason"]) for e in doc["entries"]] == [("penalty jan", "te laat")]
    assert doc["totals"] == {"jan": -15, "piet": 5, "mieke": 5, "lotte": 5}  # 5 to each of the three others
    hints = [n.text for n in answer.notes if n.kind == "hint"]
    assert len(hints) == 1 and "precedent te laat:" in hints[0]


def test_undo_is_a_question_first_and_acts_only_on_the_entry_asked_about(db):
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    answer = handle(db, "undo")
    assert answer.question is not None and answer.parts == ()
    assert answer.question.text == "undo #1 samen 8 jan+piet 9?"
    assert answer.question.declined == "not undone"
    assert [e["voided"] for e in sheet(db)["entries"]] == [False]  # asking changed nothing
    ok(db, "deal", "alleen", "5", "mieke", "5")  # meanwhile, another scorer records #2
    with pytest.raises(WiezenError, match="nothing undone"):
        handle(db, "undo", confirm=True, expect=answer.question.expect)
    assert [e["voided"] for e in sheet(db)["entries"]] == [False, False]
    again = handle(db, "ongedaan")  # the Dutch word asks about #2 now
    assert again.question is not None and again.question.text.startswith("undo #2 alleen 5 mieke 5")
    done = handle(db, "ongedaan", confirm=True, expect=again.question.expect)
    assert done.notes[0] == Note("voided #2 alleen 5 mieke 5")
    assert [e["voided"] for e in sheet(db)["entries"]] == [False, True]


def test_amend_asks_with_the_resolved_names_then_amends(db):
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    q = handle(db, "verbeter 1 s 8 j+p 8").question
    assert q is not None and q.text == "amend #1 samen 8 jan+piet 9 -> samen 8 jan+piet 8?"
    done = handle(db, "amend 1 s 8 j+p 8", confirm=True, expect=q.expect)
    assert done.message.startswith("#1 samen 8 jan+piet 8: jan +2, piet +2, mieke -2, lotte -2 (amended)")
    assert sheet(db)["totals"] == {"jan": 2, "piet": 2, "mieke": -2, "lotte": -2}


def test_end_asks_and_refuses_another_session_than_the_one_asked_about(db):
    q = handle(db, "end").question
    assert q is not None and q.text.startswith("end session 1 (jan, piet, mieke, lotte)?")
    with pytest.raises(WiezenError, match="nothing ended"):
        handle(db, "end", confirm=True, expect=q.expect + 1)
    assert sheet(db)["session"]["open"] is True
    done = handle(db, "einde", confirm=True, expect=q.expect)
    assert done.message.startswith("session 1 ended. totals: jan 0, piet 0, mieke 0, lotte 0\nseal: ")
    assert sheet(db)["session"]["open"] is False


def test_settle_and_explain_answer_in_text(db):
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    settled = handle(db, "afrekenen 10").message.splitlines()
    assert settled[0] == "totals: jan +3, piet +3, mieke -3, lotte -3"
    assert sorted(settled[1:]) == sorted(["  mieke pays jan 3 (€0.30)", "  lotte pays piet 3 (€0.30)"]) or sorted(
        settled[1:]) == sorted(["  mieke pays piet 3 (€0.30)", "  lotte pays jan 3 (€0.30)"])
    assert handle(db, "uitleg 1").message.startswith("#1 samen 8 jan+piet 9 (session 1, rupelstreek; dealer jan)")
    with pytest.raises(WiezenError, match="explain takes an entry number"):
        handle(db, "explain")


def test_the_settings_before_players_make_the_next_session(tmp_path):
    db = tmp_path / "w.db"
    with ledger.open_ledger(str(db), create=lambda path: None) as led:
        table = Table(led)
        assert table.handle("regels rupelstreek").message == "house rules for the next session: rupelstreek"
        assert table.handle('session "Café De Kroon" 2026-11-27').message == \
            "the next session: Café De Kroon, 2026-11-27"
        assert table.handle("deals 24").message == "the next session lasts 24 deals"
        with pytest.raises(WiezenError, match="no open session"):
            table.handle("s 8 j+p 9")
        started = table.handle("players jan piet mieke lotte")
        assert started.notes[0].text.startswith("session 1 started: jan, piet, mieke, lotte under the house rules "
                                                "rupelstreek; jan deals first")
        with pytest.raises(SessionIsOpen):
            table.handle("rules whisthub")
    s = sheet(db)["session"]
    assert (s["name"], s["date"], s["rules"]) == ("Café De Kroon", "2026-11-27", "rupelstreek")


def test_blank_comment_and_quit(db):
    assert handle(db, "   ") == Answer()
    assert handle(db, "# a comment") == Answer()
    assert handle(db, "quit").stop is True and handle(db, "stop").stop is True
    assert sheet(db)["entries"] == []


def test_a_session_started_after_end_keeps_the_rules_and_the_name(tmp_path):
    """At the prompt (and on the phone) the evening goes on under the same house rules and name, and it is said."""
    from _ledger_helpers import sheet, wz

    db = tmp_path / "w.db"
    lines = 'rules rupelstreek\nsession "Café De Kroon"\nplayers jan piet mieke lotte\ns 8 j+p 9\nend\n' \
            'players jan piet mieke lotte kris\nquit\n'
    r = wz(db, "play", input=lines)
    assert r.exit_code == 0, r.output
    assert "the next session keeps the house rules rupelstreek and the name 'Café De Kroon'" in r.stdout
    second = sheet(db)["session"]
    assert (second["id"], second["rules"], second["name"]) == (2, "rupelstreek", "Café De Kroon")
