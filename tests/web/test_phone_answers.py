"""What the scorer's phone is answered beyond `play`'s lines: the same deal twice asks "again?", a rondje pas or
a redeal comes with the row its 'take back' button undoes, `end` carries the seal and the payments, a retried form
says it was already recorded.

By hand (rupelstreek, four players): samen 8 jan+piet 9 is 2 + 1 overtrick: jan and piet +3, mieke and lotte -3.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from _ledger_helpers import ok, sheet
from _serve_helpers import request, serving

from wiezen_score.web.scorer import Scorer

JSON = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "club.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    return path


def texts(db) -> list[tuple[str, bool]]:
    return [(e["text"], e["voided"]) for e in sheet(db)["entries"]]


def test_the_same_deal_twice_asks_again_first(db):
    scorer = Scorer(str(db))
    assert scorer.answer("entry", "samen 8 jan+piet 9")["ok"]
    asked = scorer.answer("entry", "s 8 j+p 9")  # the same deal, abbreviated
    assert asked["ok"] is False and asked["question"] == "#1 was the same deal: samen 8 jan+piet 9. Record it again?"
    assert asked["declined"] == "not recorded" and texts(db) == [("samen 8 jan+piet 9", False)]
    done = scorer.answer("entry", "s 8 j+p 9", confirm=True, expect=asked["expect"])
    assert done["ok"] and done["message"].startswith("#2 samen 8 jan+piet 9")
    # another deal between them, or another line: no question
    assert scorer.answer("entry", "samen 8 jan+piet 10")["ok"]
    assert scorer.answer("entry", "pas")["ok"] and scorer.answer("entry", "pas")["ok"]
    assert len(texts(db)) == 5


def test_a_yes_about_another_deal_records_nothing(db):
    scorer = Scorer(str(db))
    assert scorer.answer("entry", "samen 8 jan+piet 9")["ok"]
    asked = scorer.answer("entry", "samen 8 jan+piet 9")
    ok(db, "deal", "alleen", "5", "piet", "6")  # the sheet changed between the question and the yes
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    before = texts(db)
    late = scorer.answer("entry", "samen 8 jan+piet 9", confirm=True, expect=asked["expect"])
    assert late["ok"] is False and late["error"] == ("Error: nothing recorded: the sheet changed since the question; "
                                                     "look at it and try again")
    assert texts(db) == before


def test_a_rondje_pas_and_a_redeal_can_be_taken_back_at_once(db):
    scorer = Scorer(str(db))
    deal = scorer.answer("entry", "samen 8 jan+piet 9")
    assert "undo" not in deal  # a deal is corrected by tapping it, not taken back with one tap
    for action in ("pass", "redeal"):
        done = scorer.answer(action, "")
        assert done["ok"] and "undo" in done
        back = scorer.answer("undo", "", confirm=True, expect=done["undo"])
        assert back["ok"], back
    assert texts(db) == [("samen 8 jan+piet 9", False), ("pas", True), ("redeal", True)]
    # a take-back that comes after another entry undoes nothing
    done = scorer.answer("pass", "")
    assert scorer.answer("entry", "alleen 5 piet 6")["ok"]
    late = scorer.answer("undo", "", confirm=True, expect=done["undo"])
    assert late["ok"] is False and texts(db)[-1] == ("alleen 5 piet 6", False)


def test_end_answers_with_the_seal_and_the_payments(db):
    scorer = Scorer(str(db))
    assert scorer.answer("entry", "samen 8 jan+piet 9")["ok"]
    asked = scorer.answer("entry", "end")
    assert asked["ask"] == "end"
    done = scorer.answer("entry", "end", confirm=True, expect=asked["expect"], cents=10)
    assert done["ok"] and done["session"] == 1 and done["cents"] == 10
    assert done["totals"] == {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3}
    assert sorted((p["payer"], p["payee"], p["points"], p["cents"]) for p in done["payments"]) == [
        ("lotte", "piet", 3, 30), ("mieke", "jan", 3, 30)] or sorted(
        (p["payer"], p["payee"], p["points"], p["cents"]) for p in done["payments"]) == [
        ("lotte", "jan", 3, 30), ("mieke", "piet", 3, 30)]
    assert all(line.endswith("(€0.30)") for line in done["paid"])
    assert done["seal"] and ok(db, "check", "--session", "1", "--seal", done["seal"]).exit_code == 0


def test_a_form_sent_again_is_already_recorded_and_a_replaced_link_answers_in_json(db):
    with serving(db) as srv:
        entry = srv.scorer + "/entry"
        body = urlencode({"action": "pass", "line": "", "nonce": "n-1"}).encode()
        first = json.loads(request(entry, body, JSON)[2])
        status, _h, raw = request(entry, body, JSON)
        second = json.loads(raw)
        assert status == 200 and second["repeat"] is True
        assert second["message"] == "already recorded: " + first["message"]
    assert texts(db) == [("pas", False)]
    with serving(db, "--new-links") as srv:
        old = srv.url + "s/" + entry.split("/s/", 1)[1]
        status, headers, raw = request(old, body, JSON)
        assert status == 410 and json.loads(raw) == {"ok": False, "error": "this link was replaced: scan the new code"}
    assert texts(db) == [("pas", False)]


def test_a_form_sent_again_after_a_restart_of_the_server_is_not_recorded_twice(db):
    """The server's table of answered forms is gone after a restart; the entry's uid, made from the form's nonce,
    is in the ledger."""
    body = urlencode({"action": "entry", "line": "samen 8 jan+piet 9", "nonce": "f00d-1"}).encode()
    with serving(db) as srv:
        token = srv.scorer.rsplit("/", 1)[1]
        first = json.loads(request(srv.scorer + "/entry", body, JSON)[2])
        assert first["ok"] and first["message"].startswith("#1 samen 8 jan+piet 9")
    with serving(db) as srv:  # the same link, a new server (and a new port): the phone sends the form again
        status, _h, raw = request(f"{srv.url}s/{token}/entry", body, JSON)
        again = json.loads(raw)
        assert status == 200 and again["ok"]
        assert again["message"] == ("already recorded: #1 samen 8 jan+piet 9 (the phone sent it again; nothing "
                                    "recorded twice)")
        # another form with the same line is another deal (it asks "again?", as a deal like the one before does)
        other = urlencode({"action": "entry", "line": "samen 8 jan+piet 9", "nonce": "f00d-2"}).encode()
        assert "question" in json.loads(request(f"{srv.url}s/{token}/entry", other, JSON)[2])
    assert texts(db) == [("samen 8 jan+piet 9", False)]


def test_the_same_nonce_through_two_scorers_records_once(db):
    assert Scorer(str(db)).answer("pass", "", nonce="n-7")["ok"]
    again = Scorer(str(db)).answer("pass", "", nonce="n-7")
    assert again["ok"] and again["message"].startswith("already recorded: #1 pas")
    assert Scorer(str(db)).answer("pass", "", nonce="n-8")["ok"]
    assert texts(db) == [("pas", False), ("pas", False)]
