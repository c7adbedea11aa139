"""Numbers as text, in one place: points as players write them, signed points, JSON numbers, money, percentages.

Two kinds of output, never mixed up:

- text for a person (the sheet, explanations, settle lines, check reports, HTML pages): :func:`fmt`,
  :func:`signed`, :func:`decimal`, :func:`signed_decimal`, :func:`money`, :func:`percent`. In Dutch
  (``core.i18n.dutch()``) the decimal separator is a comma: ``7,5``, ``€ 2,30``; in English a point: ``7.5``,
  ``€2.30``.
- values for a machine (JSON, CSV cells, SVG coordinates): :func:`plain` and :func:`rounded` give numbers, which
  the JSON and CSV writers write with a decimal point whatever the language (the CSV writer's ``excel-nl``
  dialect has its own rule, views/render.py); ``machine=True`` asks the text functions for the same.
"""

from __future__ import annotations

from typing import Union

from . import i18n

if False:  # pragma: no cover - typing only, keeps fractions off the start-up path
    from fractions import Fraction

Number = Union[int, float, "Fraction"]  # points as stored (REAL) or computed


def _local(text: str, machine: bool) -> str:
    """``text`` (a number written with a decimal point) as the language writes it: a comma in Dutch."""
    return text.replace(".", ",") if not machine and i18n.dutch() else text


def _sign(text: str) -> str:
    """A '+' before a written number that is above zero ('-7' and '0' stay as they are)."""
    return text if text.startswith("-") or text == "0" else f"+{text}"


def fmt(p: Number, machine: bool = False) -> str:
    """A point amount as a player writes it: 7, -7.5 (Dutch: -7,5); a third with two decimals, -0.67 (Dutch -0,67)
    (the figure is exact; only its text is rounded)."""
    v = plain(p)
    if isinstance(v, float) and not (2 * v).is_integer() and abs(v) < 1e15:
        return _local(_two_decimals(exact_points(p)), machine)
    return _local(str(v), machine)


def _two_decimals(x: Number) -> str:
    """An exact amount with two decimals, rounded half away from zero: -4/3 -> '-1.33', 2/3 -> '0.67'."""
    from fractions import Fraction

    f = Fraction(x)
    hundredths = (abs(f) * 100 * 2 + 1) // 2  # half up, on the absolute value
    sign = "-" if f < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


#: every point amount is a whole number of sixths (halves: split miseries; thirds: payment = "shared")
SIXTHS = 6


def exact_points(v: Number, tolerance: float = 1e-12) -> int | Fraction:
    """A point amount as an exact number: an int when whole, else a Fraction.

    A float is taken to be the nearest sixth when it is within ``tolerance`` (relative) of one: every amount is a
    whole number of sixths, and a third is written as the nearest double (-1.3333333333333333 is -4/3). The
    default fits a number as JSON writes it; a REAL that SQLite summed from many thirds is further off (a few
    units in the last place per addition): read it with a looser ``tolerance`` (1e-6). Any other float keeps the
    decimal it was written as (0.1 is 1/10, 3.000000001 stays what it says)."""
    if isinstance(v, int):
        return v
    from fractions import Fraction

    if isinstance(v, float):
        f = Fraction(repr(v)) if v == v and abs(v) != float("inf") else None
        if f is None:
            raise ValueError(f"not a number of points: {v!r}")
        if abs(v) < 1e15:
            six = round(v * SIXTHS)
            if abs(v * SIXTHS - six) <= tolerance * max(1.0, abs(v * SIXTHS)):
                f = Fraction(six, SIXTHS)
    else:
        f = Fraction(v)
    return f.numerator if f.denominator == 1 else f


def signed(p: Number, machine: bool = False, plus_zero: bool = False) -> str:
    """Points with their sign: +7, -7.5, 0 (``plus_zero``: +0, as a difference is written)."""
    s = _sign(fmt(p, machine))
    return "+0" if plus_zero and s == "0" else s


def plain(p: Number) -> int | float:
    """A JSON-friendly number: int when whole, float otherwise: exact for halves, the nearest double for a third
    (-1.3333333333333333; :func:`exact_points` reads it back as -4/3).

    Takes computed points (int, Fraction) and stored ones (SQLite REAL comes back as float).
    """
    if isinstance(p, float):
        if p.is_integer():
            return int(p)
        if not (2 * p).is_integer() and abs(p) < 1e15:  # a sum of thirds (SQLite's REAL): the double nearest it
            return plain(exact_points(p, 1e-6))
        return p
    if getattr(p, "denominator", 1) == 1:
        return int(p)
    return float(p)


def rounded(v: Number, places: int = 2) -> int | float:
    """A JSON number with at most ``places`` decimals (an average): ints stay ints."""
    return v if isinstance(v, int) else round(float(v), places)


def decimal(x: Number, places: int = 2, machine: bool = False) -> str:
    """7, -7.5, 0.33: what a person writes for any number (no trailing zeros, at most ``places`` decimals);
    '' for NaN."""
    if isinstance(x, int):
        return str(x)
    f = float(x)
    if f != f:
        return ""
    if f == int(f) and abs(f) < 1e15:
        return str(int(f))
    text = f"{f:.{places}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return _local(text, machine)


def signed_decimal(x: Number, places: int = 2, machine: bool = False) -> str:
    """:func:`decimal` with its sign: +7, -0.33, 0."""
    return _sign(decimal(x, places, machine))


def money(cents: int, symbol: bool = True, machine: bool = False) -> str:
    """An amount of money from cents: €1.25 and -€0.50 (Dutch: € 1,25 and -€ 0,50); without ``symbol``
    1.25 and -0.50 (Dutch 1,25)."""
    sign = "-" if cents < 0 else ""
    euros, rest = divmod(abs(int(cents)), 100)
    amount = _local(f"{euros}.{rest:02d}", machine)
    if not symbol:
        return f"{sign}{amount}"
    return f"{sign}€ {amount}" if not machine and i18n.dutch() else f"{sign}€{amount}"


def grouped(n: int, machine: bool = False) -> str:
    """A large whole number with its thousands marked: 1,000,000 (Dutch: 1.000.000)."""
    text = f"{int(n):,}"
    return text.replace(",", ".") if not machine and i18n.dutch() else text


def percent(rate: float, places: int = 0, machine: bool = False) -> str:
    """A rate (0.667) as a percentage: 67% (``places``: at most that many decimals, 12.5%; Dutch 12,5%)."""
    return decimal(rate * 100, places, machine) + "%"
