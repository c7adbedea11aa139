"""Every example of docs/competitions.md and of its Dutch twin docs/competitions.nl.md runs as written: each
competition file parses (warnings allowed, as the doc says), and each `wiezen standings` / `wiezen seating` line
runs on a ledger (a season, and round 1 of the doc's night; the first file saved as kampioenschap.toml, the
night's as gesves.toml) without an error. The Dutch page runs the same commands as the English one."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from _ledger_helpers import ok

from wiezen_score.core.competition import parse_competition

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("competitions.md", "competitions.nl.md")


def files(page: str) -> list[str]:
    return re.findall(r"```toml\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)


def commands(page: str) -> list[str]:
    return [line.split("#")[0].split(">")[0].strip() for line in (DOCS / page).read_text(encoding="utf-8").splitlines()
            if line.startswith(("wiezen standings", "wiezen seating"))]


FILES = files(PAGES[0])
COMMANDS = commands(PAGES[0])


@pytest.mark.parametrize("page", PAGES)
def test_the_doc_has_its_examples(page):
    assert len(files(page)) >= 2 and len(commands(page)) >= 10


def test_the_dutch_page_runs_the_same_commands():
    assert commands(PAGES[1]) == COMMANDS
    assert len(files(PAGES[1])) == len(FILES)


@pytest.mark.parametrize("page, text", [(page, text) for page in PAGES for text in files(page)],
                         ids=[f"{page}-file{i + 1}" for page in PAGES for i in range(len(files(page)))])
def test_every_competition_file_parses(page, text):
    c = parse_competition(text, "docs/competitions.md")
    assert c.name
    # the first file has a placement list under score = "points" on purpose: the doc says it is ignored, warned
    assert len(c.warnings) == (1 if "placement = [1000" in text and 'score = "points"' in text else 0)


def night(db) -> None:
    """Round 1 of the doc's night (tag gesves-2026-11, 27 November): two tables of 4 and 5."""
    for table, players, deal in ((1, "an,bert,carla,dirk", "samen 8 an+bert 9"),
                                 (2, "eva,frans,greet,hans,ilse", "alleen 5 frans 6")):
        ok(db, "session", "start", "--players", players, "--tag", "gesves-2026-11", "--round", "1", "--table",
           str(table), "--date", "2026-11-27")
        ok(db, "deal", *deal.split())
        ok(db, "session", "end")


def kampioenschap(db, nights: int) -> None:
    """The first file's season so far: ``nights`` Fridays of one table tagged kampioenschap (--after-night N
    needs N nights played)."""
    import datetime

    for i in range(nights):
        day = datetime.date(2026, 9, 4) + datetime.timedelta(weeks=i)
        ok(db, "session", "start", "--players", "an,bert,carla,dirk", "--tag", "kampioenschap", "--date", day.isoformat())
        ok(db, "deal", "samen", "8", "an+bert", str(8 + i % 3))
        ok(db, "session", "end")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("line", COMMANDS)
def test_every_command_runs(season, tmp_path, line, page):
    night(season)
    if "--after-night" in line:
        kampioenschap(season, int(line.split("--after-night")[1].split()[0]))
    (tmp_path / "kampioenschap.toml").write_text(files(page)[0], encoding="utf-8")
    (tmp_path / "gesves.toml").write_text(files(page)[1], encoding="utf-8")
    words = shlex.split(line)[1:]
    words = [str(tmp_path / w) if w.endswith(".toml") else w for w in words]
    ok(season, *words)
