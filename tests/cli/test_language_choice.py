"""The language of the command line (issue 16): --lang, $WIEZEN_LANG, the locale; Dutch errors start with
`Fout:`; click's own words in Dutch; English unchanged and loading nothing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.core import i18n

ROOT = Path(__file__).resolve().parents[2]

#: no language from the environment: each test says which one it wants
NEUTRAL = {"WIEZEN_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "none.db")


def run(db, *args, env=None, input=None):
    return CliRunner().invoke(cli, ["--db", db, *args], env={**NEUTRAL, **(env or {})}, input=input, prog_name="wiezen")


def error_lines(r):
    return [line for line in r.stderr.splitlines() if line.startswith(("Error:", "Fout:"))]


def test_an_unknown_language_is_one_line_naming_en_and_nl(db):
    r = run(db, "--lang", "fr", "calc", "samen", "9", "A+B", "11")
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines() == [r.stderr.strip()], r.stderr
    line = r.stderr.strip()
    assert line.startswith("Error: ") and "'fr'" in line and "en" in line.split() or "en (English)" in line
    assert "nl (Nederlands)" in line and "--lang" in line
    # in Dutch (from the environment) the same one line, in Dutch
    r = run(db, "--lang", "xx", "calc", env={"WIEZEN_LANG": "nl"})
    assert r.exit_code == 1 and len(r.stderr.splitlines()) == 1 and r.stderr.startswith("Fout: onbekende taal 'xx'")


def test_a_dutch_error_starts_with_fout(db):
    english = run(db, "calc", "samen", "9")
    dutch = run(db, "--lang", "nl", "calc", "samen", "9")
    assert english.exit_code == dutch.exit_code == 1
    assert [line[:6] for line in error_lines(english)] == ["Error:"]
    assert [line[:5] for line in error_lines(dutch)] == ["Fout:"]
    assert "Error" not in dutch.stderr


def test_click_speaks_dutch_for_usage_errors(db):
    r = run(db, "--lang", "nl", "calc", "--rules")
    assert r.exit_code == 2
    assert r.stderr.strip() == "Fout: De optie '--rules' heeft een waarde nodig."
    r = run(db, "--lang", "nl", "nosuch")
    assert r.exit_code == 2
    lines = r.stderr.splitlines()
    assert lines[0].startswith("Gebruik: wiezen ") and lines[1] == "Probeer 'wiezen --help' voor hulp."
    assert lines[-1] == "Fout: Onbekend commando 'nosuch'."
    r = run(db, "--lang", "nl", "calc", "samen", "9", "A+B", "11", "--bogus")
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == "Fout: Onbekende optie '--bogus'."


def test_too_many_words_in_dutch(db):
    r = run(db, "--lang", "nl", "undo", "x", "y")
    assert r.exit_code == 2
    assert r.stderr.splitlines()[-1].startswith("Fout: te veel argumenten: 'x y' is meer dan het commando aanneemt")


def test_the_language_may_follow_the_command_name_and_any_case(db):
    for args in (["calc", "--lang", "nl", "samen", "9"], ["calc", "samen", "9", "--lang=NL"], ["--lang", "Nl", "calc", "samen", "9"]):
        r = run(db, *args)
        assert r.exit_code == 1 and error_lines(r)[0].startswith("Fout: "), (args, r.stderr)


def test_lang_without_a_value_is_clicks_usage_error(db):
    r = run(db, "calc", "--lang")
    assert r.exit_code == 2 and r.stderr.splitlines()[-1] == "Error: Option '--lang' requires an argument."


def _help(db, env=None, *args):
    r = run(db, *args, "calc", "--help", env=env)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_wiezen_lang_and_the_locale_choose_dutch_and_lang_en_wins(db):
    english = _help(db)
    dutch = _help(db, None, "--lang", "nl")
    assert english.startswith("Usage: wiezen calc ") and dutch.startswith("Gebruik: wiezen calc ")
    assert "Toon deze hulp en stop." in dutch and "Show this message and exit." in english
    assert _help(db, {"WIEZEN_LANG": "nl"}) == dutch
    assert _help(db, {"LANG": "nl_BE.UTF-8"}) == dutch
    assert _help(db, {"LC_ALL": "nl_NL.UTF-8", "LANG": "en_GB.UTF-8"}) == dutch
    assert _help(db, {"LANG": "fr_BE.UTF-8"}) == english
    assert _help(db, {"WIEZEN_LANG": "en", "LANG": "nl_BE.UTF-8"}) == english  # WIEZEN_LANG before the locale
    assert _help(db, {"WIEZEN_LANG": "nl", "LANG": "nl_BE.UTF-8"}, "--lang", "en") == english  # --lang wins
    assert _help(db, {"WIEZEN_LANG": "klingon", "LANG": "nl_BE.UTF-8"}) == dutch  # an unknown WIEZEN_LANG: next


def test_english_is_unchanged_after_dutch_in_the_same_process(db):
    before = run(db, "calc", "samen", "9", "A+B", "11")
    run(db, "--lang", "nl", "calc", "--help")
    run(db, "--lang", "nl", "calc", "samen", "9")
    after = run(db, "calc", "samen", "9", "A+B", "11")
    assert before.stdout == after.stdout and before.exit_code == after.exit_code == 0
    assert i18n.language() == "en"
    assert _help(db).startswith("Usage: wiezen calc [OPTIONS] [DEAL]...")


_PROBE = """
import gettext, sys
loads = []
original = gettext.GNUTranslations.__init__
def init(self, *a, **k):
    loads.append(1)
    original(self, *a, **k)
gettext.GNUTranslations.__init__ = init
sys.argv = ["wiezen", *sys.argv[1:]]
from wiezen_score.cli import main
try:
    main()
except SystemExit:
    pass
import click.core
print("RESULT", len(loads), click.core._ is gettext.gettext, gettext.textdomain(), file=sys.stderr)
"""


def _probe(tmp_path, *args, lang=None):
    env = {k: v for k, v in os.environ.items() if k not in NEUTRAL}
    env["WIEZEN_DB"] = str(tmp_path / "probe.db")
    if lang:
        env["WIEZEN_LANG"] = lang
    r = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    line = [x for x in r.stderr.splitlines() if x.startswith("RESULT")]
    assert line, r.stderr
    _, loads, untouched, domain = line[0].split()
    assert untouched == "True"  # click's gettext is never rebound: Dutch binds the default text domain instead
    return int(loads), domain


def test_english_loads_no_catalogue_and_leaves_click_alone(tmp_path):
    assert _probe(tmp_path, "--version") == (0, "messages")
    assert _probe(tmp_path, "calc", "samen", "9", "A+B", "11") == (0, "messages")
    assert _probe(tmp_path, "deal", "samen", "9", "A+B", "11") == (0, "messages")  # no session: an error, in English


def test_dutch_loads_the_catalogue_once(tmp_path):
    """One catalogue for our messages and click's: gettext's default text domain is bound to it."""
    assert _probe(tmp_path, "calc", "--help", lang="nl") == (1, "wiezen")
    assert _probe(tmp_path, "calc", "samen", "9", lang="nl") == (1, "wiezen")
