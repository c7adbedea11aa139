"""`wiezen settle`: who pays whom, in the fewest payments, at N cents a point."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from _club_helpers import TOTALS
from _ledger_helpers import ok, refused, sheet


@pytest.fixture
def db(make_club):
    return make_club("club.db")  # the three club evenings (tests/conftest.py)


def settle(db, *args):
    return json.loads(ok(db, "settle", "--json", *args).stdout)


@pytest.mark.parametrize("sid", [1, 2, 3])
def test_payments_sum_to_every_players_total(db, sid):
    doc = settle(db, "--session", sid)
    totals = sheet(db, "--session", sid)["totals"]
    assert doc["totals"] == totals == TOTALS[sid - 1]
    net = {p: Fraction(0) for p in totals}
    for pay in doc["payments"]:
        assert pay["points"] > 0 and pay["from"] != pay["to"]
        net[pay["from"]] -= Fraction(pay["points"])
        net[pay["to"]] += Fraction(pay["points"])
    assert net == {p: Fraction(v) for p, v in totals.items()}
    nonzero = sum(1 for v in totals.values() if v)
    assert len(doc["payments"]) <= nonzero - 1


def test_week1_by_hand_in_eurocents(db):
    # jan +3, piet +3, mieke -35, lotte +29: no smaller group squares itself, so 3 payments, all from mieke
    doc = settle(db, "--session", "1", "--cents", "5")
    assert doc["cents"] == 5
    got = sorted((p["from"], p["to"], p["points"], p["cents"]) for p in doc["payments"])
    assert got == [("mieke", "jan", 3, 15), ("mieke", "lotte", 29, 145), ("mieke", "piet", 3, 15)]
    text = ok(db, "settle", "--session", "1", "--cents", "5").stdout
    assert "at 5 cents a point" in text
    lines = [line.split() for line in text.splitlines()[1:]]
    assert lines == [
        ["mieke", "pays", "jan", "3", "points", "€0.15"],
        ["mieke", "pays", "lotte", "29", "points", "€1.45"],
        ["mieke", "pays", "piet", "3", "points", "€0.15"],
    ]


def test_points_only_by_default(db):
    doc = settle(db, "--session", "2")
    assert doc["cents"] is None and all("cents" not in p for p in doc["payments"])
    # jan -11, piet -31, mieke +21, lotte +21
    assert sum(p["points"] for p in doc["payments"]) == 42
    text = ok(db, "settle", "--session", "2").stdout
    assert "€" not in text and "pays" in text


def test_fewest_payments_with_opposites(tmp_path):
    db = tmp_path / "c.db"
    f = tmp_path / "e.txt"
    # samen 8 an+bo 9: an +11, bo +11, cy -11, di -11: two payments suffice (cy->an, di->bo, or the mirror)
    f.write_text("session x 2026-05-01\nplayers an bo cy di\nsamen 8 an+bo 9\n", encoding="utf-8")
    ok(db, "replay", f)
    doc = settle(db)
    assert len(doc["payments"]) == 2
    assert {p["from"] for p in doc["payments"]} == {"cy", "di"}
    assert all(p["points"] == 11 for p in doc["payments"])


def test_all_square(tmp_path):
    db = tmp_path / "c.db"
    f = tmp_path / "e.txt"
    f.write_text("players an bo cy di\npas\n", encoding="utf-8")
    ok(db, "replay", f)
    assert settle(db)["payments"] == []
    assert "nobody pays" in ok(db, "settle").stdout


def test_refusals(db, tmp_path):
    assert "no session 9" in refused(db, "settle", "--session", "9")
    r = ok(db, "settle", "--cents", "0")
    assert "€0.00" in r.stdout
    assert "no ledger" in refused(tmp_path / "none.db", "settle")
