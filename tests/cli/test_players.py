"""`wiezen players`, `players rename|merge|split`: one person, one name, counted once; nothing recorded changes."""

from __future__ import annotations

import json
import sqlite3

import pytest
from _ledger_helpers import dump, ok, refused, sheet, start


def play(db, players, date, *deals):
    start(db, players, "whisthub", "--date", date)
    for d in deals:
        ok(db, "deal", *d.split())
    ok(db, "session", "end")


@pytest.fixture
def db(tmp_path):
    """Rene on one evening, rené (the same man, typed otherwise) on another; jan at both tables."""
    db = tmp_path / "club.db"
    play(db, ["Rene", "jan", "piet", "mieke"], "2026-11-06", "samen 8 rene+jan 9", "alleen 5 piet 4")
    play(db, ["rené", "jan", "an", "bert"], "2026-11-13", "abondance 9 rené 9", "samen 8 an+bert 8")
    return db


def standings(db, *args):
    return {d["player"]: d for d in json.loads(ok(db, "standings", "--json", *args).stdout)}


def players(db):
    return {d["player"]: d for d in json.loads(ok(db, "players", "--json").stdout)}


def recorded(db):
    """The recorded history: players, sessions, seats, entries, points, voids, seals, and the chain last."""
    conn = sqlite3.connect(str(db))
    try:
        return [conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
                for t in ("players", "sessions", "seats", "entries", "entry_points", "voids", "seals", "chain")]
    finally:
        conn.close()


def sheet_totals(db, name):
    """A player's points over every session, from the sheets (which never go through the players' facts)."""
    return sum(sheet(db, "--session", s)["totals"].get(name, 0) for s in (1, 2))


def test_merge_counts_one_player_in_the_standings(db):
    before = standings(db)
    assert "Rene" in before and "rené" in before
    out = ok(db, "players", "merge", "Rene", "rené").stdout
    assert "rené" in out and "Rene" in out
    after = standings(db)
    assert "rené" not in after
    rene = after["Rene"]
    assert rene["points"] == sheet_totals(db, "Rene") + sheet_totals(db, "rené") == before["Rene"]["points"] + before["rené"]["points"]
    assert (rene["evenings"], rene["sessions"]) == (2, 2)
    assert rene["deals"] == before["Rene"]["deals"] + before["rené"]["deals"] == 4
    assert {k: v for k, v in after["jan"].items() if k != "rank"} == {k: v for k, v in before["jan"].items() if k != "rank"}
    assert len(after) == len(before) - 1


def test_players_lists_each_person_with_his_names(db):
    ps = players(db)
    assert ps["Rene"]["names"] == [] and ps["rené"]["evenings"] == 1
    ok(db, "players", "merge", "Rene", "rené")
    ps = players(db)
    assert set(ps) == {"Rene", "jan", "piet", "mieke", "an", "bert"}
    rene = ps["Rene"]
    assert rene["names"] == ["rené"]
    assert (rene["evenings"], rene["sessions"], rene["deals"]) == (2, 2, 4)
    assert (rene["first"], rene["last"]) == ("2026-11-06", "2026-11-13")
    assert rene["points"] == sheet_totals(db, "Rene") + sheet_totals(db, "rené")
    assert ps["jan"]["evenings"] == 2 and ps["jan"]["names"] == []
    text = ok(db, "players").stdout
    assert "rené" in text and text.count("Rene") == 1


def test_nothing_recorded_changes_and_the_seals_hold(db):
    seals = [sheet(db, "--session", s)["session"]["seal"] for s in (1, 2)]
    before = recorded(db)
    ok(db, "players", "merge", "Rene", "rené")
    ok(db, "players", "rename", "Rene", "René")
    after = recorded(db)
    assert after[:-1] == before[:-1]
    chain_before, chain_after = before[-1], after[-1]
    assert chain_after[:len(chain_before)] == chain_before  # the chain only grew: one link for each fact said
    assert [link[1] for link in chain_after[len(chain_before):]] == ["people", "people"]
    assert sheet(db, "--session", 2)["session"]["players"][0] == "rené"  # the sheet keeps the name as recorded
    for s, seal in zip((1, 2), seals, strict=True):
        ok(db, "check", "--session", s, "--seal", seal)
    ok(db, "check")


def test_split_undoes_the_merge(db):
    before = standings(db)
    ok(db, "players", "merge", "Rene", "rené")
    out = ok(db, "players", "split", "Rene", "rené").stdout
    assert "rené" in out
    assert standings(db) == before


def test_rename_then_a_table_types_the_new_name(db):
    ok(db, "players", "rename", "jan", "Johan")
    st = standings(db)
    assert "jan" not in st and st["Johan"]["evenings"] == 2
    play(db, ["Johan", "piet", "an", "bert"], "2026-11-20", "samen 8 johan+piet 9")
    assert sheet(db, "--session", 3)["session"]["players"][0] == "Johan"
    st = standings(db)
    assert st["Johan"]["evenings"] == 3 and st["Johan"]["sessions"] == 3
    assert sheet(db, "--session", 1)["session"]["players"][1] == "jan"


def test_a_competition_counts_a_merged_player_once(db, tmp_path):
    comp = tmp_path / "c.toml"
    comp.write_text('name = "Seizoen"\nmin_evenings = 2\n', encoding="utf-8")

    def ranked():
        doc = json.loads(ok(db, "standings", "--competition", comp, "--format", "json").stdout)
        return {d["player"]: d for d in doc["players"]}

    before = ranked()
    assert before["Rene"]["rank"] is None and before["rené"]["rank"] is None  # one evening each: unranked
    ok(db, "players", "merge", "Rene", "rené")
    after = ranked()
    assert "rené" not in after
    assert after["Rene"]["rank"] is not None and after["Rene"]["evenings"] == 2
    assert after["Rene"]["score"] == before["Rene"]["score"] + before["rené"]["score"]


@pytest.mark.parametrize(("args", "words"), [
    (["merge", "Rene", "Rene"], "himself"),
    (["merge", "rené", "RENÉ"], "himself"),
    (["merge", "Rene", "jan"], "same table"),
    (["merge", "Rene", "renee"], "did you mean"),
    (["merge", "nobody", "Rene"], "no player 'nobody'"),
    (["rename", "jan", "piet"], "another player"),
    (["split", "Rene", "rené"], "nothing to split"),
    (["rename", "jan", "jаn"], "Cyrillic"),  # refused: it would look like jan
])
def test_bad_input_is_one_line_and_writes_nothing(db, args, words):
    before = dump(db)
    line = refused(db, "players", *args)
    assert words in line
    assert dump(db) == before


def test_merge_after_merge_into_himself_is_refused(db):
    ok(db, "players", "merge", "Rene", "rené")
    before = dump(db)
    assert "himself" in refused(db, "players", "merge", "Rene", "rené")
    assert dump(db) == before


def test_a_night_seats_and_ranks_a_merged_player_once(tmp_path):
    db = tmp_path / "night.db"
    play(db, ["rené", "x1", "x2", "x3"], "2026-11-06", "samen 8 rené+x1 9")
    ok(db, "night", "start", "--players", "Rene,an,bert,carla,dirk,eva,frans,greet", "--seed", "3", "--date", "2026-11-13")
    ok(db, "players", "merge", "Rene", "rené")
    night = json.loads(ok(db, "night", "show", "--json").stdout)
    table = next(t for t in night["tables"] if "Rene" in t["players"])["table"]
    ok(db, "deal", "--table", table, "abondance", "9", "rene", "9")
    ok(db, "night", "next", "--force")  # (the other table has no deal)
    doc = json.loads(ok(db, "night", "show", "--json").stdout)
    names = [r["player"] for r in doc["ranking"]]
    assert names.count("Rene") == 1 and "rené" not in names
    seated = [p for t in doc["tables"] if t["open"] for p in t["players"]]
    assert seated.count("Rene") == 1 and len(seated) == 8
    assert doc["ranking"][0]["player"] == "Rene"  # the abondance made: best of the night, at table 1
    assert "Rene" in next(t for t in doc["tables"] if t["open"] and t["table"] == 1)["players"]
    st = standings(db)
    assert "rené" not in st and st["Rene"]["evenings"] == 2


def test_seating_by_standing_knows_a_merged_name(db, tmp_path):
    comp = tmp_path / "c.toml"
    comp.write_text('name = "Seizoen"\n', encoding="utf-8")
    ok(db, "players", "merge", "Rene", "rené")
    ranking = [d["player"] for d in json.loads(ok(db, "standings", "--competition", comp, "--format", "json").stdout)["players"]]
    typed = ["rené", "jan", "piet", "mieke", "an", "bert", "x1", "x2"]  # rené as one laptop typed him
    doc = json.loads(ok(db, "seating", "--competition", comp, "--players", ",".join(typed), "--round", "2", "--json").stdout)
    seated = [p for t in doc["tables"] for p in t["players"]]
    assert "Rene" in seated and "rené" not in seated and len(seated) == 8
    known = [p for p in ranking if p in seated]
    assert seated[:len(known)] == known  # the ranked ones first, in the ranking's order; Rene among them
