"""Club competitions over a hand-computed season (whisthub, the default house rules).

Points by hand (shared scoring: samen 8 made exactly = 8 to each taker, with one overtrick 11; grote miserie
made = 12 from each of the other three, 36 to the player):

  E1 2026-09-05  a b c d   samen 8 a+b 8             a +8  b +8  c -8  d -8
  E2 2026-09-12  a b c e   samen 8 a+c 9             a +11 c +11 b -11 e -11
  E3 2026-09-19  a b d e   samen 8 b+d 8             b +8  d +8  a -8  e -8
  E4 2026-09-26  b c d e   samen 8 c+e 9             c +11 e +11 b -11 d -11
                           grote-miserie e 0         e +36 b -12 c -12 d -12
                           evening                   b -23 c -1  d -23 e +47
  (2026-10-03, untagged, and 2026-10-10, after `until`: do not count)

  evenings:  a [8, 11, -8] = 11   b [8, -11, 8, -23] = -18   c [-8, 11, -1] = 2
             d [-8, 8, -23] = -23   e [-11, -8, 47] = 28
"""

from __future__ import annotations

import json

import pytest
from _competition_helpers import SEASON, comp  # noqa: F401 (SEASON: the data the docstring computes)
from _ledger_helpers import ok, refused, wz

from wiezen_score.core.competition import Competition, parse_competition
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.ranking import TableRow, rank, table_scores


def run(db, path, *args):
    return json.loads(ok(db, "standings", "--competition", path, "--format", "json", *args).stdout)


def summary(doc):
    return [(d["rank"], d["player"], d["score"]) for d in doc["players"]]


def test_points_all_evenings(season, tmp_path):
    doc = run(season, comp(tmp_path))
    assert doc["competition"] == "Herfst 2026"
    assert summary(doc) == [(1, "e", 28), (2, "a", 11), (3, "c", 2), (4, "b", -18), (5, "d", -23)]
    b = next(d for d in doc["players"] if d["player"] == "b")
    assert (b["evenings"], b["counted"], b["tables"]) == (4, 4, 4)
    assert [s["score"] for s in b["scores"]] == [8, -11, 8, -23]


def test_best_n(season, tmp_path):
    doc = run(season, comp(tmp_path, "best = 2\nmin_evenings = 3\n"))
    assert summary(doc) == [(1, "e", 39), (2, "a", 19), (3, "b", 16), (4, "c", 10), (5, "d", 0)]
    b = next(d for d in doc["players"] if d["player"] == "b")
    assert (b["evenings"], b["counted"]) == (4, 2)
    assert [s["counted"] for s in b["scores"]] == [True, False, True, False]


def test_minimum_evenings_listed_apart(season, tmp_path):
    doc = run(season, comp(tmp_path, "best = 2\nmin_evenings = 4\n"))
    assert summary(doc) == [(1, "b", 16), (None, "e", 39), (None, "a", 19), (None, "c", 10), (None, "d", 0)]
    assert doc["players"][1]["unranked"] == "3 of the 4 evenings needed"
    text = ok(season, "standings", "--competition", comp(tmp_path, "best = 2\nmin_evenings = 4\n")).stdout
    assert "Listed apart, unranked" in text and "3 of the 4 evenings needed" in text


def test_minimum_opponents(season, tmp_path):
    # everybody met all four others except d, who never sat with... everybody did: 4 opponents each
    doc = run(season, comp(tmp_path, "min_opponents = 4\n"))
    assert all(d["rank"] is not None and d["opponents"] == 4 for d in doc["players"])
    doc = run(season, comp(tmp_path, "min_opponents = 5\n"))
    assert all(d["rank"] is None for d in doc["players"])


def test_tiebreak_last_k(season, tmp_path):
    # best 1: a 11, b 8, c 11, d 8, e 47. a and c: last two evenings a 11-8 = 3, c 11-1 = 10: c first.
    # b and d: last two b 8-23 = -15, d 8-23 = -15: still equal, they share 4th place.
    doc = run(season, comp(tmp_path, 'best = 1\ntiebreak = ["last:2"]\n'))
    assert summary(doc) == [(1, "e", 47), (2, "c", 11), (3, "a", 11), (4, "b", 8), (4, "d", 8)]
    assert doc["players"][1]["tiebreak"] == {"last:2": 10}
    # without the tie-break the equal ones share
    doc = run(season, comp(tmp_path, "best = 1\n"))
    assert summary(doc) == [(1, "e", 47), (2, "a", 11), (2, "c", 11), (4, "b", 8), (4, "d", 8)]


def test_placement_with_ties(season, tmp_path):
    # E1: a, b equal first: (1000 + 600) / 2 = 800 each; c, d equal third: (300 + 0) / 2 = 150.
    # E2: a, c 800; b, e 150. E3: b, d 800; a, e 150. E4: e 1000, c 600, b and d 150.
    extra = 'score = "placement"\nplacement = [1000, 600, 300, 0]\n'
    doc = run(season, comp(tmp_path, extra))
    assert summary(doc) == [(1, "b", 1900), (2, "a", 1750), (3, "c", 1550), (4, "e", 1300), (5, "d", 1100)]
    # best evening only: e 1000, the other four 800: they share second place
    doc = run(season, comp(tmp_path, extra + "best = 1\n"))
    assert summary(doc) == [(1, "e", 1000), (2, "a", 800), (2, "b", 800), (2, "c", 800), (2, "d", 800)]


def test_table_scores_shared_places():
    c = Competition("x", score="placement", placement=(1000, 600, 300, 0))
    got = table_scores(c, {"x": 10, "y": 10, "z": 10, "w": -30})
    assert {p: v / 120 for p, (v, _) in got.items()} == pytest.approx(
        {"x": 1900 / 3, "y": 1900 / 3, "z": 1900 / 3, "w": 0})
    # five at a table with four places listed: the fifth scores 0; fourth and fifth equal: (0 + 0) / 2
    got = table_scores(c, {"a": 20, "b": 5, "c": 0, "d": -10, "e": -15})
    assert {p: v // 120 for p, (v, _) in got.items()} == {"a": 1000, "b": 600, "c": 300, "d": 0, "e": 0}
    rows = [TableRow(1, "2026-01-01", p, v) for p, v in (("x", 10), ("y", 10), ("z", 10), ("w", -30))]
    out = rank(c, rows)
    assert [(d["rank"], d["player"], d["score"]) for d in out] == [
        (1, "x", 633.33), (1, "y", 633.33), (1, "z", 633.33), (4, "w", 0)]


def test_honours_and_statistics(season, tmp_path):
    doc = run(season, comp(tmp_path, "prizes = 2\n"), "--honours")
    h = doc["honours"]
    assert h["champion"] == ["e"]
    assert h["rode_lantaarn"] == ["d"]
    assert h["miserie_king"] == {"players": ["e"], "miseries": 1}
    assert h["most_contracts"] == {"players": ["a", "b", "c", "e"], "made": 2}
    assert [d["player"] for d in h["prizes"]["players"]] == ["e", "a"]
    per = {p["player"]: p for p in h["players"]}
    assert per["a"]["partner"] == {"player": "c", "points": 11, "deals": 1}
    assert per["b"]["partner"] == {"player": "a", "points": 8, "deals": 1}  # a and d equal: by name
    assert per["d"]["partner"] == {"player": "b", "points": 8, "deals": 1}
    assert per["a"]["nemesis"] is None  # a lost against nobody over the season (d: -8 + 8 = 0)
    assert per["b"]["nemesis"] == {"player": "e", "points": -15, "deals": 3}
    assert per["c"]["nemesis"] == {"player": "a", "points": -8, "deals": 1}
    assert per["d"]["nemesis"] == {"player": "e", "points": -15, "deals": 3}
    assert per["e"]["nemesis"] == {"player": "a", "points": -11, "deals": 1}
    assert (per["e"]["miseries"], per["e"]["made"], per["e"]["taken"]) == (1, 2, 2)
    # a share of the ranked players: 50% of 5, rounded up, is 3
    doc = run(season, comp(tmp_path, 'prizes = "50%"\n'), "--honours")
    assert [d["player"] for d in doc["honours"]["prizes"]["players"]] == ["e", "a", "c"]
    text = ok(season, "standings", "--competition", comp(tmp_path), "--honours").stdout
    assert "Miserie king (most miseries made): e (1)" in text and "nemesis e (-15 in 3 deals)" in text


def test_other_formats(season, tmp_path):
    p = comp(tmp_path, 'best = 2\nmin_evenings = 4\ntiebreak = ["last:4"]\n')
    import csv as csvmod
    import io

    rows = list(csvmod.reader(io.StringIO(ok(season, "standings", "--competition", p, "--format", "csv").stdout)))
    assert rows[0][:5] == ["rank", "player", "score", "evenings", "counted"]
    assert rows[1][:5] == ["1", "b", "16", "4", "2"] and rows[2][:5] == ["", "e", "39", "3", "2"]
    assert rows[2][rows[0].index("unranked")] == "3 of the 4 evenings needed"
    md = ok(season, "standings", "--competition", p, "--format", "markdown").stdout
    assert md.startswith("## Herfst 2026") and "| b " in md
    html = ok(season, "standings", "--competition", p, "--format", "html", "--honours").stdout
    assert "How this competition ranks" in html and "best 2 evenings count" in html
    assert "at least 4 evenings" in html and "the total of the last 4 evenings" in html
    assert "<svg" in html and "Honours" in html


def test_bad_files_name_the_line(tmp_path, season):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nbest = 0\n', encoding="utf-8")
    line = refused(season, "standings", "--competition", bad)
    assert "line 2" in line and "'best'" in line
    bad.write_text('name = "x"\nscore = "placement"\n', encoding="utf-8")
    assert "line 2" in refused(season, "standings", "--competition", bad)
    bad.write_text('name = "x"\n\ntiebreak = ["first:3"]\n', encoding="utf-8")
    line = refused(season, "standings", "--competition", bad)
    assert "line 3" in line and "last:K" in line
    bad.write_text('name = "x"\nsince = 2026-10-01\nuntil = 2026-09-01\n', encoding="utf-8")
    assert "line 3" in refused(season, "standings", "--competition", bad)
    bad.write_text('name = "x"\nbets = 3\n', encoding="utf-8")
    assert "unknown key 'bets'" in refused(season, "standings", "--competition", bad)
    bad.write_text('name = "x"\nplacement = [100, 300]\nscore = "placement"\n', encoding="utf-8")
    assert "line 2" in refused(season, "standings", "--competition", bad)
    assert "does not exist" in refused(season, "standings", "--competition", tmp_path / "nope.toml")
    with pytest.raises(WiezenError, match="name"):
        parse_competition("best = 3\n")


def test_tag_in_session_start_and_sheet_file(tmp_path):
    db = tmp_path / "x.db"
    ok(db, "session", "start", "--players", "a,b,c,d", "--tag", "t", "--round", "2", "--table", "3",
       "--date", "2026-09-15")
    ok(db, "deal", "samen", "8", "a+b", "8")
    ok(db, "session", "end")
    doc = run(db, comp(tmp_path))
    assert summary(doc)[0] == (1, "a", 8)
    assert "round" in refused(db, "session", "start", "--players", "a,b,c,d", "--round", "0")
    assert "tag" in refused(db, "session", "start", "--players", "a,b,c,d", "--tag", "two words")
    assert "table" in refused(db, "session", "start", "--players", "a,b,c,d", "--table", "100")
    # the tag and round travel with an export
    other = tmp_path / "y.db"
    exp = tmp_path / "e.json"
    ok(db, "export", "-o", exp)
    ok(other, "import", exp)
    assert summary(run(other, comp(tmp_path)))[0] == (1, "a", 8)
    ok(other, "check")


def test_no_ledger_and_misuse(tmp_path):
    db = tmp_path / "none.db"
    doc = run(db, comp(tmp_path))
    assert doc == {"competition": "Herfst 2026", "rules": doc["rules"], "players": []}
    assert "--competition" in refused(db, "standings", "--honours")
    assert "--since" in refused(db, "standings", "--competition", comp(tmp_path), "--since", "2026-01-01")
    r = wz(db, "standings", "--competition", comp(tmp_path))
    assert r.exit_code == 0 and "no sessions count" in r.stdout


def test_datasette_canned_queries_rank_as_the_command(season):
    import sqlite3

    from wiezen_score.ledger.datasette import datasette_metadata

    queries = datasette_metadata("club")["databases"]["club"]["queries"]
    conn = sqlite3.connect(season)
    args = {"tag": "t", "since": "2026-09-01", "until": "2026-09-30", "best": "2", "min_evenings": "4"}
    got = conn.execute(queries["competition"]["sql"], args).fetchall()
    assert got == [(1, "b", 16.0, 4, 2), (None, "e", 39.0, 3, 2), (None, "a", 19.0, 3, 2), (None, "c", 10.0, 3, 2),
                   (None, "d", 0.0, 3, 2)]
    args = {**args, "best": "", "min_evenings": "", "p1": "1000", "p2": "600", "p3": "300", "p4": "0", "p5": "",
            "p6": ""}
    got = conn.execute(queries["competition_placement"]["sql"], args).fetchall()
    assert [r[:3] for r in got] == [(1, "b", 1900.0), (2, "a", 1750.0), (3, "c", 1550.0), (4, "e", 1300.0),
                                    (5, "d", 1100.0)]
    args["best"] = "1"
    got = conn.execute(queries["competition_placement"]["sql"], args).fetchall()
    assert [r[:3] for r in got] == [(1, "e", 1000.0), (2, "a", 800.0), (2, "b", 800.0), (2, "c", 800.0), (2, "d", 800.0)]
    conn.close()


def test_tag_round_and_table_are_history(tmp_path):
    import sqlite3

    db = tmp_path / "h.db"
    ok(db, "session", "start", "--players", "a,b,c,d", "--tag", "t", "--round", "1", "--table", "1")
    ok(db, "session", "end")
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for sql in ("UPDATE sessions SET tag = 'other'", "UPDATE sessions SET round = 2", "UPDATE sessions SET table_no = 3"):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(sql)
        # by hand, around the trigger: the seal's chain no longer fits the session
        conn.execute("DROP TRIGGER sessions_keep_history")
        conn.execute("UPDATE sessions SET tag = 'other'")
    finally:
        conn.close()
    r = wz(db, "check")
    assert r.exit_code == 1
    assert any(line.startswith("chain:") for line in r.output.splitlines()), r.output
