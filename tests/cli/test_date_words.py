"""Dates as people say them, in every date option, through the `wiezen` command; `sessions` shows the
weekday; `sheet --date DATE` answers "what did we play last friday?" in one command.

Every test runs once for each day of a fixed week (the `today` fixture of tests/conftest.py fixes the day the
commands read date words against), so that no test depends on the day or the hour it runs.
"""

import datetime as dt
import json

import pytest
from test_deal_words import error, ok, run


def last(weekday: int, today: dt.date) -> dt.date:
    """The last such day before today (Monday = 0): one to seven days back."""
    for back in range(1, 8):
        d = today - dt.timedelta(days=back)
        if d.weekday() == weekday:
            return d
    raise AssertionError


def started_date(db, *date_words):
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", *date_words)
    date = json.loads(ok(db, "sheet", "--json").stdout)["session"]["date"]
    ok(db, "session", "end")
    return date


DAY = dt.timedelta(days=1)
SAID = [
    ("yesterday", lambda t: t - DAY),
    ("gisteren", lambda t: t - DAY),
    ("today", lambda t: t),
    ("vandaag", lambda t: t),
    ("friday", lambda t: last(4, t)),
    ("last friday", lambda t: last(4, t)),
    ("Vrijdag", lambda t: last(4, t)),
    ("vorige vrijdag", lambda t: last(4, t)),
    ("maandag", lambda t: last(0, t)),
    ("last-week", lambda t: t - 7 * DAY),
    ("vorige-week", lambda t: t - 7 * DAY),
    ("vorige week", lambda t: t - 7 * DAY),
    ("27/11/2026", lambda t: dt.date(2026, 11, 27)),
    ("27-11-2026", lambda t: dt.date(2026, 11, 27)),
    ("5/1/2026", lambda t: dt.date(2026, 1, 5)),
    ("2026-11-27", lambda t: dt.date(2026, 11, 27)),
]


@pytest.mark.parametrize("word, expected", SAID, ids=[w for w, _ in SAID])
def test_session_start_date_as_people_say_it(tmp_path, word, expected, today):
    assert started_date(tmp_path / "w.db", word) == expected(today).isoformat()


def test_a_weekday_is_never_today_nor_more_than_a_week_back(tmp_path, today):
    for i, day in enumerate(("monday", "dinsdag", "wednesday", "donderdag", "friday", "zaterdag", "zondag")):
        d = dt.date.fromisoformat(started_date(tmp_path / f"{i}.db", day))
        assert d.weekday() == i and 1 <= (today - d).days <= 7, day


def test_last_month_in_dutch(tmp_path, today):
    d = dt.date.fromisoformat(started_date(tmp_path / "w.db", "vorige-maand"))
    assert (d.year * 12 + d.month) == (today.year * 12 + today.month) - 1


def test_bad_dates_name_the_forms_and_write_nothing(tmp_path):
    db = tmp_path / "w.db"
    for word in ("tomorrow", "31/02/2026", "volgende vrijdag", "2026/11/27"):
        msg = error(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", word)
        assert "not a date" in msg and "\n" not in msg, msg
    assert "DD/MM/YYYY" in error(db, "session", "start", "--players", "a,b,c,d", "--date", "morgen")
    assert "February 2026 has 28 days" in error(db, "sessions", "--since", "31/02/2026")
    assert "no sessions yet" in ok(db, "sessions").stdout


def evenings(folder, today):
    """Sessions on last friday, the day before it, and a week and a half ago; returns (db, last friday)."""
    db = folder / "w.db"
    friday = last(4, today)
    for name, day in (
        ("De Kroon", friday),
        ("Thuis", friday - dt.timedelta(days=1)),
        ("Lang geleden", today - dt.timedelta(days=10)),
    ):
        ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--name", name, "--date", day.isoformat())
        ok(db, "deal", "samen", "8", "jan+piet", "9" if name == "De Kroon" else "7")
        ok(db, "session", "end")
    return db, friday


def names(db, *args):
    return [s["name"] for s in json.loads(ok(db, "sessions", "--json", *args).stdout)]


def test_since_and_until_take_the_same_forms(tmp_path, today):
    db, friday = evenings(tmp_path, today)
    assert names(db, "--since", "last friday") == ["De Kroon"]
    assert names(db, "--since", "vorige vrijdag") == ["De Kroon"]
    assert names(db, "--since", "vorige week") == ["De Kroon", "Thuis"][: 2 if (today - friday).days < 7 else 1]
    assert names(db, "--until", friday.strftime("%d/%m/%Y")) == ["De Kroon", "Thuis", "Lang geleden"]
    # on a Saturday, yesterday is last friday
    assert names(db, "--since", "gisteren") == (["De Kroon"] if (today - friday).days == 1 else [])


def test_sessions_shows_the_weekday(tmp_path, today):
    db, friday = evenings(tmp_path, today)
    out = ok(db, "sessions").stdout
    line = next(x for x in out.splitlines() if "De Kroon" in x)
    assert f"{friday.strftime('%a')} {friday.isoformat()}" in line and "Fri" in line
    doc = json.loads(ok(db, "sessions", "--json").stdout)
    assert doc[0]["weekday"] == "Fri"


def test_what_did_we_play_last_friday(tmp_path, today):
    db, friday = evenings(tmp_path, today)
    r = ok(db, "sheet", "--date", "last friday")
    assert "De Kroon" in r.stdout and "samen 8 jan+piet 9" in r.stdout and "Thuis" not in r.stdout
    doc = json.loads(ok(db, "sheet", "--date", "vrijdag", "--json").stdout)
    assert doc["session"]["name"] == "De Kroon" and doc["session"]["date"] == friday.isoformat()
    # a date where a session id is asked picks that evening too
    assert json.loads(ok(db, "sheet", "--session", "vorige vrijdag", "--json").stdout) == doc
    assert "#1 samen 8 jan+piet 9" in ok(db, "explain", "1", "--date", "friday").stdout
    assert "De Kroon" in ok(db, "settle", "--date", friday.strftime("%d-%m-%Y")).stdout


def test_no_session_that_day_or_several(tmp_path, today):
    db, friday = evenings(tmp_path, today)
    msg = error(db, "sheet", "--date", (friday - dt.timedelta(days=2)).isoformat())  # a day with no session
    assert "no session on" in msg and "De Kroon" not in msg and friday.isoformat() in msg  # the latest are named
    ok(db, "session", "start", "--players", "an,bob,cas,dirk", "--name", "Tafel 2", "--date", "friday")
    ok(db, "session", "end")
    msg = error(db, "explain", "1", "--date", "friday")  # one entry of one session: which one?
    assert "2 sessions on" in msg and "Tafel 2" in msg and "De Kroon" in msg and "--session" in msg
    both = ok(db, "sheet", "--date", "friday").stdout  # the sheet shows the evening: both sessions
    assert "De Kroon" in both and "Tafel 2" in both and "the evening (2 sessions)" in both
    assert "not both" in error(db, "sheet", "--date", "friday", "--session", "1")


def test_session_files_and_play_take_the_same_dates(tmp_path, today):
    db = tmp_path / "w.db"
    tmp_path.mkdir(parents=True, exist_ok=True)
    f = tmp_path / "avond.txt"
    f.write_text('session "Café De Kroon" 27/11/2026\nplayers jan piet mieke lotte\nsamen 8 jan+piet 9\n',
                 encoding="utf-8")
    d = json.loads(ok(db, "replay", str(f), "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("Café De Kroon", "2026-11-27")
    r = run(db, "play", input='session "Thuis" vorige vrijdag\nplayers jan piet mieke lotte\nquit\n')
    assert r.returncode == 0, r.stderr
    d = json.loads(ok(db, "sheet", "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("Thuis", last(4, today).isoformat())
    ok(db, "session", "end")
    r = run(db, "play", input='session De Kroon Vrijdagavond\nplayers jan piet mieke lotte\nquit\n')
    d = json.loads(ok(db, "sheet", "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("De Kroon Vrijdagavond", today.isoformat())  # no date word: a name
