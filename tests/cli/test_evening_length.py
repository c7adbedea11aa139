"""An evening's length (`session start --deals N | --rounds N | --target N`, or `deals N` ... in `play`), its
progress in the play prompt and on the sheet, a warning at the end; rounds owed in `settle` and at
`session end`. Through the installed `wiezen` command."""

import json

import pytest
from test_deal_words import error, ok, run, spawn_play


def doc(db):
    return json.loads(ok(db, "sheet", "--json").stdout)


def test_deals_progress_and_the_warning_at_the_end(tmp_path):
    db = tmp_path / "w.db"
    assert "the evening: 3 deals" in ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--deals", "3").stdout
    assert "evening: 1 of 3 deals played" in ok(db, "deal", "s", "8", "j+p", "9").stdout
    r = ok(db, "pass")  # a rondje pas is no deal
    assert "evening: 1 of 3 deals played" in r.stdout and "warning" not in r.stderr
    ok(db, "redeal")
    ok(db, "deal", "s", "8", "m+l", "9")
    r = ok(db, "deal", "s", "8", "m+l", "9")
    assert "last deal of the evening (3 of 3)" in r.stderr
    r = ok(db, "deal", "s", "8", "m+l", "9")
    assert "deal 4 is beyond the 3 deals planned" in r.stderr
    ev = doc(db)["evening"]
    assert ev["deals"] == 3 and ev["deals_played"] == 4 and ev["over"] is True
    ok(db, "undo")
    ok(db, "undo")  # undone deals do not count
    assert doc(db)["evening"]["deals_played"] == 2


def test_rounds_are_one_deal_per_player(tmp_path):
    db = tmp_path / "w.db"
    r = ok(db, "session", "start", "--players", "an,bo,cas,dirk,eva", "--rounds", "2")
    assert "2 rounds (10 deals)" in r.stdout
    ok(db, "deal", "s", "8", "bo+cas", "9")  # five players: an deals and sits out
    assert "evening: 1 of 10 deals played, round 1 of 2" in ok(db, "sheet").stdout


def test_target_score(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--target", "50")
    r = ok(db, "deal", "s", "8", "j+p", "9")  # +11 each (the README's example)
    assert "warning" not in r.stderr and "jan and piet lead with 11" in r.stdout
    for _ in range(10):
        r = ok(db, "deal", "ab", "9", "mieke", "9")
        top = max(doc(db)["totals"].values())
        if top >= 50:  # the deal that reaches the target warns, none before it
            assert "mieke reached" in r.stderr and "target of 50" in r.stderr
            assert doc(db)["evening"]["over"] is True
            break
        assert "warning" not in r.stderr
    else:
        raise AssertionError("the target was never reached")


def test_one_length_only_and_kept_by_the_ledger(tmp_path):
    db = tmp_path / "w.db"
    msg = error(db, "session", "start", "--players", "a,b,c,d", "--deals", "24", "--rounds", "6")
    assert "not several" in msg
    assert "at least 1" in error(db, "session", "start", "--players", "a,b,c,d", "--deals", "0")
    ok(db, "session", "start", "--players", "a,b,c,d", "--rounds", "6")
    import sqlite3

    conn = sqlite3.connect(str(db))
    try:
        with pytest.raises(sqlite3.DatabaseError, match="only changes by being ended"):
            conn.execute("UPDATE sessions SET plan = 'deals 1'")
    finally:
        conn.close()
    ok(db, "check")
    exported = json.loads(ok(db, "export").stdout)
    assert exported["sessions"][0]["plan"] == "rounds 6"


def test_session_end_warns_when_the_evening_is_cut_short_and_names_rounds_owed(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--deals", "24")
    ok(db, "deal", "s", "8", "j+p", "9")
    ok(db, "penalty", "piet", "--round", "--reason", "te laat")
    s = ok(db, "settle")
    assert "rounds owed: piet 1" in s.stdout
    assert json.loads(ok(db, "settle", "--json").stdout)["rounds_owed"] == {"jan": 0, "piet": 1, "mieke": 0, "lotte": 0}
    r = ok(db, "session", "end")
    assert "rounds owed: piet 1" in r.stdout and "evening: 1 of 24 deals played" in r.stdout
    assert "before its planned length" in r.stderr


def test_play_length_lines_and_the_prompt(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    db = tmp_path / "w.db"
    c = spawn_play(tmp_path, db)
    try:
        c.expect_exact("[no session] > ")
        c.sendline("rounds 1")
        c.expect_exact("the next session lasts 1 rounds")
        c.sendline("players jan piet mieke lotte")
        c.expect_exact("[#1 jan deals, deal 1 of 4] > ")
        c.sendline("s 8 j+p 9")
        c.expect_exact("[#2 piet deals, deal 2 of 4] > ")
        c.sendline("pas")
        c.expect_exact("[#3 piet deals x2, deal 2 of 4] > ")
        for i, line in enumerate(["s 8 m+l 9", "s 8 m+l 9"]):
            c.sendline(line)
            c.expect_exact(f"deal {3 + i} of 4] > ")
        c.sendline("t j+p 8")
        c.expect_exact("warning: that was the last deal of the evening (4 of 4)")
        c.expect_exact("4 of 4 deals played] > ")
        c.sendline("settle")
        c.expect_exact("pays")
        c.sendline("quit")
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert doc(db)["evening"] == {"rounds": 1, "deals_played": 4,
                                  "progress": "evening: 4 of 4 deals played: the planned length is reached",
                                  "over": True}


def test_play_piped_with_a_target(tmp_path):
    db = tmp_path / "w.db"
    r = run(db, "play", input="target 30\nplayers a b c d\ns 8 a+b 9\ns 9 a+b 11\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "reached" not in r.stdout  # 11 + 17 = 28: below 30, no warning yet; one more deal crosses it
    r = run(db, "play", input="s 8 a+b 9\nquit\n")
    assert "a and b reached 39 points, the target of 30" in r.stdout
