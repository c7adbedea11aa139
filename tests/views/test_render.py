import csv
import io
import re
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiezen_score.views.render import csv_safe, html_page, sparkline, to_csv

HOSTILE = ['=HYPERLINK("http://x")', "+sum(1)", "-2+3", "@cmd", "\tx", "\r=1", "\n=1", " =1+1", "＝1+1", "-", "=", "@"]
DANGER = "=+-@\t\r\n＝＋－＠"


def parse(text):
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("name", HOSTILE)
def test_csv_safe_neutralises_formula_text(name):
    out = csv_safe(name)
    # the formula guard, and a tab, CR or LF shown as a visible escape (a cell is one line of plain text)
    assert out == "'" + name.replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")


@pytest.mark.parametrize("value", [-15, 7.5, -7.5, 0, 3, -0.5, 1e20])
def test_csv_safe_keeps_numbers(value):
    assert csv_safe(value) is value


@pytest.mark.parametrize("text", ["jan", "Café De Kroon", "", "a=b", "x+1", "'quoted", "-15", "-7.5", "12"])
def test_csv_safe_leaves_harmless_text(text):
    assert csv_safe(text) == text


def test_csv_safe_other_values():
    assert csv_safe(None) == ""
    assert csv_safe(Fraction(15, 2)) == 7.5
    assert csv_safe(Fraction(-4, 1)) == -4 and isinstance(csv_safe(Fraction(-4, 1)), int)
    assert csv_safe(True) == "True"


def test_to_csv_round_trip_is_safe():
    headers = ["player", "points", "sessions"]
    rows = [[name, -15 + i, 7.5] for i, name in enumerate(HOSTILE)] + [["jan", -15, 7.5], ["piet, \"de\" kaart", 0, 1]]
    text = to_csv(headers, rows)
    table = parse(text)
    assert table[0] == headers
    assert len(table) == len(rows) + 1
    for row, original in zip(table[1:], rows, strict=False):
        name, points, avg = row
        assert name == "" or name[0] not in DANGER
        assert name.lstrip("'") == original[0].replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n")
        assert points == str(original[1])
        assert avg == str(original[2])
    assert ["jan", "-15", "7.5"] in table
    assert ["piet, \"de\" kaart", "0", "1"] in table


def test_to_csv_quotes_text_not_numbers():
    assert to_csv(["player", "points"], [["jan", -15], ["piet", 7.5], ["a\rb", 0]]) == (
        '"player","points"\n"jan",-15\n"piet",7.5\n"a\\rb",0\n'  # a CR inside a cell as a visible \r
    )


def test_to_csv_headers_are_sanitised_too():
    assert parse(to_csv(["=cmd", "ok"], []))[0] == ["'=cmd", "ok"]


@given(st.text(max_size=30), st.integers(-1000, 1000), st.floats(allow_nan=False, allow_infinity=False))
def test_no_text_cell_starts_a_formula(name, points, avg):
    table = parse(to_csv(["name", "points", "avg"], [[name, points, avg]]))
    # csv.reader with default settings splits on any newline inside quoted cells correctly
    cell = table[1][0]
    if cell:
        assert cell[0] not in DANGER or re.fullmatch(r"-\d+(\.\d+)?", cell)
        first = cell.lstrip(" \u00a0\u3000")[:1]  # "" for a blank cell ("" in DANGER would be True)
        assert not first or first not in DANGER or re.fullmatch(r"-\d+(\.\d+)?", cell)
    assert table[1][1] == str(points)
    assert float(table[1][2]) == avg


def test_sparkline():
    assert sparkline([]) == ""
    assert sparkline([1, 2, 3, 4, 5, 6, 7, 8]) == "▁▂▃▄▅▆▇█"
    assert sparkline([-10, 0, 10]) == "▁▅█"
    assert sparkline([3, 3, 3]) == "▄▄▄"
    assert len(sparkline([1.5, float("nan"), 2])) == 3


@given(st.lists(st.floats(-1e6, 1e6), max_size=50))
def test_sparkline_length_and_alphabet(values):
    line = sparkline(values)
    assert len(line) == len(values)
    assert set(line) <= set("▁▂▃▄▅▆▇█")
    if values and max(values) > min(values):
        assert line[values.index(min(values))] == "▁"
        assert line[values.index(max(values))] == "█"


SERIES = {
    "<b>x</b>": [("2026-01-09", 10), ("2026-01-16", -5), ("2026-02-06", 12.5)],
    "jan & piet": [("2026-01-09", -10), ("2026-01-16", 5), ("2026-02-06", -12.5)],
    '"mieke"': [("2026-01-16", 0)],
}


def page(**kw):
    args = dict(
        title="Standings <Café De Kroon> 2026",
        headers=["player", "points", "sessions"],
        rows=[["<b>x</b>", 12.5, 3], ["<script>alert(1)</script>", Fraction(-25, 2), 3], ['"mieke"', 0, 1]],
        series=SERIES,
    )
    args.update(kw)
    return html_page(**args)


def test_html_escapes_everything():
    html = page()
    assert "<b>x</b>" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html
    assert "<script" not in html.lower()
    assert "&lt;script&gt;" in html
    assert "Standings &lt;Café De Kroon&gt; 2026" in html
    assert "jan &amp; piet" in html
    assert "&quot;mieke&quot;" in html


def test_html_is_self_contained():
    html = page()
    assert html.startswith("<!DOCTYPE html>")
    assert "<svg" in html and "</svg>" in html
    assert '<meta charset="utf-8">' in html
    lowered = html.lower().replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "http" not in lowered
    for bad in ("<script", "src=", "href=", "url(", "@import", "<link", "<iframe", "<object", "<embed", "javascript:"):
        assert bad not in lowered
    # every series drawn, in a distinct colour, with a legend entry and a zero line
    colours = re.findall(r'<polyline[^>]*stroke="(#[0-9A-Fa-f]{6})"', html)
    assert len(colours) == 2 == len(set(colours))
    assert html.count("<circle") == 7
    assert 'class="legend"' in html
    assert ">0</text>" in html


def test_html_numbers_formatted_and_aligned():
    html = page()
    assert '<td class="num pos">12.5</td>' in html
    assert '<td class="num neg">-12.5</td>' in html
    assert '<th scope="col" class="num">points</th>' in html


def test_html_tags_balanced():
    html = page()
    for tag in ("html", "head", "body", "main", "table", "thead", "tbody", "svg", "figure", "g"):
        assert html.count(f"<{tag}>") + html.count(f"<{tag} ") == html.count(f"</{tag}>"), tag


def test_html_without_data():
    html = page(rows=[], series={})
    assert "<svg" in html
    assert "Nothing to show" in html


def test_html_many_players_and_dates():
    series = {f"p{i}": [(f"2026-{m:02d}-01", (i - 6) * m) for m in range(1, 13)] for i in range(14)}
    html = page(series=series, rows=[[p, v[-1][1], 12] for p, v in series.items()])
    assert html.count("<polyline") == 14
    styles = set(re.findall(r'<polyline[^>]*stroke="(#[0-9A-Fa-f]{6})"(?:[^>]*stroke-dasharray="([^"]*)")?', html))
    assert len(styles) == 14
