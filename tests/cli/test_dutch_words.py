"""Input words in both languages whatever the language (issue 16): `wiezen play`'s commands and the lines of
a session, the y/N confirmation (ja/j/yes/y); JSON and CSV stay English in Dutch."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.cli.play import canonical_line

ROOT = Path(__file__).resolve().parents[2]
NEUTRAL = {"WIEZEN_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def run(db, *args, input=None, lang=None):
    env = {**NEUTRAL, **({"WIEZEN_LANG": lang} if lang else {})}
    return CliRunner().invoke(cli, ["--db", str(db), *args], input=input, env=env, prog_name="wiezen")


def entries(db):
    r = run(db, "sheet", "--json")
    assert r.exit_code == 0, r.output
    return [(e["kind"], e["text"], e["voided"]) for e in json.loads(r.stdout)["entries"]]


@pytest.mark.parametrize(("typed", "grammar"), [
    ("ongedaan", "undo"),
    ("ongedaan maken verkeerd geteld", "undo verkeerd geteld"),
    ("opnieuw delen carte blanche", "redeal carte blanche"),
    ("herdelen", "redeal"),
    ("straf jan renonce", "penalty jan renonce"),
    ("straf jan rondje te laat", "penalty jan round te laat"),
    ("penalty jan rondje", "penalty jan round"),
    ("spelers jan piet mieke lotte deler mieke", "players jan piet mieke lotte dealer mieke"),
    ("ronde 2 tafel 3", "round 2 table 3"),
    ("verbeter 3 straf jan", "amend 3 penalty jan"),
    ("regels rupelstreek", "rules rupelstreek"),
    ("spelen 24", "deals 24"),
    ("blad 5", "sheet 5"),
    ("uitleg 2", "explain 2"),
    ("afrekenen 5", "settle 5"),
    ("hulp", "help"),
    ("stop", "quit"),
    ('sessie "Café  De Kroon" vorige vrijdag', 'session "Café  De Kroon" vorige vrijdag'),
])
def test_dutch_words_become_the_grammar(typed, grammar):
    assert canonical_line(typed) == grammar


@pytest.mark.parametrize("line", ["samen 8 jan+piet 9", "pas", "pass", "undo  two  spaces", "penalty jan round late",
                                  'session "A  B" 2026-11-27', "players stop piet mieke lotte", "", "# straf"])
def test_a_line_without_dutch_words_is_left_as_it_is(line):
    assert canonical_line(line) == line


SCRIPT_NL = """\
regels rupelstreek
spelers jan piet mieke lotte deler jan
samen 8 jan+piet 9
rondje pas
troel mieke+lotte 8
ongedaan verkeerd geteld
straf piet rondje te laat
opnieuw delen carte blanche
blad 3
afrekenen 5
stop
"""

SCRIPT_EN = """\
rules rupelstreek
players jan piet mieke lotte dealer jan
samen 8 jan+piet 9
pass
troel mieke+lotte 8
undo verkeerd geteld
penalty piet round te laat
redeal carte blanche
sheet 3
settle 5
quit
"""


@pytest.mark.parametrize("lang", [None, "nl"])
def test_play_takes_both_languages_whatever_the_language(tmp_path, lang):
    dutch, english = tmp_path / "nl.db", tmp_path / "en.db"
    a = run(dutch, "play", input=SCRIPT_NL, lang=lang)
    b = run(english, "play", input=SCRIPT_EN, lang=lang)
    assert a.exit_code == b.exit_code == 0, (a.output, b.output)
    assert entries(dutch) == entries(english)
    assert [(kind, voided) for kind, _text, voided in entries(dutch)] == [
        ("deal", False), ("pass", False), ("deal", True), ("penalty", False), ("redeal", False)]
    doc = json.loads(run(dutch, "sheet", "--json").stdout)
    assert doc["entries"][3]["reason"] == "te laat" and "round" in doc["entries"][3]["text"]
    assert doc["entries"][2]["voided_by"] == "undo" and doc["entries"][4]["reason"] == "carte blanche"
    assert a.stdout == b.stdout  # the same evening, told the same way in the language chosen


def test_play_speaks_dutch(tmp_path):
    r = run(tmp_path / "w.db", "play", input=SCRIPT_NL + "nonsense\n", lang="nl")
    assert "sessie 1 begonnen: jan, piet, mieke, lotte onder de huisregels rupelstreek; jan deelt eerst" in r.stdout
    assert "geschrapt: #3 troel 8 mieke+lotte 8" in r.stdout
    assert re.search(r"^  \w+ betaalt \w+ 3 \(€ 0,15\)$", r.stdout, re.M), r.stdout
    assert r.exit_code == 0  # `stop` ended the input before the bad line


def test_a_bad_piped_line_is_a_dutch_error_with_its_number(tmp_path):
    r = run(tmp_path / "w.db", "play", input="spelers jan piet mieke lotte\nblad x y\n", lang="nl")
    assert r.exit_code == 1
    assert r.stderr.strip().startswith("Fout: regel 2: blad neemt niets")


def _spawn(tmp_path, db, lang):
    pexpect = pytest.importorskip("pexpect")
    exe = shutil.which("wiezen", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("no installed wiezen command")
    env = {k: v for k, v in os.environ.items() if k not in NEUTRAL and k != "WIEZEN_DB"}
    env.update({"TERM": "dumb", "INPUTRC": os.devnull, "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1",
                "COLUMNS": "120", "WIEZEN_LANG": lang})
    return pexpect.spawn(exe, ["--db", str(db), "play", "--no-history"], env=env, cwd=str(tmp_path),
                         encoding="utf-8", timeout=20, dimensions=(50, 120))


@pytest.mark.parametrize(("lang", "prompt", "question", "answer"), [
    ("nl", "[#2 piet deelt] > ", "#1 samen 8 jan+piet 9 ongedaan maken? [j/N] ", "ja"),
    ("nl", "[#2 piet deelt] > ", "#1 samen 8 jan+piet 9 ongedaan maken? [j/N] ", "yes"),
    ("en", "[#2 piet deals] > ", "undo #1 samen 8 jan+piet 9? [y/N] ", "j"),
])
def test_the_confirmation_takes_yes_in_both_languages(tmp_path, lang, prompt, question, answer):
    pexpect = pytest.importorskip("pexpect")
    db = tmp_path / "w.db"
    assert run(db, "session", "start", "--players", "jan,piet,mieke,lotte").exit_code == 0
    assert run(db, "deal", "samen", "8", "jan+piet", "9").exit_code == 0
    c = _spawn(tmp_path, db, lang)
    c.expect_exact(prompt)
    c.sendline("ongedaan" if lang == "nl" else "undo")
    c.expect_exact(question)
    c.sendline(answer)
    c.expect_exact("[#2 jan ")  # the voided deal keeps its number: jan deals again
    c.sendline("stop")
    c.expect(pexpect.EOF)
    assert entries(db) == [("deal", "samen 8 jan+piet 9", True)]


def test_no_is_no_in_both_languages(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    db = tmp_path / "w.db"
    assert run(db, "session", "start", "--players", "jan,piet,mieke,lotte").exit_code == 0
    assert run(db, "deal", "samen", "8", "jan+piet", "9").exit_code == 0
    c = _spawn(tmp_path, db, "nl")
    for no in ("nee", "no", "n", ""):
        c.expect_exact("[#2 piet deelt] > ")
        c.sendline("undo")
        c.expect_exact("[j/N] ")
        c.sendline(no)
        c.expect_exact("niet ongedaan gemaakt")
    c.sendline("stop")
    c.expect(pexpect.EOF)
    assert entries(db) == [("deal", "samen 8 jan+piet 9", False)]


# --- JSON and CSV stay English ------------------------------------------------------------------------------

def test_json_and_csv_are_english_in_dutch(tmp_path):
    db = tmp_path / "w.db"
    for args in (["session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-11-27"],
                 ["deal", "samen", "8", "jan+piet", "9"], ["pass"]):
        assert run(db, *args).exit_code == 0
    for args in (["calc", "--players", "A,B,C,D", "samen", "9", "A+B", "11", "--json"], ["sheet", "--json"], ["sheet", "--csv"],
                 ["sessions", "--csv"], ["sessions", "--format", "json"], ["settle", "--cents", "5", "--json"],
                 ["standings", "--format", "csv"], ["check", "--json"]):
        english, dutch = run(db, *args), run(db, *args, lang="nl")
        assert english.exit_code == dutch.exit_code == 0, (args, dutch.output)
        assert dutch.stdout == english.stdout, args
    # and the same commands as text are Dutch
    assert run(db, "sessions", lang="nl").stdout.startswith("nr ")


def test_a_machine_format_run_keeps_english_errors_too(tmp_path):
    r = run(tmp_path / "w.db", "calc", "samen", "9", "--json", lang="nl")
    # calc --json reports its error as JSON on stdout (issue 30), in English as every JSON text
    assert r.exit_code == 1 and json.loads(r.stdout)["error"].startswith("expected samen [LEVEL] TAKER+PARTNER")


def test_the_installed_command_in_a_real_process(tmp_path):
    exe = shutil.which("wiezen", path=str(Path(sys.executable).parent))
    if exe is None:
        pytest.skip("no installed wiezen command")
    env = {k: v for k, v in os.environ.items() if k not in NEUTRAL}
    env["WIEZEN_DB"] = str(tmp_path / "w.db")
    r = subprocess.run([exe, "--lang", "nl", "deal", "samen", "9"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 1 and r.stdout == "" and r.stderr.startswith("Fout: ")


def test_listings_for_a_person_are_dutch_their_json_is_not(tmp_path):
    db = tmp_path / "w.db"
    table = run(db, "rules", "list", lang="nl").stdout
    assert table.splitlines()[0].split() == ["naam", "herkomst", "samenvatting"]
    assert "ingebouwd" in table and "built in" not in table
    doc = json.loads(run(db, "rules", "list", "--json", lang="nl").stdout)
    assert {r["origin"] for r in doc} == {"built in"}
