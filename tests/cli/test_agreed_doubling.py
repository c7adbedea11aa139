"""A deal doubled by agreement (issue 30, item 5): a deal line that ends in `x2`, `x3`, `x4` (or `dubbel`, x2) counts
that many times, combined with the deal's other doublings by the house rules' `doubling` key, everywhere a deal line
is read.

Figures by hand. rupelstreek: samen 8 is 2 + 1 per overtrick (lost 3 + 1 per further undertrick); troel is a samen
with one doubling of its own; a rondje pas doubles the next deal once. tests/data/rules-add.toml is rupelstreek with
`doubling = "add"`: the amount is multiplied by 1 + the number of doublings, and `xN` counts N - 1 of them.
- samen 8 A+B 9 x3 (rupelstreek): 3 x 3 = 9.
- troel A+B 9 x2: multiplied 3 x 2 x 2 = 12; added 3 x (1 + 1 + 1) = 9.
- troel A+B 13 x3 after a rondje pas: multiplied (2 + 5) x 2 x 2 x 3 x 2 = 168; added 7 x (1 + 1 + 1 + 2 + 1) = 42.
- grote-miserie A 0 x3 (rupelstreek, 5): 15 x 3 = 45 to A, -15 each; added: 1 + 2 = x3, the same.
- whisthub grote-miserie A 0 B 1 dubbel: (+48, -48, 0, 0) x 2.
"""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import DATA, dump, ok, refused, sheet, start, wz

from wiezen_score.core.deal import parse_deal
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset
from wiezen_score.core.rules import parse_rules
from wiezen_score.core.scoring import score

P4 = ["A", "B", "C", "D"]
ADD = parse_rules((DATA / "rules-add.toml").read_text(encoding="utf-8"), "rules-add.toml")


def pts(rules, line, multiplier=1):
    d = parse_deal(line, rules, P4)
    s = score(d, rules, P4, multiplier)
    assert sum(s.points.values()) == 0
    return dict(s.points), s


def team(x):
    return {"A": x, "B": x, "C": -x, "D": -x}


@pytest.mark.parametrize("line,rules,m,want", [
    ("samen 8 A+B 9 x3", "rupelstreek", 1, team(9)),
    ("troel A+B 9 x2", "rupelstreek", 1, team(12)),
    ("troel A+B 9 x2", "add", 1, team(9)),
    ("troel A+B 13 x3", "rupelstreek", 2, team(168)),
    ("troel A+B 13 x3", "add", 2, team(42)),
    ("samen 8 A+B 7 x4", "rupelstreek", 1, team(-12)),
    ("grote-miserie A 0 x3", "rupelstreek", 1, {"A": 45, "B": -15, "C": -15, "D": -15}),
    ("grote-miserie A 0 x3", "add", 1, {"A": 45, "B": -15, "C": -15, "D": -15}),
    ("grote-miserie A 0 x2", "add", 4, {"A": 60, "B": -20, "C": -20, "D": -20}),  # 15 x (1 + 1 + 2)
    ("grote-miserie A 0 x2", "rupelstreek", 4, {"A": 120, "B": -40, "C": -40, "D": -40}),  # 15 x 2 x 4
    ("grote-miserie A 0 B 1 dubbel", "whisthub", 1, {"A": 96, "B": -96, "C": 0, "D": 0}),
])
def test_the_deal_counts_as_agreed(line, rules, m, want):
    r = ADD if rules == "add" else load_preset(rules)
    got, s = pts(r, line, m)
    assert got == want
    assert s.multiplier == m  # the multiplier stays the rondje pas's; the agreement is in the line
    assert any("by agreement" in step for step in s.explanation)


@pytest.mark.parametrize("word", ["x2", "X2", "\u00d72", "dubbel", "DUBBEL", "double"])
def test_the_words_for_it(word):
    r = load_preset("rupelstreek")
    d = parse_deal(f"samen 8 A+B 8 {word}", r, P4)
    assert d.times == 2 and d.text == "samen 8 A+B 8 x2"
    assert parse_deal(d.text, r, P4) == d  # the canonical line reads back as the same deal


def test_over_troel_and_the_agreement_in_either_order():
    r = load_preset("wikibooks-wiezen")
    a = parse_deal("open-miserie A 0 over-troel x2", r, P4)
    b = parse_deal("open-miserie A 0 x2 over-troel", r, P4)
    assert a == b and a.over_troel and a.times == 2 and a.text == "open-miserie A 0 over-troel x2"
    assert dict(score(a, r, P4).points) == {"A": 144, "B": -48, "C": -48, "D": -48}  # 24 x 3 x 2


@pytest.mark.parametrize("line", ["samen 8 A+B 9 x1", "samen 8 A+B 9 x5", "samen 8 A+B 9 x2 x2", "samen 8 A+B x2"])
def test_other_factors_are_refused(line):
    with pytest.raises(WiezenError):
        parse_deal(line, load_preset("rupelstreek"), P4)


def test_calc(tmp_path):
    db = tmp_path / "none.db"
    r = wz(db, "calc", "--json", "--rules", "rupelstreek", "--multiplier", "2", "--", "samen", "8", "A+B", "9", "x2")
    doc = json.loads(r.stdout)
    assert doc["points"] == team(12) and doc["multiplier"] == 2  # 3 x 2 x 2
    assert any("x2 by agreement" in s for s in doc["explanation"])
    assert "x2 by agreement" in ok(db, "calc", "--rules", "rupelstreek", "samen", "8", "A+B", "9", "x2").stdout
    err = refused(db, "calc", "samen", "8", "A+B", "9", "x7")
    assert "x7" in err and "x2, x3 or x4" in err
    assert not db.exists()


def test_recorded_shown_explained_amended_checked_and_sealed(tmp_path):
    db = tmp_path / "w.db"
    start(db, ["jan", "piet", "mieke", "lotte"], "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9", "dubbel")
    ok(db, "pass")
    ok(db, "deal", "troel", "mieke+lotte", "8", "x2")
    doc = sheet(db)
    assert [e["text"] for e in doc["entries"]] == ["samen 8 jan+piet 9 x2", "pas", "troel 8 mieke+lotte 8 x2"]
    assert doc["entries"][0]["points"] == {"jan": 6, "piet": 6, "mieke": -6, "lotte": -6}  # 3 x 2
    assert doc["entries"][2]["points"] == {"jan": -16, "piet": -16, "mieke": 16, "lotte": 16}  # 2 x 2 x 2 x 2
    assert "x2 by agreement: 4 x 2 = 8" in ok(db, "explain", "3").stdout
    before = dump(db)
    refused(db, "deal", "samen", "8", "jan+piet", "9", "x9")
    assert dump(db) == before
    ok(db, "amend", "1", "samen", "8", "jan+piet", "9", "x3", "--reason", "it was x3")
    assert sheet(db)["totals"] == {"jan": -7, "piet": -7, "mieke": 7, "lotte": 7}  # +9 - 16
    seal = ok(db, "session", "end").stdout.split("seal: ")[1].split()[0]
    ok(db, "check", "--seal", seal)
    # the line is part of what the chain covers: a changed factor breaks the history
    import sqlite3

    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER IF EXISTS entries_no_update")
    conn.execute("UPDATE entries SET text = 'samen 8 jan+piet 9 x4' WHERE text = 'samen 8 jan+piet 9 x3'")
    conn.commit()
    conn.close()
    assert wz(db, "check").exit_code == 1


def test_session_file_and_play(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "avond.txt"
    f.write_text("rules rupelstreek\nplayers jan piet mieke lotte\nsamen 8 jan+piet 9 x3\ngm mieke 0 dubbel\n",
                 encoding="utf-8")
    ok(db, "replay", str(f))
    doc = sheet(db, "--session", "1")
    assert [e["text"] for e in doc["entries"]] == ["samen 8 jan+piet 9 x3", "grote-miserie mieke 0 x2"]
    assert doc["totals"] == {"jan": 9 - 10, "piet": 9 - 10, "mieke": -9 + 30, "lotte": -9 - 10}
    r = ok(db, "play", input="rules rupelstreek\nplayers jan piet mieke lotte\nsamen 8 jan+piet 8 x4\n")
    assert "samen 8 jan+piet 8 x4" in r.stdout
    assert sheet(db)["entries"][0]["points"]["jan"] == 8


def test_the_phone_previews_and_records_it(tmp_path):
    from wiezen_score import ledger
    from wiezen_score.service.table import Table
    from wiezen_score.views.phone import scorer_form

    db = tmp_path / "w.db"
    start(db, ["jan", "piet", "mieke", "lotte"], "rupelstreek")
    with ledger.open_ledger(str(db), readonly=True) as led:
        p = Table(led, files=False).preview("s 8 j+p 9 x2")
    assert p.text == "samen 8 jan+piet 9 x2" and dict(p.points) == {"jan": 6, "piet": 6, "mieke": -6, "lotte": -6}
    with ledger.open_ledger(str(db)) as led:
        Table(led, files=False).handle("samen 8 jan+piet 9 x3")
    assert sheet(db)["entries"][0]["text"] == "samen 8 jan+piet 9 x3"
    form = scorer_form("/s/t/entry", "n", ["jan", "piet"], ["samen"], "", "samen 8 jan+piet 9")
    assert all(f'data-w="x{n}"' in form for n in (2, 3, 4))
