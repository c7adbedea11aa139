"""`wiezen deal` takes the words players say for a rondje pas and a redeal (issue 30, item 8): `deal rondje pas`
records what `wiezen pass` records, `deal carte blanche` what `wiezen redeal --reason "carte blanche"` records, in
English and in Dutch words, whatever the language chosen, as `play` and session files take them."""

from __future__ import annotations

import json

import pytest
from test_deal_words import error, ok, sheet


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "anna,bob,rené,lotte", "--rules", "whisthub")
    return db


def entries(db):
    return [(e["kind"], e["text"], e["dealer"], e["multiplier"]) for e in sheet(db)["entries"] if not e["voided"]]


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("words", [["rondje", "pas"], ["passen"], ["pas"], ["rondje-pas"]])
def test_deal_rondje_pas_is_a_pass(tmp_path, words, lang):
    by_deal, by_pass = tmp_path / "a.db", tmp_path / "b.db"
    for db in (by_deal, by_pass):
        ok(db, "session", "start", "--players", "anna,bob,rené,lotte", "--rules", "whisthub")
    ok(by_deal, "--lang", lang, "deal", *words)
    ok(by_pass, "pass")
    assert entries(by_deal) == entries(by_pass) == [("pass", "pas", "anna", 1)]
    # and the next deal counts double under whisthub, as after `wiezen pass`
    ok(by_deal, "deal", "samen", "8", "anna+bob", "8")
    assert sheet(by_deal)["entries"][-1]["points"] == {"anna": 16, "bob": 16, "rené": -16, "lotte": -16}


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("words,reason", [
    (["carte", "blanche"], "carte blanche"),
    (["carte", "blanche", "bij", "bob"], "carte blanche bij bob"),
    (["redeal", "misdeal"], "misdeal"),
    (["herdelen"], ""),
    (["opnieuw", "delen"], ""),
])
def test_deal_carte_blanche_is_a_redeal(tmp_path, words, reason, lang):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "anna,bob,rené,lotte")
    ok(db, "pass")  # a pending doubling stays over a redeal
    ok(db, "--lang", lang, "deal", *words)
    got = sheet(db)["entries"][-1]
    assert (got["kind"], got.get("reason", ""), got["dealer"]) == ("redeal", reason, "anna")
    ok(db, "deal", "alleen", "5", "anna", "5")
    assert sheet(db)["entries"][-1]["points"] == {"anna": 18, "bob": -6, "rené": -6, "lotte": -6}  # 3 x 3 x 2


def test_the_answer_says_what_was_recorded(table):
    assert "#1 pas" in ok(table, "deal", "rondje", "pas").stdout
    assert "#2 redeal" in ok(table, "deal", "carte", "blanche").stdout


def test_over_troel_with_a_pass_is_refused(table):
    line = error(table, "deal", "--over-troel", "rondje", "pas")
    assert "--over-troel" in line and "rondje pas" in line
    assert sheet(table)["entries"] == []


def test_a_pass_word_with_more_after_it_is_refused(table):
    assert "takes nothing after it" in error(table, "deal", "rondje", "pas", "jan")
    assert sheet(table)["entries"] == []


def test_without_an_open_session_nothing_is_recorded(tmp_path):
    db = tmp_path / "w.db"
    error(db, "deal", "rondje", "pas")
    assert not db.exists() or json.loads(ok(db, "sessions", "--json").stdout) == []
