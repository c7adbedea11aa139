"""A solo or a miserie paid as one sum (issue 30, item 3): `payment = "shared"`: the taker wins or loses x, each of
the three others x/3. Thirds are exact: stored as sixths of a point (migration m014), summing to exactly 0 in every
deal, total, standing, settlement and export; a sheet writes a third with two decimals (-0.67, Dutch -0,67).

Figures by hand. tests/data/rules-shared.toml is rupelstreek with payment = "shared" on alleen (5: 2 made, 1 per
overtrick, 3 lost, 1 per further undertrick) and grote-miserie (5).
- alleen 5 jan 5: jan +2, the others -2/3; alleen 5 piet 7: piet +4, the others -4/3; grote-miserie mieke 1:
  mieke -5, the others +5/3. Totals: jan 2 - 4/3 + 5/3 = 7/3, piet -2/3 + 4 + 5/3 = 5, mieke -2/3 - 4/3 - 5 = -7,
  lotte -2/3 - 4/3 + 5/3 = -1/3.
"""

from __future__ import annotations

import json
import re
import sqlite3
from fractions import Fraction

import pytest
from _ledger_helpers import DATA, ok, sheet, start, wz

from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.numbers import exact_points, fmt, signed
from wiezen_score.core.presets import load_preset
from wiezen_score.core.rules import PRESETS, parse_rules, summary, to_toml
from wiezen_score.core.scoring import score

RULES = DATA / "rules-shared.toml"
P4 = ["A", "B", "C", "D"]
F = Fraction


def shared():
    return parse_rules(RULES.read_text(encoding="utf-8"), str(RULES))


def sixths(v):
    """A JSON number read back as docs/json.md says: to the nearest sixth."""
    return F(round(v * 6), 6)


@pytest.mark.parametrize("line,m,want", [
    ("alleen 5 A 5", 1, {"A": 2, "B": F(-2, 3), "C": F(-2, 3), "D": F(-2, 3)}),
    ("alleen 5 A 7", 1, {"A": 4, "B": F(-4, 3), "C": F(-4, 3), "D": F(-4, 3)}),
    ("alleen 5 A 4", 1, {"A": -3, "B": 1, "C": 1, "D": 1}),
    ("alleen 5 A 2", 2, {"A": -10, "B": F(10, 3), "C": F(10, 3), "D": F(10, 3)}),  # (3 + 2) x 2
    ("alleen 5 A 5 x3", 1, {"A": 6, "B": -2, "C": -2, "D": -2}),  # three thirds make a whole
    ("grote-miserie A 0", 1, {"A": 5, "B": F(-5, 3), "C": F(-5, 3), "D": F(-5, 3)}),
    ("grote-miserie A 0 B 1", 1, {"A": F(20, 3), "B": F(-20, 3), "C": 0, "D": 0}),  # alone, added up
    ("samen 8 A+B 9", 1, {"A": 3, "B": 3, "C": -3, "D": -3}),  # a team contract pays as always
    ("open-miserie A 0", 1, {"A": 30, "B": -10, "C": -10, "D": -10}),  # not shared: 3 x 10
])
def test_the_points_of_a_shared_solo(line, m, want):
    r = shared()
    s = score(parse_deal(line, r, P4), r, P4, m)
    assert dict(s.points) == want
    assert sum(s.points.values()) == 0 and all(isinstance(v, (int, F)) for v in s.points.values())


def test_split_miseries_paid_as_one_sum():
    """multi_miserie = "split": each who made it wins x (not 3x); those who lost share it."""
    text = RULES.read_text(encoding="utf-8").replace('multi_miserie = "alone"', 'multi_miserie = "split"')
    r = parse_rules(text)
    s = score(parse_deal("grote-miserie A 0 B 1 C 1", r, P4), r, P4)
    assert dict(s.points) == {"A": 5, "B": F(-5, 2), "C": F(-5, 2), "D": 0}
    s = score(parse_deal("grote-miserie A 0 B 0", r, P4), r, P4)
    assert dict(s.points) == {"A": 5, "B": 5, "C": -5, "D": -5}


def test_the_explanation_names_the_sum_and_its_thirds():
    r = shared()
    steps = score(parse_deal("alleen 5 A 7", r, P4), r, P4).explanation
    assert steps[-1] == 'paid as one sum (payment = "shared"): A +4, each defender 4/3 = -1.33'


@pytest.mark.parametrize("body,line_no,words", [
    ('payment = "half"', 5, "must be \"each\" or \"shared\""),
    ('payment = "shared"\nteam = true', 5, "not for a team contract"),
])
def test_a_bad_payment_is_refused_naming_its_line(body, line_no, words):
    text = f'name = "x"\n\n[contracts.alleen]\nlevels = [5]\n{body}\nmade = [2]\nlost = [3]\n'
    with pytest.raises(WiezenError, match=rf"cafe.toml: line {line_no}: contract 'alleen': .*{words}"):
        parse_rules(text, "cafe.toml")


def test_the_file_says_it_and_presets_do_not():
    r = shared()
    assert r.contract("alleen").payment == "shared" and r.contract("grote-miserie").payment == "shared"
    assert parse_rules(to_toml(r)) == r and to_toml(r).count('payment = "shared"') == 2
    assert summary(r).endswith("; paid as one sum: alleen, grote-miserie")
    for name in PRESETS:
        assert "payment" not in to_toml(load_preset(name)) and "one sum" not in summary(load_preset(name))


@pytest.mark.parametrize("value,en,nl", [
    (F(-4, 3), "-1.33", "-1,33"), (F(2, 3), "0.67", "0,67"), (F(-2, 3), "-0.67", "-0,67"), (F(10, 3), "3.33", "3,33"),
    (F(5, 6), "0.83", "0,83"), (F(-1, 6), "-0.17", "-0,17"), (F(15, 2), "7.5", "7,5"), (F(6, 3), "2", "2"),
])
def test_a_third_is_written_with_two_decimals(value, en, nl, monkeypatch):
    from wiezen_score.core import i18n

    assert fmt(value) == en and fmt(float(value)) == en
    monkeypatch.setattr(i18n, "dutch", lambda: True)
    assert fmt(value) == nl and signed(value).lstrip("+") == nl


def test_json_numbers_read_back_exactly():
    for v in (F(-4, 3), F(10, 3), F(-20, 3), F(5, 6), F(1, 3) * 999_999_999):
        assert exact_points(float(v)) == v
    assert exact_points(3.000000001) == F(3000000001, 1000000000)  # not a sixth: kept as written
    assert exact_points(0.1) == F(1, 10)


def _evening(db):
    start(db, ["jan", "piet", "mieke", "lotte"], str(RULES))
    ok(db, "deal", "alleen", "5", "jan", "5")
    ok(db, "deal", "alleen", "5", "piet", "7")
    ok(db, "deal", "grote-miserie", "mieke", "1")


TOTALS = {"jan": F(7, 3), "piet": 5, "mieke": -7, "lotte": F(-1, 3)}


def test_recorded_exactly_and_shown_with_two_decimals(tmp_path):
    db = tmp_path / "w.db"
    _evening(db)
    conn = sqlite3.connect(db)
    stored = conn.execute("SELECT sixth FROM entry_points ep JOIN entries e ON e.id = ep.entry_id WHERE e.no = 2 "
                          "ORDER BY ep.player_id").fetchall()
    conn.close()
    assert sorted(s for (s,) in stored) == [-8, -8, -8, 24]  # -4/3 and 4, in sixths
    doc = sheet(db)
    assert {p: sixths(v) for p, v in doc["totals"].items()} == TOTALS
    for e in doc["entries"]:
        assert sum(sixths(v) for v in e["points"].values()) == 0
    text = ok(db, "sheet").stdout
    assert "totals: jan +2.33, piet +5, mieke -7, lotte -0.33" in text
    assert "-1.33" in text and "1.3333" not in text
    assert "totalen: jan +2,33, piet +5, mieke -7, lotte -0,33" in ok(db, "--lang", "nl", "sheet").stdout
    assert "totals after:  jan +2.33, piet +5, mieke -7, lotte -0.33" in ok(db, "explain", "3").stdout
    csv = ok(db, "sheet", "--format", "csv").stdout.splitlines()
    assert csv[2].endswith("-1.3333333333333333,4,-1.3333333333333333,-1.3333333333333333")
    deals = json.loads(ok(db, "deals", "--json").stdout)
    assert [sum(sixths(v) for v in d["points"].values()) for d in deals] == [0, 0, 0]


def test_settle_standings_check_export_import_and_the_seal(tmp_path):
    db = tmp_path / "w.db"
    _evening(db)
    # at 30 cents a point: jan 70, piet 150, mieke -210, lotte -10 cents
    out = ok(db, "settle", "--cents", "30").stdout
    paid = re.findall(r"(\w+) +pays +(\w+) +\S+ points +€(\d+)\.(\d\d)", out)
    net = {p: 0 for p in TOTALS}
    for payer, payee, euros, cents in paid:
        net[payer] -= int(euros) * 100 + int(cents)
        net[payee] += int(euros) * 100 + int(cents)
    assert net == {"jan": 70, "piet": 150, "mieke": -210, "lotte": -10}
    seal = re.search(r"seal: (\S+)", ok(db, "session", "end").stdout).group(1)
    ok(db, "check", "--seal", seal)
    standings = json.loads(ok(db, "standings", "--format", "json").stdout)
    assert {s["player"]: sixths(s["points"]) for s in standings} == TOTALS
    assert sum(sixths(s["points"]) for s in standings) == 0
    export = tmp_path / "e.json"
    export.write_text(ok(db, "export").stdout, encoding="utf-8")
    other = tmp_path / "other.db"
    ok(other, "import", str(export))
    ok(other, "check", "--session", "1", "--seal", seal)  # the same points, exactly: the same seal
    assert sheet(other, "--session", "1")["totals"] == sheet(db, "--session", "1")["totals"]
    conn = sqlite3.connect(other)
    assert conn.execute("SELECT sum(sixth) FROM entry_points").fetchone()[0] == 0
    assert sorted(conn.execute("SELECT sixth FROM entry_points").fetchall()) == sorted(
        sqlite3.connect(db).execute("SELECT sixth FROM entry_points").fetchall())
    # a third changed by hand is a changed history
    conn.execute("DROP TRIGGER entry_points_no_update")
    conn.execute("UPDATE entry_points SET sixth = sixth + 1 WHERE (entry_id, player_id) = "
                 "(SELECT entry_id, player_id FROM entry_points WHERE sixth = -8 LIMIT 1)")
    conn.commit()
    conn.close()
    r = wz(other, "check")
    assert r.exit_code == 1 and "add up to +0.17, not 0" in r.stdout and "jan -1.17" in r.stdout


def _back_to_schema_12(db):  # (before m014)
    """The ledger as the code before m014 left it: entry_points with `half` (twice the points), one migration
    fewer applied (m014 is the last). (Only possible for a ledger without thirds.)"""
    from wiezen_score.ledger.migrations import MIGRATION_NAMES, SCHEMA_VERSION
    from wiezen_score.ledger.schema import _ENTRY_POINTS_EXACT

    assert "m014_sixths" in MIGRATION_NAMES  # (the later ones are applied already: only m014 is undone)

    conn = sqlite3.connect(db)
    kept = [r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE tbl_name = 'entry_points' "
                                       "AND type IN ('index', 'trigger') AND sql IS NOT NULL")]
    conn.execute("PRAGMA legacy_alter_table = ON")
    conn.execute(_ENTRY_POINTS_EXACT.format(bound=2_000_000_000))
    conn.execute("INSERT INTO entry_points_exact (entry_id, player_id, half, taker, made) "
                 "SELECT entry_id, player_id, sixth / 3, taker, made FROM entry_points")
    conn.execute("DROP TABLE entry_points")
    conn.execute("ALTER TABLE entry_points_exact RENAME TO entry_points")
    for stmt in kept:
        conn.execute(stmt)
    conn.execute("DELETE FROM _sqlite_migrations WHERE name = 'm014_sixths'")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION - 1}")
    conn.commit()
    conn.close()


def test_an_existing_ledger_migrates_with_every_hash_and_seal_intact(tmp_path):
    db = tmp_path / "w.db"
    start(db, ["jan", "piet", "mieke", "lotte"], "wikibooks-kleurenwiezen")
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "1", "mieke", "2")  # halves: +15, -7.5, -7.5, 0
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "penalty", "lotte", "--reason", "te laat")
    seal = re.search(r"seal: (\S+)", ok(db, "session", "end").stdout).group(1)
    before = sheet(db)
    _back_to_schema_12(db)
    conn = sqlite3.connect(db)
    chain = conn.execute("SELECT seq, hash, shash FROM chain ORDER BY seq").fetchall()
    halves = conn.execute("SELECT entry_id, player_id, half FROM entry_points ORDER BY 1, 2").fetchall()
    conn.close()
    assert (1, 3, -15) in [(e, p, h) for e, p, h in halves]  # -7.5 as twice the points
    ok(db, "check", "--seal", seal)  # opened: migrated (m014), every link and the seal still verify
    conn = sqlite3.connect(db)
    from wiezen_score.ledger.migrations import SCHEMA_VERSION

    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT seq, hash, shash FROM chain ORDER BY seq").fetchall() == chain
    assert conn.execute("SELECT entry_id, player_id, sixth FROM entry_points ORDER BY 1, 2").fetchall() == [
        (e, p, 3 * h) for e, p, h in halves]
    conn.close()
    assert sheet(db) == before
    ok(db, "check")


def test_the_phone_previews_thirds_as_the_sheet_writes_them(tmp_path):
    from wiezen_score.core.i18n import set_language
    from wiezen_score.web.scorer import Scorer

    db = tmp_path / "w.db"
    start(db, ["jan", "piet", "mieke", "lotte"], str(RULES))
    doc = Scorer(path=str(db)).preview("a 5 j 7")
    assert doc["ok"] and doc["text"] == "alleen 5 jan 7"
    assert {p: sixths(v) for p, v in doc["points"].items()} == {"jan": 4, "piet": F(-4, 3), "mieke": F(-4, 3),
                                                                "lotte": F(-4, 3)}
    assert doc["shown"] == {"jan": "+4", "piet": "-1.33", "mieke": "-1.33", "lotte": "-1.33"}
    set_language("nl")
    try:
        assert Scorer(path=str(db)).preview("a 5 j 7")["shown"]["piet"] == "-1,33"
    finally:
        set_language("en")
