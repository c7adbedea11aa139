"""Every example of docs/competitions.md runs as written: each competition file parses (warnings allowed, as the
doc says), and each `wiezen standings` / `wiezen seating` line runs on a ledger (a season, and round 1 of the
doc's night; the first file saved as kampioenschap.toml, the night's as gesves.toml) without an error."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from _ledger_helpers import ok

from wiezen_score.core.competition import parse_competition

DOC = Path(__file__).resolve().parent.parent / "docs" / "competitions.md"
TEXT = DOC.read_text(encoding="utf-8")
FILES = re.findall(r"```toml\n(.*?)```", TEXT, re.S)
COMMANDS = [line.split("#")[0].split(">")[0].strip() for line in TEXT.splitlines()
            if line.startswith(("wiezen standings", "wiezen seating"))]


def test_the_doc_has_its_examples():
    assert len(FILES) >= 2 and len(COMMANDS) >= 10


@pytest.mark.parametrize("text", FILES, ids=[f"file{i + 1}" for i in range(len(FILES))])
def test_every_competition_file_parses(text):
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


@pytest.mark.parametrize("line", COMMANDS)
def test_every_command_runs(season, tmp_path, line):
    night(season)
    (tmp_path / "kampioenschap.toml").write_text(FILES[0], encoding="utf-8")
    (tmp_path / "gesves.toml").write_text(FILES[1], encoding="utf-8")
    words = shlex.split(line)[1:]
    words = [str(tmp_path / w) if w.endswith(".toml") else w for w in words]
    ok(season, *words)
