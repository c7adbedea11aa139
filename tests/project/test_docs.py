"""The docs follow the code: docs/cli.md is the commands' own --help (cog), docs/json.md names every key that
a --json prints, and the manual says how to regenerate the reference and how to complete in the shell."""

from __future__ import annotations

import json
import re

import pytest
from _ledger_helpers import ROOT, copy_ledger, ok

from wiezen_score.cli.reference import cli_reference, command_paths

CLI_MD = ROOT / "docs" / "cli.md"
JSON_MD = ROOT / "docs" / "json.md"
BEGIN = "]]] -->\n"
END = "<!-- [[[end]]] -->"


def generated_part(text: str) -> str:
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def test_cli_reference_is_in_sync_with_help():
    text = CLI_MD.read_text(encoding="utf-8")
    assert generated_part(text).strip() == cli_reference().strip(), (
        "docs/cli.md is out of date: run `cog -r docs/cli.md`"
    )


def test_cog_check_agrees():
    cogapp = pytest.importorskip("cogapp")
    assert cogapp.Cog().main(["cog", "--check", str(CLI_MD)]) == 0


def test_reference_has_every_command_and_fails_when_help_changes(monkeypatch):
    text = generated_part(CLI_MD.read_text(encoding="utf-8"))
    for path, _ in command_paths():
        assert f"### `{' '.join(['wiezen', *path])}`" in text
    from wiezen_score.cli import sheet as sheet_mod

    monkeypatch.setattr(sheet_mod.sheet, "help", sheet_mod.sheet.help + "\n\nA changed help text.")
    assert cli_reference().strip() != text.strip()  # the sync test above would fail


def sections() -> dict[str, str]:
    """json.md: heading -> text of the section."""
    out: dict[str, str] = {}
    for part in re.split(r"^## ", JSON_MD.read_text(encoding="utf-8"), flags=re.MULTILINE)[1:]:
        head, _, body = part.partition("\n")
        for cmd in re.findall(r"`wiezen ([a-z -]+?)(?: --json)?`", head):
            out[cmd.strip()] = body
    return out


def test_every_json_option_is_documented():
    documented = sections()
    for path, cmd in command_paths():
        if any(p.name == "as_json" for p in cmd.params):
            assert " ".join(path) in documented, f"docs/json.md has no section for `wiezen {' '.join(path)} --json`"


MAPS = {"points", "totals", "totals_before", "totals_after", "rounds_owed", "takers", "contracts", "all_pass"}  # keys are players, contracts ...


def keys_of(value, out=None) -> set[str]:
    out = set() if out is None else out
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(k)
            if k not in MAPS:
                keys_of(v, out)
    elif isinstance(value, list):
        for v in value:
            keys_of(v, out)
    return out


@pytest.fixture(scope="module")
def club(tmp_path_factory, club_template):
    tmp = tmp_path_factory.mktemp("docs")
    db = copy_ledger(club_template, tmp / "club.db")  # the three club evenings (tests/conftest.py)
    ok(db, "precedent", "add", "Renonce", "--ruling", "pays", "--session", "2", "--deal", "3", "--tag", "renonce")
    ok(db, "session", "start", "--players", "a,b,c,d")
    ok(db, "deal", "samen", "8", "a+b", "9")
    ok(db, "undo", "--reason", "wrong")
    ok(db, "penalty", "a", "--reason", "renonce")
    (tmp / "export.json").write_text(ok(db, "export").stdout, encoding="utf-8")
    return db


RUNS = {
    "calc": ["calc", "samen", "8", "A+B", "9", "--json"],
    "rules list": ["rules", "list", "--json"],
    "rules diff": ["rules", "diff", "whisthub", "rupelstreek", "--json"],
    "sheet": ["sheet", "--json"],
    "replay": None,
    "explain": ["explain", "1", "--json"],
    "sessions": ["sessions", "--json"],
    "settle": ["settle", "--session", "2", "--cents", "5", "--json"],
    "standings": ["standings", "--json"],
    "precedent list": ["precedent", "list", "--json"],
    "precedent search": ["precedent", "search", "renonce", "--json"],
    "precedent show": ["precedent", "show", "1", "--json"],
    "check": ["check", "--json"],
    "db path": ["db", "path", "--json"],
    "export": ["export"],
}


@pytest.mark.parametrize("name", [n for n, a in RUNS.items() if a])
def test_every_key_printed_is_documented(club, name):
    doc = json.loads(ok(club, *RUNS[name]).stdout)
    named = set(re.findall(r'"([a-z_]+)"', sections()[name]))
    missing = keys_of(doc) - named
    assert not missing, f"docs/json.md, `wiezen {name}`: {sorted(missing)} not documented"


def test_session_end_keys_are_documented(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "a,b,c,d")
    ok(db, "deal", "samen", "8", "a+b", "9")
    doc = json.loads(ok(db, "session", "end", "--json").stdout)
    assert doc["session"] == 1 and doc["totals"] == {"a": 11, "b": 11, "c": -11, "d": -11}  # 8 + 1 x 3
    assert doc["seal"] in ok(db, "sheet", "--json").stdout  # sheet --json has the same seal
    named = set(re.findall(r'"([a-z_]+)"', sections()["session end"]))
    assert keys_of(doc) <= named, sorted(keys_of(doc) - named)


def test_import_keys_are_documented(club, tmp_path):
    doc = json.loads(ok(tmp_path / "new.db", "import", club.parent / "export.json", "--json").stdout)
    named = set(re.findall(r'"([a-z_]+)"', sections()["import"]))
    assert keys_of(doc) <= named, sorted(keys_of(doc) - named)


def test_manual_says_how_to_regenerate_and_complete():
    # once in the README, now in the manual: for developers (regenerating the reference), scripts (completion)
    developers = (ROOT / "docs" / "developers.md").read_text(encoding="utf-8")
    scripts = (ROOT / "docs" / "scripts.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "cog -r docs/cli.md" in developers and "cog -r docs/cli.md" in readme
    assert "(docs/json.md)" in readme and "(docs/cli.md)" in readme
    assert "_WIEZEN_COMPLETE=bash_source" in scripts and "_WIEZEN_COMPLETE=zsh_source" in scripts
    assert "_WIEZEN_COMPLETE=fish_source" in scripts
