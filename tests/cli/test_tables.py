"""A club night in one ledger: several open sessions, one per table; commands choose theirs with --table or
$WIEZEN_TABLE; with one table open nothing changes; a player sits at one open table; a table at one session."""

from __future__ import annotations

import csv
import io
import json

import pytest
from _ledger_helpers import dump, ok, refused, sheet, wz

TABLE1 = "an,bert,carla,dirk"
TABLE2 = "eva,frans,greet,hans"


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", TABLE1, "--table", "1", "--name", "Clubavond")
    ok(db, "session", "start", "--players", TABLE2, "--table", "2", "--name", "Clubavond")
    return db


def test_each_table_records_its_own_deals(night):
    ok(night, "deal", "--table", "1", "samen", "8", "an+bert", "9")
    ok(night, "deal", "samen", "8", "eva+frans", "7", "--table", "2")
    ok(night, "pass", "--table", "2")
    ok(night, "undo", "--table", "2")
    one, two = sheet(night, "--table", "1"), sheet(night, "--table", "2")
    assert [e["text"] for e in one["entries"]] == ["samen 8 an+bert 9"]
    assert [(e["text"], e["voided"]) for e in two["entries"]] == [("samen 8 eva+frans 7", False), ("pas", True)]
    assert one["session"]["players"] == TABLE1.split(",") and two["session"]["players"] == TABLE2.split(",")


def test_wiezen_table_chooses_for_a_terminal(night):
    from click.testing import CliRunner

    from wiezen_score.cli import cli

    r = CliRunner().invoke(cli, ["--db", str(night), "deal", "samen", "8", "eva+frans", "9"], env={"WIEZEN_TABLE": "2"})
    assert r.exit_code == 0, r.output
    assert [e["text"] for e in sheet(night, "--table", "2")["entries"]] == ["samen 8 eva+frans 9"]
    assert sheet(night, "--table", "1")["entries"] == []


@pytest.mark.parametrize("args", [["deal", "samen", "8", "an+bert", "9"], ["pass"], ["undo"], ["session", "end"],
                                  ["explain", "1"], ["settle"]])
def test_with_several_open_a_command_without_a_table_is_refused_and_writes_nothing(night, args):
    before = dump(night)
    msg = refused(night, *args)
    assert "2 tables are open (1: an, bert, carla, dirk; 2: eva, frans, greet, hans): choose one with --table" in msg
    assert dump(night) == before


def test_sheet_without_a_table_shows_each_open_table(night):
    ok(night, "deal", "--table", "2", "samen", "8", "eva+frans", "9")
    out = ok(night, "sheet").stdout
    assert "table 1:" in out and "table 2:" in out and out.index("table 1:") < out.index("samen 8 eva+frans 9")
    docs = json.loads(ok(night, "sheet", "--json").stdout)
    assert [d["table"] for d in docs] == [1, 2]
    rows = list(csv.reader(io.StringIO(ok(night, "sheet", "--csv").stdout)))
    assert rows[0][8:] == TABLE1.split(",") + TABLE2.split(",")
    assert rows[1][0] == "2" and rows[1][8:12] == ["", "", "", ""] and rows[1][12:] == ["11", "11", "-11", "-11"]


@pytest.mark.parametrize("players, table, words", [
    ("an,x,y,z", "3", ["an sits at table 1 (session 1)", "one open table at a time"]),
    ("p,q,r,s", "2", ["table 2 is in use by session 2 (eva, frans, greet, hans)"]),
    ("p,q,r,s", None, ["tables 1, 2 are open", "--table N"]),
])
def test_a_player_at_two_tables_or_a_table_in_use_is_refused(night, players, table, words):
    before = dump(night)
    msg = refused(night, "session", "start", "--players", players, *(["--table", table] if table else []))
    assert all(w in msg for w in words), msg
    assert dump(night) == before


def test_a_table_beside_an_evening_without_one_is_refused(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", TABLE1)
    msg = refused(db, "session", "start", "--players", TABLE2, "--table", "2")
    assert "is open without a table: end it first, or start every table of the night with --table" in msg


def test_with_one_table_open_nothing_changes(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", TABLE1, "--table", "1")
    ok(db, "deal", "samen", "8", "an+bert", "9")  # no --table needed: the one open session
    assert len(sheet(db)["entries"]) == 1
    msg = refused(db, "deal", "--table", "3", "samen", "8", "an+bert", "9")
    assert "no open session at table 3 (open tables: 1)" in msg


def test_play_scores_one_table(night):
    r = wz(night, "play", "--table", "2", input="s 8 e+f 9\nquit\n")
    assert r.exit_code == 0, r.output
    assert [e["text"] for e in sheet(night, "--table", "2")["entries"]] == ["samen 8 eva+frans 9"]
    r = wz(night, "play", "--table", "5", input="players kris lien mark nora\ns 8 k+l 9\nquit\n")
    assert r.exit_code == 0, r.output
    assert sheet(night, "--table", "5")["session"]["players"] == ["kris", "lien", "mark", "nora"]


def test_a_table_is_free_again_when_its_session_ends(night):
    ok(night, "session", "end", "--table", "2")
    ok(night, "session", "start", "--players", "greet,hans,eva,frans", "--table", "2", "--round", "2")
    assert sheet(night, "--table", "2")["session"]["players"] == ["greet", "hans", "eva", "frans"]


def test_in_dutch(night):
    r = wz(night, "--lang", "nl", "deal", "s", "8", "a+b", "9")
    assert r.exit_code == 1
    assert r.stderr.strip() == ("Fout: er zijn 2 tafels open (1: an, bert, carla, dirk; 2: eva, frans, greet, hans): kies "
                                "er een met --table (of $WIEZEN_TABLE)")
