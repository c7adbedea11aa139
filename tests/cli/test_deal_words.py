"""The words players say at the table, through the `wiezen` command: one deal-line grammar with
abbreviations and phrases in calc, deal, amend, session files, replay and play; names without accents; a
near miss suggests what was meant; impossible miserie lines are refused with the reason.

The commands run in-process (`run`); the first test shows that the installed command says the same, and the
terminal sessions of `play` (spawn_play) drive the installed command in a pseudo-terminal.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli

WIEZEN = str(Path(sys.executable).with_name("wiezen"))


def run_installed(db, *args, input=None, env=None):
    """The installed `wiezen` as a child process, with $WIEZEN_DB set and 200 columns."""
    e = {**os.environ, "WIEZEN_DB": str(db), "COLUMNS": "200", **(env or {})}
    e.pop("WIEZEN_LANG", None)
    return subprocess.run([WIEZEN, *args], input=input, capture_output=True, text=True, env=e, timeout=60, check=False)


def run(db, *args, input=None, env=None):
    """`wiezen ARGS` in-process, as run_installed() sees it (a child process costs about 0.15 s; the commands,
    their output and their exit status are the same): $WIEZEN_DB set, 200 columns, the same stdout/stderr."""
    e = {"WIEZEN_DB": str(db), "COLUMNS": "200", "WIEZEN_LANG": None, **(env or {})}
    r = CliRunner().invoke(cli, [str(a) for a in args], input=input, env=e, prog_name="wiezen")
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception  # a crash (the installed command would say "Error: unexpected ..."): show it
    return subprocess.CompletedProcess([WIEZEN, *args], r.exit_code, r.stdout, r.stderr)


def spawn_play(tmp_path, db):
    """The installed `wiezen play` in a pseudo-terminal (120 columns, no history file, no colour)."""
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "dumb", "INPUTRC": os.devnull, "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1",
           "COLUMNS": "120"}
    env.pop("WIEZEN_DB", None)
    return pexpect.spawn(WIEZEN, ["--db", str(db), "play", "--no-history"], env=env, cwd=str(tmp_path),
                         encoding="utf-8", timeout=20, dimensions=(50, 120))


def ok(db, *args, input=None):
    r = run(db, *args, input=input)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def error(db, *args, input=None):
    """Exactly one Error: line and exit status 1; returns that line."""
    r = run(db, *args, input=input)
    assert r.returncode == 1, (args, r.stdout, r.stderr)
    lines = [x for x in r.stderr.splitlines() if x.startswith("Error:")]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    return lines[0]


def sheet(db):
    return json.loads(ok(db, "sheet", "--json").stdout)


def counting(db):
    return [(e["no"], e["text"], e["points"]) for e in sheet(db)["entries"] if not e["voided"]]


@pytest.fixture
def table(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "anna,bob,rené,lotte")
    return db


def calc_points(db, *line, players="anna,bob,rené,lotte"):
    return json.loads(ok(db, "calc", "--json", "--players", players, *line).stdout)["points"]


def test_the_installed_command_says_what_run_says(tmp_path):
    steps = [
        ("session", "start", "--players", "anna,bob,rené,lotte"),
        ("deal", "s", "8", "an+bo", "9"),
        ("deal", "samen", "8", "anna+bbo", "9"),  # a near miss: one Error: line, exit 1
        ("sheet", "--json"),
    ]
    a, b = tmp_path / "installed.db", tmp_path / "in-process.db"
    for step in steps:
        child = run_installed(a, *step)
        here = run(b, *step)
        said = [(r.returncode, r.stdout.replace(str(db), "DB"), r.stderr.replace(str(db), "DB")) for r, db in
                ((here, b), (child, a))]
        assert said[0] == said[1], step
        if step[0] == "deal" and step[-2] == "anna+bbo":
            assert child.returncode == 1 and child.stderr.startswith("Error: "), child.stderr
    assert child.returncode == 0 and json.loads(child.stdout)["totals"]


# --- abbreviations and phrases in every place a deal line goes ------------------------------------------------


def test_deal_takes_the_abbreviations_of_play(table):
    r = ok(table, "deal", "s", "8", "an+bo", "9")
    assert "#1 samen 8 anna+bob 9" in r.stdout
    ok(table, "deal", "gm", "lotte", "0")
    ok(table, "deal", "ab", "10", "r", "10")
    assert [t for _, t, _ in counting(table)] == ["samen 8 anna+bob 9", "grote-miserie lotte 0", "abondance 10 rené 10"]


def test_abbreviated_deal_scores_as_the_written_out_one(tmp_path):
    db = tmp_path / "none.db"
    for short, full in [
        (["s", "9", "A+B", "11"], ["samen", "9", "A+B", "11"]),
        (["a", "5", "C", "4"], ["alleen", "5", "C", "4"]),
        (["t", "A+D", "8"], ["troel", "A+D", "8"]),
        (["om", "B", "1"], ["open-miserie", "B", "1"]),
        (["ss", "D", "13"], ["solo-slim", "D", "13"]),
    ]:
        assert calc_points(db, *short, players="A,B,C,D") == calc_points(db, *full, players="A,B,C,D"), short


def test_calc_each_takes_abbreviations_and_phrases(tmp_path):
    db = tmp_path / "none.db"
    lines = "s 8 A+B 9\nmiserie op tafel C 0\nsolo slim D 13\ngrote miserie A 0 B 1\n"
    r = ok(db, "calc", "--json", "--each", "-", input=lines)
    docs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [d["points"] for d in docs] == [
        calc_points(db, "samen", "8", "A+B", "9", players="A,B,C,D"),
        calc_points(db, "open-miserie", "C", "0", players="A,B,C,D"),
        calc_points(db, "solo-slim", "D", "13", players="A,B,C,D"),
        calc_points(db, "grote-miserie", "A", "0", "B", "1", players="A,B,C,D"),
    ]
    # whisthub: open miserie made by one is 3 x 24 for him (the README's table), solo slim 3 x 60
    assert docs[1]["points"]["C"] == 72 and docs[2]["points"]["D"] == 180


def test_miserie_op_tafel_is_open_miserie_and_not_a_player(table):
    r = ok(table, "deal", "miserie", "op", "tafel", "lotte", "0")
    assert "#1 open-miserie lotte 0" in r.stdout
    assert counting(table)[0][2] == {"anna": -24, "bob": -24, "rené": -24, "lotte": 72}


def test_deal_points_a_penalty_and_an_undo_to_their_commands(table):
    # (a rondje pas and a carte blanche are recorded by `deal` itself: tests/cli/test_deal_pass_redeal_words.py)
    assert "wiezen penalty PLAYER" in error(table, "deal", "penalty", "anna")
    assert "wiezen penalty PLAYER" in error(table, "deal", "straf", "anna", "renonce")
    assert "wiezen undo" in error(table, "deal", "ongedaan", "maken")
    assert sheet(table)["entries"] == []  # nothing written


def test_calc_of_a_rondje_pas_or_a_carte_blanche_is_zero(tmp_path):
    db = tmp_path / "none.db"
    for words in (["rondje", "pas"], ["passen"], ["carte", "blanche"]):
        doc = json.loads(ok(db, "calc", "--json", *words).stdout)
        assert doc["points"] == {"A": 0, "B": 0, "C": 0, "D": 0}, words
    assert "double" in " ".join(json.loads(ok(db, "calc", "--json", "rondje", "pas").stdout)["explanation"])


def test_session_file_and_replay_take_the_same_words(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "avond.txt"
    f.write_text(
        "players anna bob rené lotte\n"
        "s 8 an+bo 9\n"
        "rondje pas\n"
        "passen\n"
        "carte blanche\n"
        "t rene+lo 8\n"
        "miserie op tafel lotte 0\n"
        "penalty rene renonce\n",
        encoding="utf-8",
    )
    doc = json.loads(ok(db, "replay", str(f), "--json").stdout)
    got = [(e["kind"], e["text"], e["multiplier"]) for e in doc["entries"]]
    assert got == [
        ("deal", "samen 8 anna+bob 9", 1),
        ("pass", "pas", 1),
        ("pass", "pas", 1),
        ("redeal", "redeal", 1),
        ("deal", "troel 8 rené+lotte 8", 2),  # whisthub doubles once after a rondje pas
        ("deal", "open-miserie lotte 0", 1),
        ("penalty", "penalty rené", 1),
    ]
    assert doc["entries"][3]["reason"] == "carte blanche"


def test_play_takes_the_same_words(tmp_path):
    db = tmp_path / "w.db"
    r = run(db, "play", input="players anna bob rené lotte\nrondje pas\nt rene+lo 8\nmiserie op tafel an 0\nquit\n")
    assert r.returncode == 0, r.stderr
    got = [(e["kind"], e["text"], e["multiplier"]) for e in sheet(db)["entries"]]
    assert got == [("pass", "pas", 1), ("deal", "troel 8 rené+lotte 8", 2), ("deal", "open-miserie anna 0", 1)]


def test_amend_takes_abbreviations_and_phrases(table):
    ok(table, "deal", "samen", "8", "anna+bob", "9")
    ok(table, "amend", "1", "gm", "rene", "0")
    ok(table, "deal", "s", "8", "an+bo", "9")
    ok(table, "amend", "2", "rondje", "pas")
    ok(table, "pass")
    ok(table, "amend", "3", "carte", "blanche")
    assert [t for _, t, _ in counting(table)] == ["grote-miserie rené 0", "pas", "redeal"]


# --- names without accents -------------------------------------------------------------------------------------


def test_a_name_matches_without_accents(table):
    assert "#1 alleen 5 rené 6" in ok(table, "deal", "alleen", "5", "rene", "6").stdout
    assert "#2 penalty rené" in ok(table, "penalty", "RENE").stdout
    assert "rené" in calc_points(table, "alleen", "5", "rene", "6")


# --- near misses -----------------------------------------------------------------------------------------------


def test_a_mistyped_contract_suggests_the_nearest(tmp_path):
    db = tmp_path / "none.db"
    msg = error(db, "calc", "samn", "8", "A+B", "9")
    assert "'samn'" in msg and "did you mean samen?" in msg
    assert "did you mean troel?" in error(db, "calc", "trol", "A+B", "8")
    # nothing near: no guess, but the list of contracts
    msg = error(db, "calc", "xyzzy", "A", "0")
    assert "did you mean" not in msg and "samen" in msg


def test_a_mistyped_player_suggests_the_nearest(table):
    msg = error(table, "deal", "samen", "8", "anna+bbo", "9")
    assert "no player 'bbo'" in msg and "did you mean bob?" in msg
    assert "did you mean lotte?" in error(table, "deal", "alleen", "5", "lote", "5")
    assert counting(table) == []  # nothing written


def test_play_suggests_too(tmp_path):
    db = tmp_path / "w.db"
    r = run(db, "play", input="players anna bob rené lotte\nsamn 8 an+bo 9\nquit\n")
    assert r.returncode == 1
    assert "did you mean samen?" in r.stderr and "line 2" in r.stderr


# --- impossible miserie lines ------------------------------------------------------------------------------------


def test_all_four_on_miserie_must_take_13_tricks(tmp_path):
    # calc gives the rule table's arithmetic (the shared conformance cases define it) but warns that no real deal
    # ends like this; recording refuses it (test_fewer_on_miserie_take_at_most_13, the session-file test below)
    db = tmp_path / "none.db"
    r = ok(db, "calc", "kleine-miserie", "A", "0", "B", "0", "C", "0", "D", "0")
    warn = [x for x in r.stderr.splitlines() if x.startswith("Warning:")]
    assert len(warn) == 1 and "must add up to 13" in warn[0] and "0 + 0 + 0 + 0" in warn[0], r.stderr
    assert "impossible at a real table" in r.stdout
    r = ok(db, "calc", "piccolo", "A", "1", "B", "1", "C", "1", "D", "0")
    assert "must add up to 13" in r.stderr and "wiezen deal` refuses it" in r.stderr
    assert not (tmp_path / "none.db").exists()
    # a possible one: one player takes the rest
    pts = calc_points(db, "piccolo", "A", "1", "B", "1", "C", "1", "D", "10", players="A,B,C,D")
    assert sum(pts.values()) == 0


def test_fewer_on_miserie_take_at_most_13(tmp_path, table):
    msg = error(table, "deal", "grote-miserie", "anna", "7", "bob", "7")
    assert "14" in msg and "more than 13" in msg
    msg = error(table, "deal", "km", "an", "0", "bo", "0", "re", "0", "lo", "0")
    assert "must add up to 13" in msg
    assert counting(table) == []  # nothing recorded
    ok(table, "deal", "grote-miserie", "anna", "0", "bob", "13")  # 13 in all: possible


def test_uitspraak_keeps_a_ruling_as_precedent_does(tmp_path):
    from wiezen_score.core.sessionfile import canonical_line

    assert canonical_line("uitspraak Troel met vier azen: de vierde aas komt uit") == (
        "precedent Troel met vier azen: de vierde aas komt uit")
    db = tmp_path / "w.db"
    r = run(db, "play", input="players jan piet mieke lotte\ns 8 j+p 9\nuitspraak Renonce: tien punten\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "precedent 1" in r.stdout
