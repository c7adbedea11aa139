"""`wiezen play` (issue 7): the abbreviations, the prompt driven through a pipe, and under a pseudo-terminal.

The oracle is tests/data/expected_evenings.json (hand-computed) and `wiezen replay` of the same evening written
out in full: the sheet that `play` leaves must be the same document.
"""

from __future__ import annotations

import json
import os
import re
import sys

import pytest
from _ledger_helpers import DATA, ROOT, counting, ok, sheet, wz

from wiezen_score.core.abbrev import ABBREVIATIONS, abbreviations, expand_line, expand_word
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import PRESETS, parse_rules

EVENINGS = {ev["file"]: ev for ev in json.loads((DATA / "expected_evenings.json").read_text(encoding="utf-8"))}
KROON = "examples/cafe-de-kroon-rupelstreek.txt"


def rules(name: str):
    return parse_rules(preset_text(name), name)


# --------------------------------------------------------------------------------------------------------------
# The abbreviations (pure)


def test_abbreviations_expand_the_contract_word_only():
    r = rules("rupelstreek")
    assert expand_line("s 8 j+p 9", r) == "samen 8 j+p 9"
    assert expand_line("S 8 j+p 9", r) == "samen 8 j+p 9"
    assert expand_line("a 5 l 6", r) == "alleen 5 l 6"
    assert expand_line("ab 10 l 11", r) == "abondance 10 l 11"
    assert expand_line("t m+l 8", r) == "troel m+l 8"
    assert expand_line("gm j 0 p 3", r) == "grote-miserie j 0 p 3"
    assert expand_line("om m 0 over-troel", r) == "open-miserie m 0 over-troel"
    assert expand_line("ss p 13", r) == "solo-slim p 13"
    # the rest of the line is kept as typed, and only the first word is looked at
    assert expand_line("  s  8   j+p 9 ", r) == "  samen  8   j+p 9 "
    assert expand_line("samen 8 s+a 9", r) == "samen 8 s+a 9"
    # amend N: the contract is the third word
    assert expand_line("amend 3 s 8 j+p 8", r) == "amend 3 samen 8 j+p 8"
    assert expand_line("amend 3 pas", r) == "amend 3 pas"
    assert expand_line("amend s", r) == "amend s"


def test_abbreviations_only_for_contracts_the_house_rules_have():
    rupel, whisthub = rules("rupelstreek"), rules("whisthub")
    # rupelstreek has no kleine miserie, no piccolo, no solo (SCORING.md presets)
    for word in ("km", "pc", "so"):
        assert expand_word(word, rupel) is None
        assert expand_line(f"{word} jan 0", rupel) == f"{word} jan 0"
    assert expand_word("km", whisthub) == "kleine-miserie"
    assert expand_word("pc", whisthub) == "piccolo"
    assert dict(abbreviations(rupel)) == {
        "s": "samen", "a": "alleen", "t": "troel", "ab": "abondance", "ss": "solo-slim", "gm": "grote-miserie",
        "om": "open-miserie",
    }


def test_a_word_the_house_rules_know_is_never_rewritten():
    text = preset_text("rupelstreek").replace('aliases = ["troela"]', 'aliases = ["troela", "s"]')
    r = parse_rules(text, "test")
    assert expand_word("s", r) is None  # 's' is this club's troel
    assert expand_line("s m+l 8", r) == "s m+l 8"
    assert expand_line("t m+l 8", r) == "troel m+l 8"


def test_no_abbreviation_clashes_with_a_command_or_a_contract_word():
    commands = {"pas", "pass", "redeal", "penalty", "undo", "amend", "explain", "sheet", "settle", "help", "quit",
                "exit", "q", "end", "players", "rules", "session"}
    assert not set(ABBREVIATIONS) & commands
    for name in PRESETS:
        r = rules(name)
        known = {w for c in r.contracts for w in (c.name, *c.aliases)}
        assert not set(ABBREVIATIONS) & known, name
        for word in commands:  # a command line is never turned into a deal
            assert expand_line(f"{word} jan", r) == f"{word} jan"


# --------------------------------------------------------------------------------------------------------------
# Through a pipe

# The Café De Kroon evening (examples/, totals hand-computed in expected_evenings.json) as a scorer types it:
# prefixes, abbreviations, and one wrong deal undone. Each line next to the session-file line it stands for.
TYPED = [
    ('session "Café De Kroon" 2026-11-27', 'session "Café De Kroon" 2026-11-27'),
    ("rules rupelstreek", "rules rupelstreek"),
    ("players jan piet mieke lotte", "players jan piet mieke lotte"),
    ("s 8 j+p 9", "samen 8 jan+piet 9"),
    ("s 8 m+l 10", "samen 8 mieke+lotte 10"),
    ("a 5 lo 6", "alleen 5 lotte 6"),
    ("pas", "pas"),
    ("s 8 P+M 9", "samen 8 piet+mieke 9"),
    ("s 8 j+l 8", "samen 8 jan+lotte 8"),  # wrong: they took 7
    ("undo they took 7", "undo they took 7"),
    ("s 8 j+l 7", "samen 8 jan+lotte 7"),
    ("penalty j renonce in troef", "penalty jan renonce in troef"),
    ("t mi+l 8", "troel mieke+lotte 8"),
    ("pass", "pas"),
    ("pas", "pas"),
    ("vraag 8 j+m 10", "samen 8 jan+mieke 10"),
    ("gm j 0 p 3", "grote-miserie jan 0 piet 3"),
    ("redeal carte blanche", "redeal carte blanche"),
    ("s 8 pi+lot 13", "samen 8 piet+lotte 13"),
    ("penalty p round te laat", "penalty piet round te laat"),
    ("om m 0", "open-miserie mieke 0"),
    ("ab 10 l 11", "abondance 10 lotte 11"),
    ("a 5 p 4", "alleen 5 piet 4"),
    ("s 8 m+l 11", "samen 8 mieke+lotte 11"),
    ("pas", "pas"),
]


def play(db, text: str, *opts: str):
    return wz(db, "play", *opts, input=text)


def test_a_typed_evening_ends_with_the_sheet_of_the_same_evening_replayed(tmp_path):
    typed = "\n".join(t for t, _ in TYPED) + "\n"
    full = tmp_path / "kroon.txt"
    full.write_text("\n".join(f for _, f in TYPED) + "\n", encoding="utf-8")

    r = play(tmp_path / "play.db", typed)
    assert r.exit_code == 0, r.stderr
    assert r.stderr == f"new ledger: {tmp_path / 'play.db'}\n"  # the only word on stderr: it says so
    ok(tmp_path / "replay.db", "replay", "--keep-open", full)
    got, want = sheet(tmp_path / "play.db"), sheet(tmp_path / "replay.db")
    assert got == want

    # and both are the hand-computed evening, with the undone deal kept and struck
    ev = EVENINGS[KROON]
    assert got["totals"] == ev["totals"] == {"jan": -33, "piet": -35, "mieke": 45, "lotte": 23}
    assert [(e["text"], e["voided"]) for e in got["entries"] if e["voided"]] == [("samen 8 jan+lotte 8", True)]
    assert len(counting(got)) == len(ev["entries"])
    for g, x in zip(counting(got), ev["entries"], strict=True):
        assert (g["kind"], g["dealer"], g["multiplier"], g["points"]) == (
            x["kind"], x["dealer"], x["multiplier"], x["points"]), x["line"]
    assert got["dealer"] == ev["next_dealer"]
    assert got["pending_multiplier"] == ev["pending_multiplier"]
    assert got["rounds_owed"] == ev["rounds_owed"]
    # after each entry: the last rows, the running totals and whose deal it is
    assert "totals: jan -33, piet -35, mieke +45, lotte +23" in r.stdout
    assert f"next: {ev['next_dealer']} deals; the next deal counts x{ev['pending_multiplier']}" in r.stdout[-300:]


@pytest.mark.parametrize("file", sorted(EVENINGS))
def test_each_example_file_typed_line_by_line_gives_the_hand_computed_totals(tmp_path, file):
    ev = EVENINGS[file]
    db = tmp_path / "w.db"
    text = (ROOT / file).read_text(encoding="utf-8")
    if ev["rules"].endswith(".toml"):  # house rules from a file, which the evening's `rules` line names
        ok(db, "rules", "add", ROOT / ev["rules"])
    r = play(db, text)
    assert r.exit_code == 0, r.stderr
    doc = sheet(db)
    assert doc["session"]["players"] == ev["players"]
    assert doc["totals"] == ev["totals"]
    assert doc["dealer"] == ev["next_dealer"]
    assert doc["rounds_owed"] == ev["rounds_owed"]
    assert [e["points"] for e in counting(doc)] == [x["points"] for x in ev["entries"]]


def test_a_bad_line_is_reported_with_its_number_and_skipped(tmp_path):
    lines = [t for t, _ in TYPED]
    bad = lines[:6] + ["s 8 j+xavier 9", "s 8 j+j 9", "s 9 j+p 9", "alleen 5 p"] + lines[6:]
    r = play(tmp_path / "bad.db", "\n".join(bad) + "\n")
    assert r.exit_code == 1
    errors = [e for e in r.stderr.strip().splitlines() if not e.startswith("new ledger: ")]
    assert [e.split(":")[:2] for e in errors] == [["Error", " line 7"], ["Error", " line 8"], ["Error", " line 9"],
                                                  ["Error", " line 10"]]
    assert "xavier" in errors[0]
    assert "Traceback" not in r.stderr + r.stdout
    # nothing of the bad lines was recorded: the evening is the same as without them
    good = play(tmp_path / "good.db", "\n".join(lines) + "\n")
    assert good.exit_code == 0
    assert sheet(tmp_path / "bad.db") == sheet(tmp_path / "good.db")


def test_eof_ends_cleanly_and_quit_stops_reading(tmp_path):
    db = tmp_path / "w.db"
    r = play(db, "rules rupelstreek\nplayers jan piet mieke lotte\ns 8 j+p 9")  # no newline at the end
    assert (r.exit_code, r.stderr) == (0, f"new ledger: {db}\n")
    assert sheet(db)["totals"] == {"jan": 3, "piet": 3, "mieke": -3, "lotte": -3}  # samen 8, 9 tricks: 2 + 1
    assert sheet(db)["session"]["open"] is True  # play resumes it next time
    r = play(db, "pas\nquit\ns 8 m+l 10\n")
    assert r.exit_code == 0
    doc = sheet(db)
    assert [e["text"] for e in doc["entries"]] == ["samen 8 jan+piet 9", "pas"]
    r = play(db, "")
    assert (r.exit_code, r.stdout, r.stderr) == (0, "", "")


def test_amend_undo_explain_sheet_and_settle_in_a_pipe(tmp_path):
    db = tmp_path / "w.db"
    r = play(db, "\n".join([
        "rules rupelstreek", "players jan piet mieke lotte",
        "s 8 j+p 9", "pas", "s 8 m+l 8",
        "amend 1 s 8 j+p 8",  # 8 tricks: made, no overtrick: x = 2
        "explain 3", "sheet 2", "settle 10",
    ]) + "\n")
    assert r.exit_code == 0, r.stderr
    doc = sheet(db)
    assert [(e["no"], e["text"], e["voided"]) for e in doc["entries"]] == [
        (1, "samen 8 jan+piet 9", True), (1, "samen 8 jan+piet 8", False), (2, "pas", False),
        (3, "samen 8 mieke+lotte 8", False)]
    # #3 is doubled after the rondje pas (rupelstreek: once): 2 x 2 = 4
    assert doc["totals"] == {"jan": 2 - 4, "piet": 2 - 4, "mieke": -2 + 4, "lotte": -2 + 4}
    assert "x2 after rondje pas" in r.stdout
    # settle: jan and piet owe 2 each, at 10 cents a point
    pays = re.findall(r"^\s+(\w+) pays (\w+) (\d+) \((€[\d.]+)\)$", r.stdout, re.M)
    assert sorted(pays) == [("jan", "lotte", "2", "€0.20"), ("piet", "mieke", "2", "€0.20")] or sorted(pays) == [
        ("jan", "mieke", "2", "€0.20"), ("piet", "lotte", "2", "€0.20")]


def test_lines_that_need_a_session_or_come_too_late(tmp_path):
    db = tmp_path / "w.db"
    r = play(db, "s 8 j+p 9\nsheet\nplayers jan piet mieke\nrules nowhere\n")
    assert r.exit_code == 1
    errors = r.stderr.strip().splitlines()
    assert len(errors) == 4
    assert errors[0].startswith("Error: line 1: no open session")
    assert errors[2].startswith("Error: line 3: ") and "4 to 6" in errors[2]
    assert errors[3].startswith("Error: line 4: no house rules 'nowhere'")
    # a header while a session is open: the lines after it belong to another evening, so nothing more is read
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    r = play(db, "s 8 b+c 9\nplayers jan piet mieke lotte\ns 8 j+p 9\n")
    assert r.exit_code == 1
    assert r.stderr.count("Error:") == 1 and "line 2:" in r.stderr
    assert [e["text"] for e in sheet(db)["entries"]] == ["samen 8 bert+carla 9"]


def test_five_players_the_dealer_sits_out(tmp_path):
    db = tmp_path / "w.db"
    r = play(db, "players an bert carla dirk eva\ns 8 a+b 9\n")
    assert r.exit_code == 1
    assert "an sits out this deal" in r.stderr  # an deals first, so an does not play
    assert "next: an deals, an sits out" in r.stdout
    r = play(db, "s 8 b+c 9\n")
    assert r.exit_code == 0
    assert "next: bert deals, bert sits out" in r.stdout


def test_completion_offers_commands_contracts_and_the_players_in_play(tmp_path):
    from wiezen_score import ledger
    from wiezen_score.cli.play import Table

    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    with ledger.open_ledger(str(db)) as led:
        t = Table(led, interactive=True, last=5, color=False)
        assert t.candidates("", "s") == ["samen ", "settle ", "sheet ", "solo-slim "]
        assert t.candidates("", "tr") == ["troel ", "troela "]
        assert t.candidates("s 8 ", "j") == ["jan+"]  # a team contract: the partner comes next
        assert t.candidates("s 8 jan+", "") == ["jan ", "piet ", "mieke ", "lotte "]
        assert t.candidates("s 8 jan+", "P") == ["piet "]
        assert t.candidates("alleen 5 ", "m") == ["mieke "]
        assert t.candidates("gm ", "l") == ["lotte "]
        assert t.candidates("penalty ", "mi") == ["mieke "]
        assert t.candidates("penalty mieke ", "r") == ["round "]
        assert t.candidates("amend 3 ", "ab") == ["abondance ", "abondance-troef "]
        assert t.candidates("explain ", "") == []
    with ledger.open_ledger(str(db)) as led:
        led.end_session()
        t = Table(led, interactive=True, last=5, color=False)
        assert t.candidates("", "") == ["help ", "players ", "quit ", "rules ", "session "]
        assert t.candidates("rules ", "r") == ["rupelstreek "]


# --------------------------------------------------------------------------------------------------------------
# Under a pseudo-terminal: what the scorer sees


def test_an_evening_typed_at_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    db, hist = tmp_path / "w.db", tmp_path / "history"
    env = {**os.environ, "TERM": "dumb", "INPUTRC": os.devnull, "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1"}
    env.pop("WIEZEN_DB", None)
    c = pexpect.spawn(sys.executable, ["-m", "wiezen_score", "--db", str(db), "play", "--history", str(hist)],
                      env=env, cwd=str(tmp_path), encoding="utf-8", timeout=15, dimensions=(50, 160))
    try:
        c.expect_exact("No open session")
        c.expect_exact("[no session] > ")
        c.sendline("rules rupelstreek")
        c.expect_exact("[no session] > ")
        c.sendline("players jan piet mieke lotte")
        c.expect_exact("jan deals first")
        c.expect_exact("[#1 jan deals] > ")
        c.send("sa\t")  # tab completion of the contract ...
        c.expect_exact("samen ")
        c.send("8 j\t")  # ... and of the taker, with the '+' for the partner
        c.expect_exact("jan+")
        c.send("pi\t")
        c.expect_exact("piet ")
        c.sendline("9")
        c.expect_exact("totals: jan +3, piet +3, mieke -3, lotte -3")
        c.expect_exact("next: piet deals")
        c.expect_exact("[#2 piet deals] > ")
        c.sendline("pas")  # rupelstreek: the next dealer, and the next deal counts double
        c.expect_exact("next: mieke deals; the next deal counts x2")
        c.expect_exact("[#3 mieke deals x2] > ")
        c.sendline("s 8 x+m 9")  # a bad line: one error, the prompt stays, nothing recorded
        c.expect_exact("Error: no player 'x' at this table")
        c.expect_exact("[#3 mieke deals x2] > ")
        c.sendline("s 8 m+l 10")  # 2 + 2 overtricks = 4, doubled: 8
        c.expect_exact("totals: jan -5, piet -5, mieke +5, lotte +5")
        c.expect_exact("[#4 lotte deals] > ")
        c.sendline("undo")  # undo asks first
        c.expect_exact("undo #3 samen 8 mieke+lotte 10? [y/N] ")
        c.sendline("")
        c.expect_exact("not undone")
        c.expect_exact("[#4 lotte deals] > ")
        c.sendline("penalty l renonce")
        c.expect_exact("totals: jan 0, piet 0, mieke +10, lotte -10")  # lotte pays 5 to each of three
        c.expect_exact("[#5 lotte deals] > ")
        c.sendline("amend 4 penalty m renonce")
        c.expect_exact("amend #4 penalty lotte -> penalty mieke renonce? [y/N] ")  # the names it resolved to
        c.sendline("y")
        c.expect_exact("totals: jan 0, piet 0, mieke -10, lotte +10")
        c.expect_exact("[#5 lotte deals] > ")
        c.sendline("settle")
        c.expect_exact("mieke pays lotte 10")
        c.expect_exact("[#5 lotte deals] > ")
        c.sendeof()  # Ctrl-D ends, the session stays open
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert c.exitstatus == 0
    doc = sheet(db)
    assert doc["session"]["open"] is True
    assert doc["totals"] == {"jan": 0, "piet": 0, "mieke": -10, "lotte": 10}
    history = hist.read_text(encoding="utf-8").splitlines()
    assert "s 8 m+l 10" in history and "y" not in history  # the confirmations are not kept


def test_prompt_toolkit_menu_and_toolbar(tmp_path):
    """With prompt_toolkit (the [play] extra): a completion menu while typing, a toolbar with the totals."""
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    db = tmp_path / "w.db"
    env = {**os.environ, "TERM": "xterm", "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1"}
    for k in ("WIEZEN_DB", "WIEZEN_PROMPT", "PROMPT_TOOLKIT_NO_CPR"):
        env.pop(k, None)
    c = pexpect.spawn(sys.executable, ["-m", "wiezen_score", "--db", str(db), "play", "--no-history"],
                      env=env, cwd=str(tmp_path), encoding="utf-8", timeout=20, dimensions=(30, 120))

    def expect(pattern):
        """Wait for ``pattern``, answering the terminal's cursor-position requests as a terminal does."""
        while c.expect([pattern, re.escape("\x1b[6n")]) == 1:
            c.send("\x1b[20;1R")

    try:
        expect(re.escape("no session: type 'players"))  # the toolbar
        c.send("players jan piet mieke lotte\r")
        expect("jan deals first")
        expect(r"totals: jan 0, piet 0, mieke 0, lotte 0\s+\|\s+next: #1, jan deals")
        c.send("tro")  # the menu offers troel and troela as it is typed
        expect("troela")
        c.send("\t")  # Tab takes the first
        c.send(" 8 mieke+lotte 9\r")
        expect(r"totals: jan -16, piet -16, mieke \+16, lotte \+16\s+\|\s+next: #2, piet deals")
        c.send("quit\r")
        c.expect(pexpect.EOF)
    finally:
        c.close(force=True)
    assert json.loads(ok(db, "sheet", "--json").stdout)["totals"] == {"jan": -16, "piet": -16, "mieke": 16, "lotte": 16}


def test_a_pipe_gets_no_hints_and_the_same_answers_the_service_gives(tmp_path):
    """The prompt prints what service/table.py answers; a hint is for a person at the prompt, not for a pipe."""
    db = tmp_path / "w.db"
    r = play(db, "rules rupelstreek\nplayers jan piet mieke lotte\nstraf jan te laat\nuitleg 1\n")
    assert r.exit_code == 0, r.stderr
    assert "hint:" not in r.stdout and "precedent" not in r.stdout
    assert "#1 penalty jan (session 1, rupelstreek; dealer jan)" in r.stdout  # `uitleg` is explain
    assert sheet(db)["totals"] == {"jan": -15, "piet": 5, "mieke": 5, "lotte": 5}


def test_the_prompt_names_who_sits_out_at_a_table_of_five_or_six(tmp_path):
    from wiezen_score.cli.play import Table
    from wiezen_score.ledger.store import open_ledger

    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "an,bert,carla,dirk,eva")
    with open_ledger(str(db)) as led:
        assert Table(led, False, 6, False).prompt() == "[#1 an deals, an sits out] > "  # five: the dealer sits out
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "an,bert,carla,dirk,eva,frans")
    with open_ledger(str(db)) as led:  # six: the dealer and the player opposite him
        assert Table(led, False, 6, False).prompt() == "[#1 an deals, an + dirk sit out] > "
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")
    with open_ledger(str(db)) as led:
        assert Table(led, False, 6, False).prompt() == "[#1 an deals] > "
