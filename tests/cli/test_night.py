"""`wiezen night start|next|show|end`: a club night of several tables in one ledger, round after round.

By hand: nine players sit at a table of four and one of five; round 2 seats the night's standing best first, so
the two who made a samen 8 with 10 tricks at table 1 (rupelstreek: 2 + 2 overtricks = 4 each) sit at table 1 of
round 2 with the two best of the rest.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import dump, ok, refused, sheet

NINE = "an,bert,carla,dirk,eva,frans,greet,hans,ilse"


def show(db, *args):
    return json.loads(ok(db, "night", "show", "--json", *args).stdout)


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "night", "start", "--players", NINE, "--seed", "7", "--name", "Clubavond", "--rules", "rupelstreek",
       "--date", "2026-11-27")
    return db


def tables_of(doc, rnd):
    return [t["players"] for t in doc["tables"] if t["round"] == rnd]


def test_round_one_is_drawn_reproducibly_at_tables_of_four_and_five(night, tmp_path):
    first = tables_of(show(night), 1)
    assert sorted(len(t) for t in first) == [4, 5] and sorted(p for t in first for p in t) == sorted(NINE.split(","))
    again = tmp_path / "again.db"
    ok(again, "night", "start", "--players", ",".join(reversed(NINE.split(","))), "--seed", "7", "--date", "2026-11-27")
    assert tables_of(show(again), 1) == first  # the same seed, the same tables, whatever order the names came in
    doc = show(night)
    assert doc["night"] == {"name": "Clubavond", "date": "2026-11-27", "round": 1, "rounds": None}
    assert [(t["table"], t["round"], t["open"], t["deals"]) for t in doc["tables"]] == [(1, 1, True, 0), (2, 1, True, 0)]


def test_next_refuses_a_table_without_a_deal_or_owing_a_doubling_and_writes_nothing(night):
    before = dump(night)
    msg = refused(night, "night", "next")
    assert "table 1 has no deal this round; table 2 has no deal this round" in msg and "--force" in msg
    assert dump(night) == before
    one, two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "10")
    ok(night, "deal", "--table", "2", "samen", "8", f"{two[1]}+{two[2]}", "8")
    ok(night, "pass", "--table", "2")  # rupelstreek: the next deal at table 2 counts double
    assert "table 2 owes a doubled deal after a rondje pas" in refused(night, "night", "next")


def test_next_seats_round_two_by_the_nights_standing(night):
    one, two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "10")  # +4 each for the two, -4 the others
    ok(night, "deal", "--table", "2", "samen", "8", f"{two[1]}+{two[2]}", "8")   # +2 each, -2 the defenders
    r = ok(night, "night", "next")
    assert "round 2 (by the night's standing, best first)" in r.stdout
    doc = show(night)
    best = [one[0], one[1], two[1], two[2]]  # +4, +4, +2, +2 (two[0] dealt at the table of five and sat out: 0)
    assert sorted(tables_of(doc, 2)[0]) == sorted(best)
    assert [d["player"] for d in doc["ranking"][:2]] == sorted(one[:2], key=str.casefold)
    assert [t["open"] for t in doc["tables"]] == [False, False, True, True]  # round 1 ended (sealed), round 2 open
    assert all(sheet(night, "--session", str(t["session"]))["session"]["seal"] for t in doc["tables"] if not t["open"])


def test_force_ends_a_round_and_says_what_was_not_there(night):
    one, _two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "9")
    r = ok(night, "night", "next", "--force")
    assert "warning: table 2 has no deal this round: seated on what was played" in r.stderr


def test_end_ends_the_last_round_and_ranks_the_night(night):
    one, two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "10")
    ok(night, "deal", "--table", "2", "samen", "8", f"{two[1]}+{two[2]}", "8")
    out = ok(night, "night", "end").stdout
    assert "the night's ranking:" in out and "next round" not in out
    doc = show(night)
    assert not any(t["open"] for t in doc["tables"]) and doc["next"] is None
    assert "no night is open" in refused(night, "night", "next")


def test_a_second_night_waits_for_the_first(night):
    assert "a night is open (Clubavond 2026-11-27)" in refused(night, "night", "start", "--players", NINE)


def test_a_nights_tables_are_one_evening_in_the_standings(night):
    one, two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "10")
    ok(night, "deal", "--table", "2", "samen", "8", f"{two[1]}+{two[2]}", "8")
    ok(night, "night", "next")
    ok(night, "night", "end", "--force")
    p = night.parent / "season.toml"
    p.write_text('name = "Seizoen"\n', encoding="utf-8")
    doc = json.loads(ok(night, "standings", "--competition", p, "--json").stdout)
    assert {d["evenings"] for d in doc["players"]} == {1}  # two rounds, one evening
    assert {d["tables"] for d in doc["players"]} == {2}


def test_plain_standings_count_a_nights_tables_as_one_evening(night):
    one, two = tables_of(show(night), 1)
    ok(night, "deal", "--table", "1", "samen", "8", f"{one[0]}+{one[1]}", "10")
    ok(night, "deal", "--table", "2", "samen", "8", f"{two[1]}+{two[2]}", "8")
    ok(night, "night", "next")
    ok(night, "night", "end", "--force")
    doc = json.loads(ok(night, "standings", "--json").stdout)
    assert {(d["evenings"], d["sessions"]) for d in doc} == {(1, 2)}  # one date, two tables
    best = next(d for d in doc if d["player"] == one[0])
    assert best["best"] == best["worst"] == best["average"] == best["points"] == 4  # one evening: its two tables
    assert "evenings" in ok(night, "standings").stdout.splitlines()[1]
