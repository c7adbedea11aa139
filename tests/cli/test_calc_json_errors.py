"""`wiezen calc --json DEAL` reports an error as JSON too (issue 30, item 9): `{"error": TEXT}` on stdout and exit
status 1, as `calc --json --each` does for a bad line; nothing on stdout is anything but that one document, and
a usage error of click's own stays exit 2."""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli


def invoke(db, *args, lang=None):
    env = {"WIEZEN_DB": None, "WIEZEN_LANG": lang}
    return CliRunner().invoke(cli, ["--db", str(db), *args], env=env)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "none.db"


BAD = [
    (["samen", "7", "A+B", "9"], "no level 7"),  # a level the contract does not have
    (["samen", "8", "A+B", "14"], "0 to 13"),  # more tricks than a deal has
    (["bieden", "A", "3"], "no contract 'bieden'"),
    (["samen", "8", "A+X", "9"], "no player 'X'"),
    (["grote-miserie", "A", "9", "B", "9"], "more than 13"),
    (["--rules", "geen-regels", "samen", "8", "A+B", "9"], "no house rules 'geen-regels'"),
    (["--players", "A,B,C", "samen", "8", "A+B", "9"], "exactly four players"),
    (["--players", "A,B,C,A", "samen", "8", "A+B", "9"], "named twice"),
]


@pytest.mark.parametrize("args,words", BAD, ids=[" ".join(a) for a, _w in BAD])
def test_an_error_is_one_json_document(db, args, words):
    r = invoke(db, "calc", "--json", *args)
    assert r.exit_code == 1, r.output
    doc = json.loads(r.stdout)
    assert list(doc) == ["error"] and words in doc["error"], doc
    assert "Error:" not in r.stdout and "Traceback" not in r.output
    assert not os.path.exists(db)


def test_the_same_text_as_without_json(db):
    plain = invoke(db, "calc", "samen", "7", "A+B", "9")
    assert plain.exit_code == 1 and plain.stdout == ""
    as_json = invoke(db, "calc", "--json", "samen", "7", "A+B", "9")
    assert plain.stderr.strip() == "Error: " + json.loads(as_json.stdout)["error"]


def test_json_errors_are_english_in_dutch_too(db):
    # JSON is English in every language; the plain error is Dutch
    r = invoke(db, "calc", "--json", "samen", "7", "A+B", "9", lang="nl")
    assert r.exit_code == 1
    assert json.loads(r.stdout)["error"].startswith("samen has no level 7")
    assert invoke(db, "calc", "samen", "7", "A+B", "9", lang="nl").stderr.startswith("Fout:")


def test_a_bad_house_rules_file_is_a_json_error(db, tmp_path):
    p = tmp_path / "cafe.toml"
    p.write_text('name = "cafe"\npenalty = -1\n[contracts.samen]\nteam = true\nlevels = [8]\nmade = [2]\nlost = [3]\n',
                 encoding="utf-8")
    r = invoke(db, "calc", "--json", "--rules", str(p), "samen", "8", "A+B", "9")
    assert r.exit_code == 1
    assert "line 2" in json.loads(r.stdout)["error"]


def test_a_usage_error_stays_click_s_own(db):
    r = invoke(db, "calc", "--json")  # no DEAL: click's usage error, exit 2
    assert r.exit_code == 2 and r.stdout == ""


def test_a_good_deal_is_unchanged(db):
    r = invoke(db, "calc", "--json", "samen", "8", "A+B", "9")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["points"] == {"A": 11, "B": 11, "C": -11, "D": -11}  # whisthub: 8 + 3
