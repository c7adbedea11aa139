"""`wiezen session void ID --reason TEXT`: a session started by mistake counts nowhere (standings, competitions),
stays in the ledger with its entries and seal, is shown as void, travels with export/import, and is held to the
chain like any other fact. Points by hand: see tests/core/test_competition_file.py's docstring (the season E1..E4)."""

from __future__ import annotations

import json
import sqlite3

from _competition_helpers import comp
from _ledger_helpers import ok, refused, wz


def _by_date(db) -> dict[str, int]:
    return {s["date"]: s["id"] for s in json.loads(ok(db, "sessions", "--json").stdout)}


def test_a_void_evening_counts_in_no_ranking(season, tmp_path):
    e4 = _by_date(season)["2026-09-26"]
    ok(season, "session", "void", e4, "--reason", "played with the wrong cards")
    doc = json.loads(ok(season, "standings", "--competition", comp(tmp_path), "--format", "json").stdout)
    # without E4: a [8, 11, -8] = 11, b [8, -11, 8] = 5, c [-8, 11] = 3, d [-8, 8] = 0, e [-11, -8] = -19
    assert [(d["rank"], d["player"], d["score"]) for d in doc["players"]] == [
        (1, "a", 11), (2, "b", 5), (3, "c", 3), (4, "d", 0), (5, "e", -19)]
    plain = {r["player"]: r for r in json.loads(ok(season, "standings", "--format", "json").stdout)}
    # every session but E4 (E5 untagged: a +11, b +11, c -11, d -11; E6: d +11, c +11, a -11, b -11)
    assert {p: r["points"] for p, r in plain.items()} == {"a": 11, "b": 5, "c": 3, "d": 0, "e": -19}
    assert plain["e"]["evenings"] == 2


def test_shown_as_void_and_kept_with_its_seal(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "end")
    seal = json.loads(ok(db, "sheet", "--json").stdout)["session"]["seal"]
    out = ok(db, "session", "void", "1", "--reason", "a test").stdout
    assert "session 1 is void" in out
    listed = json.loads(ok(db, "sessions", "--json").stdout)
    assert listed[0]["void"] == "a test" and listed[0]["deals"] == 1  # the deal stays recorded
    assert "(void: a test)" in ok(db, "sessions").stdout
    sheet = json.loads(ok(db, "sheet", "--json").stdout)
    assert sheet["session"]["void"] == "a test" and sheet["session"]["seal"] == seal  # the seal does not change
    assert "Void: this session counts nowhere (a test)." in ok(db, "sheet").stdout
    ok(db, "check", "--seal", seal)
    assert json.loads(ok(db, "standings", "--format", "json").stdout) == []
    assert "(ongeldig: a test)" in ok(db, "--lang", "nl", "sessions").stdout


def test_refusals_write_nothing(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    before = ok(db, "sessions", "--json").stdout
    assert "is open" in refused(db, "session", "void", "1", "--reason", "oops") and "--force" in refused(
        db, "session", "void", "1", "--reason", "oops")
    assert "--reason" in refused(db, "session", "void", "1", "--reason", "  ", "--force")
    assert "no session 7" in refused(db, "session", "void", "7", "--reason", "x")
    assert ok(db, "sessions", "--json").stdout == before
    out = ok(db, "session", "void", "1", "--reason", "nobody came", "--force").stdout
    assert "session 1 ended. seal: " in out
    doc = json.loads(ok(db, "sheet", "--json").stdout)["session"]
    assert doc["open"] is False and doc["seal"] and doc["void"] == "nobody came"
    assert "void already (nobody came)" in refused(db, "session", "void", "1", "--reason", "again")
    ok(db, "check")


def test_export_import_carry_the_void_and_check_holds_it(tmp_path):
    a = tmp_path / "a.db"
    ok(a, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(a, "session", "end")
    early = tmp_path / "early.json"
    ok(a, "export", "-o", early)
    ok(a, "session", "void", "1", "--reason", "a test")
    late = tmp_path / "late.json"
    ok(a, "export", "-o", late)
    assert json.loads(late.read_text())["sessions"][0]["void"]["reason"] == "a test"
    b = tmp_path / "b.db"
    ok(b, "import", early)
    assert "1 void session" in ok(b, "import", late).stdout  # the void comes after the session
    assert json.loads(ok(b, "sessions", "--json").stdout)[0]["void"] == "a test"
    ok(b, "check")
    doc = json.loads(late.read_text())
    doc["sessions"][0]["void"]["reason"] = "another"
    other = tmp_path / "other.json"
    other.write_text(json.dumps(doc))
    assert "voided here for another reason" in refused(b, "import", other)
    doc["sessions"][0]["void"] = {"reason": ""}
    other.write_text(json.dumps(doc))
    assert '"void" must be null' in refused(tmp_path / "c.db", "import", other)
    conn = sqlite3.connect(b)
    conn.execute("UPDATE session_voids SET reason = 'hidden'")
    conn.commit()
    conn.close()
    r = wz(b, "check")
    assert r.exit_code == 1 and "the void of session 1" in r.output


def test_an_evening_settles_without_its_void_sessions(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")  # jan, piet +11; mieke, lotte -11
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "alleen", "5", "lotte", "6")  # a test that counts nowhere: lotte +12, the others -4
    ok(db, "session", "void", "2", "--reason", "a test", "--force")
    r = wz(db, "settle", "--date", "today", "--json")
    assert r.exit_code == 0 and "left out, void: 2 (a test)" in r.stderr
    doc = json.loads(r.stdout)
    assert doc["sessions"] == [1] and doc["totals"] == {"jan": 11, "piet": 11, "mieke": -11, "lotte": -11}
    assert "is void (a test)" in refused(db, "settle", "--session", "1,2")
    assert "is void (a test)" in refused(db, "settle", "--session", "2")
    text = ok(db, "sheet", "--date", "today").stdout
    assert text.strip().splitlines()[-1] == "the evening (1 session): jan +11, piet +11, mieke -11, lotte -11"


def test_a_join_undone_or_without_a_deal_counts_nowhere(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "join", "kris")
    ok(db, "undo")
    ok(db, "session", "join", "anna")
    ok(db, "session", "leave", "anna")
    ok(db, "session", "end")
    players = {r["player"] for r in json.loads(ok(db, "standings", "--format", "json").stdout)}
    assert players == {"jan", "piet", "mieke", "lotte"}


def test_players_figures_leave_out_a_void_session(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "jan,piet,mieke,kris")
    ok(db, "deal", "samen", "8", "jan+kris", "9")
    ok(db, "session", "void", "2", "--reason", "a test", "--force")
    people = {d["player"]: d for d in json.loads(ok(db, "players", "--json").stdout)}
    assert (people["jan"]["sessions"], people["jan"]["deals"], people["jan"]["points"]) == (1, 1, 11)
    assert people["kris"]["sessions"] == 0 and people["kris"]["evenings"] == 0
