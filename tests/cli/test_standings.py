"""`wiezen standings`: per player over dated sessions, against figures computed by hand (tests/_club_helpers.py)."""

from __future__ import annotations

import sqlite3
from fractions import Fraction

import pytest
from _club_helpers import ALL, TOTALS, standings
from _ledger_helpers import ok, refused, sheet


@pytest.fixture
def db(make_club):
    return make_club("club.db")  # the three club evenings (tests/conftest.py)


def test_three_evenings_by_hand(db):
    got = standings(db)
    assert [d["player"] for d in got] == [d["player"] for d in ALL]  # best first
    for g, x in zip(got, ALL, strict=True):
        for k, v in x.items():
            assert g[k] == v, (x["player"], k)
        assert g["success_rate"] == pytest.approx(x["made"] / x["taken"], abs=1e-4)
        assert g["average"] == pytest.approx(x["points"] / x["sessions"], abs=0.005)
    assert [d["rank"] for d in got] == [1, 2, 3, 4, 5]
    assert sum(d["points"] for d in got) == 0


def test_since_cuts_the_first_evening_off(db):
    got = {d["player"]: d for d in standings(db, "--since", "2026-02-01")}
    # weeks 2 and 3 only
    assert {p: d["points"] for p, d in got.items()} == {"mieke": 25, "lotte": 13, "bert": 0, "jan": -5, "piet": -33}
    assert {p: d["sessions"] for p, d in got.items()} == {"mieke": 2, "lotte": 2, "bert": 1, "jan": 2, "piet": 2}
    assert got["mieke"]["best"] == 21 and got["mieke"]["worst"] == 4
    assert got["jan"]["deals"] == 1 + 2  # the undone alleen of week 2 is not a deal played
    assert [d["player"] for d in standings(db, "--since", "2026-02-01")] == ["mieke", "lotte", "bert", "jan", "piet"]


def test_until_and_both_bounds_are_inclusive(db):
    got = {d["player"]: d["points"] for d in standings(db, "--until", "2026-02-14")}
    assert got == {"lotte": 50, "jan": -8, "mieke": -14, "piet": -28}
    only_week2 = {d["player"]: d["points"] for d in standings(db, "--since", "2026-02-14", "--until", "2026-02-14")}
    assert only_week2 == TOTALS[1]
    assert standings(db, "--since", "2026-04-01") == []
    assert "no sessions in that period" in ok(db, "standings", "--since", "2026-04-01").stdout


def test_equal_to_the_sums_of_the_sheets(db):
    for since in (None, "2026-02-01", "2026-03-21"):
        args = ["--since", since] if since else []
        expected: dict[str, Fraction] = {}
        conn = sqlite3.connect(str(db))
        ids = [r[0] for r in conn.execute("SELECT id FROM sessions WHERE ? IS NULL OR date >= ?", (since, since))]
        conn.close()
        for sid in ids:
            for p, v in sheet(db, "--session", sid)["totals"].items():
                expected[p] = expected.get(p, 0) + Fraction(v)
        assert {d["player"]: Fraction(d["points"]) for d in standings(db, *args)} == expected


def test_voided_entries_do_not_count(db):
    """Void week 3's troel (as `wiezen undo` would): standings follow, without re-scoring anything."""
    conn = sqlite3.connect(str(db))
    eid = conn.execute(
        "SELECT e.id FROM entries e JOIN sessions s ON s.id = e.session_id WHERE s.name = 'Week 3' AND e.no = 3"
    ).fetchone()[0]
    conn.execute("INSERT INTO voids (entry_id, action, reason, created_at) VALUES (?, 'undo', 'test', 'now')", (eid,))
    conn.commit()
    conn.close()
    got = {d["player"]: d for d in standings(db, "--since", "2026-03-21")}
    # week 3 without the troel: jan -10, piet +14, mieke +4, lotte -24, bert +16
    assert {p: d["points"] for p, d in got.items()} == {"jan": -10, "piet": 14, "mieke": 4, "lotte": -24, "bert": 16}
    assert got["jan"]["taken"] == 0 and got["lotte"]["taken"] == 0 and got["bert"]["deals"] == 2


def test_terminal_table_has_a_trend_sparkline(db):
    out = ok(db, "standings").stdout
    lines = out.splitlines()
    assert lines[0] == "standings, all sessions"
    assert "trend" in lines[1]
    row = {line.split()[1]: line for line in lines[3:]}
    assert set(row) == {"lotte", "bert", "jan", "mieke", "piet"}
    # lotte's running total after each evening: 29, 50, 42 -> lowest, highest, in between
    assert row["lotte"].rstrip().endswith("▁█▅")  # (42 - 29) / (50 - 29) of the way up: the 5th of 8 bars
    assert row["bert"].rstrip().endswith("▄")  # one evening: a flat line
    assert "+42" in row["lotte"] and "-30" in row["piet"] and "100%" in row["lotte"] and "67%" in row["mieke"]


def test_markdown(db):
    out = ok(db, "standings", "--format", "markdown").stdout
    lines = [line for line in out.splitlines() if line.startswith("|")]
    assert len(lines) == 2 + 5
    assert lines[2].split("|")[2].strip() == "lotte"


def test_bad_dates_are_refused(db):
    assert "not a date" in refused(db, "standings", "--since", "2026-13-01")
    assert "after" in refused(db, "standings", "--since", "2026-03-01", "--until", "2026-02-01")


@pytest.mark.parametrize("day", ["2026-01-09", "2026-01-12", "2026-02-20", "2026-03-25", "2026-12-04"])
def test_relative_dates(db, monkeypatch, day):
    import datetime

    from wiezen_score.core import dates

    today = datetime.date.fromisoformat(day)  # before, between and after the evenings of the ledger
    monkeypatch.setattr(dates, "today", lambda: today)
    evenings = ("2026-01-10", "2026-02-14", "2026-03-21")
    expected = {p for d, week in zip(evenings, TOTALS, strict=False) if d <= day for p in week}
    assert {d["player"] for d in standings(db, "--until", "today")} == expected
    week_ago = (today - datetime.timedelta(days=7)).isoformat()
    recent = set().union(*(set(week) for d, week in zip(evenings, TOTALS, strict=False) if d >= week_ago))  # --since alone: no end
    assert {d["player"] for d in standings(db, "--since", "last-week")} == recent


def test_no_ledger_yet(tmp_path):
    db = tmp_path / "none.db"
    assert "no sessions yet" in ok(db, "standings").stdout
    assert standings(db) == []
    assert not db.exists()
