"""The season as clubs rank it: a place bonus beside the points, the ranking as it stood after a night and each
player's movement, the grid of nights, club-last:K, guests, teams, periods, each night's winner in the honours.

The hand-computed season of tests/core/test_competition_file.py (its docstring has the points of every table):

  E1 2026-09-05  a +8   b +8   c -8   d -8
  E2 2026-09-12  a +11  c +11  b -11  e -11
  E3 2026-09-19  b +8   d +8   a -8   e -8
  E4 2026-09-26  e +47  c -1   b -23  d -23
  totals: e 28, a 11, c 2, b -18, d -23
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from _competition_helpers import comp
from _ledger_helpers import dump, ok, refused, wz

from wiezen_score.core.competition import parse_competition
from wiezen_score.core.ranking import TableRow, rank


def run(db, path, *args):
    return json.loads(ok(db, "standings", "--competition", path, "--format", "json", *args).stdout)


def summary(doc, key="players"):
    return [(d["rank"], d["player"], d["score"]) for d in doc[key]]


def test_place_bonus_adds_the_places_points_to_the_points(season, tmp_path):
    # each table: 1st 90, 2nd 60, 3rd 30, 4th 0, equal points sharing their places' average, e.g. E1: a and b
    # share 1st and 2nd (75 each: 83), c and d 3rd and 4th (15 each: 7); E4: e 47 + 90, c -1 + 60, b and d -23 + 15
    doc = run(season, comp(tmp_path, 'place_bonus = [90, 60, 30, 0]\n'))
    assert summary(doc) == [(1, "a", 176), (2, "b", 162), (3, "c", 152), (4, "e", 148), (5, "d", 82)]
    assert "plus a bonus for his place" in " ".join(doc["rules"])


def test_a_placement_list_under_points_is_ignored_with_a_warning(season, tmp_path):
    r = wz(season, "standings", "--competition", comp(tmp_path, 'placement = [1000, 600, 300, 0]\n'), "--json")
    assert r.exit_code == 0, r.output
    assert "Warning:" in r.stderr and "line 5" in r.stderr and "'placement' is only used with score" in r.stderr
    assert summary(json.loads(r.stdout))[0] == (1, "e", 28)  # scored on the points, as if the line were not there


def test_movement_since_the_night_before(season, tmp_path):
    # after E3: a 11, b 5, c 3, d 0, e -19 (ranks 1 to 5); after E4: e, a, c, b, d
    doc = run(season, comp(tmp_path))
    got = {d["player"]: (d["rank"], d["previous_rank"], d["movement"]) for d in doc["players"]}
    assert got == {"e": (1, 5, "+4"), "a": (2, 1, "-1"), "c": (3, 3, "="), "b": (4, 2, "-2"), "d": (5, 4, "-1")}
    table = ok(season, "standings", "--competition", comp(tmp_path)).stdout
    assert "+4" in table and "-2" in table


@pytest.mark.parametrize("args", [["--after-night", "2"], ["--until", "2026-09-12"], ["--until", "13/09/2026"]])
def test_the_ranking_as_it_stood_after_a_night(season, tmp_path, args):
    # E1 + E2: a 19, c 3, b -3, d -8, e -11; after E1 alone a and b shared 1st, c and d 3rd, e had not played
    doc = run(season, comp(tmp_path), *args)
    assert summary(doc) == [(1, "a", 19), (2, "c", 3), (3, "b", -3), (4, "d", -8), (5, "e", -11)]
    assert [d["movement"] for d in doc["players"]] == ["=", "+1", "-2", "-1", "new"]


def test_the_grid_of_nights(season, tmp_path):
    doc = run(season, comp(tmp_path, "best = 2\n"), "--nights")
    assert doc["nights"] == ["2026-09-05", "2026-09-12", "2026-09-19", "2026-09-26"]
    b = next(p for p in doc["players"] if p["player"] == "b")
    assert b["scores"] == [8, -11, 8, -23] and b["counted"] == [True, False, True, False]
    a = next(p for p in doc["players"] if p["player"] == "a")
    assert a["scores"] == [8, 11, -8, None] and a["counted"] == [True, True, False, False]
    text = ok(season, "standings", "--competition", comp(tmp_path, "best = 2\n"), "--nights").stdout
    assert "(-11)" in text  # a night that does not count, in brackets
    rows = list(csv.reader(io.StringIO(ok(season, "standings", "--competition", comp(tmp_path), "--nights", "--csv").stdout)))
    assert rows[0] == ["rank", "player", "2026-09-05", "2026-09-12", "2026-09-19", "2026-09-26", "counted"]
    assert rows[1][:6] == ["1", "e", "", "-11", "-8", "47"]


def test_club_last_counts_a_missed_night_as_zero():
    # p: +1 on both nights; q: +2 on the first, absent on the second: equal on 2
    rows = [TableRow(1, "2026-01-01", "p", 1), TableRow(1, "2026-01-01", "q", 2), TableRow(2, "2026-01-08", "p", 1)]
    own = parse_competition('name = "x"\ntiebreak = ["last:1"]\n')
    club = parse_competition('name = "x"\ntiebreak = ["club-last:1"]\n')
    assert [d["player"] for d in rank(own, rows)] == ["q", "p"]   # his own last evening: q 2, p 1
    assert [d["player"] for d in rank(club, rows)] == ["p", "q"]  # the club's last night: p 1, q 0


def test_guests_are_listed_apart_and_never_win(season, tmp_path):
    doc = run(season, comp(tmp_path, 'guests = ["E"]\nprizes = 1\n'), "--honours")
    assert summary(doc) == [(1, "a", 11), (2, "c", 2), (3, "b", -18), (4, "d", -23), (None, "e", 28)]
    assert doc["players"][-1]["unranked"] == "a guest"
    assert doc["honours"]["champion"] == ["a"] and doc["honours"]["prizes"]["players"][0]["player"] == "a"
    assert doc["honours"]["nights"][-1] == {"night": "2026-09-26", "players": ["c"], "score": -1}


def test_each_nights_winner_in_the_honours(season, tmp_path):
    nights = run(season, comp(tmp_path), "--honours")["honours"]["nights"]
    assert [(n["night"], n["players"], n["score"]) for n in nights] == [
        ("2026-09-05", ["a", "b"], 8), ("2026-09-12", ["a", "c"], 11), ("2026-09-19", ["b", "d"], 8),
        ("2026-09-26", ["e"], 47)]
    assert "Night of" in ok(season, "standings", "--competition", comp(tmp_path), "--honours").stdout


TEAMS = '[teams]\n"Oost" = ["a", "b"]\n"West" = ["c", "d", "E"]\n'


def test_teams_by_their_members_scores(season, tmp_path):
    doc = run(season, comp(tmp_path, TEAMS), "--teams")
    # Oost: 11 - 18 = -7; West: 2 - 23 + 28 = 7
    assert [(t["rank"], t["team"], t["score"]) for t in doc["teams"]] == [(1, "West", 7), (2, "Oost", -7)]
    assert doc["teams"][0]["members"] == [{"player": "c", "score": 2}, {"player": "d", "score": -23},
                                          {"player": "e", "score": 28}]


PERIODS = ('[[period]]\nname = "begin"\nsince = 2026-09-01\nuntil = 2026-09-15\n'
           '[[period]]\nname = "eind"\nsince = 2026-09-16\nuntil = 2026-09-30\n')


def test_a_period_ranked_apart_and_each_periods_champion(season, tmp_path):
    doc = run(season, comp(tmp_path, PERIODS), "--period", "Eind")
    # E3 + E4: e 39, c -1, a -8, b and d -15
    assert summary(doc) == [(1, "e", 39), (2, "c", -1), (3, "a", -8), (4, "b", -15), (4, "d", -15)]
    assert doc["competition"] == "Herfst 2026: Eind"
    hon = run(season, comp(tmp_path, PERIODS), "--honours")["honours"]
    assert hon["periods"] == [{"period": "begin", "champion": ["a"]}, {"period": "eind", "champion": ["e"]}]


def test_a_nights_page_names_its_tiebreak_rule(season, tmp_path):
    doc = run(season, comp(tmp_path, 'tiebreak = ["points"]\n'), "--night", "2026-09-26")
    assert any("Equal scores are decided by the points scored" in w for w in doc["rules"])


@pytest.mark.parametrize("extra, args, words", [
    ("", ["--period", "mei"], ["has no period 'mei'", "defines none"]),
    (PERIODS, ["--period", "mei"], ["has no period 'mei'", "begin, eind"]),
    ("", ["--teams"], ["has no teams", "[teams]"]),
    ("", ["--since", "2026-09-01"], ["--since does not go with --competition"]),
    ("", ["--night", "2026-09-26", "--teams"], ["--night ranks one night"]),
    ("", ["--until", "2026-09-12", "--after-night", "2"], ["not both"]),
    ("", ["--after-night", "5"], ["--after-night 5", "has had 4 nights so far"]),
])
def test_bad_requests_are_one_line(season, tmp_path, extra, args, words):
    before = dump(season)
    msg = refused(season, "standings", "--competition", comp(tmp_path, extra), *args)
    assert all(w in msg for w in words), msg
    assert dump(season) == before


@pytest.mark.parametrize("extra, words", [
    ('[teams]\n"A" = ["a"]\n"B" = ["b", "A"]\n', ["line 7", "'A' is in two teams"]),
    ('[teams]\n"A" = "a"\n', ["team 'A' must list its players"]),
    ('[[period]]\nname = "x"\n', ["period 'x' needs since, until or both"]),
    ('[[period]]\nname = "x"\nsince = 2026-10-01\nuntil = 2026-09-01\n', ["since (2026-10-01) is after until"]),
    ('[[period]]\nname = "x"\nsince = 2026-09-01\nwhen = 1\n', ["unknown key 'when' in a [[period]]"]),
    ('place_bonus = [30, 60]\n', ["line 5", "'place_bonus' must not give a place more than the place before it"]),
    ('tiebreak = ["club-last:0"]\n', ["unknown tie-break 'club-last:0'"]),
    ('guests = "e"\n', ["'guests' must be a list of names"]),
])
def test_bad_files_name_the_line(season, tmp_path, extra, words):
    msg = refused(season, "standings", "--competition", comp(tmp_path, extra))
    assert all(w in msg for w in words), msg


def test_club_last_on_a_nights_ranking_counts_its_rounds_not_its_tables():
    """On one night (per table), club-last:1 is the night's last round, every table of it: each player's score in
    round 2 (it was the last session only, so the players at round 2's other table had 0)."""
    rows = [TableRow(1, "2026-11-27", p, v, round=1, table=1) for p, v in zip("abcd", (5, 3, -3, -5), strict=True)]
    rows += [TableRow(2, "2026-11-27", p, v, round=1, table=2) for p, v in zip("efgh", (4, 2, -2, -4), strict=True)]
    rows += [TableRow(3, "2026-11-27", p, v, round=2, table=1) for p, v in zip("aebf", (7, 1, -1, -7), strict=True)]
    rows += [TableRow(4, "2026-11-27", p, v, round=2, table=2) for p, v in zip("cgdh", (6, 2, -2, -6), strict=True)]
    night = parse_competition('name = "x"\ntiebreak = ["club-last:1", "last:1"]\n')
    got = {d["player"]: (d["tiebreak"]["club-last:1"], d["tiebreak"]["last:1"]) for d in rank(night, rows, "table")}
    round2 = {"a": 7, "e": 1, "b": -1, "f": -7, "c": 6, "g": 2, "d": -2, "h": -6}
    assert got == {p: (v, v) for p, v in round2.items()}


def test_a_nights_page_says_its_last_rounds(season, tmp_path):
    doc = run(season, comp(tmp_path, 'tiebreak = ["club-last:2", "last:1"]\n'), "--night", "2026-09-26")
    assert any("the night's last 2 rounds (a round missed counts 0), then the total of his last round" in w
               for w in doc["rules"]), doc["rules"]
