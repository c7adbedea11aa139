"""`wiezen night start --rounds N`: the night's length kept, shown, and `night next` after the last round refused."""

from __future__ import annotations

import json

from _ledger_helpers import dump, ok, refused, wz

EIGHT = "an,bert,carla,dirk,eva,frans,greet,hans"


def show(db):
    return json.loads(ok(db, "night", "show", "--json").stdout)


def test_rounds_are_kept_and_the_last_round_has_no_next(tmp_path):
    db = tmp_path / "n.db"
    r = ok(db, "night", "start", "--players", EIGHT, "--seed", "7", "--rounds", "2")
    assert r.stdout.startswith("round 1 of 2 ")
    doc = show(db)
    assert doc["night"]["rounds"] == 2 and doc["night"]["round"] == 1 and doc["next"] is not None
    assert "round 1 of 2" in ok(db, "night", "show").stdout
    ok(db, "night", "next", "--force")
    doc = show(db)
    assert (doc["night"]["round"], doc["night"]["rounds"], doc["next"]) == (2, 2, None)
    before = dump(db)
    line = refused(db, "night", "next", "--force")
    assert "2 rounds" in line and "night end" in line
    assert dump(db) == before
    ok(db, "night", "end", "--force")
    assert show(db)["night"]["rounds"] == 2


def test_without_rounds_the_night_goes_on(tmp_path):
    db = tmp_path / "n.db"
    ok(db, "night", "start", "--players", EIGHT, "--seed", "7")
    assert show(db)["night"]["rounds"] is None
    for _ in range(3):
        ok(db, "night", "next", "--force")
    assert show(db)["night"]["round"] == 4


def test_rounds_must_be_a_positive_number(tmp_path):
    db = tmp_path / "n.db"
    for bad in ("0", "x", "-1"):
        r = wz(db, "night", "start", "--players", EIGHT, "--rounds", bad)
        assert r.exit_code == 2 and "--rounds" in r.stderr
    assert not db.exists()
