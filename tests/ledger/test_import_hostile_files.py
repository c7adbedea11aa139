"""Hostile import files that raised a bare OverflowError or KeyError instead of naming the problem, and the
trigger suspension when a DROP fails half-way (found in a review of the second round's speed-ups)."""

from __future__ import annotations

import json
import sqlite3

import pytest
from _ledger_helpers import ok, wz


@pytest.fixture()
def export(tmp_path):
    db = tmp_path / "s.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "deal", "alleen", "5", "mieke", "6")
    ok(db, "undo")
    return json.loads(ok(db, "export").stdout)


def imported(tmp_path, doc):
    """Import the changed export into a new ledger: its refusal (exit 1 expected)."""
    f = tmp_path / "e.json"
    f.write_text(json.dumps(doc))
    r = wz(tmp_path / "y.db", "import", f)
    assert r.exit_code == 1, r.output
    return r


@pytest.mark.parametrize("points", [
    {"jan": 1e308, "piet": 1e308, "mieke": -1e308, "lotte": -1e308},  # fsum: intermediate overflow
    {"jan": 10**400, "piet": -10**400, "mieke": 0, "lotte": 0},  # float(): int too large
])
def test_points_too_large_for_a_float_are_refused_with_a_message(tmp_path, export, points):
    """They add up to 0 (the file's shape is right), and no deal gives them: refused with the most a deal can
    give, nothing written."""
    export["sessions"][0]["entries"][0]["points"] = points
    r = imported(tmp_path, export)
    assert "unexpected" not in r.output and "points cannot be recorded" in r.output, r.output
    assert "at most 1,000,000,000" in r.output and len(r.output.splitlines()) == 1, r.output
    if (tmp_path / "y.db").exists():
        conn = sqlite3.connect(tmp_path / "y.db")
        try:
            assert conn.execute("SELECT count(*) FROM entries").fetchone() == (0,)
        finally:
            conn.close()


@pytest.mark.parametrize("points", [
    {"jan": 1e308, "piet": 1e308, "mieke": -1e308, "lotte": 1e308},
    {"jan": 10**400, "piet": -10**400, "mieke": 1, "lotte": 0},
])
def test_points_too_large_that_do_not_add_up_say_so(tmp_path, export, points):
    export["sessions"][0]["entries"][0]["points"] = points
    r = imported(tmp_path, export)
    assert "unexpected" not in r.output and "the points do not add up to 0" in r.output, r.output


def test_a_void_without_by_is_refused_with_a_message(tmp_path, export):
    v = export["sessions"][0]["entries"][1]["void"]
    assert v is not None and v["action"] == "undo"
    del v["by"]
    r = imported(tmp_path, export)
    assert "unexpected" not in r.output and '"by"' in r.output, r.output
