"""An evening of several sessions (a player joined, the table started again): `settle --date DATE`,
`settle --session 1,3` and `sheet --date DATE` net and show them as one evening."""

import csv
import io
import json

from test_deal_words import error, ok, run


def _two_sessions(db, second_players="jan,piet,mieke,lotte", second_deal=("samen", "8", "mieke+lotte", "9")):
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", second_players)
    ok(db, "deal", *second_deal)
    ok(db, "session", "end")


def _settle(db, *args):
    return json.loads(ok(db, "settle", *args, "--json").stdout)


def test_mirrored_sessions_are_all_square_as_one_evening(tmp_path):
    db = tmp_path / "w.db"
    _two_sessions(db)  # the same contract, made by the other pair: the evening nets to nothing
    assert _settle(db, "--session", "1")["payments"] and _settle(db, "--session", "2")["payments"]
    for args in (("--date", "today"), ("--session", "1,2"), ("--session", "today")):
        doc = _settle(db, *args)
        assert doc["sessions"] == [1, 2] and doc["session"] is None
        assert doc["payments"] == [] and set(doc["totals"].values()) == {0}
    assert "all square" in ok(db, "settle", "--date", "today").stdout


def test_the_evening_nets_in_fewer_payments_than_its_parts(tmp_path):
    db = tmp_path / "w.db"
    _two_sessions(db, "jan,piet,mieke,lotte,kris", ("abondance", "9", "kris", "9"))
    sheets = [json.loads(ok(db, "sheet", "--session", str(i), "--json").stdout) for i in (1, 2)]
    expected: dict[str, float] = {}
    for d in sheets:
        for p, v in d["totals"].items():
            expected[p] = expected.get(p, 0) + v
    doc = _settle(db, "--date", "today", "--cents", "10")
    assert doc["totals"] == expected and sum(expected.values()) == 0
    net = dict.fromkeys(expected, 0)
    for pay in doc["payments"]:  # the payments move exactly each player's evening total
        net[pay["from"]] -= pay["points"]
        net[pay["to"]] += pay["points"]
        assert pay["cents"] == pay["points"] * 10
    assert net == expected
    apart = len(_settle(db, "--session", "1")["payments"]) + len(_settle(db, "--session", "2")["payments"])
    assert len(doc["payments"]) < apart and len(doc["payments"]) <= len(expected) - 1
    text = ok(db, "settle", "--session", "1,2").stdout
    assert text.splitlines()[0].startswith("sessions 1, 2, settled together: ")
    nl = run(db, "--lang", "nl", "settle", "--date", "vandaag", "--cents", "5").stdout
    assert nl.splitlines()[0].startswith("sessies 1, 2, samen verrekend: ") and "aan 5 cent per punt" in nl


def test_sheet_of_an_evening_shows_each_session_and_the_evenings_totals(tmp_path):
    db = tmp_path / "w.db"
    _two_sessions(db, "jan,piet,mieke,lotte,kris", ("abondance", "9", "kris", "9"))
    one = [json.loads(ok(db, "sheet", "--session", str(i), "--json").stdout) for i in (1, 2)]
    docs = json.loads(ok(db, "sheet", "--date", "today", "--json").stdout)
    assert docs == one  # the same documents, in the order played
    text = ok(db, "sheet", "--date", "today").stdout
    assert "session 1: " in text and "session 2: " in text
    last = text.strip().splitlines()[-1]
    assert last.startswith("the evening (2 sessions): jan ")
    for p, v in {p: one[0]["totals"].get(p, 0) + one[1]["totals"][p] for p in one[1]["totals"]}.items():
        assert f"{p} {v:+d}" in last or (v == 0 and f"{p} 0" in last)
    rows = list(csv.DictReader(io.StringIO(ok(db, "sheet", "--session", "1,2", "--csv").stdout)))
    assert [r["session"] for r in rows] == ["1", "2"]
    assert rows[0]["kris"] == "" and rows[1]["jan"] == ""  # kris did not sit in session 1; jan dealt and sat out
    assert "give --session ID" in error(db, "sheet", "--date", "today", "--format", "html")


def test_one_session_commands_refuse_a_list(tmp_path):
    db = tmp_path / "w.db"
    _two_sessions(db)
    line = error(db, "explain", "1", "--session", "1,2")
    assert "--session 1,2" in line and "one session" in line
    assert "no session with that number" in error(db, "settle", "--session", "1,0")
    assert "2 sessions on" in error(db, "explain", "1", "--date", "today")  # explain names the sessions
