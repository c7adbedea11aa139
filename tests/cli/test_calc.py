"""`wiezen calc`, `wiezen rules` and the group: bad input gives one `Error:` line and the right exit status,
good input gives the documented output (shared/INTERFACE.md, "Scoring without a ledger", "House rules").
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wiezen_score.cli import COMMANDS, cli
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "none.db")  # never created by calc or rules show/list


def invoke(db, *args, input=None):
    return CliRunner().invoke(cli, ["--db", db, *args], input=input)


def assert_error(r, status=1, *needles):
    """Exactly one `Error:` line on stderr, nothing on stdout, no traceback; returns that line."""
    assert r.exit_code == status, (r.exit_code, r.stdout, r.stderr, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output and "Traceback" not in r.stderr
    errors = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, r.stderr
    assert r.stdout == ""
    for n in needles:
        assert n in errors[0], errors[0]
    return errors[0]


# ---------------------------------------------------------------------------
# Bad deals


@pytest.mark.parametrize(
    "args, needles",
    [
        (["samen", "8", "A+B", "14"], ["14", "0 to 13"]),
        (["--", "samen", "8", "A+B", "-1"], ["-1", "0 to 13"]),
        (["--rules", "whisthub", "samen", "7", "A+B", "8"], ["level 7", "8, 9, 10, 11, 12, 13"]),
        (["samen", "8", "A+A", "9"], ["A", "twice"]),
        (["alleen", "5", "A+B", "6"], ["alleen", "partner"]),
        (["samen", "8", "A", "9"], ["samen", "PARTNER"]),
        (["samen", "8", "A+E", "9"], ["'E'", "A, B, C, D"]),
        (["grote-miserie", "A", "0", "Q", "1"], ["'Q'"]),
        (["--players", "jan,piet,mieke", "samen", "8", "jan+piet", "9"], ["four", "3"]),
        (["--players", "jan,piet,mieke,lotte,an", "samen", "8", "jan+piet", "9"], ["four", "5"]),
        (["samen", "8", "A+B"], ["samen", "TRICKS"]),
        (["grote-miserie", "A", "7", "B", "7"], ["14", "more than 13"]),
        (["kwak", "A", "1"], ["kwak", "samen"]),
    ],
    ids=["14-tricks", "minus-1-tricks", "level-missing", "player-twice", "partner-on-solo", "no-partner",
         "not-at-table", "miserie-not-at-table", "3-players", "5-players", "no-tricks", "miserie-over-13",
         "unknown-word"],
)
def test_bad_deal(db, args, needles):
    r = invoke(db, "calc", *args)
    assert_error(r, 1, *needles)
    assert not os.path.exists(db)


def test_contract_the_rules_lack_lists_the_ones_they_have(db):
    r = invoke(db, "calc", "--rules", "rupelstreek", "piccolo", "A", "1")
    line = assert_error(r, 1, "piccolo", "rupelstreek")
    # SCORING.md: the error names the contracts the preset does list
    for c in ("samen", "alleen", "abondance", "troel", "grote-miserie", "open-miserie", "solo-slim"):
        assert c in line


def test_negative_tricks_without_double_dash_reach_the_deal_parser(db):
    # "-1" is not taken for an unknown option: the deal parser explains the range of tricks
    r = invoke(db, "calc", "samen", "8", "A+B", "-1")
    assert_error(r, 1, "0 to 13")


def test_a_mistyped_option_among_deal_words_is_still_a_usage_error(db):
    r = invoke(db, "calc", "samen", "8", "A+B", "9", "--jsn")
    assert_error(r, 2, "--jsn")


@pytest.mark.parametrize("value", ["0", "-2", "two"])
def test_bad_multiplier_is_a_usage_error(db, value):
    r = invoke(db, "calc", "--multiplier", value, "samen", "8", "A+B", "9")
    assert_error(r, 2, "--multiplier")


def test_no_deal_is_a_usage_error(db):
    assert_error(invoke(db, "calc"), 2)


def test_unknown_rules_name(db):
    assert_error(invoke(db, "calc", "--rules", "kroon", "samen", "8", "A+B", "9"), 1, "kroon", "whisthub")


# ---------------------------------------------------------------------------
# Bad house-rules files (SCORING.md: unknown keys, missing amounts, lists of different lengths, negative
# amounts, a contract with neither levels nor miserie are refused with an error that names the line)


BASE = preset_text("rupelstreek")


def edit(old, new, count=1):
    assert old in BASE
    return BASE.replace(old, new, count)


def line_of(text, needle):
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def write(tmp_path, name, content):
    p = tmp_path / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(p)


def test_rules_file_base_is_fine(tmp_path, db):
    # the edited files below start from a file that works
    p = write(tmp_path, "ok.toml", BASE)
    r = invoke(db, "calc", "--json", "--rules", p, "samen", "8", "A+B", "10")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["points"] == {"A": 4, "B": 4, "C": -4, "D": -4}


def test_rules_file_missing(tmp_path, db):
    p = str(tmp_path / "nope.toml")
    assert_error(invoke(db, "calc", "--rules", p, "samen", "8", "A+B", "9"), 1, "nope.toml", "does not exist")


def test_rules_file_broken_toml(tmp_path, db):
    text = BASE.replace("penalty = 5", "penalty = ", 1)
    p = write(tmp_path, "broken.toml", text)
    line = assert_error(invoke(db, "calc", "--rules", p, "samen", "8", "A+B", "9"), 1, "broken.toml", "TOML")
    assert f"line {line_of(text, 'penalty =')}" in line


def test_rules_file_not_utf8(tmp_path, db):
    p = write(tmp_path, "latin1.toml", BASE.replace("Huisregels", "Caf\u00e9").encode("latin-1"))
    assert_error(invoke(db, "calc", "--rules", p, "samen", "8", "A+B", "9"), 1, "latin1.toml", "UTF-8")


CASES = {
    # name: (text, needle on the offending line, words the message must contain)
    "unknown-key": (edit("undertrick = 1\n", "undertrick = 1\novertrik = 2\n"), "overtrik", ["unknown key", "overtrik"]),
    "unknown-top-key": (edit("penalty = 5", "penalty = 5\nstrafpunten = 5"), "strafpunten", ["unknown key", "strafpunten"]),
    "lengths-differ": (edit("made = [2]\n", "made = [2, 3]\n"), "made = [2, 3]", ["same length"]),
    "negative": (edit("lost = [3]\n", "lost = [-3]\n"), "lost = [-3]", ["negative", "lost"]),
    "negative-penalty": (edit("penalty = 5", "penalty = -5"), "penalty = -5", ["negative", "penalty"]),
    "neither": (
        BASE + '\n[contracts.kwak]\naliases = ["kwakkel"]\npoints = 3\n',
        "[contracts.kwak]",
        ["kwak", "neither", "levels", "miserie"],
    ),
    "missing-amount": (
        BASE + "\n[contracts.kwak]\nlevels = [9]\nmade = [3]\n",
        "[contracts.kwak]",
        ["kwak", "missing", "lost"],
    ),
    "missing-points": (BASE + "\n[contracts.kwak]\nmiserie = 0\n", "[contracts.kwak]", ["kwak", "missing", "points"]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rules_file_refused_with_line(tmp_path, db, case):
    text, needle, words = CASES[case]
    p = write(tmp_path, f"{case}.toml", text)
    line = assert_error(invoke(db, "calc", "--rules", p, "samen", "8", "A+B", "9"), 1, f"{case}.toml", *words)
    assert re.search(rf"\bline {line_of(text, needle)}\b", line), line
    # `rules add` and `rules show` refuse it the same way, and record nothing
    assert_error(invoke(db, "rules", "show", p), 1, *words)
    assert_error(invoke(db, "rules", "add", p), 1, *words)
    assert not os.path.exists(db)


# ---------------------------------------------------------------------------
# Good input


def test_each_from_stdin(db):
    stdin = "# an evening\nsamen 8 A+B 9\n\nalleen 5 A 14\nalleen 6 C 3\n"
    r = invoke(db, "calc", "--json", "--each", "-", input=stdin)
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(docs) == 3
    # whisthub samen 8 with 9: 8 + 3 = 11; alleen 6 lost by three: 5 + 2 x 1 = 7, soloist pays 21
    assert docs[0]["deal"] == "samen 8 A+B 9"
    assert docs[0]["points"] == {"A": 11, "B": 11, "C": -11, "D": -11}
    assert set(docs[1]) == {"line", "error"} and docs[1]["line"] == 4 and "14" in docs[1]["error"]
    assert docs[2]["deal"] == "alleen 6 C 3"
    assert docs[2]["points"] == {"A": 7, "B": 7, "C": -21, "D": 7}


def test_each_all_good_exits_0(db, tmp_path):
    p = write(tmp_path, "deals.txt", "troel A+B 8\ngrote-miserie A 0 B 1\n")
    r = invoke(db, "calc", "--json", "--rules", "whisthub", "--each", p)
    assert r.exit_code == 0, r.output
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["points"] for d in docs] == [{"A": 16, "B": 16, "C": -16, "D": -16}, {"A": 48, "B": -48, "C": 0, "D": 0}]


def test_deal_and_each_together_is_a_usage_error(db):
    assert_error(invoke(db, "calc", "--each", "-", "samen", "8", "A+B", "9", input=""), 2)


def test_table_output(db):
    r = invoke(db, "calc", "--players", "jan,piet,mieke,lotte", "samen", "9", "jan+mieke", "11")
    assert r.exit_code == 0, r.output
    for name in ("jan", "piet", "mieke", "lotte"):
        assert name in r.stdout
    # samen 9 with 11 under whisthub: 11 + 2 x 3 = 17 each
    assert re.search(r"jan\s+\+17", r.stdout) and re.search(r"piet\s+-17", r.stdout)
    assert "overtrick" in r.stdout  # the explanation
    assert "whisthub" in r.stdout


def test_json_half_points(db):
    r = invoke(db, "calc", "--json", "--rules", "wikibooks-kleurenwiezen", "grote-miserie", "A", "0", "B", "1", "C", "2")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["points"] == {"A": 15, "B": -7.5, "C": -7.5, "D": 0}


def test_rules_list(db):
    r = invoke(db, "rules", "list")
    assert r.exit_code == 0, r.output
    for name in PRESETS:
        assert name in r.stdout
    r = invoke(db, "rules", "list", "--json")
    assert r.exit_code == 0, r.output
    assert [x["name"] for x in json.loads(r.stdout)] == list(PRESETS)
    assert len(PRESETS) == 5


def test_rules_show_json(db):
    r = invoke(db, "rules", "show", "rupelstreek", "--json")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["name"] == "rupelstreek"
    assert set(doc["contracts"]) == {"samen", "alleen", "abondance", "troel", "grote-miserie", "open-miserie",
                                     "solo-slim"}
    # SCORING.md: rupelstreek samen 8 is 2/3, overtrick 1, undertrick 1, all tricks x2
    assert doc["contracts"]["samen"]["made"] == [2] and doc["contracts"]["samen"]["lost"] == [3]
    assert doc["contracts"]["samen"]["all_tricks_times"] == 2
    assert doc["all_pass"] == {"dealer": "next", "double": "once"}


def test_rules_show_unknown(db):
    assert_error(invoke(db, "rules", "show", "kroon"), 1, "kroon")


def test_version(db):
    r = invoke(db, "--version")
    assert r.exit_code == 0
    assert re.fullmatch(r"wiezen \d+\.\d+\.\d+\S*\n", r.stdout)


def _all_commands():
    import click

    from wiezen_score.cli import cli

    out = []

    def walk(cmd, path):
        out.append(path)
        if isinstance(cmd, click.Group):
            for n in cmd.list_commands(None):
                walk(cmd.get_command(None, n), path + [n])

    for name in sorted(COMMANDS):
        walk(cli.get_command(None, name), [name])
    return out


@pytest.mark.parametrize("path", _all_commands(), ids=" ".join)
def test_help_on_every_command_has_examples(db, path):
    r = invoke(db, *path, "--help")
    assert r.exit_code == 0, r.output
    assert "Usage:" in r.stdout
    assert "example" in r.stdout.lower()


def test_group_help_lists_every_command(db):
    r = invoke(db, "--help")
    assert r.exit_code == 0
    for name in COMMANDS:
        assert name in r.stdout


def test_subprocess_end_to_end(tmp_path):
    exe = ROOT / ".venv" / "bin" / "wiezen"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "wiezen_score"]
    env = {**os.environ, "WIEZEN_DB": str(tmp_path / "none.db")}
    p = subprocess.run(cmd + ["calc", "samen", "8", "A+B", "14"], capture_output=True, text=True, env=env, timeout=30)
    assert p.returncode == 1
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert p.stderr.splitlines() == ["Error: 14 tricks: a deal has 13 tricks, so tricks are 0 to 13"]
    p = subprocess.run(cmd + ["calc", "--json", "samen", "8", "A+B", "13"], capture_output=True, text=True, env=env,
                       timeout=30)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["points"] == {"A": 30, "B": 30, "C": -30, "D": -30}  # whisthub all tricks: 30
    assert not (tmp_path / "none.db").exists()


def test_over_troel_on_a_trick_contract_is_refused(db):
    r = invoke(db, "calc", "--over-troel", "samen", "8", "A+B", "9")
    assert_error(r, 1, "over-troel")


def test_several_miseries_alone_explain_each_settlement_and_the_sum(db):
    # SCORING.md: two grote miseries under whisthub, one made and one lost: +48, -48, 0, 0
    r = invoke(db, "calc", "--json", "grote-miserie", "A", "0", "B", "1")
    steps = json.loads(r.stdout)["explanation"]
    assert any("A made: A +36" in s for s in steps) and any("B lost: B -36" in s for s in steps)
    assert steps[-1].endswith("added up: A +48, B -48, C 0, D 0")


def test_calc_in_a_five_player_session_scores_the_four_of_the_next_deal(db):
    assert invoke(db, "session", "start", "--players", "an,bert,carla,dirk,eva").exit_code == 0
    r = invoke(db, "calc", "--json", "samen", "8", "b+c", "9")  # an deals and sits out; whisthub samen 8: +11
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["points"] == {"bert": 11, "carla": 11, "dirk": -11, "eva": -11}
