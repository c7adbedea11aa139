"""`[redeal] dealer` (issue 30, item 7): who deals after a redeal, "same" (the default, as before) or "next";
a pending doubling stays either way. Recorded, undone, amended, explained, checked and sealed like every entry."""

from __future__ import annotations

from _ledger_helpers import DATA, ok, refused, sheet, wz

from wiezen_score.core.presets import load_preset, preset_text
from wiezen_score.core.rules import parse_rules
from wiezen_score.core.session import EntryInput, TableState, apply, fold

NEXT = DATA / "more-variants-a.toml"  # [redeal] dealer = "next", rondje pas: same dealer, double once
P4 = ["jan", "piet", "mieke", "lotte"]


def start(db, rules, players=P4):
    ok(db, "session", "start", "--players", ",".join(players), "--rules", str(rules))


def test_the_fold_passes_the_deal_on_and_keeps_the_doubling():
    rules = parse_rules(NEXT.read_text(encoding="utf-8"))
    assert rules.redeal_dealer == "next"
    s = apply(EntryInput("redeal", reason="carte blanche"), rules, P4, TableState(3, 2))
    assert (s.dealer, s.after) == (3, TableState(0, 2))  # lotte dealt; jan deals next, x2 still pending
    assert s.points == {p: 0 for p in P4}
    same = apply(EntryInput("redeal"), load_preset("whisthub"), P4, TableState(3, 2))
    assert same.after == TableState(3, 2)


def test_a_queue_of_doublings_stays_over_a_redeal():
    text = NEXT.read_text(encoding="utf-8").replace('double = "once"', 'double = "queue"')
    rules = parse_rules(text)
    entries = [(1, EntryInput("pass")), (2, EntryInput("pass")), (3, EntryInput("redeal")),
               (4, EntryInput("deal", text="samen 8 jan+piet 8")), (5, EntryInput("deal", text="samen 8 jan+piet 8"))]
    got = fold(entries, rules, P4)
    assert [s.dealer for s in got.scored] == [0, 0, 0, 1, 2]
    assert [s.multiplier for s in got.scored[3:]] == [2, 2]


def test_recorded_the_sheet_says_who_deals(tmp_path):
    db = tmp_path / "w.db"
    start(db, NEXT)
    ok(db, "deal", "samen", "8", "jan+piet", "9")  # jan deals
    r = ok(db, "deal", "carte", "blanche")  # piet deals it, mieke deals next
    assert "next: mieke deals" in r.stdout
    ok(db, "pass")  # mieke deals again (rondje pas: same), x2
    r = ok(db, "redeal", "--reason", "misdeal")
    assert "next: lotte deals; the next deal counts x2" in r.stdout
    ok(db, "deal", "grote-miserie", "jan", "0", "piet", "1")
    doc = sheet(db)
    assert [e["dealer"] for e in doc["entries"]] == ["jan", "piet", "mieke", "mieke", "lotte"]
    assert doc["entries"][-1]["multiplier"] == 2
    assert doc["entries"][-1]["points"] == {"jan": 48, "piet": -72, "mieke": 12, "lotte": 12}  # pool x2
    assert doc["dealer"] == "jan"
    assert "the next dealer deals" in ok(db, "explain", "2").stdout
    assert "every sum 0" in ok(db, "check").stdout


def test_the_same_dealer_by_default(tmp_path):
    db = tmp_path / "w.db"
    start(db, "whisthub")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "redeal")
    assert sheet(db)["dealer"] == "piet"
    assert "the same dealer deals again" in ok(db, "explain", "2").stdout


def test_undo_and_amend_give_the_dealer_back(tmp_path):
    db = tmp_path / "w.db"
    start(db, NEXT)
    ok(db, "redeal")
    assert sheet(db)["dealer"] == "piet"
    ok(db, "undo", input="y\n")
    assert sheet(db)["dealer"] == "jan"
    ok(db, "redeal")
    ok(db, "deal", "samen", "8", "piet+mieke", "8")  # piet deals after the redeal
    # the redeal was a deal after all: jan dealt it, piet deals the second
    ok(db, "amend", "2", "samen", "8", "jan+lotte", "9", input="y\n")
    doc = sheet(db)
    counting = [(e["no"], e["kind"], e["dealer"]) for e in doc["entries"] if not e["voided"]]
    assert counting == [(2, "deal", "jan"), (3, "deal", "piet")]
    assert "every sum 0" in ok(db, "check").stdout


def test_at_a_table_of_five_the_deal_passes_on(tmp_path):
    db = tmp_path / "w.db"
    start(db, NEXT, ["jan", "piet", "mieke", "lotte", "an"])
    ok(db, "redeal")  # jan dealt and sat out; piet deals and sits out now
    assert sheet(db)["sitting_out"] == ["piet"]
    assert "sits out" in refused(db, "deal", "samen", "8", "piet+jan", "9")
    ok(db, "deal", "samen", "8", "jan+an", "9")


def test_a_sealed_session_keeps_its_rules(tmp_path):
    db = tmp_path / "w.db"
    path = tmp_path / "cafe.toml"
    path.write_text(preset_text("whisthub").replace('name = "whisthub"', 'name = "cafe"')
                    + '\n[redeal]\ndealer = "next"\n', encoding="utf-8")
    start(db, path)
    ok(db, "redeal")
    ok(db, "deal", "samen", "8", "piet+mieke", "8")
    ok(db, "session", "end")
    # the file changes afterwards: the session was recorded under its own copy and checks as before
    path.write_text(preset_text("whisthub").replace('name = "whisthub"', 'name = "cafe"'), encoding="utf-8")
    assert "every sum 0" in ok(db, "check").stdout
    assert [e["dealer"] for e in sheet(db, "--session", "1")["entries"]] == ["jan", "piet"]


def test_a_bad_value_is_refused_with_its_line(tmp_path):
    path = tmp_path / "cafe.toml"
    path.write_text(preset_text("whisthub") + '\n[redeal]\ndealer = "links"\n', encoding="utf-8")
    line = refused(tmp_path / "w.db", "session", "start", "--players", "a,b,c,d", "--rules", str(path))
    n = len(preset_text("whisthub").splitlines()) + 3
    assert f"line {n}: [redeal] dealer must be" in line
    assert not (tmp_path / "w.db").exists() or wz(tmp_path / "w.db", "sheet").exit_code == 1
