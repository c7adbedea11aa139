"""Several miseries paid into a pool (issue 30, item 4) in the ledger: a share of the players not on miserie is
at most a half point (two of them share; with three on miserie one takes it all), which the ledger keeps exactly
(it stores twice the points), in the sheet, the totals, standings, settle and `check`.

Figures by hand from the scoring contract ("Several miseries paid into a pool"), house rules pot.toml with
grote miserie 8 made, 11 lost (made +3 x 8, lost -3 x 11):
  1. grote-miserie jan 0 piet 1: jan +24, piet -33; the others take +9 between them: +4.5 each.
  2. grote-miserie jan 0 piet 1 mieke 2: jan +24, piet -33, mieke -33; lotte takes +42.
  totals: jan 48, piet -66, mieke -28.5, lotte 46.5.
"""

from __future__ import annotations

import json
import sqlite3

import pytest
from _ledger_helpers import DATA, ok, sheet


@pytest.fixture
def db(tmp_path):
    text = (DATA / "house-rules-doc" / "pot.toml").read_text(encoding="utf-8")
    assert "\nlost = 12\n" in text
    path = tmp_path / "pot11.toml"
    path.write_text(text.replace("\nlost = 12\n", "\nlost = 11\n"), encoding="utf-8")
    db = tmp_path / "pool.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", str(path))
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "1")
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "1", "mieke", "2")
    return db


def test_the_sheet_keeps_the_halves(db):
    doc = sheet(db)
    assert doc["entries"][0]["points"] == {"jan": 24, "piet": -33, "mieke": 4.5, "lotte": 4.5}
    assert doc["entries"][1]["points"] == {"jan": 24, "piet": -33, "mieke": -33, "lotte": 42}
    assert doc["totals"] == {"jan": 48, "piet": -66, "mieke": -28.5, "lotte": 46.5}
    assert "totals: jan +48, piet -66, mieke -28.5, lotte +46.5" in ok(db, "sheet").stdout


def test_stored_exactly_as_six_times_the_points(db):
    conn = sqlite3.connect(str(db))
    try:
        sixths = sorted(s for (s,) in conn.execute("SELECT sixth FROM entry_points"))
    finally:
        conn.close()
    assert sixths == sorted(3 * h for h in [48, -66, 9, 9, 48, -66, -66, 84])  # (twice the points, times 3)


def test_standings_settle_and_check(db):
    rows = json.loads(ok(db, "standings", "--format", "json").stdout)
    assert {r["player"]: r["points"] for r in rows} == {"jan": 48, "piet": -66, "mieke": -28.5, "lotte": 46.5}
    pay = json.loads(ok(db, "settle", "--json").stdout)
    flows = {p: 0.0 for p in ("jan", "piet", "mieke", "lotte")}
    for p in pay["payments"]:
        flows[p["from"]] -= p["points"]
        flows[p["to"]] += p["points"]
    assert flows == {"jan": 48, "piet": -66, "mieke": -28.5, "lotte": 46.5}
    ok(db, "session", "end")
    assert "every sum 0" in ok(db, "check").stdout


def test_explain_gives_the_pool_step_by_step(db):
    out = ok(db, "explain", "1").stdout
    for step in ("several miseries (pool): each miserie player wins or pays 3 x his amount",
                 "jan made: +3 x 8 = +24", "piet lost: -3 x 11 = -33",
                 "the others take the opposite, +9, in equal shares: +4.5 each (mieke, lotte)"):
        assert step in out, out
