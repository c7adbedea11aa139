"""The chart of `standings --competition FILE --format html` plots what the table counts: each player's line adds up
the evenings that count (his best N, filled dots) and stays level at an evening that does not (a faded ring), so
that it ends on his score. Read from the page's SVG, against the hand-computed season of tests/core/test_competition_file.py
with best = 2:

  a [8, 11, -8]        counts 09-05, 09-12           line 8, 19, 19          score 19
  b [8, -11, 8, -23]   counts 09-05, 09-19 (the earlier of two 8s first)   8, 8, 16, 16     score 16
  c [-8, 11, -1]       counts 09-12, 09-26           0, 11, 10               score 10
  d [-8, 8, -23]       counts 09-05, 09-19           -8, 0, 0                score 0
  e [-11, -8, 47]      counts 09-19, 09-26           0, -8, 39               score 39
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from _competition_helpers import SEASON, comp  # noqa: F401 (SEASON: the data the docstring computes)
from _ledger_helpers import ok

SVG = "{http://www.w3.org/2000/svg}"

# player: [(date, line's value there, counts?)], by hand (the docstring)
BEST_2 = {
    "a": [("2026-09-05", 8, True), ("2026-09-12", 19, True), ("2026-09-19", 19, False)],
    "b": [("2026-09-05", 8, True), ("2026-09-12", 8, False), ("2026-09-19", 16, True), ("2026-09-26", 16, False)],
    "c": [("2026-09-05", 0, False), ("2026-09-12", 11, True), ("2026-09-26", 10, True)],
    "d": [("2026-09-05", -8, True), ("2026-09-19", 0, True), ("2026-09-26", 0, False)],
    "e": [("2026-09-12", 0, False), ("2026-09-19", -8, True), ("2026-09-26", 39, True)],
}


def chart(html: str) -> dict[str, list[tuple[str, str, float, str | None]]]:
    """Each player's dots in the page's SVG: (date, value, centre y, class) read from the dot's title and attributes."""
    svg = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert svg, "no chart on the page"
    root = ET.fromstring(svg.group(0).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))
    out: dict[str, list[tuple[str, str, float, str | None]]] = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") != "series":
            continue
        player = g.findtext(f"{SVG}title")
        assert player is not None
        for dot in g.iter(f"{SVG}circle"):
            title = dot.findtext(f"{SVG}title") or ""
            m = re.fullmatch(re.escape(player) + r", (\S+): (-?[\d.]+)(?: \((.*)\))?", title)
            assert m, title
            out.setdefault(player, []).append((m.group(1), m.group(2), float(dot.get("cy", "nan")), dot.get("class")))
    return out


def page(season, tmp_path, extra: str, *args: str) -> str:
    return ok(season, "standings", "--competition", comp(tmp_path, extra), "--format", "html", *args).stdout


def test_the_chart_adds_up_the_counted_evenings_and_fades_the_rest(season, tmp_path):
    dots = chart(page(season, tmp_path, "best = 2\n"))
    assert sorted(dots) == sorted(BEST_2)
    for player, want in BEST_2.items():
        got = dots[player]
        assert [(day, value) for day, value, _y, _c in got] == [(day, str(v)) for day, v, _k in want], player
        assert [c for *_rest, c in got] == ["counted" if k else "faded" for *_rest, k in want], player
        # a faded ring sits where the line was: level with the dot before it (or on 0 before any counted evening)
        for i, (_day, _v, y, cls) in enumerate(got):
            if cls == "faded" and i:
                assert y == got[i - 1][2], (player, got)


def test_the_chart_ends_on_the_score_in_the_table(season, tmp_path):
    html = page(season, tmp_path, "best = 2\n")
    legend = dict(re.findall(r"<title>(\w)</title>\w <tspan[^>]*>\((-?[\d.]+)\)</tspan>", html))
    assert legend == {"a": "19", "b": "16", "c": "10", "d": "0", "e": "39"}


def test_the_caption_says_what_the_dots_mean_only_when_some_evening_does_not_count(season, tmp_path):
    assert "a faded ring is one that does not" in page(season, tmp_path, "best = 2\n")
    every = page(season, tmp_path, "")
    assert "<figcaption>" not in every
    dots = chart(every)
    assert {c for player in dots.values() for *_rest, c in player} == {"counted"}
    assert [v for _d, v, _y, _c in dots["e"]] == ["-11", "-19", "28"]  # all of e's evenings add up: 28


def test_the_chart_in_dutch(season, tmp_path):
    html = page(season, tmp_path, "best = 2\n", "--lang", "nl")
    assert "een vaag ringetje een avond die niet telt" in html
    assert re.search(r"<title>b, za 12/09/2026: 8 \(telt niet\)</title>", html)


@pytest.mark.parametrize("listing", ["--nights", "--teams"])
@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_the_grid_and_the_teams_in_markdown_and_html(season, tmp_path, listing, fmt):
    """--nights and --teams in every format standings offers (markdown and html were an unexpected ValueError)."""
    teams = '\n[teams]\n"Noord" = ["a", "b"]\n"Zuid" = ["c", "d", "e"]\n'
    out = page_of(season, comp(tmp_path, "best = 2\n" + teams), listing, fmt)
    if listing == "--nights":  # b's evenings by hand: 8, (-11), 8, (-23) (the docstring)
        want = ["8", "(-11)", "8", "(-23)"]
        cells = (re.findall(r"^\| *\d+ *\| b *\|(.*)\|$", out, re.M)[0].split("|") if fmt == "markdown" else
                 re.findall(r"<tr><td[^>]*>\d+</td><td>b</td>(.*?)</tr>", out)[0].split("</td>"))
        assert [re.sub(r"<[^>]+>", "", c).strip() for c in cells if re.sub(r"<[^>]+>", "", c).strip()] == want
    else:  # Zuid: c 10 + d 0 + e 39 = 49; Noord: a 19 + b 16 = 35
        assert out.index("Zuid") < out.index("Noord") and "49" in out and "35" in out
    assert ("<svg" in out) is False and (out.startswith("<!DOCTYPE html>") if fmt == "html" else out.startswith("## "))


def page_of(season, path, listing: str, fmt: str) -> str:
    return ok(season, "standings", "--competition", path, listing, "--format", fmt).stdout


def test_the_page_lists_guests_apart_with_their_reason(season, tmp_path):
    """As the text does: the table ranks, the unranked follow apart with why (e is a guest: 28, 3 evenings)."""
    html = page(season, tmp_path, 'guests = ["e"]\n')
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert re.findall(r"<tr><td[^>]*>(\d+)</td><td>[^<]*</td><td>(\w)</td>", body) == [("1", "a"), ("2", "c"), ("3", "b"), ("4", "d")]
    assert "<li>e: score 28, evenings 3 (a guest)</li>" in html.split("Listed apart, unranked", 1)[1]
