"""Rule variants found in the wild (issue 14): `doubling = "multiply" | "add"`, a contract's own `doublings`,
`[all_pass] double = "queue"`, and the iwwa preset's troela and solo.

The expected figures of tests/data/variant_cases.jsonl were worked out by hand from the text of the scoring
contract ("Variants found in the wild" and the iwwa table), each with its arithmetic in the case's note.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest
from _ledger_helpers import DATA, ROOT, ok, record, refused, sheet, start, wz
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset, preset_text
from wiezen_score.core.rulediff import diff_rules
from wiezen_score.core.rules import PRESETS, parse_rules
from wiezen_score.core.scoring import score
from wiezen_score.core.session import EntryInput, fold

CASES = [json.loads(x) for x in (DATA / "variant_cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
P4 = ["A", "B", "C", "D"]


def load(spec: str):
    if spec.endswith(".toml"):
        path = ROOT / spec
        return parse_rules(path.read_text(encoding="utf-8"), str(path))
    return load_preset(spec)


def _id(c):
    return f"{Path(c['rules']).stem}:{c['deal']}:x{c['multiplier']}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_variant_case_core(case):
    rules = load(case["rules"])
    d = parse_deal(case["deal"], rules, case["players"])
    s = score(d, rules, case["players"], case["multiplier"])
    assert {p: Fraction(v) for p, v in s.points.items()} == {p: Fraction(v) for p, v in case["points"].items()}, case["note"]
    assert sum(s.points.values()) == 0


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_variant_case_cli(case, tmp_path):
    spec = str(ROOT / case["rules"]) if case["rules"].endswith(".toml") else case["rules"]
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "none.db"), "calc", "--json", "--rules", spec, "--players",
                                 ",".join(case["players"]), "--multiplier", str(case["multiplier"]), "--",
                                 *case["deal"].split()])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["points"] == case["points"], case["note"]


# ---------------------------------------------------------------------------
# The figures the issue names (rupelstreek amounts)


def _troel13(rules, m):
    return score(parse_deal("troel A+B 13", rules, P4), rules, P4, m)


def test_troel_all_tricks_add_and_multiply():
    multiply = load_preset("rupelstreek")
    add = load("tests/data/rules-add.toml")
    assert add.doubling == "add" and multiply.doubling == "multiply"
    assert _troel13(add, 1).points["A"] == 21  # 7 x (1 + 2)
    assert _troel13(add, 2).points["A"] == 28  # 7 x (1 + 3)
    assert _troel13(multiply, 1).points["A"] == 28  # 7 x 2 x 2
    assert _troel13(multiply, 2).points["A"] == 56  # 7 x 2 x 2 x 2
    # the two files differ in that one key only (and their names)
    assert [d for d in diff_rules(multiply, add) if not d.startswith(("name:", "description:"))] == [
        'doubling: "multiply" -> "add"'
    ]


def test_explanations_say_which_doublings_and_how_they_combined():
    add = _troel13(load("tests/data/rules-add.toml"), 2).explanation
    assert any("troel, all 13 tricks, rondje pas: 1 + 3 = x4" in s for s in add), add
    assert any(s.endswith("7 x 4 = 28") for s in add), add
    mul = _troel13(load_preset("rupelstreek"), 2).explanation
    assert any("troel, all 13 tricks, rondje pas: 2 x 2 x 2 = x8" in s for s in mul), mul
    assert any("x2 after rondje pas" in s or "x2:" in s for s in mul), mul
    # one doubling: nothing to combine, no summary line
    one = score(parse_deal("samen 8 A+B 13", load_preset("rupelstreek"), P4), load_preset("rupelstreek"), P4).explanation
    assert not any(s.startswith("doublings") for s in one), one
    assert any("all 13 tricks (onder tafel): 7 x 2 = 14" in s for s in one), one


def _run(rules, lines):
    entries = []
    for i, line in enumerate(lines, 1):
        entries.append((i, EntryInput("pass") if line == "pas" else EntryInput("deal", line)))
    return fold(entries, rules, P4)


@pytest.mark.parametrize("double,want", [("queue", 8), ("once", 6), ("stack", 10), ("none", 4)])
def test_two_rondjes_pas_then_two_deals(double, want):
    """queue: each rondje pas doubles one later deal: 2 x2 + 2 x2 = 8. once: 4 + 2. stack: x4 then x1: 8 + 2."""
    from dataclasses import replace

    rules = replace(load_preset("rupelstreek"), all_pass_double=double)
    res = _run(rules, ["pas", "pas", "samen 8 A+B 8", "samen 8 A+B 8"])
    assert res.totals["A"] == want
    assert res.state.pending == 1 and res.state.queued == 0


def test_queue_file_in_a_session(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-queue.toml")
    start(db, ["A", "B", "C", "D"], "wachtrij")
    record(db, "pas", "pas")
    status = ok(db, "pass").stdout  # a third: three doubled deals owed
    assert "the next deal counts x2, and 2 more after it" in status, status
    record(db, "samen 8 A+B 8", "samen 8 A+B 8", "samen 8 A+B 8", "samen 8 A+B 8")
    doc = sheet(db)
    assert [e["multiplier"] for e in doc["entries"] if e["kind"] == "deal"] == [2, 2, 2, 1]
    assert doc["totals"]["A"] == 4 + 4 + 4 + 2
    assert ok(db, "check").exit_code == 0
    # undo the last two deals: one doubled deal is owed again
    ok(db, "undo")
    ok(db, "undo")
    assert sheet(db)["pending_multiplier"] == 2


# ---------------------------------------------------------------------------
# iwwa: troela and solo


def test_iwwa_troela_is_its_own_contract_and_solo_is_played():
    r = load_preset("iwwa")
    assert r.contract("troela").name == "troela" and r.contract("troel").name == "troel"
    assert r.contract("troela").levels == (9,)
    assert r.contract("solo").name == "solo"
    # level omitted: troela is for 9
    assert score(parse_deal("troela A+B 9", r, P4), r, P4).points["A"] == 4


# ---------------------------------------------------------------------------
# The loader refuses wrong values of the new keys, naming the line


def _rupel_with(old: str, new: str) -> str:
    text = preset_text("rupelstreek")
    assert old in text
    return text.replace(old, new, 1)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("old,new,needle,words", [
    ('doubling = "multiply"', 'doubling = "sum"', "doubling =", ['"multiply" or "add"', "'sum'"]),
    ('doubling = "multiply"', "doubling = 2", "doubling =", ['"multiply" or "add"']),
    ('double = "once"', 'double = "queued"', "double =", ['"queue"', "'queued'"]),
    ("doublings = 1", "doublings = -1", "doublings =", ["negative"]),
    ("doublings = 1", 'doublings = "1"', "doublings =", ["whole number"]),
    ("doublings = 1", "doublings = 5", "doublings =", ["0 to 4"]),
])
def test_loader_refuses_wrong_values_with_the_line(old, new, needle, words):
    text = _rupel_with(old, new)
    with pytest.raises(WiezenError) as e:
        parse_rules(text, "cafe.toml")
    msg = str(e.value)
    assert msg.startswith(f"cafe.toml: line {_line_of(text, needle)}: "), msg
    for w in words:
        assert w in msg, msg


def test_add_needs_onder_tafel_to_be_one_doubling():
    text = _rupel_with('doubling = "multiply"', 'doubling = "add"')
    text = text.replace("all_tricks_times = 2          # onder tafel spelen doubles", "all_tricks_times = 3")
    with pytest.raises(WiezenError) as e:
        parse_rules(text, "cafe.toml")
    msg = str(e.value)
    assert msg.startswith(f"cafe.toml: line {_line_of(text, 'all_tricks_times = 3')}: contract 'samen'"), msg
    assert "must be 2" in msg
    # the same file multiplying is fine: x3 for all 13 tricks
    ok_text = text.replace('doubling = "add"', 'doubling = "multiply"')
    assert parse_rules(ok_text).contract("samen").all_tricks_times == 3


def test_calc_refuses_a_multiplier_that_is_not_a_rondje_pas_doubling_under_add(tmp_path):
    line = refused(tmp_path / "none.db", "calc", "--rules", DATA / "rules-add.toml", "--multiplier", "3", "troel", "A+B", "9")
    assert "1, 2, 4, 8" in line and "3" in line
    assert not (tmp_path / "none.db").exists()


# ---------------------------------------------------------------------------
# rules show, rules list, rules diff


@pytest.mark.parametrize("name", PRESETS)
def test_rules_show_prints_the_doubling_key(name, tmp_path):
    out = ok(tmp_path / "w.db", "rules", "show", name).stdout
    assert any(line.split("#")[0].strip() == 'doubling = "multiply"' for line in out.splitlines()), out
    assert parse_rules(out) == load_preset(name)


def test_rules_show_prints_doublings_and_the_iwwa_contracts(tmp_path):
    rupel = ok(tmp_path / "w.db", "rules", "show", "rupelstreek").stdout
    troel = rupel.split("[contracts.troel]")[1].split("[contracts.")[0]
    assert "doublings = 1" in troel and "made = [2]" in troel
    iwwa = ok(tmp_path / "w.db", "rules", "show", "iwwa").stdout
    assert "[contracts.troela]" in iwwa and "[contracts.solo]" in iwwa
    doc = json.loads(ok(tmp_path / "w.db", "rules", "show", "iwwa", "--json").stdout)
    assert doc["doubling"] == "multiply"
    assert doc["contracts"]["troela"]["levels"] == [9] and doc["contracts"]["solo"]["made"] == [25]


def test_rules_list_summarises_the_variants(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-queue.toml")
    ok(db, "rules", "add", DATA / "rules-add.toml")
    rows = {r["name"]: r["summary"] for r in json.loads(ok(db, "rules", "list", "--json").stdout)}
    assert "each one doubles one later deal" in rows["wachtrij"]
    assert "doublings add" in rows["optellen"]
    assert "doublings add" not in rows["rupelstreek"]


def test_rules_diff_shows_the_new_keys(tmp_path):
    db = tmp_path / "w.db"
    out = ok(db, "rules", "diff", "rupelstreek", DATA / "rules-queue.toml").stdout.splitlines()
    assert out[2:] == ['all_pass.double: "once" -> "queue"'], out
    assert out[0] == 'name: "rupelstreek" -> "wachtrij"'
    out = json.loads(ok(db, "rules", "diff", "--json", "rupelstreek", DATA / "rules-add.toml").stdout)
    assert 'doubling: "multiply" -> "add"' in out
    out = json.loads(ok(db, "rules", "diff", "--json", "iwwa", "rupelstreek").stdout)
    assert "contracts.troel.doublings: 0 -> 1" in out
    assert "contracts.troela: removed" in out and "contracts.solo: removed" in out
    assert ok(db, "rules", "diff", "iwwa", "iwwa").stdout.strip() == "no differences between 'iwwa' and 'iwwa'"
    line = refused(db, "rules", "diff", "iwwa", "nergens")
    assert "nergens" in line and "whisthub" in line
    assert not db.exists()


def test_rules_diff_of_added_rules(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "rules", "add", DATA / "rules-add.toml")
    out = ok(db, "rules", "diff", "optellen", "rupelstreek").stdout
    assert 'doubling: "add" -> "multiply"' in out


# ---------------------------------------------------------------------------
# Existing ledgers keep their scores


def _stored(path: Path) -> tuple[list, list]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        sessions = conn.execute("SELECT id, rules_name, rules_toml FROM sessions ORDER BY id").fetchall()
        points = conn.execute(
            "SELECT e.session_id, e.no, e.text, p.name, ep.points FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
            "JOIN players p ON p.id = ep.player_id ORDER BY e.session_id, e.no, e.id, p.name"
        ).fetchall()
        return sessions, points
    finally:
        conn.close()


def test_a_ledger_of_schema_1_keeps_its_scores_and_snapshots(tmp_path):
    src = DATA / "ledger-schema1.db"
    db = tmp_path / "old.db"
    shutil.copy(src, db)
    sessions_before, points_before = _stored(src)
    rupel_before = [t for _, n, t in sessions_before if n == "rupelstreek"]
    assert rupel_before and all("doublings" not in t for t in rupel_before)  # recorded with the old preset
    assert any(text.startswith("troel") for _, _, text, _, _ in points_before)
    ok(db, "check")  # upgrades the copy and re-scores every entry under its own snapshot
    sessions_after, points_after = _stored(db)
    assert sessions_after == sessions_before  # the snapshots are kept as they were
    assert points_after == points_before
    # the stored troel deals also score the same under today's rupelstreek (troel as a doubled samen)
    now = load_preset("rupelstreek")
    old = parse_rules(rupel_before[0])
    assert now != old
    compared = 0
    for sid, _no, text, _, _ in points_before:
        if text.startswith("troel") and sid in {s for s, n, _ in sessions_before if n == "rupelstreek"}:
            players = ["jan", "piet", "mieke", "lotte", "an", "bart", "carla", "dirk"]
            who = [p for p in players if p in text]
            act = who + [p for p in players if p not in who][: 4 - len(who)]
            a = score(parse_deal(text, old, act), old, act, 2).points
            b = score(parse_deal(text, now, act), now, act, 2).points
            assert a == b, text
            compared += 1
    assert compared
    # a new deal in that ledger, under today's presets, and check still passes
    ok(db, "session", "end")  # session 3 was left open
    start(db, ["jan", "piet", "mieke", "lotte"], "rupelstreek")
    record(db, "pas", "troel jan+piet 13")
    assert sheet(db)["totals"]["jan"] == 56
    ok(db, "check")
    assert _stored(db)[1][: len(points_before)] == points_before


def test_a_session_under_the_old_iwwa_keeps_troela_as_troel(tmp_path):
    db = tmp_path / "w.db"
    start(db, ["A", "B", "C", "D"], DATA / "iwwa-before-troela.toml")
    record(db, "troela A+B 9")  # then an alias of troel (for 8): one overtrick
    record(db, "troela A+B 9")
    assert [e["points"]["A"] for e in sheet(db)["entries"]] == [6, 6]
    ok(db, "session", "end")
    # today's iwwa scores the same line as troela for 9: 4
    start(db, ["A", "B", "C", "D"], "iwwa")
    record(db, "troela A+B 9")
    assert sheet(db)["entries"][0]["points"]["A"] == 4
    ok(db, "check")
    assert sheet(db, "--session", "1")["totals"]["A"] == 12
    r = wz(db, "check")
    assert r.exit_code == 0, r.output
