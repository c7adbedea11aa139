"""Players come and go: `session join PLAYER [--after P]`, `session leave PLAYER` (and at the prompt and on the
phone, `join kris` / `kris schuift aan`, `leave piet` / `piet stopt`): entries of the session, on the sheet, in
the chain and under the seal; the table keeps its sheet and its totals.

Points by hand under whisthub: samen 8 made with 9 tricks is 8 + 3 for one overtrick = 11 to each taker and -11
to each other player of the deal; alleen 5 made with 6 tricks is 4 a defender (3 + 1 overtrick), 12 to the taker."""

from __future__ import annotations

import json
import shutil
import sqlite3

from _ledger_helpers import ok, refused, wz


def sheet(db):
    return json.loads(ok(db, "sheet", "--json").stdout)


def start(db, players="jan,piet,mieke,lotte"):
    ok(db, "session", "start", "--players", players)


def test_a_fifth_player_sits_down_and_the_table_goes_on(tmp_path):
    db = tmp_path / "w.db"
    start(db)
    ok(db, "deal", "samen", "8", "jan+piet", "9")  # jan dealt; piet deals next
    out = ok(db, "session", "join", "kris", "--after", "piet").stdout
    assert "#2 join kris after piet: at the table now: jan, piet, kris, mieke, lotte" in out
    doc = sheet(db)
    assert doc["seating"] == ["jan", "piet", "kris", "mieke", "lotte"]
    assert doc["dealer"] == "piet" and doc["sitting_out"] == ["piet"]  # at five the dealer sits out
    assert doc["totals"] == {"jan": 11, "piet": 11, "mieke": -11, "lotte": -11, "kris": 0}  # the totals stay
    assert "piet sits out this deal" in refused(db, "deal", "samen", "8", "piet+jan", "9")
    ok(db, "deal", "samen", "8", "kris+mieke", "9")
    doc = sheet(db)
    assert doc["entries"][2]["points"] == {"jan": -11, "kris": 11, "mieke": 11, "lotte": -11}
    assert doc["dealer"] == "kris" and doc["sitting_out"] == ["kris"]
    text = ok(db, "sheet").stdout
    assert "join kris after piet" in text
    ok(db, "check")


def test_a_player_gets_up_and_the_next_one_deals(tmp_path):
    db = tmp_path / "w.db"
    start(db, "jan,piet,mieke,lotte,kris")  # five: jan deals first and sits out
    ok(db, "deal", "alleen", "5", "mieke", "6")  # piet deals next
    ok(db, "session", "leave", "piet")  # he was to deal: mieke, the next in the seat order, deals
    doc = sheet(db)
    assert doc["seating"] == ["jan", "mieke", "lotte", "kris"] and doc["dealer"] == "mieke"
    assert doc["sitting_out"] == []
    ok(db, "deal", "samen", "8", "jan+mieke", "9")
    assert sheet(db)["entries"][-1]["points"] == {"jan": 11, "mieke": 11, "lotte": -11, "kris": -11}
    # piet's points stay on the sheet and in the totals
    assert sheet(db)["totals"]["piet"] == -4
    settle = json.loads(ok(db, "settle", "--json").stdout)
    assert "piet" in settle["totals"] and sum(settle["totals"].values()) == 0
    ok(db, "check")


def test_refusals_write_nothing(tmp_path):
    db = tmp_path / "w.db"
    start(db)
    before = ok(db, "sheet", "--json").stdout
    assert "at least 4 players" in refused(db, "session", "leave", "jan")
    assert "sits at this table already" in refused(db, "session", "join", "Jan")
    assert "usable player name" in refused(db, "session", "join", "9lives")
    assert "no player 'zz'" in refused(db, "session", "join", "kris", "--after", "zz")
    ok(db, "session", "join", "kris")
    ok(db, "session", "join", "anna")
    assert "at most 6 players" in refused(db, "session", "join", "bert")
    assert ok(db, "sheet", "--json").stdout != before  # (the two joins)
    n = len(sheet(db)["entries"])
    refused(db, "session", "join", "bert")
    assert len(sheet(db)["entries"]) == n
    assert "is not amended" in refused(db, "amend", "1", "samen", "8", "jan+piet", "9")


def test_a_player_at_another_open_table_cannot_join(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--table", "1")
    ok(db, "session", "start", "--players", "an,bob,cas,dirk", "--table", "2")
    line = refused(db, "session", "join", "bob", "--table", "1")
    assert "sits at another open table" in line and "2: an, bob, cas, dirk" in line
    ok(db, "session", "join", "kris", "--table", "1")
    assert sheet_of(db, "1")["seating"] == ["jan", "piet", "mieke", "lotte", "kris"]


def sheet_of(db, table):
    return json.loads(ok(db, "sheet", "--json", "--table", table).stdout)


def test_undo_and_amend_across_a_join(tmp_path):
    db = tmp_path / "w.db"
    start(db)
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "join", "kris")
    ok(db, "undo")  # the join was the last entry: undone, the table has four again
    assert sheet(db)["seating"] == ["jan", "piet", "mieke", "lotte"] and sheet(db)["sitting_out"] == []
    ok(db, "session", "join", "kris")
    ok(db, "deal", "samen", "8", "kris+mieke", "9")  # piet deals, sits out
    ok(db, "amend", "1", "samen", "8", "jan+piet", "8", "--reason", "recounted")  # 8 each, not 11
    doc = sheet(db)
    assert doc["totals"] == {"jan": -3, "piet": 8, "mieke": 3, "lotte": -19, "kris": 11}
    ok(db, "check")


def test_the_record_carries_joins_and_check_holds_them(tmp_path):
    db = tmp_path / "w.db"
    start(db)
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "join", "kris", "--after", "jan")
    ok(db, "deal", "samen", "8", "kris+mieke", "9")
    ok(db, "session", "leave", "lotte")
    out = json.loads(ok(db, "session", "end", "--json").stdout)
    export = tmp_path / "x.json"
    ok(db, "export", "-o", export)
    doc = json.loads(export.read_text())
    assert doc["sessions"][0]["players"] == ["jan", "piet", "mieke", "lotte"]  # kris comes with his join
    other = tmp_path / "other.db"
    ok(other, "import", export)
    ok(other, "check", "--seal", out["seal"])  # the same history, the same seal
    assert sheet(other)["totals"] == sheet(db)["totals"]
    broken = tmp_path / "broken.db"
    shutil.copy(db, broken)
    conn = sqlite3.connect(broken)  # a hand edit behind the tool's back (its guards dropped)
    conn.execute("DROP TRIGGER seats_no_update")
    conn.execute("UPDATE seats SET seat = 101 WHERE seat = 100")
    conn.commit()
    conn.close()
    r = wz(broken, "check")
    assert r.exit_code == 1 and "the seats of the players who joined" in r.output


def test_the_words_players_say_at_the_prompt_and_in_a_file(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "avond.txt"
    f.write_text("players jan piet mieke lotte\nsamen 8 jan+piet 9\nkris schuift aan na piet\n"
                 "samen 8 kris+mieke 9\njan stopt\n", encoding="utf-8")
    ok(db, "replay", f)
    doc = sheet(db)
    assert [e["text"] for e in doc["entries"]][1:] == ["join kris after piet", "samen 8 kris+mieke 9", "leave jan"]
    db2 = tmp_path / "p.db"
    r = wz(db2, "play", input="players jan piet mieke lotte\njoin kris after piet\nleave kris\nquit\n")
    assert r.exit_code == 0, r.output
    assert [e["kind"] for e in sheet(db2)["entries"]] == ["join", "leave"]
    nl = wz(db2, "--lang", "nl", "sheet").output
    assert "kris schuift aan na piet" in nl and "kris stopt" in nl


def test_the_phone_seats_and_unseats_as_the_prompt_does(tmp_path):
    from _ledger_helpers import copy_ledger

    from wiezen_score.web.scorer import Scorer

    first = tmp_path / "play.db"
    start(first)
    second = copy_ledger(first, tmp_path / "phone.db")
    lines = ["s 8 j+p 9", "kris schuift aan na piet", "s 8 kris+mieke 9", "leave lotte"]
    assert wz(first, "play", input="\n".join(lines) + "\n").exit_code == 0
    scorer = Scorer(str(second))
    for line in lines:
        answer = dict(scorer.answer("entry", line))
        assert answer["ok"], (line, answer)
    assert sheet(second) == sheet(first)
    assert sheet(second)["seating"] == ["jan", "piet", "kris", "mieke"]


def test_a_longer_players_line_says_how_to_seat_the_newcomer(tmp_path):
    db = tmp_path / "w.db"
    r = wz(db, "--lang", "nl", "play", input="spelers jan piet mieke lotte\nspelers jan piet mieke lotte kris\nquit\n")
    assert "om te veranderen wie aan deze tafel zit, typ 'kris schuift aan' (join kris)" in r.output
    assert [e["kind"] for e in sheet(db)["entries"]] == []  # nothing written, the session still open
    assert json.loads(ok(db, "sessions", "--json").stdout)[0]["open"] is True


def test_a_void_table_of_a_night_plays_on_in_the_next_round(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "night", "start", "--players", "an,bert,carla,dirk,eva,frans,greet,hans", "--seed", "7")
    first = {t["table"]: t["players"] for t in json.loads(ok(db, "night", "show", "--json").stdout)["tables"]}
    for table, players in first.items():
        ok(db, "deal", "alleen", "5", players[1], "6", "--table", str(table))
    ok(db, "session", "void", "1", "--reason", "wrong table", "--force")
    r = wz(db, "night", "next")
    assert r.exit_code == 0, r.output
    seated = {p for t in json.loads(ok(db, "night", "show", "--json").stdout)["tables"] for p in t["players"]}
    assert seated == {"an", "bert", "carla", "dirk", "eva", "frans", "greet", "hans"}
    assert "seated last" in r.output and all(p in r.output for p in first[1])
