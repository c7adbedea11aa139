"""A session keeps the house rules it was started under (SCORING.md, "The house-rules file")."""

from __future__ import annotations

import sqlite3

from _ledger_helpers import last_line, ok, record, sheet, start

FOUR = ["jan", "piet", "mieke", "lotte"]

RULES = """\
name = "ons-cafe"
description = "Ons cafe"
penalty = {penalty}
multi_miserie = "alone"

[all_pass]
dealer = "{dealer}"
double = "{double}"

[contracts.samen]
team = true
levels = [8]
made = [{made}]
lost = [{lost}]
overtrick = 1
undertrick = 1

[contracts.alleen]
levels = [5]
made = [2]
lost = [3]
overtrick = 1
undertrick = 1
"""

V1 = RULES.format(penalty=5, dealer="next", double="once", made=2, lost=3)
V2 = RULES.format(penalty=10, dealer="same", double="stack", made=4, lost=5)


def test_a_session_keeps_its_house_rules(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(V1, encoding="utf-8")
    ok(db, "rules", "add", f)
    start(db, FOUR, "ons-cafe")
    # v1: samen 8 with 9 = 2 + 1 = 3; penalty 5 to each of three = 15; pas: next dealer, x2
    record(db, "samen 8 jan+piet 9", "penalty mieke", "pas")
    old = sheet(db)
    assert [e["points"] for e in old["entries"]] == [
        {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3},
        {"jan": 5, "piet": 5, "mieke": -15, "lotte": 5},
        dict.fromkeys(FOUR, 0),
    ]
    assert (old["dealer"], old["pending_multiplier"]) == ("mieke", 2)

    f.write_text(V2, encoding="utf-8")
    r = ok(db, "rules", "add", f)
    assert "replaced" in r.stdout
    assert sheet(db) == old  # nothing recorded changes

    # the open session goes on under v1: 3 x2 = 6, penalty 15, a pas doubles once and moves the deal on
    record(db, "samen 8 mieke+lotte 9", "penalty jan", "pas", "pas")
    doc = sheet(db)
    assert doc["entries"][:3] == old["entries"]
    assert doc["entries"][3]["points"] == {"jan": -6, "piet": -6, "mieke": 6, "lotte": 6}
    assert doc["entries"][4]["points"] == {"jan": -15, "piet": 5, "mieke": 5, "lotte": 5}
    assert (doc["dealer"], doc["pending_multiplier"]) == ("piet", 2)  # mieke dealt; lotte, jan passed; once: x2
    ok(db, "session", "end")
    ended = sheet(db, "--session", "1")

    # a new session takes v2: samen 8 with 9 = 4 + 1 = 5; penalty 10 x 3 = 30; stack, same dealer
    start(db, FOUR, "ons-cafe")
    record(db, "samen 8 jan+piet 9", "penalty mieke", "pas", "pas")
    new = sheet(db)
    assert new["session"]["id"] == 2
    assert [e["points"] for e in new["entries"][:2]] == [
        {"jan": 5, "piet": 5, "mieke": -5, "lotte": -5},
        {"jan": 10, "piet": 10, "mieke": -30, "lotte": 10},
    ]
    assert (new["dealer"], new["pending_multiplier"]) == ("piet", 4)
    assert sheet(db, "--session", "1") == ended

    conn = sqlite3.connect(db)
    try:
        snaps = [t for (t,) in conn.execute("SELECT rules_toml FROM sessions ORDER BY id")]
    finally:
        conn.close()
    assert snaps == [V1, V2]


def test_adding_the_same_rules_twice_changes_nothing(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(V1, encoding="utf-8")
    ok(db, "rules", "add", f)
    ok(db, "rules", "add", f)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("SELECT count(*) FROM house_rules").fetchone()[0] == 1
    finally:
        conn.close()
    assert last_line(ok(db, "rules", "show", "ons-cafe").stdout) == last_line(V1)


def test_a_session_started_from_a_file_keeps_a_copy(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(V1, encoding="utf-8")
    start(db, FOUR, str(f))
    record(db, "samen 8 jan+piet 7")  # v1: lost by one = 3
    f.write_text(V2, encoding="utf-8")  # the file changes on disk during the evening
    record(db, "samen 8 jan+piet 7")  # still v1: 3
    doc = sheet(db)
    assert doc["session"]["rules"] == "ons-cafe"
    assert [e["points"]["jan"] for e in doc["entries"]] == [-3, -3]
    assert doc["totals"] == {"jan": -6, "piet": -6, "mieke": 6, "lotte": 6}
