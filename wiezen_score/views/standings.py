"""The season's standings as rows and labels: ranks, the shared CSV/markdown/HTML rows, the period's name."""

from __future__ import annotations

from typing import Any

from ..core.dates import date_text
from ..core.i18n import _
from ..core.numbers import percent, rounded


def _period(lo: str | None, hi: str | None) -> str:
    if lo and hi:
        return _("{since} to {until}").format(since=date_text(lo), until=date_text(hi))
    if lo:
        return _("since {date}").format(date=date_text(lo))
    if hi:
        return _("until {date}").format(date=date_text(hi))
    return _("all sessions")


def _pct(rate: float | None) -> str:
    return "" if rate is None else percent(rate)


def _avg(v: float | int) -> int | float:
    return rounded(v)


def ranks(items: list[dict[str, Any]]) -> list[int]:
    """Standard competition ranking of players sorted best first: equal points, equal rank (1, 2, 2, 4)."""
    out: list[int] = []
    for i, d in enumerate(items):
        out.append(out[-1] if i and d["points"] == items[i - 1]["points"] else i + 1)
    return out


def standings_rows(items: list[dict[str, Any]]) -> list[list[Any]]:
    """The rows shared by the csv, markdown and html formats (numbers stay numbers)."""
    return [
        [rank, d["player"], d["points"], d["sessions"], d["deals"], d["taken"], d["made"],
         d["success_rate"], d["best"], d["worst"], _avg(d["average"])]
        for rank, d in zip(ranks(items), items)
    ]  # fmt: skip


HEADERS = ["rank", "player", "points", "sessions", "deals", "taken", "made", "success_rate", "best", "worst", "average"]
