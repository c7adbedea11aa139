"""Shell completion: house-rules names, the players of the open session, contracts (click shell_complete)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from _ledger_helpers import ok, start
from click.shell_completion import ShellComplete

from wiezen_score.cli import cli


def complete(db, args, incomplete):
    sc = ShellComplete(cli, {}, "wiezen", "_WIEZEN_COMPLETE")
    return [c.value for c in sc.get_completions(["--db", str(db), *args], incomplete)]


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "w.db"
    start(db, ["jan", "piet", "mieke", "lotte"], "rupelstreek")
    toml = ok(db, "rules", "show", "rupelstreek").stdout.replace('name = "rupelstreek"', 'name = "ons-cafe"', 1)
    ok(db, "rules", "add", "-", input=toml)
    return db


def test_house_rules_names(db):
    assert complete(db, ["rules", "show"], "r") == ["rupelstreek"]
    assert complete(db, ["calc", "--rules"], "o") == ["ons-cafe"]  # added to this ledger
    assert complete(db, ["session", "start", "--rules"], "wikibooks-k") == ["wikibooks-kleurenwiezen"]


def test_players_of_the_open_session(db):
    assert complete(db, ["penalty"], "") == ["jan", "piet", "mieke", "lotte"]
    assert complete(db, ["penalty"], "M") == ["mieke"]
    assert complete(db, ["deal", "samen", "8"], "p") == ["piet"]
    assert complete(db, ["deal", "samen", "8"], "jan+") == ["jan+piet", "jan+mieke", "jan+lotte"]
    assert complete(db, ["precedent", "add", "X", "--player"], "l") == ["lotte"]


def test_contracts_of_the_open_sessions_house_rules(db):
    names = complete(db, ["deal"], "")
    assert "samen" in names and "troel" in names and "kleine-miserie" not in names  # rupelstreek has none
    assert complete(db, ["deal"], "tr") == ["troel", "troela"]
    assert complete(db, ["amend", "1"], "ab")[:1] == ["abondance"]
    assert complete(db, ["deal", "samen"], "8") == []  # numbers are the scorer's


def test_no_ledger_completes_to_presets_and_nothing_else(tmp_path):
    db = tmp_path / "none.db"
    assert complete(db, ["penalty"], "") == []
    assert "solo-slim" in complete(db, ["calc"], "")  # whisthub's contracts
    assert not db.exists()  # completing never creates a ledger


def test_bash_completion_script_and_answers(db):
    env = {**os.environ, "_WIEZEN_COMPLETE": "bash_source", "WIEZEN_DB": str(db)}
    src = subprocess.run([sys.executable, "-m", "wiezen_score"], env=env, capture_output=True, text=True, timeout=30)
    assert "complete" in src.stdout and "_WIEZEN_COMPLETE" in src.stdout
    env.update({"_WIEZEN_COMPLETE": "bash_complete", "COMP_WORDS": "wiezen penalty pi", "COMP_CWORD": "2"})
    r = subprocess.run([sys.executable, "-m", "wiezen_score"], env=env, capture_output=True, text=True, timeout=30)
    assert r.stdout.split() == ["plain,piet"]
