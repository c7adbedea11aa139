"""Dates as people say them, in every date option, through the installed `wiezen` command; `sessions` shows the
weekday; `sheet --date DATE` answers "what did we play last friday?" in one command.
"""

import datetime as dt
import json

import pytest
from test_table_words import error, ok, run

TODAY = dt.date.today()


def last(weekday: int) -> dt.date:
    """The last such day before today (Monday = 0): one to seven days back."""
    for back in range(1, 8):
        d = TODAY - dt.timedelta(days=back)
        if d.weekday() == weekday:
            return d
    raise AssertionError


FRIDAY = last(4)


def started_date(db, *date_words):
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", *date_words)
    date = json.loads(ok(db, "sheet", "--json").stdout)["session"]["date"]
    ok(db, "session", "end")
    return date


@pytest.mark.parametrize(
    "word, expected",
    [
        ("yesterday", TODAY - dt.timedelta(days=1)),
        ("gisteren", TODAY - dt.timedelta(days=1)),
        ("today", TODAY),
        ("vandaag", TODAY),
        ("friday", FRIDAY),
        ("last friday", FRIDAY),
        ("Vrijdag", FRIDAY),
        ("vorige vrijdag", FRIDAY),
        ("maandag", last(0)),
        ("last-week", TODAY - dt.timedelta(days=7)),
        ("vorige-week", TODAY - dt.timedelta(days=7)),
        ("vorige week", TODAY - dt.timedelta(days=7)),
        ("27/11/2026", dt.date(2026, 11, 27)),
        ("27-11-2026", dt.date(2026, 11, 27)),
        ("5/1/2026", dt.date(2026, 1, 5)),
        ("2026-11-27", dt.date(2026, 11, 27)),
    ],
)
def test_session_start_date_as_people_say_it(tmp_path, word, expected):
    assert started_date(tmp_path / "w.db", word) == expected.isoformat()


def test_a_weekday_is_never_today_nor_more_than_a_week_back(tmp_path):
    for i, day in enumerate(("monday", "dinsdag", "wednesday", "donderdag", "friday", "zaterdag", "zondag")):
        d = dt.date.fromisoformat(started_date(tmp_path / f"{i}.db", day))
        assert d.weekday() == i and 1 <= (TODAY - d).days <= 7, day


def test_last_month_in_dutch(tmp_path):
    d = dt.date.fromisoformat(started_date(tmp_path / "w.db", "vorige-maand"))
    assert (d.year * 12 + d.month) == (TODAY.year * 12 + TODAY.month) - 1


def test_bad_dates_name_the_forms_and_write_nothing(tmp_path):
    db = tmp_path / "w.db"
    for word in ("tomorrow", "31/02/2026", "volgende vrijdag", "2026/11/27"):
        msg = error(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", word)
        assert "not a date" in msg and "\n" not in msg, msg
    assert "DD/MM/YYYY" in error(db, "session", "start", "--players", "a,b,c,d", "--date", "morgen")
    assert "February 2026 has 28 days" in error(db, "sessions", "--since", "31/02/2026")
    assert "no sessions yet" in ok(db, "sessions").stdout


@pytest.fixture
def evenings(tmp_path):
    """Sessions on last friday, the day before it, and a week and a half ago."""
    db = tmp_path / "w.db"
    for name, day in (
        ("De Kroon", FRIDAY),
        ("Thuis", FRIDAY - dt.timedelta(days=1)),
        ("Lang geleden", TODAY - dt.timedelta(days=10)),
    ):
        ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--name", name, "--date", day.isoformat())
        ok(db, "deal", "samen", "8", "jan+piet", "9" if name == "De Kroon" else "7")
        ok(db, "session", "end")
    return db


def names(db, *args):
    return [s["name"] for s in json.loads(ok(db, "sessions", "--json", *args).stdout)]


def test_since_and_until_take_the_same_forms(evenings):
    assert names(evenings, "--since", "last friday") == ["De Kroon"]
    assert names(evenings, "--since", "vorige vrijdag") == ["De Kroon"]
    assert names(evenings, "--since", "vorige week") == ["De Kroon", "Thuis"][: 2 if (TODAY - FRIDAY).days < 7 else 1]
    assert names(evenings, "--until", FRIDAY.strftime("%d/%m/%Y")) == ["De Kroon", "Thuis", "Lang geleden"]
    assert names(evenings, "--since", "gisteren") == []


def test_sessions_shows_the_weekday(evenings):
    out = ok(evenings, "sessions").stdout
    line = next(x for x in out.splitlines() if "De Kroon" in x)
    assert f"{FRIDAY.strftime('%a')} {FRIDAY.isoformat()}" in line and "Fri" in line
    doc = json.loads(ok(evenings, "sessions", "--json").stdout)
    assert doc[0]["weekday"] == "Fri"


def test_what_did_we_play_last_friday(evenings):
    r = ok(evenings, "sheet", "--date", "last friday")
    assert "De Kroon" in r.stdout and "samen 8 jan+piet 9" in r.stdout and "Thuis" not in r.stdout
    doc = json.loads(ok(evenings, "sheet", "--date", "vrijdag", "--json").stdout)
    assert doc["session"]["name"] == "De Kroon" and doc["session"]["date"] == FRIDAY.isoformat()
    # a date where a session id is asked picks that evening too
    assert json.loads(ok(evenings, "sheet", "--session", "vorige vrijdag", "--json").stdout) == doc
    assert "#1 samen 8 jan+piet 9" in ok(evenings, "explain", "1", "--date", "friday").stdout
    assert "De Kroon" in ok(evenings, "settle", "--date", FRIDAY.strftime("%d-%m-%Y")).stdout


def test_no_session_that_day_or_several(evenings):
    msg = error(evenings, "sheet", "--date", (FRIDAY - dt.timedelta(days=3)).isoformat())
    assert "no session on" in msg and "De Kroon" not in msg and FRIDAY.isoformat() in msg  # the latest are named
    ok(evenings, "session", "start", "--players", "an,bob,cas,dirk", "--name", "Tafel 2", "--date", "friday")
    ok(evenings, "session", "end")
    msg = error(evenings, "sheet", "--date", "friday")
    assert "2 sessions on" in msg and "Tafel 2" in msg and "De Kroon" in msg and "--session" in msg
    assert "not both" in error(evenings, "sheet", "--date", "friday", "--session", "1")


def test_session_files_and_play_take_the_same_dates(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "avond.txt"
    f.write_text('session "Café De Kroon" 27/11/2026\nplayers jan piet mieke lotte\nsamen 8 jan+piet 9\n',
                 encoding="utf-8")
    d = json.loads(ok(db, "replay", str(f), "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("Café De Kroon", "2026-11-27")
    r = run(db, "play", input='session "Thuis" vorige vrijdag\nplayers jan piet mieke lotte\nquit\n')
    assert r.returncode == 0, r.stderr
    d = json.loads(ok(db, "sheet", "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("Thuis", FRIDAY.isoformat())
    ok(db, "session", "end")
    r = run(db, "play", input='session De Kroon Vrijdagavond\nplayers jan piet mieke lotte\nquit\n')
    d = json.loads(ok(db, "sheet", "--json").stdout)["session"]
    assert (d["name"], d["date"]) == ("De Kroon Vrijdagavond", TODAY.isoformat())  # no date word: a name
