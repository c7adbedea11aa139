"""The season's standings as rows and labels: ranks, the shared CSV/markdown/HTML rows, the period's name."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dates import date_text
from ..core.i18n import N_, NP_, _
from ..core.numbers import percent, rounded

if TYPE_CHECKING:
    from ..core.documents import RankedStanding, StandingRow
    from .render import Series


def _period(lo: str | None, hi: str | None) -> str:
    if lo and hi:
        return _("{since} to {until}").format(since=date_text(lo), until=date_text(hi))
    if lo:
        return _("since {date}").format(date=date_text(lo))
    if hi:
        return _("until {date}").format(date=date_text(hi))
    return _("all sessions")


def _pct(rate: object) -> str:
    return percent(rate) if isinstance(rate, (int, float)) else ""  # (None: he took no contract)


def _avg(v: float | int) -> int | float:
    return rounded(v)


def ranks(items: list[StandingRow]) -> list[int]:
    """Standard competition ranking of players sorted best first: equal points, equal rank (1, 2, 2, 4)."""
    out: list[int] = []
    for i, d in enumerate(items):
        out.append(out[-1] if i and d["points"] == items[i - 1]["points"] else i + 1)
    return out


def standings_rows(items: list[StandingRow]) -> list[list[object]]:
    """The rows shared by the csv, markdown and html formats (numbers stay numbers)."""
    return [
        [rank, d["player"], d["points"], d["evenings"], d["sessions"], d["deals"], d["taken"], d["made"],
         d["success_rate"], d["best"], d["worst"], _avg(d["average"])]
        for rank, d in zip(ranks(items), items, strict=False)
    ]  # fmt: skip


HEADERS = ["rank", "player", "points", "evenings", "sessions", "deals", "taken", "made", "success_rate", "best", "worst", "average"]


#: the columns of the standings table and page (after "#"), as msgids: translated where shown
STANDINGS_COLUMNS = (N_("player"), N_("points"), N_("evenings"), NP_("column", "deals"), N_("taken"), N_("made"),
                     N_("success"),
                     N_("best"), N_("worst"), N_("average"), N_("trend"))


def standings_json(items: list[StandingRow]) -> list[RankedStanding]:
    """The `standings --json` document: each player's figures with his rank (average rounded to 2 decimals)."""
    return [{"rank": rank, **d, "average": _avg(d["average"])} for rank, d in zip(ranks(items), items, strict=False)]


def standings_html(items: list[StandingRow], series: Series, period: str,
                   title: str | None, today: str) -> str:
    """The standings as one self-contained HTML page with the season's chart."""
    from .formats import column
    from .render import html_page

    # (the page counts evenings as dates, as the table does: the CSV's sessions column is left out)
    rows = [r[:4] + r[5:8] + [_pct(r[8])] + r[9:] for r in standings_rows(items)]
    headers = ["#", *(column(h) for h in STANDINGS_COLUMNS[:10])]
    sub = _("{period}; as of {date}.").format(period=f"{period[:1].upper()}{period[1:]}", date=today) if title else ""
    return html_page(title or _("Standings, {period}").format(period=period), headers, rows, series, subtitle=sub)


def standings_text(items: list[StandingRow], series: Series, period: str,
                   markdown: bool = False) -> str:
    """The standings as a text table with a trend sparkline per player (or a markdown table with its heading)."""
    from ..core.numbers import signed_decimal as num
    from .formats import column
    from .render import _md, sparkline, table

    rows = [
        [rank, _md(d["player"]) if markdown else d["player"], num(d["points"]), d["evenings"],
         d["deals"], d["taken"], d["made"], _pct(d["success_rate"]), num(d["best"]), num(d["worst"]),
         num(_avg(d["average"])), sparkline([v for _, v in series.get(d["player"], [])])]
        for rank, d in zip(ranks(items), items, strict=False)
    ]  # fmt: skip
    headers = ["#", *(column(h) for h in STANDINGS_COLUMNS)]
    align = ("right", "left") + ("right",) * 9 + ("left",)
    if markdown:
        return ("## " + _("Standings, {period}").format(period=period) + "\n\n"
                + table(rows, headers, tablefmt="pipe", colalign=align))
    return _("standings, {period}").format(period=period) + "\n" + table(rows, headers, colalign=align)
