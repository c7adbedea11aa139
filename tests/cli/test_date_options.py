"""Dates a person types on the command line (--since/--until on `sessions` and `precedent list`), the
`sessions` list, and `sheet --session ID` showing an old session exactly as it was recorded.

Expected values by hand: last-week is today minus 7 days, inclusive; under the house rules below a samen 8
made with 8 tricks gives each taker +2, and a penalty costs the offender 5 (later 10) to each of three others.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from _ledger_helpers import copy_ledger, ok, refused, start

PLAYERS = ["jan", "piet", "mieke", "lotte"]


def day(n: int, today: dt.date) -> str:
    return (today - dt.timedelta(days=n)).isoformat()


@pytest.fixture
def evenings(ledger_template, tmp_path, today):
    """Sessions 0, 3, 7, 8 and 40 days before "today" (recorded in a jumbled order), each ended: recorded once per
    day of the fixed week (the `today` fixture of tests/conftest.py) into a template ledger and copied for each
    test. Returns (db, ids, today)."""
    order = [(8, "jan+piet"), (0, "mieke+lotte"), (40, "jan+mieke"), (3, "piet+lotte"), (7, "jan+lotte")]

    def build(db, _):
        for n, takers in order:
            start(db, PLAYERS, "whisthub", "--date", day(n, today), "--name", f"avond-{n}")
            ok(db, "deal", "samen", "8", takers, "8")
            ok(db, "session", "end")

    db = copy_ledger(ledger_template(f"dates-cli-{today.isoformat()}", build), tmp_path / "w.db")
    return db, {n: i for i, (n, _) in enumerate(order, 1)}, today


def listed(db, *args):
    return [s["id"] for s in json.loads(ok(db, "sessions", "--json", *args).stdout)]


def test_sessions_newest_first_with_leader(evenings):
    db, ids, today = evenings
    assert listed(db) == [ids[0], ids[3], ids[7], ids[8], ids[40]]
    first = json.loads(ok(db, "sessions", "--json").stdout)[0]
    assert (first["date"], first["name"], first["players"], first["deals"], first["rules"]) == (
        today.isoformat(), "avond-0", PLAYERS, 1, "whisthub")
    assert first["leader"] == "mieke, lotte"  # the takers of the one deal share the lead with +2
    table = ok(db, "sessions").stdout
    for word in ("date", "name", "players", "deals", "leader", "rules", "avond-40", "whisthub"):
        assert word in table


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--since", "last-week"], [0, 3, 7]),
        (["--since", "Last Week"], [0, 3, 7]),
        (["--since", "today"], [0]),
        (["--since", "yesterday"], [0]),
        (["--until", "yesterday"], [3, 7, 8, 40]),
        (["--until", "last-week"], [7, 8, 40]),
        (["--since", "last-month", "--until", "last-week"], [7, 8]),
        (["--since", 8, "--until", 3], [3, 7, 8]),  # a number: that many days before today, as YYYY-MM-DD
        (["--since", "today", "--until", "last-week"], []),
    ],
)
def test_sessions_since_until(evenings, args, expected):
    db, ids, today = evenings  # last-month is the same day a month before: 28 to 31 days back (40 is out, 8 is in)
    args = [day(a, today) if isinstance(a, int) else a for a in args]
    assert listed(db, *args) == [ids[n] for n in expected]


def test_sessions_in_an_empty_period(evenings):
    db, _, _ = evenings
    assert "no sessions in that period" in ok(db, "sessions", "--since", "today", "--until", "yesterday").stdout


@pytest.mark.parametrize("word", ["volgende-week", "tomorrow", "27/13/2026", "2026-02-30", ""])
def test_bad_dates_are_one_error_line(evenings, word):
    db, _, _ = evenings
    assert "not a date" in refused(db, "sessions", "--since", word)
    assert "not a date" in refused(db, "sessions", "--until", word)
    assert "not a date" in refused(db, "precedent", "list", "--since", word)


def test_precedent_list_since_last_week(evenings):
    db, ids, _ = evenings
    for n in (0, 7, 8):
        ok(db, "precedent", "add", f"Uitspraak {n}", "--ruling", "x", "--session", str(ids[n]))
    got = [p["title"] for p in json.loads(ok(db, "precedent", "list", "--since", "last-week", "--json").stdout)]
    assert got == ["Uitspraak 0", "Uitspraak 7"]  # dated by their session, newest first
    got = [p["title"] for p in json.loads(ok(db, "precedent", "list", "--until", "last-week", "--json").stdout)]
    assert got == ["Uitspraak 7", "Uitspraak 8"]


RULES = """name = "ons-cafe"
penalty = 5
[contracts.samen]
team = true
levels = [8]
made = [2]
lost = [3]
"""


def test_sheet_of_an_old_session_as_it_was(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(RULES, encoding="utf-8")
    ok(db, "rules", "add", str(f))
    start(db, PLAYERS, "ons-cafe", "--date", "2026-11-20")
    ok(db, "deal", "samen", "8", "jan+piet", "8")
    ok(db, "penalty", "mieke", "--reason", "renonce")
    ok(db, "session", "end")
    old_sheet = ok(db, "sheet", "--session", "1", "--json").stdout
    old_explain = ok(db, "explain", "2", "--session", "1").stdout
    # the house rules change, and a new session is played under them
    f.write_text(RULES.replace("penalty = 5", "penalty = 10"), encoding="utf-8")
    ok(db, "rules", "add", str(f))
    start(db, PLAYERS, "ons-cafe", "--date", "2026-11-27")
    ok(db, "penalty", "mieke")
    assert json.loads(ok(db, "sheet", "--json").stdout)["totals"]["mieke"] == -30
    # the old session is shown exactly as it was
    assert ok(db, "sheet", "--session", "1", "--json").stdout == old_sheet
    assert ok(db, "explain", "2", "--session", "1").stdout == old_explain
    doc = json.loads(old_sheet)
    assert doc["totals"] == {"jan": 2 + 5, "piet": 2 + 5, "mieke": -2 - 15, "lotte": -2 + 5}
    assert doc["session"]["date"] == "2026-11-20" and doc["session"]["rules"] == "ons-cafe"
    text = ok(db, "sheet", "--session", "1").stdout
    assert "session 1" in text and "2026-11-20" in text and "ended" in text
