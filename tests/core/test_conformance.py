"""Every case of the shared conformance file (shared/conformance/cases.jsonl), through the pure core and
through `wiezen calc --json`. The expected points were computed by hand from shared/SCORING.md.

tests/data/conformance_cases.jsonl is an exact copy of the shared file, and tests/data/variants/ of the house-rules
files its cases name (`variants/NAME.toml`, relative to the cases file); a test keeps them in sync.

The cases of "More variants" (lost, lost_per_trick, payment = "shared", multi_miserie = "pool", all_tricks per
level) name a house-rules file beside the cases file (`variants/NAME.toml`).
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset
from wiezen_score.core.scoring import score

HERE = Path(__file__).parents[1]
CASES_FILE = HERE / "data" / "conformance_cases.jsonl"
SHARED_FILE = HERE.parent.parent / "shared" / "conformance" / "cases.jsonl"

SHARED_VARIANTS = SHARED_FILE.parent / "variants"


def _case(line: str):  # type: ignore[no-untyped-def]
    c = json.loads(line)
    if c["rules"].endswith(".toml"):  # house rules of a file: the file beside the cases
        c["rules"] = str(HERE / "data" / c["rules"])
    return c


PARAMS = [_case(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()]
CASES = PARAMS


def load_rules(name: str):  # type: ignore[no-untyped-def]
    if name.endswith(".toml"):
        from wiezen_score.core.rules import parse_rules

        return parse_rules(Path(name).read_text(encoding="utf-8"), name)
    return load_preset(name)


def impossible(c):
    """A case where all four players are on a miserie but their tricks do not add up to 13: no such deal can be
    played. The rule table still defines its points (the shared file lists two such cases): ``calc`` scores it and
    warns; recording refuses it (tests/test_table_*.py)."""
    words = c["deal"].split()
    rules = load_rules(c["rules"])
    contract = rules.find(words[0])
    if contract is None or not contract.is_miserie or len(words) != 9:
        return False
    return sum(int(w) for w in words[2::2]) != 13


def _id(c):
    return f"{Path(c['rules']).name}:{c['deal']}:x{c['multiplier']}{':over-troel' if c['over_troel'] else ''}"


def exact(v):
    """A JSON number, a case's "-4/3" or a core amount (int / Fraction) as an exact Fraction."""
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    if isinstance(v, float):  # every amount is a whole number of sixths; a third comes as the nearest double
        return Fraction(round(v * 6), 6)  # (docs/json.md); 7.5 -> 15/2 exactly
    return Fraction(str(v))


def test_cases_file_is_not_empty():
    assert len(CASES) >= 50
    for c in CASES:
        assert set(c) >= {"rules", "players", "deal", "multiplier", "over_troel", "points"}


def test_copy_in_sync_with_shared_file():
    if not SHARED_FILE.exists():
        pytest.skip(f"{SHARED_FILE} not present")
    assert CASES_FILE.read_bytes() == SHARED_FILE.read_bytes(), (
        "tests/data/conformance_cases.jsonl differs from shared/conformance/cases.jsonl: copy it again"
    )
    for f in SHARED_VARIANTS.glob("*.toml"):
        assert (HERE / "data" / "variants" / f.name).read_bytes() == f.read_bytes(), f"copy {f} to tests/data/variants/"


@pytest.mark.parametrize("case", PARAMS, ids=_id)
def test_core(case):
    rules = load_rules(case["rules"])
    players = case["players"]
    if impossible(case):
        with pytest.raises(WiezenError, match="must add up to 13"):
            parse_deal(case["deal"], rules, players, over_troel=case["over_troel"])
    deal = parse_deal(case["deal"], rules, players, over_troel=case["over_troel"], possible=False)
    s = score(deal, rules, players, case["multiplier"])
    assert list(s.points) == list(players)  # every player, in seat order
    got = {p: exact(v) for p, v in s.points.items()}
    want = {p: exact(v) for p, v in case["points"].items()}
    assert got == want, case.get("note")
    assert sum(got.values()) == 0
    assert s.multiplier == case["multiplier"]
    assert s.explanation and all(isinstance(x, str) and x for x in s.explanation)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    # a path that does not exist: calc must not need (or create) a ledger
    return str(tmp_path_factory.mktemp("conf") / "none.db")


@pytest.mark.parametrize("case", PARAMS, ids=_id)
def test_cli(case, db):
    args = ["--db", db, "calc", "--json", "--rules", case["rules"], "--players", ",".join(case["players"]),
            "--multiplier", str(case["multiplier"])]
    if case["over_troel"]:
        args.append("--over-troel")
    args += ["--", *case["deal"].split()]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, (r.output, r.stderr)
    assert ("must add up to 13" in r.stderr) == impossible(case), r.stderr
    doc = json.loads(r.stdout)
    assert set(doc) == {"deal", "rules", "points", "multiplier", "explanation"}
    assert doc["deal"] == case["deal"]
    assert doc["rules"] == (load_rules(case["rules"]).name if case["rules"].endswith(".toml") else case["rules"])
    assert doc["multiplier"] == case["multiplier"]
    assert isinstance(doc["explanation"], list) and all(isinstance(x, str) for x in doc["explanation"])
    assert list(doc["points"]) == case["players"]
    for v in doc["points"].values():
        assert isinstance(v, (int, float)) and not isinstance(v, bool)
    got = {p: exact(v) for p, v in doc["points"].items()}
    want = {p: exact(v) for p, v in case["points"].items()}
    assert got == want, case.get("note")
    assert not Path(db).exists()
