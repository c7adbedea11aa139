"""Dates as a person types them: ``--since``/``--until`` words and strict session dates.

Pure: the caller passes "today", so the results never depend on the clock.
"""

from __future__ import annotations

import datetime

from .errors import WiezenError

__all__ = ["ACCEPTED_FORMS", "parse_date", "parse_when"]

ACCEPTED_FORMS = "YYYY-MM-DD, today, yesterday, last-week or last-month"

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def _days_in_month(year: int, month: int) -> int:
    if month == 12:
        return 31
    return (datetime.date(year, month + 1, 1) - datetime.date(year, month, 1)).days


def _looks_like_iso(s: str) -> bool:
    """``NNNN-NN-NN`` with ASCII digits (``date.fromisoformat`` alone accepts more forms)."""
    return (
        len(s) == 10
        and s[4] == "-"
        and s[7] == "-"
        and (s[:4] + s[5:7] + s[8:]).isascii()
        and (s[:4] + s[5:7] + s[8:]).isdigit()
    )


def _iso_to_date(s: str) -> datetime.date:
    """``s`` already has the YYYY-MM-DD shape; explain exactly what is wrong with it, if anything."""
    year, month, day = int(s[:4]), int(s[5:7]), int(s[8:])
    if year < 1:
        raise WiezenError(f"'{s}' is not a date: there is no year 0000.")
    if not 1 <= month <= 12:
        raise WiezenError(f"'{s}' is not a date: the month must be 01 to 12.")
    last = _days_in_month(year, month)
    if not 1 <= day <= last:
        raise WiezenError(f"'{s}' is not a date: {_MONTHS[month - 1]} {year} has {last} days.")
    return datetime.date(year, month, day)


def parse_date(text: str) -> datetime.date:
    """A strict ``YYYY-MM-DD`` date (a session's date). Surrounding spaces are allowed."""
    s = text.strip()
    if not _looks_like_iso(s):
        shown = " ".join(s.split()) or "(empty)"
        raise WiezenError(f"'{shown}' is not a date; write it as YYYY-MM-DD (e.g. 2026-11-27).")
    return _iso_to_date(s)


def _month_before(d: datetime.date) -> datetime.date:
    year, month = (d.year - 1, 12) if d.month == 1 else (d.year, d.month - 1)
    if year < 1:
        raise WiezenError("'last-month' goes back before the year 1.")
    return datetime.date(year, month, min(d.day, _days_in_month(year, month)))


def parse_when(text: str, today: datetime.date) -> datetime.date:
    """What a person types for ``--since``/``--until``.

    ``YYYY-MM-DD``, ``today``, ``yesterday``, ``last-week`` (today minus 7 days) or ``last-month`` (the same day
    of the previous month, clamped to that month's end: 2026-03-31 gives 2026-02-28). Case does not matter,
    surrounding spaces are fine, and ``last week`` / ``last_week`` are read as ``last-week``.
    """
    s = text.strip()
    if _looks_like_iso(s):
        return _iso_to_date(s)
    word = "-".join(s.lower().replace("_", " ").replace("-", " ").split())
    if word == "today":
        return today
    if word == "last-month":
        return _month_before(today)
    back = {"yesterday": 1, "last-week": 7}.get(word)
    if back is not None:
        try:
            return today - datetime.timedelta(days=back)
        except OverflowError:
            raise WiezenError(f"'{word}' goes back before the year 1.") from None
    shown = " ".join(s.split()) or "(empty)"
    raise WiezenError(f"'{shown}' is not a date; use {ACCEPTED_FORMS}.")
