"""Whole evenings against the hand-computed oracle tests/data/expected_evenings.json (issue 3).

Each evening is recorded twice: with `wiezen replay FILE`, and command by command (`session start`, `deal`,
`pass`, `redeal`, `penalty` ...). Both sheets must match the oracle, and each other.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import DATA, ROOT, counting, ok, read_session_file, record, rules_name_of, sheet, start

EVENINGS = json.loads((DATA / "expected_evenings.json").read_text(encoding="utf-8"))


def _add_rules(db, spec: str) -> str:
    """A `rules` field that is a file path is added first; returns the house rules' name."""
    if spec.endswith(".toml"):
        ok(db, "rules", "add", ROOT / spec)
        return rules_name_of(ROOT / spec)
    return spec


def _check_against_oracle(doc, ev, rules_name):
    assert doc["session"]["rules"] == rules_name
    assert doc["session"]["players"] == ev["players"]
    got = doc["entries"]
    assert [e["no"] for e in got] == list(range(1, len(ev["entries"]) + 1))
    for g, x in zip(got, ev["entries"], strict=True):
        where = f"entry {g['no']} ({x['line']})"
        assert g["kind"] == x["kind"], where
        assert g["dealer"] == x["dealer"], where
        assert g["multiplier"] == x["multiplier"], where
        assert g["points"] == x["points"], where
        assert g["voided"] is False, where
        assert sum(g["points"].values()) == 0, where
    assert doc["totals"] == ev["totals"]
    assert doc["dealer"] == ev["next_dealer"]
    assert doc["pending_multiplier"] == ev["pending_multiplier"]
    assert doc["rounds_owed"] == ev["rounds_owed"]


@pytest.mark.parametrize("ev", EVENINGS, ids=[e["file"].rsplit("/", 1)[-1] for e in EVENINGS])
def test_oracle_is_consistent(ev):
    """The oracle itself: every entry sums to 0 and the totals are the sum of the entries."""
    totals = {p: 0 for p in ev["players"]}
    for x in ev["entries"]:
        assert sum(x["points"].values()) == 0, x
        for p, v in x["points"].items():
            totals[p] += v
    assert totals == ev["totals"]


@pytest.mark.parametrize("ev", EVENINGS, ids=[e["file"].rsplit("/", 1)[-1] for e in EVENINGS])
def test_replay_matches_oracle(tmp_path, ev):
    db = tmp_path / "w.db"
    name = _add_rules(db, ev["rules"])
    ok(db, "replay", ROOT / ev["file"])
    doc = sheet(db)
    _check_against_oracle(doc, ev, name)
    assert doc["session"]["open"] is False  # a replayed evening is closed


@pytest.mark.parametrize("ev", EVENINGS, ids=[e["file"].rsplit("/", 1)[-1] for e in EVENINGS])
def test_commands_one_by_one_match_replay(tmp_path, ev):
    db = tmp_path / "w.db"
    name = _add_rules(db, ev["rules"])
    ok(db, "replay", ROOT / ev["file"])
    replayed = sheet(db, "--session", "1")

    sname, date, rules, players, dealer, body = read_session_file(ROOT / ev["file"])
    extra = ["--name", sname] if sname else []
    extra += ["--date", date] if date else []
    extra += ["--dealer", dealer] if dealer else []
    start(db, players, rules, *extra)
    record(db, *body)
    live = sheet(db)
    assert live["session"]["id"] == 2 and live["session"]["open"] is True
    _check_against_oracle(live, ev, name)
    for key in ("entries", "totals", "dealer", "sitting_out", "pending_multiplier", "rounds_owed"):
        assert live[key] == replayed[key], key
    assert live["session"]["players"] == replayed["session"]["players"]


def test_replay_json_is_the_sheet(tmp_path):
    """`replay --json` prints the same document as `sheet --json`."""
    db = tmp_path / "w.db"
    out = json.loads(ok(db, "replay", "--json", ROOT / "examples" / "vijf-spelers-whisthub.txt").stdout)
    assert out == sheet(db)
    # the five-player evening: the dealer has no points in a deal he sat out
    for e in counting(out):
        assert e["dealer"] not in e["points"]
        assert len(e["points"]) == 4 or e["kind"] == "penalty"


UNDO_EVENING = """\
players jan piet mieke lotte dealer mieke
rules rupelstreek
pas
samen 8 jan+piet 9
undo verkeerd geteld
samen 8 jan+piet 10
penalty lotte deal 3 renonce
penalty lotte round
undo
redeal
"""


def test_evening_with_undo_replay_and_commands_agree(tmp_path):
    """By hand (rupelstreek, mieke deals first): 1 pas (lotte next, x2); 2 samen 8 with 9 = 3 x2 = 6, undone;
    3 samen 8 with 10 = 4 x2 = 8; 4 lotte pays 5 to each player of deal 3 = -15; 5 a round, undone; 6 redeal."""
    db = tmp_path / "w.db"
    f = tmp_path / "met-undo.txt"
    f.write_text(UNDO_EVENING, encoding="utf-8")
    ok(db, "replay", f)
    replayed = sheet(db)
    expected = [
        (1, "pass", "mieke", 1, {"jan": 0, "piet": 0, "mieke": 0, "lotte": 0}, False),
        (2, "deal", "lotte", 2, {"jan": 6, "piet": 6, "mieke": -6, "lotte": -6}, True),
        (3, "deal", "lotte", 2, {"jan": 8, "piet": 8, "mieke": -8, "lotte": -8}, False),
        (4, "penalty", "jan", 1, {"jan": 5, "piet": 5, "mieke": 5, "lotte": -15}, False),
        (5, "penalty", "jan", 1, {"jan": 0, "piet": 0, "mieke": 0, "lotte": 0}, True),
        (6, "redeal", "jan", 1, {"jan": 0, "piet": 0, "mieke": 0, "lotte": 0}, False),
    ]
    got = [(e["no"], e["kind"], e["dealer"], e["multiplier"], e["points"], e["voided"]) for e in replayed["entries"]]
    assert got == expected
    assert replayed["totals"] == {"jan": 13, "piet": 13, "mieke": -3, "lotte": -23}
    assert (replayed["dealer"], replayed["pending_multiplier"]) == ("jan", 1)
    assert replayed["rounds_owed"] == {"jan": 0, "piet": 0, "mieke": 0, "lotte": 0}

    _, _, rules, players, dealer, body = read_session_file(f)
    start(db, players, rules, "--dealer", dealer)
    record(db, *body)
    live = sheet(db)
    for key in ("entries", "totals", "dealer", "sitting_out", "pending_multiplier", "rounds_owed"):
        assert live[key] == replayed[key], key


def test_explain_a_doubled_deal(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt")
    doc = json.loads(ok(db, "explain", "5", "--json").stdout)  # samen 8 piet+mieke 9 after the rondje pas
    assert (doc["dealer"], doc["multiplier"], doc["voided"]) == ("jan", 2, False)
    assert doc["points"] == {"jan": -6, "piet": 6, "mieke": 6, "lotte": -6}
    assert any("x2" in step for step in doc["explanation"])
    doc = json.loads(ok(db, "explain", "7", "--json").stdout)  # the penalty: never doubled
    assert doc["multiplier"] == 1 and doc["points"]["jan"] == -15
