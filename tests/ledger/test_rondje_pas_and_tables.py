"""Rondje pas, redeals, penalties, undo/amend and tables of five or six, through the commands (issue 3).

Every expected figure below is worked out by hand from shared/SCORING.md; the arithmetic is in the comments.
"""

from __future__ import annotations

from _ledger_helpers import DATA, counting, dump, ok, record, refused, sheet, start

FOUR = ["jan", "piet", "mieke", "lotte"]
FIVE = ["an", "bert", "carla", "dirk", "eva"]
SIX = ["an", "bert", "carla", "dirk", "eva", "fien"]


def last(doc):
    return counting(doc)[-1]


# --- rupelstreek: next dealer, double once ------------------------------------------------------------


def test_rupelstreek_two_passes_still_double_once_and_dealer_moves_on(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "rupelstreek")
    record(db, "pas")  # jan deals; rupelstreek: the next dealer deals
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 2)
    record(db, "pas")  # piet deals; once: still x2, not x4
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("mieke", 2)
    assert [(e["dealer"], e["multiplier"], e["points"]) for e in doc["entries"]] == [
        ("jan", 1, dict.fromkeys(FOUR, 0)),
        ("piet", 1, dict.fromkeys(FOUR, 0)),
    ]
    record(db, "samen 8 jan+piet 9")  # mieke deals; samen 8 with 9 = 2 + 1 = 3, x2 = 6
    e = last(sheet(db))
    assert (e["dealer"], e["multiplier"]) == ("mieke", 2)
    assert e["points"] == {"jan": 6, "piet": 6, "mieke": -6, "lotte": -6}
    record(db, "samen 8 jan+piet 9")  # lotte deals, the doubling is used up: 3
    doc = sheet(db)
    assert (last(doc)["dealer"], last(doc)["multiplier"]) == ("lotte", 1)
    assert last(doc)["points"] == {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3}
    assert doc["totals"] == {"jan": 9, "piet": 9, "mieke": -9, "lotte": -9}
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 1)


# --- stack ----------------------------------------------------------------------------------------------


def test_stack_three_passes_make_x8_and_a_redeal_keeps_the_stack(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-stack.toml")  # "stapel": same dealer, stack
    start(db, FOUR, "stapel")
    record(db, "pas", "pas", "pas")
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 8)
    assert [e["dealer"] for e in doc["entries"]] == ["jan"] * 3
    record(db, "samen 8 mieke+lotte 8")  # made exactly: 2, x8 = 16
    e = last(sheet(db))
    assert (e["dealer"], e["multiplier"]) == ("jan", 8)
    assert e["points"] == {"jan": -16, "piet": -16, "mieke": 16, "lotte": 16}
    record(db, "pas", "redeal carte blanche", "pas")  # piet deals: x2, the redeal keeps it, x4
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 4)
    record(db, "alleen 5 lotte 4")  # lost by one: 3; solo: lotte -9, others +3; x4
    e = last(sheet(db))
    assert e["multiplier"] == 4
    assert e["points"] == {"jan": 12, "piet": 12, "mieke": 12, "lotte": -36}


# --- none -----------------------------------------------------------------------------------------------


def test_no_doubling_under_wikibooks_wiezen(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "wikibooks-wiezen")  # same dealer, no doubling
    record(db, "pas", "pas")
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 1)
    record(db, "samen 8 jan+piet 10")  # 2 + 2 overtricks = 4
    e = last(sheet(db))
    assert (e["dealer"], e["multiplier"]) == ("jan", 1)
    assert e["points"] == {"jan": 4, "piet": 4, "mieke": -4, "lotte": -4}


def test_no_doubling_next_dealer_house_rules(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-none.toml")  # "geen-dubbel": next dealer, no doubling
    start(db, FOUR, "geen-dubbel")
    record(db, "pas", "pas", "pas")
    doc = sheet(db)
    assert [e["dealer"] for e in doc["entries"]] == ["jan", "piet", "mieke"]
    assert (doc["dealer"], doc["pending_multiplier"]) == ("lotte", 1)


# --- undo -----------------------------------------------------------------------------------------------


def test_undo_of_a_pass_removes_the_pending_doubling(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "rupelstreek")
    record(db, "samen 8 jan+piet 9", "pas")  # jan deals, then piet passes: mieke next, x2
    assert (sheet(db)["dealer"], sheet(db)["pending_multiplier"]) == ("mieke", 2)
    ok(db, "undo", "--reason", "toch niet gepast")
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 1)
    assert doc["entries"][-1]["voided"] is True and doc["entries"][-1]["kind"] == "pass"
    record(db, "samen 8 mieke+lotte 9")  # piet deals, not doubled: 3
    e = last(sheet(db))
    assert e["no"] == 3  # numbers are never reused
    assert (e["dealer"], e["multiplier"]) == ("piet", 1)
    assert e["points"] == {"jan": -3, "piet": -3, "mieke": 3, "lotte": 3}


def test_undo_of_the_doubled_deal_restores_the_doubling(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "whisthub")
    record(db, "pas", "samen 8 jan+piet 9")  # same dealer; samen 8 with 9 = 8 + 3 = 11, x2 = 22
    doc = sheet(db)
    assert last(doc)["points"] == {"jan": 22, "piet": 22, "mieke": -22, "lotte": -22}
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 1)
    ok(db, "undo")
    doc = sheet(db)
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 2)
    assert doc["totals"] == dict.fromkeys(FOUR, 0)
    record(db, "alleen 5 mieke 5")  # jan deals again, x2: alleen 5 made = 3, solo 3x: mieke +18, others -6
    e = last(sheet(db))
    assert (e["dealer"], e["multiplier"]) == ("jan", 2)
    assert e["points"] == {"jan": -6, "piet": -6, "mieke": 18, "lotte": -6}


# --- amend ----------------------------------------------------------------------------------------------


def test_amend_a_pass_into_a_deal_shifts_later_dealers_and_undoes_the_doubling(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "whisthub")
    # 1 jan deals: samen 8 with 9 = 11.  2 piet deals: pas (same dealer, x2).
    # 3 piet deals: samen 8 made exactly = 8, x2 = 16.  4 mieke deals: alleen 5 with 5 = 3, solo: +9 / -3.
    record(db, "samen 8 jan+piet 9", "pas", "samen 8 mieke+lotte 8", "alleen 5 jan 5")
    doc = sheet(db)
    assert [(e["dealer"], e["multiplier"]) for e in doc["entries"]] == [
        ("jan", 1), ("piet", 1), ("piet", 2), ("mieke", 1)]
    assert doc["totals"] == {"jan": 4, "piet": -8, "mieke": 2, "lotte": 2}
    assert doc["dealer"] == "lotte"

    r = ok(db, "amend", "2", "samen", "8", "jan+piet", "8", "--reason", "het was geen pas")
    assert "#3" in r.stdout and "#4" in r.stdout  # both later entries were re-scored
    doc = sheet(db)
    now = counting(doc)
    # 2 piet deals: samen 8 made exactly = 8.  3 mieke deals: 8, no longer doubled.  4 lotte deals: +9 / -3.
    assert [(e["no"], e["kind"], e["dealer"], e["multiplier"]) for e in now] == [
        (1, "deal", "jan", 1), (2, "deal", "piet", 1), (3, "deal", "mieke", 1), (4, "deal", "lotte", 1)]
    assert now[1]["points"] == {"jan": 8, "piet": 8, "mieke": -8, "lotte": -8}
    assert now[2]["points"] == {"jan": -8, "piet": -8, "mieke": 8, "lotte": 8}
    assert now[3]["points"] == {"jan": 9, "piet": -3, "mieke": -3, "lotte": -3}
    assert doc["totals"] == {"jan": 20, "piet": 8, "mieke": -14, "lotte": -14}
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 1)
    # the old versions stay, voided: the pas, the doubled deal (x2), the deal dealt by mieke
    old = [(e["no"], e["kind"], e["dealer"], e["multiplier"]) for e in doc["entries"] if e["voided"]]
    assert sorted(old) == [(2, "pass", "piet", 1), (3, "deal", "piet", 2), (4, "deal", "mieke", 1)]


def test_amend_a_deal_into_a_pass_doubles_the_next_deal(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "whisthub")
    record(db, "samen 8 jan+piet 9", "samen 8 mieke+lotte 8")
    ok(db, "amend", "1", "pas")
    doc = sheet(db)
    now = counting(doc)
    assert [(e["kind"], e["dealer"], e["multiplier"]) for e in now] == [("pass", "jan", 1), ("deal", "jan", 2)]
    assert now[1]["points"] == {"jan": -16, "piet": -16, "mieke": 16, "lotte": 16}  # 8 x2
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 1)


def test_amend_that_would_seat_a_player_out_of_his_own_deal_is_refused(tmp_path):
    db = tmp_path / "w.db"
    start(db, FIVE, "whisthub")
    record(db, "samen 8 bert+carla 9", "samen 8 an+carla 9")  # an deals 1 and sits out; bert deals 2
    before = dump(db)
    # as a pas, entry 1 would leave an dealing entry 2 (same dealer), in which he plays: refused
    msg = refused(db, "amend", "1", "pas")
    assert "an" in msg
    assert dump(db) == before


# --- five and six players --------------------------------------------------------------------------------


def test_five_players_dealer_sits_out(tmp_path):
    db = tmp_path / "w.db"
    start(db, FIVE, "whisthub")
    before = dump(db)
    msg = refused(db, "deal", "samen", "8", "an+bert", "9")  # an deals, so he sits out
    assert "sits out" in msg
    assert dump(db) == before
    record(db, "samen 8 bert+carla 9")  # 11
    doc = sheet(db)
    assert last(doc)["points"] == {"bert": 11, "carla": 11, "dirk": -11, "eva": -11}
    assert doc["totals"] == {"an": 0, "bert": 11, "carla": 11, "dirk": -11, "eva": -11}
    assert doc["dealer"] == "bert" and doc["sitting_out"] == ["bert"]
    record(db, "penalty carla renonce")  # bert deals and sits out: carla pays an, dirk, eva 5 each
    assert last(sheet(db))["points"] == {"an": 5, "carla": -15, "dirk": 5, "eva": 5}


def test_five_players_first_dealer_option(tmp_path):
    db = tmp_path / "w.db"
    start(db, FIVE, "whisthub", "--dealer", "carla")
    assert sheet(db)["sitting_out"] == ["carla"]
    refused(db, "deal", "troel", "carla+an", "8")
    record(db, "troel an+bert 8", "pas")  # troel 8 made = 16; dirk deals the pas, same dealer
    doc = sheet(db)
    assert last(doc)["points"] == {"an": 0, "bert": 0, "carla": 0, "eva": 0}
    e = counting(doc)[0]
    assert (e["dealer"], e["points"]) == ("carla", {"an": 16, "bert": 16, "dirk": -16, "eva": -16})
    assert (doc["dealer"], doc["pending_multiplier"]) == ("dirk", 2)


def test_six_players_dealer_and_opposite_sit_out(tmp_path):
    db = tmp_path / "w.db"
    start(db, SIX, "whisthub")
    before = dump(db)
    refused(db, "deal", "samen", "8", "bert+dirk", "9")  # an deals; dirk sits opposite (three seats on)
    refused(db, "deal", "alleen", "an", "5")
    assert dump(db) == before
    assert sheet(db)["sitting_out"] == ["an", "dirk"]
    record(db, "samen 8 bert+carla 9")  # 11 for bert and carla, -11 for eva and fien
    assert last(sheet(db))["points"] == {"bert": 11, "carla": 11, "eva": -11, "fien": -11}
    doc = sheet(db)
    assert (doc["dealer"], doc["sitting_out"]) == ("bert", ["bert", "eva"])
    record(db, "pas")  # whisthub: same dealer, x2
    assert last(sheet(db))["points"] == {"an": 0, "carla": 0, "dirk": 0, "fien": 0}
    record(db, "alleen 5 fien 5")  # 3, solo: +9 / -3, x2
    e = last(sheet(db))
    assert (e["dealer"], e["multiplier"]) == ("bert", 2)
    assert e["points"] == {"an": -6, "carla": -6, "dirk": -6, "fien": 18}
    doc = sheet(db)
    assert doc["totals"] == {"an": -6, "bert": 11, "carla": 5, "dirk": -6, "eva": -11, "fien": 7}
    assert (doc["dealer"], doc["sitting_out"]) == ("carla", ["carla", "fien"])


# --- penalties --------------------------------------------------------------------------------------------


def test_penalty_while_doubling_pending_neither_doubles_nor_uses_it(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "whisthub")
    record(db, "pas", "penalty piet kaart getoond")
    doc = sheet(db)
    e = last(doc)
    assert (e["kind"], e["multiplier"]) == ("penalty", 1)
    assert e["points"] == {"jan": 5, "piet": -15, "mieke": 5, "lotte": 5}  # 5 to each other player
    assert (doc["dealer"], doc["pending_multiplier"]) == ("jan", 2)
    record(db, "samen 8 jan+piet 9")  # still x2: 22
    assert last(sheet(db))["points"] == {"jan": 22, "piet": 22, "mieke": -22, "lotte": -22}


def test_penalty_under_stack_does_not_double_again(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-stack.toml")
    start(db, FOUR, "stapel")
    record(db, "pas", "penalty mieke", "penalty mieke round")
    assert sheet(db)["pending_multiplier"] == 2
    record(db, "pas")
    assert sheet(db)["pending_multiplier"] == 4


def test_rounds_owed_are_counted_and_cost_no_points(tmp_path):
    db = tmp_path / "w.db"
    start(db, FOUR, "rupelstreek")
    ok(db, "penalty", "jan", "--round", "--reason", "te laat")
    ok(db, "penalty", "j", "--round")  # a prefix names him too
    ok(db, "penalty", "piet", "--round")
    doc = sheet(db)
    assert doc["rounds_owed"] == {"jan": 2, "piet": 1, "mieke": 0, "lotte": 0}
    assert doc["totals"] == dict.fromkeys(FOUR, 0)
    assert all(v == 0 for e in doc["entries"] for v in e["points"].values())
    ok(db, "undo")
    assert sheet(db)["rounds_owed"] == {"jan": 2, "piet": 0, "mieke": 0, "lotte": 0}


def test_penalty_linked_to_a_deal_pays_that_deals_players(tmp_path):
    db = tmp_path / "w.db"
    start(db, FIVE, "whisthub")
    # 1: an deals, bert carla dirk eva play.  2: bert deals, an carla dirk eva play.  carla deals next.
    record(db, "samen 8 bert+carla 9", "samen 8 an+carla 9")
    ok(db, "penalty", "dirk", "--deal", "1", "--reason", "renonce in deal 1")
    assert last(sheet(db))["points"] == {"bert": 5, "carla": 5, "dirk": -15, "eva": 5}
    ok(db, "penalty", "dirk")  # the deal in play: carla deals, an bert dirk eva play
    assert last(sheet(db))["points"] == {"an": 5, "bert": 5, "dirk": -15, "eva": 5}
    record(db, "pas")  # entry 5 is a pas, not a deal
    before = dump(db)
    refused(db, "penalty", "dirk", "--deal", "99")
    refused(db, "penalty", "dirk", "--deal", "5")
    assert dump(db) == before
