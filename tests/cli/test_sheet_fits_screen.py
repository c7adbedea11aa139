"""A sheet that fits the screen, through the installed `wiezen` command: text output measures COLUMNS (or the
terminal) and falls back to a compact layout so that no line is wider, for four to six players, in `sheet`,
`play` and `settle`.
"""

import json

import pytest
from test_deal_words import ok, run

SIX = ["alexandrina", "bartholomeus", "christiaan", "florentijn", "evangelina", "maximiliaan"]  # 10 to 12 letters

EVENING = [
    "samen 8 bart+chris 9",
    "alleen 5 flo 6",
    "grote miserie alex 0 eva 1",
    "troel eva+max 8",
    "abondance 10 alex 11",
    "samen 9 bart+flo 13",
]


def widest(text):
    return max(len(x) for x in text.splitlines())


def six_player_evening(db, players=SIX, lines=EVENING):
    ok(db, "session", "start", "--players", ",".join(players), "--name", "Café De Kroon")
    for line in lines:
        ok(db, "deal", *line.split())
    ok(db, "pass")
    ok(db, "penalty", players[4], "--reason", "renonce in troef, en niet voor de eerste keer vanavond")
    ok(db, "penalty", players[5], "--round")
    ok(db, "undo")
    ok(db, "penalty", players[5], "--round", "--reason", "te laat")


def sheet_at(db, columns, *args):
    r = run(db, "sheet", *args, env={"COLUMNS": str(columns)})
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_six_long_names_fit_80_columns(tmp_path):
    db = tmp_path / "w.db"
    six_player_evening(db)
    wide = sheet_at(db, 200)
    assert widest(wide) > 80  # the full layout would not fit: the compact one must take over
    text = sheet_at(db, 80)
    assert widest(text) <= 80, text
    lines = text.splitlines()
    header = next(x for x in lines if x.lstrip().startswith("#"))
    # short names in the header, each player told apart
    cols = header.split()[4:]
    assert len(cols) == 6 and all(len(c) < len(p) and p.startswith(c) for c, p in zip(cols, SIX, strict=False)), header
    # points only: entry 1 gave bartholomeus +11 (samen 8 with 9 under whisthub), no running totals in brackets
    row1 = next(x for x in lines if x.split()[:1] == ["1"])
    assert "+11" in row1 and "(" not in row1
    # the totals on their own row, the same numbers as --json
    totals = json.loads(ok(db, "sheet", "--json").stdout)["totals"]
    row = next(x for x in lines if x.split()[:1] == ["totals"])
    assert row.split()[1:] == [f"{v:+d}" if v else "0" for v in totals.values()]
    # and everything else still there: the players' full names, the totals line, who deals next
    assert "bartholomeus" in text and "totals:" in text and "next:" in text


@pytest.mark.parametrize("columns", [80, 60, 40])
def test_no_line_wider_than_the_terminal(tmp_path, columns):
    db = tmp_path / "w.db"
    six_player_evening(db)
    assert widest(sheet_at(db, columns)) <= columns
    assert widest(sheet_at(db, columns, "--last", "3")) <= columns
    r = run(db, "settle", "--cents", "5", env={"COLUMNS": str(columns)})
    assert r.returncode == 0 and widest(r.stdout) <= columns, r.stdout


@pytest.mark.parametrize("players", [
    ["jan", "piet", "mieke", "lotte"],
    ["a", "b", "c", "d", "e", "f"],
    ["marie-louise", "jean-baptist", "anne-sophie", "pieter-jan", "rosalinde"],
])
def test_four_to_six_players_fit_80(tmp_path, players):
    db = tmp_path / "w.db"
    n = len(players)
    ok(db, "session", "start", "--players", ",".join(players))
    for i in range(12):
        dealer = i % n
        # the four who play: at five the dealer sits out, at six also the player opposite
        act = [p for j, p in enumerate(players) if n == 4 or (j != dealer and (n == 5 or j != (dealer + 3) % n))]
        ok(db, "deal", "samen", "9", f"{act[0]}+{act[1]}", str(7 + i % 7))
    assert widest(sheet_at(db, 80)) <= 80


def test_the_full_layout_stays_when_it_fits(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    text = sheet_at(db, 120)
    assert "11  (+11)" in text and "dealer" in text  # running total and the entry's points


def test_play_fits_80_columns(tmp_path):
    db = tmp_path / "w.db"
    lines = ["players " + " ".join(SIX)] + EVENING + ["pas", f"penalty {SIX[4]} renonce in troef, alweer", "sheet",
                                                     "settle 5", "explain 2", "help", "quit"]
    r = run(db, "play", input="\n".join(lines) + "\n", env={"COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert widest(r.stdout) <= 80, r.stdout
    assert "totals" in r.stdout and "pays" in r.stdout
    wide = run(tmp_path / "w2.db", "play", input="\n".join(lines) + "\n", env={"COLUMNS": "300"})
    assert widest(wide.stdout) > 80  # the same evening is wider when the terminal is
