"""The house-rules keys of "More variants" built in issue 30, items 1, 2 and 4: a lost miserie's own amount
(`lost`, `lost_per_trick`, `over_troel_lost`), amounts per level (`overtrick`, `undertrick`, `all_tricks` as lists)
and several miseries paid into a pool (`multi_miserie = "pool"`, `pool_times`).

tests/data/more_variant_cases.jsonl holds the worked examples of the scoring contract for these keys and more,
each with its arithmetic in the note, worked out by hand. The shared conformance cases of these keys name a file
that also says `payment = "shared"` (item 3, built on another branch): until that key is here they stay marked
in tests/core/test_conformance.py, and are scored here under the same file without its payment line.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from _ledger_helpers import DATA, ROOT
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset, preset_text
from wiezen_score.core.rules import PRESETS, parse_rules, to_toml
from wiezen_score.core.scoring import score

CASES = [json.loads(x) for x in (DATA / "more_variant_cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def load(spec: str):
    path = ROOT / spec
    return parse_rules(path.read_text(encoding="utf-8"), str(path))


def _id(c):
    return f"{Path(c['rules']).stem}:{c['deal']}:x{c['multiplier']}{':over-troel' if c['over_troel'] else ''}"


def exact(points):
    return {p: Fraction(str(v)) if isinstance(v, float) else Fraction(v) for p, v in points.items()}


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_case_core(case):
    rules = load(case["rules"])
    d = parse_deal(case["deal"], rules, case["players"], over_troel=case["over_troel"])
    s = score(d, rules, case["players"], case["multiplier"])
    assert list(s.points) == case["players"]
    assert exact(s.points) == exact(case["points"]), case["note"]
    assert sum(exact(s.points).values()) == 0


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_case_cli(case, tmp_path):
    args = ["--db", str(tmp_path / "none.db"), "calc", "--json", "--rules", str(ROOT / case["rules"]),
            "--players", ",".join(case["players"]), "--multiplier", str(case["multiplier"])]
    args += ["--over-troel"] if case["over_troel"] else []
    r = CliRunner().invoke(cli, [*args, "--", *case["deal"].split()])
    assert r.exit_code == 0, r.output
    assert exact(json.loads(r.stdout)["points"]) == exact(case["points"]), case["note"]
    assert not (tmp_path / "none.db").exists()


# ---------------------------------------------------------------------------
# The shared conformance cases of these keys, under the shared file without `payment` (item 3, not built here)

SHARED = DATA / "variants" / "meer-varianten.toml"
SHARED_CASES = [json.loads(x) for x in (DATA / "conformance_cases.jsonl").read_text(encoding="utf-8").splitlines()
                if x.strip() and "meer-varianten" in x]


def without_payment() -> str:
    lines = SHARED.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [x for x in lines if not x.startswith("payment = ")]
    assert len(kept) == len(lines) - 1  # exactly the one line of item 3
    return "".join(kept)


def test_the_shared_cases_are_there():
    assert len(SHARED_CASES) == 9


@pytest.mark.parametrize("case", [c for c in SHARED_CASES if not c["deal"].startswith("alleen")], ids=_id)
def test_shared_case_of_these_keys(case, tmp_path):
    path = tmp_path / "meer-varianten.toml"
    path.write_text(without_payment(), encoding="utf-8")
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "none.db"), "calc", "--json", "--rules", str(path),
                                 "--players", ",".join(case["players"]), "--", *case["deal"].split()])
    assert r.exit_code == 0, r.output
    assert exact(json.loads(r.stdout)["points"]) == exact(case["points"]), case["note"]


# ---------------------------------------------------------------------------
# Explained step by step (calc and explain share the steps)


def steps(rules_file, *deal, over_troel=False, multiplier=1):
    rules = load(rules_file)
    d = parse_deal(" ".join(deal), rules, ["A", "B", "C", "D"], over_troel=over_troel)
    return score(d, rules, ["A", "B", "C", "D"], multiplier).explanation


F = "tests/data/more-variants-a.toml"


def test_the_steps_of_a_lost_miserie():
    assert "  A lost: 8 + 1 further trick x 4 = 12" in steps(F, "piccolo", "A", "3")
    assert "  A lost: a lost piccolo costs 8" in steps(F, "piccolo", "A", "0")
    assert "  A lost: 36 + 1 further trick x 6 = 42" in steps(F, "open-miserie", "A", "2", over_troel=True)
    # made: the made amount, no step about losing
    assert not any("lost" in s for s in steps(F, "piccolo", "A", "1"))


def test_the_steps_of_amounts_per_level():
    assert steps(F, "samen", "10", "A+B", "13")[1:3] == (
        "all 13 tricks: no all-tricks amount at level 10 (0 in the list), the tricks count as usual",
        "2 + 3 overtricks x 2 = 8",
    )
    assert "all 13 tricks: 13" in steps(F, "samen", "8", "A+B", "13")
    assert "3 + 2 further undertricks x 2 = 7" in steps(F, "samen", "10", "A+B", "7")


def test_the_steps_of_a_pool():
    got = steps(F, "grote-miserie", "A", "0", "B", "1")
    assert got[-4:] == (
        "several miseries (pool): each miserie player wins or pays 3 x his amount",
        "  A made: +3 x 8 = +24",
        "  B lost: -3 x 12 = -36",
        "the others take the opposite, +12, in equal shares: +6 each (C, D)",
    )
    assert "every player of the deal is on miserie: under the pool each is settled alone" in steps(
        F, "grote-miserie", "A", "0", "B", "0", "C", "0", "D", "13")


def test_calc_shows_the_steps_in_dutch(tmp_path):
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "none.db"), "--lang", "nl", "calc", "--rules", str(ROOT / F),
                                 "grote-miserie", "A", "0", "B", "1"], env={"WIEZEN_LANG": None})
    assert r.exit_code == 0, r.output
    assert "meerdere miseries (pot): elke miseriespeler wint of betaalt 3 x zijn bedrag" in r.stdout
    assert "+7,5" not in r.stdout and "+6" in r.stdout


# ---------------------------------------------------------------------------
# A split of miseries with lost amounts (SCORING: all lost, each pays what his miserie costs)


def test_split_all_lost_with_lost_per_trick():
    old = '[contracts.grote-miserie]\naliases = ["miserie"]\nmiserie = 0\npoints = 5\n'
    assert old in preset_text("wikibooks-kleurenwiezen")
    text = preset_text("wikibooks-kleurenwiezen").replace(old, old + "lost = 10\nlost_per_trick = 5\n")
    rules = parse_rules(text)
    assert rules.contract("grote-miserie").lost == 10
    d = parse_deal("grote-miserie A 1 B 2", rules, list("ABCD"))
    # A lost with one trick: 10, B with two: 15; each pays 3 times, C and D share 75
    assert exact(score(d, rules, list("ABCD")).points) == {"A": -30, "B": -45, "C": Fraction(75, 2), "D": Fraction(75, 2)}
    # mixed: those who lost share what the others won (the made amount), as before
    d = parse_deal("grote-miserie A 0 B 2", rules, list("ABCD"))
    assert exact(score(d, rules, list("ABCD")).points) == {"A": 15, "B": -15, "C": 0, "D": 0}


# ---------------------------------------------------------------------------
# The file: validated with the line, written back, shown


def bad(text, tmp_path, *words):
    path = tmp_path / "cafe.toml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "rules", "add", str(path)])
    assert r.exit_code == 1, r.output
    line = r.stderr.strip()
    assert line.startswith(f"Error: {path}: ") and len(r.stderr.strip().splitlines()) == 1, r.stderr
    for w in words:
        assert w in line, line
    assert not (tmp_path / "w.db").exists() or "cafe" not in CliRunner().invoke(
        cli, ["--db", str(tmp_path / "w.db"), "rules", "list"]).stdout
    return line


BASE = (DATA / "more-variants-a.toml").read_text(encoding="utf-8")


def line_of(text, needle):
    return next(i for i, x in enumerate(text.splitlines(), 1) if needle in x)


@pytest.mark.parametrize("old,new,words", [
    ("overtrick = [1, 1, 2]", "overtrick = [1, 2]", ["'overtrick' as a list", "3 levels, 2 amounts"]),
    ("undertrick = [1, 2, 2]", "undertrick = [1, 2, -2]", ["'undertrick' must not be negative"]),
    ("all_tricks = [13, 0, 0] ", "all_tricks = [13, 0, \"x\"] ", ["'all_tricks' must be a whole number"]),
    ("lost = 12", "lost = -1", ["'lost' must not be negative"]),
    ("lost_per_trick = 4", "lost_per_trick = 1.5", ["'lost_per_trick' must be a whole number"]),
    ("over_troel = 24\n", "", ["over_troel_lost", "give 'over_troel' too"]),
    ('multi_miserie = "pool"', 'multi_miserie = "pot"', ["\"alone\", \"split\" or \"pool\""]),
    ('dealer = "next"', 'dealer = "volgende"', ["[redeal] dealer must be \"same\" or \"next\""]),
    ('dealer = "next"', 'deler = "next"', ["unknown key 'deler' in [redeal]"]),
])
def test_a_bad_key_names_its_line(tmp_path, old, new, words):
    assert old in BASE
    text = BASE.replace(old, new, 1)
    line = bad(text, tmp_path, *words)
    needle = new.strip() if new else "over_troel_lost"
    assert f"line {line_of(text, needle)}: " in line, line


def test_pool_times_needs_the_pool(tmp_path):
    text = preset_text("rupelstreek").replace('multi_miserie = "alone"', 'multi_miserie = "alone"\npool_times = 2')
    line = bad(text, tmp_path, "'pool_times'", 'multi_miserie = "pool"')
    assert f"line {line_of(text, 'pool_times')}: " in line
    text = preset_text("rupelstreek").replace('multi_miserie = "alone"', 'multi_miserie = "pool"\npool_times = 0')
    bad(text, tmp_path, "'pool_times' must not be below 1")


def test_promote_with_an_overtrick_list(tmp_path):
    text = BASE.replace("all_tricks = [13, 0, 0] ", "promote = true ")
    bad(text, tmp_path, "'promote' replaces overtrick points")
    ok = parse_rules(BASE.replace("overtrick = [1, 1, 2]", "overtrick = [0, 0, 0]").replace(
        "all_tricks = [13, 0, 0] ", "promote = true "))
    assert ok.contract("samen").promote


def test_written_back_and_read_again():
    r = load(F)
    text = to_toml(r)
    assert parse_rules(text) == r
    for line in ("overtrick = [1, 1, 2]", "all_tricks = [13, 0, 0]", "lost = 12", "lost_per_trick = 4",
                 "over_troel_lost = 36", 'multi_miserie = "pool"', "[redeal]\ndealer = \"next\""):
        assert line in text, line


@pytest.mark.parametrize("name", PRESETS)
def test_presets_say_nothing_new(name):
    r = load_preset(name)
    assert (r.pool_times, r.redeal_dealer) == (3, "same")
    for c in r.contracts:
        assert not isinstance(getattr(c, "overtrick", 0), tuple)
        assert (getattr(c, "lost_per_trick", 0), getattr(c, "over_troel_lost", None)) == (0, None)
    text = to_toml(r)
    assert "pool_times" not in text and "[redeal]" not in text and "lost_per_trick" not in text


def test_rules_show_list_and_diff(tmp_path):
    db = str(tmp_path / "w.db")
    path = str(ROOT / F)
    r = CliRunner().invoke(cli, ["--db", db, "rules", "show", path])
    assert r.exit_code == 0 and "all_tricks = [13, 0, 0]" in r.stdout and "[redeal]" in r.stdout
    doc = json.loads(CliRunner().invoke(cli, ["--db", db, "rules", "show", "--json", path]).stdout)
    assert doc["redeal"] == {"dealer": "next"} and doc["contracts"]["piccolo"]["lost_per_trick"] == 4
    assert CliRunner().invoke(cli, ["--db", db, "rules", "add", path]).exit_code == 0
    summary = json.loads(CliRunner().invoke(cli, ["--db", db, "rules", "list", "--json"]).stdout)
    mine = next(x for x in summary if x["name"] == "more-variants-a")
    assert "several miseries: pool" in mine["summary"] and "redeal: next dealer" in mine["summary"]
    diff = CliRunner().invoke(cli, ["--db", db, "rules", "diff", str(DATA / "house-rules-doc" / "pot.toml"),
                                    str(DATA / "house-rules-doc" / "pot-als-team.toml")]).stdout
    assert "pool_times: 3 -> 1" in diff


def test_a_file_without_the_new_keys_reads_as_before():
    # every preset and an existing file parse to the values they had: the new keys at their defaults
    for text in [preset_text(n) for n in PRESETS] + [(DATA / "rules-add.toml").read_text(encoding="utf-8")]:
        r = parse_rules(text)
        assert r.multi_miserie in ("alone", "split") and r.pool_times == 3 and r.redeal_dealer == "same"
        for c in r.contracts:
            if c.is_miserie:
                assert c.lost is None and c.lost_per_trick == 0 and c.over_troel_lost is None
                assert all(c.lost_amount(t) == c.points for t in range(14) if t != c.tricks)


def test_an_impossible_case_stays_refused():
    rules = load(F)
    with pytest.raises(WiezenError, match="must add up to 13"):
        parse_deal("grote-miserie A 0 B 0 C 0 D 0", rules, list("ABCD"))
