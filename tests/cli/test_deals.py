"""`wiezen deals`: every recorded deal across sessions, by player, contract and dates (the morning after).

Which deals are listed is written by hand below; their points are checked against `sheet --json` of their session
(another command's document) and for a zero sum.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import dump, ok, refused, sheet


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-11-27", "--name", "Kroon")
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "1")   # 1: jan made, piet lost
    ok(db, "deal", "samen", "8", "jan+piet", "9")              # 2
    ok(db, "deal", "troel", "mieke+lotte", "7")                # 3, undone
    ok(db, "undo")
    ok(db, "deal", "troel", "mieke+lotte", "9")                # 4
    ok(db, "pass")                                             # 5: not a deal
    ok(db, "deal", "alleen", "5", "mieke", "4")                # 6, corrected below
    ok(db, "amend", "6", "alleen", "5", "mieke", "6")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte,kris", "--date", "2026-12-03", "--name", "Thuis")
    ok(db, "deal", "kleine-miserie", "piet", "0", "mieke", "0")  # jan deals and sits out
    ok(db, "penalty", "kris")                                    # not a deal
    return db


def listed(db, *args):
    return json.loads(ok(db, "deals", "--json", *args).stdout)


def test_every_deal_that_counts_across_sessions_oldest_first(db):
    got = [(d["session"], d["date"], d["no"], d["text"]) for d in listed(db)]
    assert got == [
        (1, "2026-11-27", 1, "grote-miserie jan 0 piet 1"),
        (1, "2026-11-27", 2, "samen 8 jan+piet 9"),
        (1, "2026-11-27", 4, "troel 8 mieke+lotte 9"),
        (1, "2026-11-27", 6, "alleen 5 mieke 6"),
        (2, "2026-12-03", 1, "kleine-miserie piet 0 mieke 0"),
    ]


def test_the_points_are_the_sheets_and_who_sat_out_has_none(db):
    deals = listed(db)
    for d in deals:
        assert sum(d["points"].values()) == 0
        entry = next(e for e in sheet(db, "--session", str(d["session"]))["entries"] if e["no"] == d["no"] and not e["voided"])
        assert d["points"] == {p: v for p, v in entry["points"].items() if p in d["points"]}
    last = deals[-1]
    assert list(last["points"]) == ["piet", "mieke", "lotte", "kris"]  # jan dealt and sat out
    assert set(last) == {"session", "date", "no", "text", "contract", "takers", "made", "points"}


def test_takers_and_who_made_it(db):
    first = listed(db)[0]
    assert (first["contract"], first["takers"], first["made"]) == ("grote-miserie", ["jan", "piet"], {"jan": True, "piet": False})


@pytest.mark.parametrize("args, nos", [
    (["--contract", "miserie"], [(1, 1), (2, 1)]),                      # one word of a name: every miserie
    (["--contract", "miserie", "--player", "jan", "--player", "piet"], [(1, 1)]),  # two of us on miserie
    (["--contract", "gm"], [(1, 1)]),                                   # an abbreviation
    (["--contract", "grote"], [(1, 1)]),                                # another word of a name
    (["--contract", "grote miserie"], [(1, 1)]),                         # as said at the table
    (["--player", "mie"], [(1, 4), (1, 6), (2, 1)]),                     # a prefix of a name, as a taker
    (["--player", "kris"], []),
    (["--since", "2026-12-01"], [(2, 1)]),
    (["--until", "27/11/2026", "--contract", "samen"], [(1, 2)]),
])
def test_filters(db, args, nos):
    assert [(d["session"], d["no"]) for d in listed(db, *args)] == nos


@pytest.mark.parametrize("args, words", [
    (["--player", "zeno"], ["no player 'zeno' in this ledger", "jan, piet, mieke, lotte, kris"]),
    (["--contract", "piccolo"], ["no deal of a contract 'piccolo'", "alleen, grote-miserie"]),
    (["--since", "morgen"], ["not a date"]),
])
def test_bad_filters_are_one_line_and_write_nothing(db, args, words):
    before = dump(db)
    msg = refused(db, "deals", *args)
    assert all(w in msg for w in words), msg
    assert dump(db) == before


def test_the_table_in_dutch_and_an_empty_answer(db):
    out = ok(db, "--lang", "nl", "deals", "--contract", "miserie").stdout
    assert "jan gehaald, piet verloren" in out and "vr 27/11/2026" in out
    assert ok(db, "deals", "--since", "2026-12-04").stdout.strip() == "no deals match"


def test_explain_shows_the_totals_before_and_after(db):
    # session 1 by hand from the sheet: entry 2 adds its points to the totals of entry 1 alone
    first = json.loads(ok(db, "explain", "1", "--session", "1", "--json").stdout)
    second = json.loads(ok(db, "explain", "2", "--session", "1", "--json").stdout)
    assert first["totals_before"] == {"jan": 0, "piet": 0, "mieke": 0, "lotte": 0}
    assert first["totals_after"] == first["points"] == second["totals_before"]
    assert second["totals_after"] == {p: second["totals_before"][p] + second["points"][p] for p in second["points"]}
    undone = json.loads(ok(db, "explain", "3", "--session", "1", "--json").stdout)
    assert undone["voided"] and undone["totals_before"] == undone["totals_after"] == second["totals_after"]
    text = ok(db, "explain", "2", "--session", "1").stdout
    assert "totals before: jan +" in text and "totals after:" in text


def test_explain_of_an_entry_the_newest_session_lacks_names_the_sessions_that_have_it(db):
    msg = refused(db, "explain", "6")  # session 2 (the open one) has one entry; session 1 has an entry 6
    assert "no entry 6 in session 2 (its last is #2); sessions with an entry 6: 1: give --session ID" in msg
