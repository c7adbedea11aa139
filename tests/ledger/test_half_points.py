"""Half points (split miseries) stay exact everywhere they are shown: sheet, JSON, standings, settle.

Figures by hand from SCORING.md, wikibooks-kleurenwiezen (split): grote miserie 5, kleine miserie 3.
  1. grote-miserie jan 0 piet 1 mieke 2: jan made (+15), piet and mieke lost and share -15: -7.5 each; lotte 0.
  2. kleine-miserie jan 0 piet 0 mieke 0: all made, +9 each; lotte alone pays 27.
  totals: jan 24, piet 1.5, mieke 1.5, lotte -27.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import ok, sheet


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "half.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "wikibooks-kleurenwiezen")
    ok(path, "deal", "grote-miserie", "jan", "0", "piet", "1", "mieke", "2")
    ok(path, "deal", "kleine-miserie", "jan", "0", "piet", "0", "mieke", "0")
    return path


def test_sheet_json_keeps_the_halves(db):
    doc = sheet(db)
    assert doc["entries"][0]["points"] == {"jan": 15, "piet": -7.5, "mieke": -7.5, "lotte": 0}
    assert doc["entries"][1]["points"] == {"jan": 9, "piet": 9, "mieke": 9, "lotte": -27}
    assert doc["totals"] == {"jan": 24, "piet": 1.5, "mieke": 1.5, "lotte": -27}
    for e in doc["entries"]:
        assert sum(e["points"].values()) == 0


def test_sheet_text_shows_the_halves(db):
    out = ok(db, "sheet").stdout
    assert "-7.5  (-7.5)" in out and "1.5  (+9)" in out
    assert "totals: jan +24, piet +1.5, mieke +1.5, lotte -27" in out


def test_standings_and_settle_keep_the_halves_and_ties_share_a_rank(db):
    rows = json.loads(ok(db, "standings", "--format", "json").stdout)
    got = {r["player"]: (r["rank"], r["points"]) for r in rows}
    assert got == {"jan": (1, 24), "piet": (2, 1.5), "mieke": (2, 1.5), "lotte": (4, -27)}
    pay = json.loads(ok(db, "settle", "--json").stdout)
    flows = {p: 0.0 for p in ("jan", "piet", "mieke", "lotte")}
    for p in pay["payments"]:
        flows[p["from"]] -= p["points"]
        flows[p["to"]] += p["points"]
    assert flows == {"jan": 24, "piet": 1.5, "mieke": 1.5, "lotte": -27}


def test_a_tie_names_every_leader(db):
    ok(db, "deal", "samen", "8", "jan+lotte", "8")  # wikibooks-kleurenwiezen samen 8 made: 2 each way
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    ok(db, "deal", "samen", "8", "an+bert", "8")     # whisthub: an and bert +8 each
    listed = {s["name"] or s["id"]: s["leader"] for s in json.loads(ok(db, "sessions", "--json").stdout)}
    assert "an, bert" in listed.values()
