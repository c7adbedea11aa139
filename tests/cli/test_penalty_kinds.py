"""Penalties of several sizes (issue 30, item 6): `[penalties]` in the house rules names kinds of strafpunten with
their amounts; `wiezen penalty PLAYER KIND`, and `penalty jan renonce in troef` at the prompt, on the phone and in
session files (a first word that names a kind is the kind). A penalty without a kind costs `penalty`.

Figures by hand: at a table of four the offender pays the amount to each of the three others.
"""

from __future__ import annotations

import json
import re
import sqlite3

import pytest
from _ledger_helpers import DATA, ROOT, dump, ok, refused, sheet, start, wz

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset, preset_text
from wiezen_score.core.rulediff import diff_rules
from wiezen_score.core.rules import PRESETS, parse_rules, summary, to_toml
from wiezen_score.core.session import EntryInput, fold

P4 = ["jan", "piet", "mieke", "lotte"]
PENALTIES = "\n[penalties]\nrenonce = 10\nverkeerd-gegeven = 2\n"


def strafcafe_text() -> str:
    return preset_text("rupelstreek").replace('name = "rupelstreek"', 'name = "strafcafe"') + PENALTIES


@pytest.fixture
def rules_file(tmp_path):
    f = tmp_path / "strafcafe.toml"
    f.write_text(strafcafe_text(), encoding="utf-8")
    return f


def test_the_kinds_are_read_in_order_and_written_back():
    r = parse_rules(strafcafe_text())
    assert r.penalties == (("renonce", 10), ("verkeerd-gegeven", 2))
    assert r.penalty_amount("renonce") == 10 and r.penalty_amount("") == 5
    assert r.penalty_kind("Renonce") == "renonce" and r.penalty_kind("te") is None
    assert parse_rules(to_toml(r)) == r
    assert to_toml(r).endswith("[penalties]\nrenonce = 10\nverkeerd-gegeven = 2\n")
    assert "penalties: renonce 10, verkeerd-gegeven 2" in summary(r)


@pytest.mark.parametrize("name", PRESETS)
def test_presets_have_no_kinds_and_write_the_file_they_wrote(name):
    r = load_preset(name)
    assert r.penalties == () and "[penalties]" not in to_toml(r) and "penalties" not in summary(r)


@pytest.mark.parametrize("lines,line_no,words", [
    ("[penalties]\nrenonce = -1\n", 3, "must not be negative"),
    ('[penalties]\nrenonce = "tien"\n', 3, "whole number"),
    ("[penalties]\nrenonce = 10\nround = 2\n", 4, "not round, rondje or deal"),
    ("[penalties]\nRenonce = 2\n", 3, "lowercase word"),
    ("penalties = 5\n", 2, "must be a table"),
])
def test_a_bad_kind_is_refused_naming_its_line(lines, line_no, words):
    head = 'name = "x"\n'
    text = head + lines + "\n[contracts.samen]\nteam = true\nlevels = [8]\nmade = [2]\nlost = [3]\n"
    if lines.startswith("penalties"):
        text = head + lines + "[contracts.samen]\nteam = true\nlevels = [8]\nmade = [2]\nlost = [3]\n"
    with pytest.raises(WiezenError, match=rf"line {line_no}: .*{words}"):
        parse_rules(text, "cafe.toml")


def test_fold_charges_each_kind():
    r = parse_rules(strafcafe_text())
    res = fold([
        (1, EntryInput("penalty", offender="jan", penalty_kind="renonce", reason="in troef")),
        (2, EntryInput("penalty", offender="piet", reason="verkeerd-gegeven twee keer", penalty_kind=None)),
        (3, EntryInput("penalty", offender="mieke", reason="te laat", penalty_kind=None)),
        (4, EntryInput("penalty", offender="lotte", reason="renonce", penalty_kind="")),  # explicitly no kind
        (5, EntryInput("penalty", offender="lotte", round=True, reason="renonce", penalty_kind=None)),
    ], r, P4)
    s = res.scored
    assert [x.text for x in s] == ["penalty jan renonce", "penalty piet verkeerd-gegeven", "penalty mieke",
                                   "penalty lotte", "penalty lotte round"]
    assert [x.reason for x in s] == ["in troef", "twee keer", "te laat", "renonce", "renonce"]
    assert s[0].points == {"jan": -30, "piet": 10, "mieke": 10, "lotte": 10}
    assert s[1].points == {"jan": 2, "piet": -6, "mieke": 2, "lotte": 2}
    assert s[2].points["mieke"] == -15 and s[3].points["lotte"] == -15 and s[4].points["lotte"] == 0
    assert any("renonce, 10 strafpunten" in step for step in s[0].explanation)
    for x in s:
        assert sum(x.points.values()) == 0


def test_unknown_kinds_and_a_round_with_a_kind_are_refused():
    r = parse_rules(strafcafe_text())
    with pytest.raises(WiezenError, match="no kind of penalty 'boos'; they have: renonce, verkeerd-gegeven"):
        fold([(1, EntryInput("penalty", offender="jan", penalty_kind="boos"))], r, P4)
    with pytest.raises(WiezenError, match="no \\[penalties\\]"):
        fold([(1, EntryInput("penalty", offender="jan", penalty_kind="renonce"))], load_preset("rupelstreek"), P4)
    with pytest.raises(WiezenError, match="costs no points"):
        fold([(1, EntryInput("penalty", offender="jan", round=True, penalty_kind="renonce"))], r, P4)


def test_without_kinds_a_reason_stays_a_reason():
    """House rules written before [penalties]: `penalty jan renonce in troef` costs `penalty`, as it always did."""
    res = fold([(1, EntryInput("penalty", offender="jan", reason="renonce in troef", penalty_kind=None))],
               load_preset("rupelstreek"), P4)
    assert res.scored[0].text == "penalty jan" and res.scored[0].reason == "renonce in troef"
    assert res.scored[0].points["jan"] == -15


def test_the_command_line(tmp_path, rules_file):
    db = tmp_path / "w.db"
    start(db, P4, str(rules_file))
    ok(db, "penalty", "jan", "renonce", "--reason", "in troef")
    ok(db, "penalty", "piet", "--reason", "renonce")  # no KIND: the one amount, the reason as given
    before = dump(db)
    assert "'boos'" in refused(db, "penalty", "mieke", "boos")
    assert "costs no points" in refused(db, "penalty", "mieke", "renonce", "--round")
    assert dump(db) == before
    doc = sheet(db)
    e1, e2 = doc["entries"]
    assert (e1["text"], e1["penalty_kind"], e1["reason"]) == ("penalty jan renonce", "renonce", "in troef")
    assert e1["points"] == {"jan": -30, "piet": 10, "mieke": 10, "lotte": 10}
    assert "penalty_kind" not in e2 and e2["points"]["piet"] == -15
    csv = ok(db, "sheet", "--format", "csv").stdout
    assert '"penalty jan renonce","in troef"' in csv
    assert "kind: renonce, 10 strafpunten" in ok(db, "explain", "1").stdout
    ok(db, "amend", "2", "penalty", "piet", "verkeerd-gegeven", "--reason", "wrong kind")
    assert sheet(db)["totals"] == {"jan": -28, "piet": 4, "mieke": 12, "lotte": 12}
    seal = re.search(r"seal: (\S+)", ok(db, "session", "end").stdout).group(1)
    ok(db, "check", "--seal", seal)
    ok(db, "check")
    shown = ok(db, "rules", "show", str(rules_file)).stdout
    assert "[penalties]\nrenonce = 10\nverkeerd-gegeven = 2" in shown
    assert json.loads(ok(db, "rules", "show", str(rules_file), "--json").stdout)["penalties"] == {
        "renonce": 10, "verkeerd-gegeven": 2}
    # the kind is part of the chained line: changing it by hand breaks the history
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
    conn.execute("UPDATE entries SET text = 'penalty jan verkeerd-gegeven' WHERE text = 'penalty jan renonce'")
    conn.commit()
    conn.close()
    assert wz(db, "check").exit_code == 1


def test_play_the_phone_and_export(tmp_path, rules_file):
    from wiezen_score import ledger
    from wiezen_score.service.table import Table

    db = tmp_path / "w.db"
    ok(db, "play", input=f"rules {rules_file}\nplayers jan piet mieke lotte\npenalty jan renonce in troef\n"
                         "straf piet verkeerd-gegeven\n")
    with ledger.open_ledger(str(db)) as led:
        Table(led, files=False).handle("penalty mieke renonce te laat")
    doc = sheet(db)
    assert [(e["text"], e.get("reason")) for e in doc["entries"]] == [
        ("penalty jan renonce", "in troef"), ("penalty piet verkeerd-gegeven", None), ("penalty mieke renonce", "te laat")]
    assert doc["totals"] == {"jan": -30 + 2 + 10, "piet": 10 - 6 + 10, "mieke": 10 + 2 - 30, "lotte": 10 + 2 + 10}
    out = tmp_path / "export.json"
    out.write_text(ok(db, "export").stdout, encoding="utf-8")
    db2 = tmp_path / "other.db"
    ok(db2, "import", str(out))
    ok(db2, "check")
    assert sheet(db2, "--session", "1")["entries"] == doc["entries"]


def test_rules_diff_names_the_kinds():
    a = parse_rules(strafcafe_text())
    b = parse_rules(strafcafe_text().replace("renonce = 10", "renonce = 12").replace("verkeerd-gegeven = 2", "te-laat = 1"))
    assert diff_rules(a, b) == ["penalties.renonce: 10 -> 12", "penalties.verkeerd-gegeven: 2 -> (none)",
                                "penalties.te-laat: (none) -> 1"]


def test_the_file_the_page_names_is_the_one_it_describes():
    """tests/data/rules-penalties.toml is `strafcafe.toml` of the page's `wiezen calc` examples."""
    assert (DATA / "rules-penalties.toml").read_text(encoding="utf-8") == strafcafe_text()


def test_calc_scores_a_penalty_line(tmp_path):
    db = tmp_path / "none.db"
    f = tmp_path / "strafcafe.toml"
    f.write_text(strafcafe_text(), encoding="utf-8")
    doc = json.loads(ok(db, "calc", "--json", "--rules", str(f), "penalty", "B", "verkeerd-gegeven", "x").stdout)
    assert doc["deal"] == "penalty B verkeerd-gegeven x" and doc["points"] == {"A": 2, "B": -6, "C": 2, "D": 2}
    assert any("kind: verkeerd-gegeven, 2 strafpunten" in s for s in doc["explanation"])
    assert not db.exists()


def test_the_worked_example_of_the_house_rules_page(tmp_path):
    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    section = text.split("### `penalties`", 1)[1].split("\n### ", 1)[0]
    blocks = re.findall(r"```(?:toml)?\n(.*?)```", section, re.S)
    table, session_file, totals, _calc = blocks  # (the last: `wiezen calc` lines, tests/project/test_house_rules_doc.py)
    assert table.strip() == PENALTIES.strip()
    assert 'is the rupelstreek preset (`wiezen rules show rupelstreek`) with `name = "strafcafe"`' in section
    (tmp_path / "strafcafe.toml").write_text(strafcafe_text(), encoding="utf-8")
    (tmp_path / "avond.txt").write_text(session_file, encoding="utf-8")
    import os

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        out = ok(tmp_path / "w.db", "replay", "avond.txt").stdout
    finally:
        os.chdir(cwd)
    assert totals.strip() in out
