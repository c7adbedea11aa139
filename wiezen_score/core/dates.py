"""Dates as a person types them (every date option) and strict stored session dates.

Pure: the caller passes "today", so the results never depend on the clock.
"""

from __future__ import annotations

import datetime

from .errors import WiezenError
from .i18n import N_, _, dutch

__all__ = [
    "ACCEPTED_FORMS", "WEEKDAYS", "date_text", "day_text", "looks_like_date", "moment_text", "parse_date", "parse_when",
    "weekday_name",
]

ACCEPTED_FORMS = N_(
    "YYYY-MM-DD, DD/MM/YYYY, DD-MM-YYYY, today, yesterday, a weekday (friday, last friday, vrijdag, "
    "vorige vrijdag), last-week or last-month (in Dutch too: vandaag, gisteren, vorige-week, vorige-maand)"
)

#: weekday words, Monday first (English and Dutch, full and short)
WEEKDAYS: tuple[tuple[str, ...], ...] = (
    ("monday", "mon", "maandag", "ma"),
    ("tuesday", "tue", "dinsdag", "di"),
    ("wednesday", "wed", "woensdag", "wo"),
    ("thursday", "thu", "donderdag", "do"),
    ("friday", "fri", "vrijdag", "vr"),
    ("saturday", "sat", "zaterdag", "za"),
    ("sunday", "sun", "zondag", "zo"),
)
_WEEKDAY = {w: i for i, words in enumerate(WEEKDAYS) for w in words}
_DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_LAST = ("last", "vorige", "afgelopen")
_WORDS = {
    "today": "today", "vandaag": "today",
    "yesterday": "yesterday", "gisteren": "yesterday",
    "last-week": "last-week", "vorige-week": "last-week",
    "last-month": "last-month", "vorige-maand": "last-month",
}  # fmt: skip

_MONTHS = (
    N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"),
    N_("July"), N_("August"), N_("September"), N_("October"), N_("November"), N_("December"),
)  # fmt: skip
#: the weekday as a Belgian writes it before a date: ``vr 27/11/2026``
_DUTCH_DAYS = ("ma", "di", "wo", "do", "vr", "za", "zo")


def today() -> datetime.date:
    """Today: the one clock that every date word (today, yesterday, friday, last-week ...) and every default date
    is read against. Call it as ``dates.today()`` (looked up when called), so that a test can fix the day."""
    return datetime.date.today()


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


def _iso_to_date(s: str, shown: str = "") -> datetime.date:
    """``s`` already has the YYYY-MM-DD shape; explain exactly what is wrong with it, if anything."""
    year, month, day = int(s[:4]), int(s[5:7]), int(s[8:])
    s = shown or s
    if year < 1:
        raise WiezenError(_("'{date}' is not a date: there is no year 0000.").format(date=s))
    if not 1 <= month <= 12:
        raise WiezenError(_("'{date}' is not a date: the month must be 01 to 12.").format(date=s))
    last = _days_in_month(year, month)
    if not 1 <= day <= last:
        raise WiezenError(
            _("'{date}' is not a date: {month} {year} has {days} days.").format(
                date=s, month=_(_MONTHS[month - 1]), year=year, days=last
            )
        )
    return datetime.date(year, month, day)


def weekday_name(iso: str) -> str:
    """``Fri`` for ``2026-11-27`` (an empty string for a date that cannot be read)."""
    try:
        return _DAY_NAMES[datetime.date.fromisoformat(iso).weekday()][:3]
    except ValueError:
        return ""


def date_text(iso: str) -> str:
    """A stored date (``2026-11-27``) as a person reads it: unchanged in English, ``vr 27/11/2026`` in Dutch.

    Text only: JSON and CSV keep the ISO date.
    """
    return _dutch_date(iso) if dutch() else iso


def day_text(iso: str) -> str:
    """A stored date with its weekday: ``Fri 2026-11-27`` in English, ``vr 27/11/2026`` in Dutch."""
    return _dutch_date(iso) if dutch() else f"{weekday_name(iso)} {iso}"


def moment_text(stamp: str) -> str:
    """A stored moment (``2026-12-04T06:58:58+00:00``, UTC) as a person reads it: unchanged in English,
    ``vr 04/12/2026 06:58 UTC`` in Dutch (as a sheet's seal line says it). Text only: JSON keeps the stamp."""
    if not dutch():
        return stamp
    try:
        t = datetime.datetime.fromisoformat(stamp)
    except ValueError:
        return stamp  # not a moment this can read: shown as stored
    if t.tzinfo is not None:
        t = t.astimezone(datetime.timezone.utc)
    return f"{_dutch_date(t.date().isoformat())} {t:%H:%M} UTC"


def _dutch_date(iso: str) -> str:
    try:
        d = datetime.date.fromisoformat(iso)
    except ValueError:
        return iso  # not a date this can read: shown as stored
    return f"{_DUTCH_DAYS[d.weekday()]} {d.day:02d}/{d.month:02d}/{d.year:04d}"


def _day_first(s: str) -> datetime.date | None:
    """``DD/MM/YYYY`` or ``DD-MM-YYYY`` (one or two digits for the day and month); None when not that shape."""
    for sep in ("/", "-"):
        parts = s.split(sep)
        if (
            len(parts) == 3
            and all(p.isascii() and p.isdigit() for p in parts)
            and 1 <= len(parts[0]) <= 2
            and 1 <= len(parts[1]) <= 2
            and len(parts[2]) == 4
        ):
            return _iso_to_date(f"{parts[2]}-{int(parts[1]):02d}-{int(parts[0]):02d}", shown=s)
    return None


def looks_like_date(text: str) -> bool:
    """Whether ``text`` is one of the date forms parse_when reads (whatever day it gives)."""
    try:
        parse_when(text, datetime.date(2000, 1, 10))
    except WiezenError:
        return False
    return True


def parse_date(text: str) -> datetime.date:
    """A strict ``YYYY-MM-DD`` date (a session's date). Surrounding spaces are allowed."""
    s = text.strip()
    if not _looks_like_iso(s):
        shown = " ".join(s.split()) or _("(empty)")
        raise WiezenError(_("'{date}' is not a date; write it as YYYY-MM-DD (e.g. 2026-11-27).").format(date=shown))
    return _iso_to_date(s)


def _month_before(d: datetime.date) -> datetime.date:
    year, month = (d.year - 1, 12) if d.month == 1 else (d.year, d.month - 1)
    if year < 1:
        raise WiezenError(_("'{word}' goes back before the year 1.").format(word="last-month"))
    return datetime.date(year, month, min(d.day, _days_in_month(year, month)))


def parse_when(text: str, today: datetime.date) -> datetime.date:
    """What a person types for a date option.

    ``YYYY-MM-DD``, ``DD/MM/YYYY``, ``DD-MM-YYYY``; ``today``/``vandaag``, ``yesterday``/``gisteren``; a weekday in
    English or Dutch (``friday``, ``last friday``, ``vrijdag``, ``vorige vrijdag``, also ``fri``/``vr``): the last
    such day before today (one to seven days back); ``last-week``/``vorige-week`` (today minus 7 days) or
    ``last-month``/``vorige-maand`` (the same day of the previous month, clamped to that month's end: 2026-03-31
    gives 2026-02-28). Case does not matter, surrounding spaces are fine, and ``last week`` / ``last_week`` are
    read as ``last-week``.
    """
    s = text.strip()
    if _looks_like_iso(s):
        return _iso_to_date(s)
    found = _day_first(s)
    if found is not None:
        return found
    words = s.lower().replace("_", " ").replace("-", " ").split()
    word = _WORDS.get("-".join(words), "")
    if len(words) in (1, 2) and words[-1] in _WEEKDAY and (len(words) == 1 or words[0] in _LAST):
        days = (today.weekday() - _WEEKDAY[words[-1]]) % 7 or 7
        try:
            return today - datetime.timedelta(days=days)
        except OverflowError:
            raise WiezenError(_("'{word}' goes back before the year 1.").format(word=" ".join(words))) from None
    if word == "today":
        return today
    if word == "last-month":
        return _month_before(today)
    back = {"yesterday": 1, "last-week": 7}.get(word)
    if back is not None:
        try:
            return today - datetime.timedelta(days=back)
        except OverflowError:
            raise WiezenError(_("'{word}' goes back before the year 1.").format(word=word)) from None
    shown = " ".join(s.split()) or _("(empty)")
    raise WiezenError(_("'{date}' is not a date; use {forms}.").format(date=shown, forms=_(ACCEPTED_FORMS)))
