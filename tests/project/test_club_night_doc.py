"""docs/club-night.md (and its Dutch twin) as a secretary runs it: the competition file, every `wiezen night`,
`wiezen deal`, `wiezen standings` line in order on a scratch ledger, and the printed draw exactly as the page
shows it (in both languages)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from _ledger_helpers import ok

DOCS = Path(__file__).resolve().parents[2] / "docs"


def blocks(text: str, kind: str) -> list[str]:
    """The fenced blocks of the page whose fence says ``kind`` ('' for a bare fence), in order."""
    out: list[str] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is None and line.startswith("```"):
            current = [] if line[3:].strip() == kind else None
            if current is None:
                current = ["\0"]  # another kind: skipped
        elif current is not None and line.startswith("```"):
            if current[:1] != ["\0"]:
                out.append("\n".join(current) + "\n")
            current = None
        elif current is not None:
            current.append(line)
    return out


def play_the_round(db) -> None:
    """One deal at each open table of the night (the dealer of a table of five sits out: the next two bid)."""
    import json

    for t in json.loads(ok(db, "night", "show", "--json").stdout)["tables"]:
        if t["open"]:
            p = t["players"]
            ok(db, "deal", "--table", str(t["table"]), "samen", "8", f"{p[1]}+{p[2]}", "9")


@pytest.mark.parametrize("page, lang", [("club-night.md", "en"), ("club-night.nl.md", "nl")])
def test_the_page_runs_as_written(tmp_path, page, lang):
    text = (DOCS / page).read_text(encoding="utf-8")
    (tmp_path / "kampioenschap.toml").write_text(blocks(text, "toml")[0], encoding="utf-8")
    db = tmp_path / "club.db"
    shown = blocks(text, "")[0].strip()  # the draw as the page prints it
    commands = [c for b in blocks(text, "sh") for c in b.replace("\\\n", " ").splitlines() if c.strip()]
    for command in commands:
        words = shlex.split(command.split("#")[0])
        env = {}
        while words and "=" in words[0]:
            k, v = words.pop(0).split("=", 1)
            env[k] = v
        words = [str(tmp_path / w) if w.endswith(".toml") else w for w in words[1:]]
        if words[:1] == ["serve"] or words[:1] == ["play"]:
            continue  # a server, a prompt: tested elsewhere (tests/web/test_room.py, tests/cli/test_tables.py)
        if words[:2] in (["night", "next"], ["night", "end"]):
            play_the_round(db)  # what the page says happens during a round: every table records
        r = ok(db, "--lang", lang, *words)
        if words[:2] == ["night", "start"]:
            assert r.stdout.strip() == shown
    assert "docs/club-night" not in text and "shared/" not in text
