"""Pure text renderers: spreadsheet-safe CSV, text and markdown tables, sparklines, a self-contained HTML page.

Nothing here does I/O; the callers print or write the strings. The HTML page has inline CSS and an inline SVG
chart, no JavaScript and no reference to anything outside itself, so it can be mailed or put on a USB stick.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.i18n import _, language
from ..core.numbers import decimal

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = ["csv_safe", "html_page", "sparkline", "to_csv"]

Cell = str | int | float

# A spreadsheet runs a cell as a formula when its text starts with one of these (OWASP "CSV injection"), and
# some also when it starts with the full-width forms or after leading white space.
_FORMULA_START = frozenset("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
_BARS = "▁▂▃▄▅▆▇█"


def _is_plain_number(s: str) -> bool:
    """``-15`` or ``-7.5``: harmless in a spreadsheet (it is just a number), so left alone."""
    body = s[1:] if s.startswith("-") else s
    whole, dot, frac = body.partition(".")
    return (
        whole.isascii() and whole.isdigit() and (not dot or (frac.isascii() and frac.isdigit()))
    )


def csv_safe(value: object) -> Cell:
    """One CSV cell that no spreadsheet will run as a formula.

    Numbers stay numbers (``int`` and ``float`` untouched, negative ones included; a whole ``Fraction``
    becomes an ``int``, another one a ``float``); ``None`` is an empty cell. Text that starts with
    ``= + - @``, a tab, CR or LF (also after leading spaces) gets a leading ``'``, the OWASP advice; text that is
    just a plain decimal number such as ``-15`` or ``-7.5`` is left as it is. NUL characters are left out.
    """
    if value is None:
        return ""
    if isinstance(value, str) and "\x00" in value:
        value = value.replace("\x00", "")  # a NUL byte: no spreadsheet shows it, and many stop reading there
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return value
    if hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, str):
        num, den = int(value.numerator), int(value.denominator)
        return num if den == 1 else num / den
    from .safe import safe

    text = value if isinstance(value, str) else str(value)
    # control and escape characters as visible escapes (views/safe.py): a cell is one line of plain text
    first = text.lstrip(" \u00a0\u3000")[:1]
    if (first and first in _FORMULA_START or text[:1] in _FORMULA_START) and not _is_plain_number(text):
        return "'" + safe(text)
    return safe(text)


# CSV dialects: (cell separator, decimal mark). "excel-nl" is what a spreadsheet set to Dutch, Flemish,
# French or German expects: ';' between cells and a decimal comma (0,8182), else it reads numbers as text.
CSV_DIALECTS = {"excel": (",", "."), "excel-nl": (";", ",")}


def to_csv(headers: Sequence[object], rows: Iterable[Sequence[object]], dialect: str = "excel") -> str:
    """A CSV document, every cell passed through :func:`csv_safe`.

    Text cells are always in double quotes and numbers never are (the OWASP advice, and it keeps a CR or LF
    inside a name from breaking the row); lines end in ``\\n``. ``dialect`` is a key of ``CSV_DIALECTS``.
    """
    sep, point = CSV_DIALECTS[dialect]  # the dialect's own decimal separator, whatever the language

    def cell(value: object) -> str:
        v = csv_safe(value)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            text = repr(v) if isinstance(v, float) else str(v)
            return text.replace(".", point) if point != "." else text
        return '"' + str(v).replace('"', '""') + '"'

    lines = [sep.join(cell(h) for h in headers)]
    lines += [sep.join(cell(c) for c in row) for row in rows]
    return "".join(line + "\n" for line in lines)


def sparkline(values: Sequence[float]) -> str:
    """One bar character per value, ``▁`` for the lowest and ``█`` for the highest (a flat series is ``▄``)."""
    nums = [float(v) for v in values]
    finite = [v for v in nums if v == v and v not in (float("inf"), float("-inf"))]
    if not finite:
        return " " * len(nums)
    lo, hi = min(finite), max(finite)
    out = []
    for v in nums:
        if v != v or v in (float("inf"), float("-inf")):
            out.append(" ")
        elif hi == lo:
            out.append(_BARS[3])
        else:
            out.append(_BARS[min(len(_BARS) - 1, int((v - lo) / (hi - lo) * len(_BARS)))])
    return "".join(out)


# ----------------------------------------------------------------------------------------------------- HTML

# Okabe-Ito (colour-blind safe) without its yellow, then a few more; beyond that the dash pattern changes.
_COLOURS = (
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#56B4E9", "#E69F00",
    "#000000", "#8C564B", "#7F3C8D", "#3B7A57",
)  # fmt: skip
_DASHES = ("", "6 4", "2 3", "8 3 2 3")

_CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; padding: 2rem 1rem; background: #f6f4ef; color: #222;
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 960px; margin: 0 auto; background: #fff; padding: 1.5rem 2rem 2rem;
  border-radius: 10px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
h1 { font-size: 1.6rem; margin: 0 0 1rem; color: #1d3b2a; }
p.sub { margin: -.6rem 0 1rem; color: #666; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; color: #1d3b2a; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
caption { text-align: left; color: #666; font-size: .9rem; padding-bottom: .4rem; }
th, td { padding: .45rem .7rem; border-bottom: 1px solid #e3e0d8; text-align: left; white-space: nowrap; }
thead th { background: #1d3b2a; color: #fff; font-weight: 600; border-bottom: none; }
thead th:first-child { border-top-left-radius: 6px; }
thead th:last-child { border-top-right-radius: 6px; }
tbody tr:nth-child(even) { background: #faf8f3; }
tbody tr:hover { background: #f0ede4; }
td.num, th.num { text-align: right; }
td.neg { color: #b3261e; }
td.pos { color: #1b6e3a; }
figure { margin: 0; }
svg { display: block; width: 100%; height: auto; }
svg text { font-family: inherit; }
footer { margin-top: 1.5rem; color: #888; font-size: .8rem; }
@media print {
  @page { size: A4 portrait; margin: 12mm; }
  body { background: #fff; padding: 0; font-size: 10pt; }
  main { box-shadow: none; max-width: none; padding: 0; }
  .table-wrap { overflow: visible; }
  th, td { padding: .2rem .35rem; }
  tbody tr:hover { background: inherit; }
  thead { display: table-header-group; }
  tr, figure { break-inside: avoid; }
}
@media (max-width: 560px) {
  body { padding: .5rem 0; }
  main { padding: 1rem .6rem; border-radius: 0; }
  th, td { padding: .35rem .4rem; }
  /* on a phone the table folds its wide columns away (the rank, the player and the score stay) */
  table.fold th:nth-child(n+5), table.fold td:nth-child(n+5) { display: none; }
}
"""


def _esc(value: object) -> str:
    import html

    from .safe import safe

    # escape and control characters as visible escapes too: the page may be printed to a terminal
    return html.escape("" if value is None else safe(value), quote=True)


def _is_number(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, (int, float)) or (
        hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, str)
    )


def _cell(value: object, signed: bool) -> str:
    """A table cell; numbers right-aligned, and in a column that has negative numbers, coloured by sign."""
    if _is_number(value):
        x = float(value)  # type: ignore[arg-type]
        cls = "num"
        if signed and x:
            cls += " neg" if x < 0 else " pos"
        return f'<td class="{cls}">{_esc(decimal(value))}</td>'  # type: ignore[arg-type]
    return f"<td>{_esc(value)}</td>"


def _nice_step(span: float, ticks: int = 5) -> float:
    import math

    raw = span / max(1, ticks)
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * mag:
            return float(m * mag)
    return float(10 * mag)  # pragma: no cover


def _f(x: float) -> str:
    """An SVG coordinate: one decimal, no "-0"."""
    s = f"{x:.1f}"
    return "0" if s in ("0.0", "-0.0") else s.removesuffix(".0")


def _short(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _day(label: str) -> str:
    """An x label as shown: a date in the reader's form (``vr 27/11/2026`` in Dutch), anything else as it is."""
    from ..core.dates import date_text

    return date_text(label) if len(label) == 10 and label[4] == "-" and label[7] == "-" else label


def _x_labels(series: Mapping[str, Sequence[tuple[str, Any]]]) -> list[str]:
    labels: list[str] = []
    seen: set[str] = set()
    for points in series.values():
        for label, _v in points:
            key = str(label)
            if key not in seen:
                seen.add(key)
                labels.append(key)

    def iso_like(s: str) -> bool:
        head = s[:10]
        return len(head) == 10 and head[4] == "-" and head[7] == "-" and head.replace("-", "").isdigit()

    if labels and all(iso_like(s) for s in labels):
        labels.sort()
    return labels


def _chart(series: Mapping[str, Sequence[tuple[str, Any]]], title: str) -> str:
    W, H = 900, max(420, 24 + 22 * len(series) + 40)
    left, right, top, bottom = 64, 200, 24, 64  # room for y labels, legend, x labels
    pw, ph = W - left - right, H - top - bottom
    labels = _x_labels(series)
    index = {s: i for i, s in enumerate(labels)}
    values = [float(v) for pts in series.values() for _, v in pts if float(v) == float(v)]
    lo, hi = min([0.0, *values]), max([0.0, *values])
    if hi - lo < 1e-9:
        lo, hi = -1.0, 1.0
    step = _nice_step(hi - lo)
    import math

    lo_t, hi_t = math.floor(lo / step) * step, math.ceil(hi / step) * step

    def X(i: int) -> float:
        if len(labels) <= 1:
            return left + pw / 2
        return left + pw * i / (len(labels) - 1)

    def Y(v: float) -> float:
        return top + ph * (hi_t - v) / (hi_t - lo_t)

    out: list[str] = [
        f'<svg viewBox="0 0 {W} {H}" role="img" aria-labelledby="chart-title" '
        f'preserveAspectRatio="xMidYMid meet">',
        f'<title id="chart-title">{_esc(title)}</title>',
        f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>',
    ]
    # horizontal grid and y labels
    n_ticks = int(round((hi_t - lo_t) / step))
    for k in range(n_ticks + 1):
        v = lo_t + k * step
        y = _f(Y(v))
        colour, width = ("#555555", "1.5") if abs(v) < step / 1e6 else ("#e6e3da", "1")
        out.append(f'<line x1="{left}" y1="{y}" x2="{left + pw}" y2="{y}" stroke="{colour}" stroke-width="{width}"/>')
        out.append(
            f'<text x="{left - 8}" y="{y}" text-anchor="end" dominant-baseline="middle" font-size="12" '
            f'fill="#555555">{_esc(decimal(0 if abs(v) < step / 1e6 else v))}</text>'
        )
    # axes
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#555555" stroke-width="1"/>')
    out.append(
        '<text x="16" y="' + _f(top + ph / 2) + '" transform="rotate(-90 16 ' + _f(top + ph / 2) + ')" text-anchor="middle" font-size="12" fill="#555555">' + _esc(_("points")) + '</text>'
    )
    # x labels: as many as fit, evenly spaced, counted back from the latest
    if labels:
        every = math.ceil(len(labels) / max(1, pw // 90))  # a label needs about 90 px
        for i in range(len(labels) - 1, -1, -every):  # the latest date always labelled
            x = _f(X(i))
            out.append(f'<line x1="{x}" y1="{top + ph}" x2="{x}" y2="{top + ph + 5}" stroke="#555555"/>')
            out.append(
                f'<text x="{x}" y="{top + ph + 20}" text-anchor="middle" font-size="12" '
                f'fill="#555555">{_esc(_short(_day(labels[i]), 14))}</text>'
            )
    else:
        out.append(
            '<text x="' + _f(left + pw / 2) + '" y="' + _f(top + ph / 2 - 14) + '" text-anchor="middle" font-size="15" fill="#888888">' + _esc(_("No sessions to chart")) + '</text>'
        )
    # one line per player
    legend: list[str] = []
    for n, (player, pts) in enumerate(series.items()):
        colour = _COLOURS[n % len(_COLOURS)]
        dash = _DASHES[(n // len(_COLOURS)) % len(_DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        coords = [
            (X(index[str(label)]), Y(float(v)), str(label), v) for label, v in pts if float(v) == float(v)
        ]
        out.append(f'<g class="series"><title>{_esc(player)}</title>')
        if len(coords) > 1:
            path = " ".join(f"{_f(x)},{_f(y)}" for x, y, _a, _b in coords)
            out.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2.5" '
                f'stroke-linejoin="round" stroke-linecap="round"{dash_attr}/>'
            )
        for cx, cy, label, v in coords:
            out.append(
                f'<circle cx="{_f(cx)}" cy="{_f(cy)}" r="3.5" fill="{colour}" stroke="#ffffff" stroke-width="1">'
                f"<title>{_esc(player)}, {_esc(_day(label))}: {_esc(decimal(v))}</title></circle>"
            )
        out.append("</g>")
        # legend entry: sample line, name and last value
        ly = top + 10 + n * 22
        lx = left + pw + 16
        last = decimal(coords[-1][3]) if coords else ""
        name = _short(player, 14)
        legend.append(
            f'<line x1="{lx}" y1="{ly}" x2="{lx + 24}" y2="{ly}" stroke="{colour}" stroke-width="3"{dash_attr}/>'
            f'<text x="{lx + 32}" y="{ly}" dominant-baseline="middle" font-size="13" fill="#222222">'
            f"<title>{_esc(player)}</title>{_esc(name)}"
            + (f' <tspan fill="#666666">({_esc(last)})</tspan>' if last else "")
            + "</text>"
        )
    out.append('<g class="legend">' + "".join(legend) + "</g>")
    out.append("</svg>")
    return "\n".join(out)


def html_page(
    title: str,
    headers: list[str],
    rows: list[list[Any]],
    series: Mapping[str, Sequence[tuple[str, int | float | Fraction]]],
    subtitle: str = "",
    chart_heading: str = "",  # default: "Points over the season"
    footer: str = "",
    sections: Sequence[tuple[str, Sequence[str]]] = (),
) -> str:
    """One self-contained HTML5 page: the table and an SVG line chart of each player's cumulative points.

    ``series`` maps a player to ``(date label, cumulative points)`` pairs in order. Every piece of text is
    HTML-escaped; there is no JavaScript and no external reference of any kind.
    """
    width = max([len(headers), *(len(r) for r in rows)])
    numeric = [bool(rows) and all(_is_number(r[i]) for r in rows if i < len(r)) for i in range(width)]
    signed = [any(_is_number(r[i]) and float(r[i]) < 0 for r in rows if i < len(r)) for i in range(width)]
    head_cells = []
    for i, h in enumerate(headers):
        cls = ' class="num"' if numeric[i] else ""
        head_cells.append(f'<th scope="col"{cls}>{_esc(h)}</th>')
    body_rows = []
    for row in rows:
        body_rows.append("<tr>" + "".join(_cell(c, signed[i]) for i, c in enumerate(row)) + "</tr>")
    if not rows:
        body_rows.append('<tr><td colspan="' + str(max(1, len(headers))) + '">' + _esc(_("Nothing to show.")) + '</td></tr>')
    t = _esc(title)
    chart_heading = chart_heading or _("Points over the season")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{language()}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            '<meta name="generator" content="wiezen">',
            f"<title>{t}</title>",
            f"<style>{_CSS}</style>",
            "</head>",
            "<body>",
            "<main>",
            f"<h1>{t}</h1>",
            *([f'<p class="sub">{_esc(subtitle)}</p>'] if subtitle else []),
            '<div class="table-wrap">',
            '<table class="fold">',
            "<thead><tr>" + "".join(head_cells) + "</tr></thead>",
            "<tbody>",
            *body_rows,
            "</tbody>",
            "</table>",
            "</div>",
            *(part for heading, items in sections for part in (
                f"<h2>{_esc(heading)}</h2>", "<ul>", *(f"<li>{_esc(x)}</li>" for x in items), "</ul>")),
            f"<h2>{_esc(chart_heading)}</h2>",
            "<figure>",
            _chart(series, _("{title}: cumulative points per player").format(title=title)),
            "</figure>",
            ('<footer>' + str(_esc(footer) + ' ' if footer else '') + _esc(_('Made by wiezen.')) + '</footer>'),
            "</main>",
            "</body>",
            "</html>",
            "",
        ]
    )


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str], **kw: Any) -> str:
    from tabulate import tabulate

    from .safe import safe

    cells = [[safe(c) if isinstance(c, str) else c for c in r] for r in rows]  # a newline cannot add a row
    return str(tabulate(cells, headers=[safe(h) for h in headers], disable_numparse=True, **kw))


def _md(text: str) -> str:
    """A markdown table cell: pipes and markup characters escaped, no line breaks."""
    import re

    flat = " ".join(str(text).split())
    return re.sub(r"([\\`*_{}\[\]<>()#+!|~-])", r"\\\1", flat)
