"""`wiezen seating`: tables of 4 to 6 for 8 to 26 players, round 1 drawn reproducibly, later rounds by
standing, a night ranked across its tables, and the final table."""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import ok, refused

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.seating import by_standing, draw, final_table, table_sizes

NAMES = [f"p{i:02d}" for i in range(1, 27)]


@pytest.mark.parametrize("n", range(8, 27))
def test_every_player_seated_once_at_tables_of_four_to_six(n):
    players = NAMES[:n]
    for tables in (draw(players, seed=n), by_standing(players)):
        seated = [p for t in tables for p in t]
        assert sorted(seated) == sorted(players)  # each exactly once
        assert all(4 <= len(t) <= 6 for t in tables)
        assert len(tables) == n // 4  # as many tables as four fit: five or six only where the count demands
    # by standing: the best at the first table, in order
    tables = by_standing(players)
    assert [p for t in tables for p in t] == players
    if n % 4 == 0 or n % 4 <= len(tables) - 1:
        assert tables[0] == players[:4]  # the best four at table 1


def test_sizes_and_impossible_counts():
    assert table_sizes(8) == [4, 4]
    assert table_sizes(9) == [4, 5]
    assert table_sizes(10) == [5, 5]
    assert table_sizes(11) == [5, 6]
    assert table_sizes(13) == [4, 4, 5]
    assert table_sizes(26) == [4, 4, 4, 4, 5, 5]
    assert table_sizes(5) == [5]
    for n in (3, 7):
        with pytest.raises(WiezenError, match="cannot be seated"):
            table_sizes(n)
    with pytest.raises(WiezenError, match="twice"):
        draw(["a", "b", "c", "A"], 1)


def test_draw_is_reproducible_and_random():
    a = draw(NAMES[:16], seed=42)
    assert draw(list(reversed(NAMES[:16])), seed=42) == a  # the order typed does not matter
    assert any(draw(NAMES[:16], seed=s) != a for s in range(1, 5))
    assert a != by_standing(NAMES[:16])


def test_final_table():
    seated = final_table(["c", "a", "c"], ["a", "b", "c", "d", "e"], 4)
    assert [d["player"] for d in seated] == ["a", "c", "b", "d"]
    assert seated[1]["why"] == "won rounds 1, 3"
    assert seated[2]["why"] == "placed 2 in the ranking"


NIGHT = 'name = "Gesves"\ntag = "gesves"\nscore = "placement"\nplacement = [90, 60, 30, 0]\ntiebreak = ["points"]\n'


@pytest.fixture
def night(tmp_path):
    """Round 1 of a night of 8 (tables as the draw gave them), by hand:
    table 1 a b c d: samen 8 a+b 9                a +11 b +11 c -11 d -11  -> a, b 75; c, d 15
    table 2 e f g h: samen 8 e+f 8, samen 8 g+h 9 e -3 f -3 g +3 h +3      -> g, h 75; e, f 15
    """
    db = tmp_path / "night.db"
    for t, players, deals in ((1, "a b c d", ["samen 8 a+b 9"]), (2, "e f g h", ["samen 8 e+f 8", "samen 8 g+h 9"])):
        f = tmp_path / f"r1t{t}.txt"
        f.write_text(f'session "Gesves" 2026-11-27\ntag gesves\nround 1 table {t}\nplayers {players}\n'
                     + "\n".join(deals) + "\n", encoding="utf-8")
        ok(db, "replay", f)
    p = tmp_path / "gesves.toml"
    p.write_text(NIGHT, encoding="utf-8")
    return db, p


def test_round_two_by_standing(night):
    db, p = night
    doc = json.loads(ok(db, "seating", "--competition", p, "--round", "2", "--json").stdout)
    # standing: a, b (75, points 11), g, h (75, points 3), e, f (15, -3), c, d (15, -11)
    assert doc["round"] == 2
    assert doc["tables"] == [{"table": 1, "players": ["a", "b", "g", "h"]},
                             {"table": 2, "players": ["e", "f", "c", "d"]}]
    text = ok(db, "seating", "--competition", p, "--round", "2").stdout
    assert "wiezen session start --players a,b,g,h --tag gesves --round 2 --table 1" in text
    # the standing before round 2 only: a round 2 already recorded does not change it
    f = db.parent / "r2t1.txt"
    f.write_text('session "Gesves" 2026-11-27\ntag gesves\nround 2 table 1\nplayers a b g h\nsamen 8 g+h 9\n')
    ok(db, "replay", f)
    again = json.loads(ok(db, "seating", "--competition", p, "--round", "2", "--json").stdout)
    assert again["tables"] == doc["tables"]


def test_round_one_drawn_with_seed(night):
    db, p = night
    a = json.loads(ok(db, "seating", "--players", "a,b,c,d,e,f,g,h,i", "--round", "1", "--seed", "5", "--json").stdout)
    b = json.loads(ok(db, "seating", "--players", "i,h,g,f,e,d,c,b,a", "--round", "1", "--seed", "5", "--json").stdout)
    assert a == b and a["seed"] == 5
    assert sorted(p for t in a["tables"] for p in t["players"]) == list("abcdefghi")
    assert [len(t["players"]) for t in a["tables"]] == [4, 5]
    c = json.loads(ok(db, "seating", "--players", "a,b,c,d,e,f,g,h,i", "--round", "1", "--json").stdout)
    assert isinstance(c["seed"], int)  # a new seed, given so the draw can be made again


def test_night_ranked_across_tables(night):
    db, p = night
    doc = json.loads(ok(db, "standings", "--competition", p, "--night", "2026-11-27", "--format", "json").stdout)
    assert [(d["rank"], d["player"], d["score"]) for d in doc["players"]] == [
        (1, "a", 75), (1, "b", 75), (3, "g", 75), (3, "h", 75), (5, "e", 15), (5, "f", 15), (7, "c", 15), (7, "d", 15)]


def test_final_table_from_round_winners(night):
    db, p = night
    doc = json.loads(ok(db, "seating", "--competition", p, "--final", "--json").stdout)
    assert doc["final"] is True
    assert doc["tables"] == [{"table": 1, "players": ["a", "b", "g", "h"]}]
    assert doc["why"][0] == {"player": "a", "why": "won round 1"}


def test_refusals(night):
    db, p = night
    assert "--round" in refused(db, "seating", "--players", "a,b,c,d,e,f,g,h")
    assert "cannot be seated" in refused(db, "seating", "--players", "a,b,c,d,e,f,g", "--round", "1")
    assert "--competition" in refused(db, "seating", "--players", "a,b,c,d", "--final")
    assert "--seed" in refused(db, "seating", "--competition", p, "--round", "2", "--seed", "3")
