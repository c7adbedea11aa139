"""The scorer's form takes every line `wiezen play` takes, with the same answers: both go through service/table.py.

The same lines are typed into `play` (through a pipe) on one ledger and sent through the scorer's form on a copy
of it; the sheets they leave are the same document, and every text the form answers is what play printed.
"""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlencode

import pytest
from _ledger_helpers import copy_ledger, ok, sheet, wz
from _serve_helpers import request, serving

from wiezen_score.web.scorer import Scorer

# amend, explain, settle, penalties with a reason, undo with a reason, in English and in Dutch words
LINES = [
    "s 8 j+p 9", "straf jan te laat", "pas", "amend 1 s 8 j+p 8", "explain 3", "uitleg 1", "settle 10", "afrekenen",
    "penalty piet round te laat", "undo te vroeg", "verbeter 2 straf mieke renonce", "sheet 2",
]


@pytest.fixture
def pair(tmp_path):
    first = tmp_path / "play.db"
    ok(first, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    return first, copy_ledger(first, tmp_path / "form.db")


def send(scorer: Scorer, line: str) -> dict:
    """One line through the form; a question is answered yes, as play's pipe answers it."""
    answer = dict(scorer.answer("entry", line))
    if "question" in answer:
        answer = dict(scorer.answer("entry", line, confirm=True, expect=answer["expect"]))
    return answer


def test_the_form_takes_the_lines_play_takes_with_the_same_answers(pair):
    play_db, form_db = pair
    r = wz(play_db, "play", input="\n".join(LINES) + "\n")
    assert r.exit_code == 0, r.stderr
    scorer = Scorer(str(form_db))
    answers = {line: send(scorer, line) for line in LINES}
    assert all(a["ok"] for a in answers.values()), answers
    assert sheet(form_db) == sheet(play_db)
    # hand-computed: #1 amended to samen 8 made exactly (+2 jan and piet, -2 mieke and lotte), #2 amended from
    # jan's penalty to mieke's (-15 for her, +5 to each other), #3 the pas (no points), #4 voided by the undo
    assert sheet(form_db)["totals"] == {"jan": 7, "piet": 7, "mieke": -17, "lotte": 3}
    for line in ("amend 1 s 8 j+p 8", "explain 3", "uitleg 1", "settle 10", "afrekenen", "undo te vroeg",
                 "verbeter 2 straf mieke renonce"):
        said = answers[line]["message"].splitlines()
        assert said, line
        for text in said:
            assert text in r.stdout, (line, text)
    assert answers["amend 1 s 8 j+p 8"]["message"].startswith("#1 samen 8 jan+piet 8: jan +2, piet +2")
    assert answers["undo te vroeg"]["message"] == "voided #4 penalty piet round"
    assert "te laat" in answers["straf jan te laat"]["message"]  # the recorded line, and the hint for a precedent


def test_the_form_asks_what_play_asks_and_a_no_does_nothing(pair):
    _play_db, form_db = pair
    scorer = Scorer(str(form_db))
    assert send(scorer, "s 8 j+p 9")["ok"]
    before = sheet(form_db)
    asked = dict(scorer.answer("entry", "einde"))
    assert (asked["ok"], asked["question"], asked["declined"]) == (
        False, "end session 1 (jan, piet, mieke, lotte)? It cannot be reopened", "still open")
    assert sheet(form_db) == before
    assert scorer.answer("entry", "quit")["error"].startswith("Error: 'quit' stops the prompt")
    done = scorer.answer("entry", "end", confirm=True, expect=asked["expect"])
    assert done["ok"] and done["message"].startswith("session 1 ended. totals: jan +3, piet +3, mieke -3, lotte -3")


def test_the_form_starts_a_session_as_the_prompt_does(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    ok(db, "session", "end")
    scorer = Scorer(str(db))
    assert send(scorer, "regels rupelstreek")["message"] == "house rules for the next session: rupelstreek"
    started = send(scorer, "spelers jan piet mieke lotte deler piet")
    assert started["message"].startswith("session 2 started: jan, piet, mieke, lotte under the house rules "
                                         "rupelstreek; piet deals first")
    assert sheet(db)["session"]["rules"] == "rupelstreek"


def test_over_http_the_form_takes_a_dutch_penalty_and_explain(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    headers = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}
    with serving(db) as srv:
        entry = srv.scorer + "/entry"
        status, _, body = request(entry, urlencode({"action": "entry", "line": "straf jan te laat"}).encode(), headers)
        answer = json.loads(body)
        assert status == 200 and answer["message"].startswith("#1 penalty jan: jan -15, piet +5, mieke +5, lotte +5")
        status, _, body = request(entry, urlencode({"action": "entry", "line": "uitleg 1"}).encode(), headers)
        assert status == 200 and json.loads(body)["message"].startswith("#1 penalty jan (session 1, rupelstreek")
        status, _, body = request(entry, urlencode({"action": "entry", "line": "amend 1"}).encode(), headers)
        assert status == 400 and json.loads(body)["error"].startswith("Error: ")
    doc = sheet(db)
    assert [(e["text"], e["reason"]) for e in doc["entries"]] == [("penalty jan", "te laat")]


def test_without_the_script_a_question_comes_back_with_the_button_of_its_yes(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    plain = {"Content-Type": "application/x-www-form-urlencoded"}
    with serving(db) as srv:
        base, entry = srv.url.rstrip("/"), srv.scorer + "/entry"
        status, headers, _ = request(entry, urlencode({"action": "undo", "line": "te vroeg", "nonce": "a"}).encode(), plain)
        assert status == 303
        page = request(base + headers["Location"])[2].decode()
        assert html.escape("undo #1 samen 8 jan+piet 9?") in page
        yes = re.search(r'<form class="scorer confirm" method="post" action="([^"]+)">(.*?)</form>', page)
        assert yes is not None and yes.group(1) == entry[len(base):]
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', yes.group(2)))
        assert {k: fields[k] for k in ("action", "line", "confirm")} == {"action": "undo", "line": "te vroeg", "confirm": "1"}
        assert [e["voided"] for e in sheet(db)["entries"]] == [False]  # asking did nothing
        status, headers, _ = request(entry, urlencode({k: html.unescape(v) for k, v in fields.items()}).encode(), plain)
        assert status == 303
        assert html.escape("voided #1 samen 8 jan+piet 9") in request(base + headers["Location"])[2].decode()
    doc = sheet(db)
    assert [e["voided"] for e in doc["entries"]] == [True]


def test_a_page_that_shows_one_session_records_only_in_it(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    answer = Scorer(str(db), session_id=1).answer("entry", "s 8 j+p 9")
    assert answer == {"ok": False, "error": "Error: this page shows session 1, but the open session is 2: nothing recorded"}
    assert sheet(db)["entries"] == []


def test_the_phone_names_house_rules_but_never_reads_a_file(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    ok(db, "session", "end")
    toml = tmp_path / "ours.toml"
    toml.write_text("this is no house-rules file\n", encoding="utf-8")
    scorer = Scorer(str(db))
    for spec in (str(toml), "-"):
        error = scorer.answer("entry", f"rules {spec}")["error"]
        assert error.startswith(f"Error: no house rules '{spec}' here: the phone takes those built in (")
    assert scorer.answer("entry", "rules rupelstreek")["ok"]
    # at the prompt the same line reads the file (and says what is wrong with it)
    r = wz(db, "play", input=f"rules {toml}\n")
    assert r.exit_code == 1 and str(toml) in r.stderr and "the phone" not in r.stderr


def test_the_button_of_the_yes_speaks_the_language_of_the_page(nl):
    from wiezen_score.views.live import live_page

    doc = {"session": {"id": 1, "name": "", "date": "2026-11-27", "rules": "whisthub", "players": ["an", "bert"],
                       "open": True},
           "entries": [], "totals": {"an": 0, "bert": 0}, "dealer": "an", "sitting_out": [], "pending_multiplier": 1,
           "rounds_owed": {}}
    page = live_page(doc, scorer_action="/s/x/entry", nonce="n", message="undo #1?", confirm=("undo", "", 7))
    assert '<input type="hidden" name="expect" value="7"><input type="hidden" name="nonce" value="ny">' \
           '<button type="submit" class="go">Ja</button>' in page
    assert "scorer confirm" not in live_page(doc, scorer_action="/s/x/entry", nonce="n", message="undo #1?")
