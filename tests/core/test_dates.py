import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiezen_score.core.dates import parse_date, parse_when
from wiezen_score.core.errors import WiezenError

TODAY = dt.date(2026, 3, 31)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-11-27", dt.date(2026, 11, 27)),
        ("  2024-02-29 ", dt.date(2024, 2, 29)),
        ("today", TODAY),
        ("TODAY", TODAY),
        (" Yesterday ", dt.date(2026, 3, 30)),
        ("last-week", dt.date(2026, 3, 24)),
        ("Last-Week", dt.date(2026, 3, 24)),
        ("last week", dt.date(2026, 3, 24)),
        ("last_week", dt.date(2026, 3, 24)),
        ("last-month", dt.date(2026, 2, 28)),
        ("LAST-MONTH", dt.date(2026, 2, 28)),
    ],
)
def test_parse_when(text, expected):
    assert parse_when(text, TODAY) == expected


@pytest.mark.parametrize(
    "today, expected",
    [
        (dt.date(2026, 3, 31), dt.date(2026, 2, 28)),
        (dt.date(2024, 3, 31), dt.date(2024, 2, 29)),
        (dt.date(2026, 1, 15), dt.date(2025, 12, 15)),
        (dt.date(2026, 5, 31), dt.date(2026, 4, 30)),
        (dt.date(2026, 7, 31), dt.date(2026, 6, 30)),
        (dt.date(2026, 12, 31), dt.date(2026, 11, 30)),
        (dt.date(2026, 6, 10), dt.date(2026, 5, 10)),
    ],
)
def test_last_month_clamps(today, expected):
    assert parse_when("last-month", today) == expected


def test_yesterday_crosses_year():
    assert parse_when("yesterday", dt.date(2026, 1, 1)) == dt.date(2025, 12, 31)


@pytest.mark.parametrize(
    "text", ["", "   ", "tomorrow", "last-year", "2026/11/27", "next friday", "2026-1-5", "20261127", "2026-11-27T10:00", "lastweek"]
)
def test_parse_when_rejects_with_accepted_forms(text):
    with pytest.raises(WiezenError) as info:
        parse_when(text, TODAY)
    msg = str(info.value)
    assert "\n" not in msg
    for form in ("YYYY-MM-DD", "today", "yesterday", "last-week", "last-month"):
        assert form in msg


@pytest.mark.parametrize(
    "text, hint",
    [
        ("2026-02-30", "February 2026 has 28 days"),
        ("2024-02-30", "February 2024 has 29 days"),
        ("2026-04-31", "April 2026 has 30 days"),
        ("2026-13-01", "month"),
        ("2026-00-10", "month"),
        ("2026-01-00", "January 2026 has 31 days"),
        ("0000-01-01", "year"),
    ],
)
def test_parse_date_impossible_dates(text, hint):
    with pytest.raises(WiezenError, match=hint):
        parse_date(text)
    with pytest.raises(WiezenError, match=hint):
        parse_when(text, TODAY)


@pytest.mark.parametrize("text", ["today", "27-11-2026", "2026/11/27", "2026-11-27 x", "２０２６-１１-２７", "", "20261127"])
def test_parse_date_is_strict(text):
    with pytest.raises(WiezenError, match="YYYY-MM-DD"):
        parse_date(text)


def test_error_is_one_line_even_for_multiline_input():
    with pytest.raises(WiezenError) as info:
        parse_when("next\nweek", TODAY)
    assert "\n" not in str(info.value)


def test_far_past_is_a_user_error():
    with pytest.raises(WiezenError):
        parse_when("last-month", dt.date(1, 1, 5))
    with pytest.raises(WiezenError):
        parse_when("last-week", dt.date(1, 1, 5))


@given(st.dates())
def test_isoformat_round_trips(d):
    assert parse_date(d.isoformat()) == d
    assert parse_when(f" {d.isoformat()} ", TODAY) == d


@given(st.dates(min_value=dt.date(2, 1, 1)))
def test_relative_words(today):
    assert parse_when("today", today) == today
    assert parse_when("yesterday", today) == today - dt.timedelta(days=1)
    assert parse_when("last-week", today) == today - dt.timedelta(days=7)
    lm = parse_when("last-month", today)
    assert lm < today
    assert (lm.year * 12 + lm.month) == (today.year * 12 + today.month) - 1
    assert lm.day == today.day or (lm.day < today.day and (lm + dt.timedelta(days=1)).month != lm.month)
