"""Amendments re-add only the later entries that really change; `explain` then shows no identical earlier
version; `play` confirms with the resolved line and records `precedent TITLE: RULING`. Through the installed
`wiezen` command (and a terminal for the y/N question)."""

import json

import pytest
from test_deal_words import ok, run, spawn_play


def doc(db):
    return json.loads(ok(db, "sheet", "--json").stdout)


def versions(db):
    out = {}
    for e in doc(db)["entries"]:
        out.setdefault(e["no"], []).append((e["text"], e["dealer"], e["multiplier"], e["voided"]))
    return out


@pytest.fixture
def kroon(tmp_path):
    """rupelstreek: after a rondje pas the next dealer deals and the next deal counts double."""
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "penalty", "jan", "--reason", "renonce")
    ok(db, "deal", "samen", "8", "mieke+lotte", "9")
    return db


def test_amend_re_adds_only_what_changes(kroon):
    r = ok(kroon, "amend", "1", "pas")
    # the penalty keeps its dealer (piet) and points: it stays as it was; the deal after it now counts x2
    assert "re-scored: #3" in r.stdout and "#2" not in r.stdout.split("re-scored:")[1]
    v = versions(kroon)
    assert len(v[2]) == 1 and len(v[3]) == 2
    assert [x[2] for x in v[3]] == [1, 2]
    ok(kroon, "amend", "1", "samen", "8", "jan+piet", "9")  # and back
    v = versions(kroon)
    assert len(v[2]) == 1 and len(v[3]) == 3 and [x[2] for x in v[3] if not x[3]] == [1]
    ok(kroon, "check")


def test_the_state_after_a_carried_doubling_is_derived(kroon):
    ok(kroon, "undo")  # the last deal goes: the penalty is the last entry that counts
    ok(kroon, "amend", "1", "pas")
    assert len(versions(kroon)[2]) == 1  # the penalty is not re-added ...
    d = doc(kroon)
    assert d["pending_multiplier"] == 2 and d["dealer"] == "piet"  # ... yet the next deal counts x2
    r = ok(kroon, "deal", "samen", "8", "mieke+lotte", "9")
    assert "(x2)" in r.stdout
    # rupelstreek samen 8 with 9: 2 + 1 = 3, x2 = 6 each
    assert doc(kroon)["entries"][-1]["points"] == {"jan": -6, "piet": -6, "mieke": 6, "lotte": 6}
    ok(kroon, "check")


def test_explain_lists_no_identical_earlier_version(kroon):
    ok(kroon, "amend", "1", "pas")
    out = ok(kroon, "explain", "3").stdout
    line = next(x for x in out.splitlines() if "earlier versions" in x)
    assert "samen 8 mieke+lotte 9 (x1; jan -3, piet -3, mieke +3, lotte +3)" in line  # what differed then
    assert "earlier versions" not in ok(kroon, "explain", "2").stdout


def test_a_changed_dealer_is_a_real_change(tmp_path):
    # whisthub: after a rondje pas the same dealer deals again, so everything after it moves one seat
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "penalty", "jan")
    ok(db, "amend", "1", "pas")
    v = versions(db)
    assert [(x[1], x[3]) for x in v[2]] == [("piet", True), ("jan", False)]
    assert "penalty jan (dealt by piet)" in ok(db, "explain", "2").stdout


def test_play_records_a_precedent_linked_to_the_last_entry(tmp_path):
    db = tmp_path / "w.db"
    lines = ["players jan piet mieke lotte", "s 8 j+p 9", "penalty jan renonce in troef",
             "precedent Renonce in troef: the offender pays 5 to each, the deal counts", "precedent no colon here",
             "quit"]
    r = run(db, "play", input="\n".join(lines) + "\n")
    assert r.returncode == 1 and "line 5" in r.stderr and "colon" in r.stderr  # the bad one only
    assert "recorded precedent 1" in r.stdout and "#2 penalty jan" in r.stdout
    items = json.loads(ok(db, "precedent", "list", "--json").stdout)
    assert [(p["title"], p["ruling"], p["session"], p["deal"]) for p in items] == [
        ("Renonce in troef", "the offender pays 5 to each, the deal counts", 1, 2)]


def test_play_confirms_the_resolved_line(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    db = tmp_path / "w.db"
    c = spawn_play(tmp_path, db)
    try:
        c.expect_exact("[no session] > ")
        c.sendline("players jan piet mieke lotte")
        c.expect_exact("[#1 jan deals] > ")
        c.sendline("s 8 j+p 9")
        c.expect_exact("[#2 piet deals] > ")
        c.sendline("amend 1 s 8 j+p 10")
        c.expect_exact("amend #1 samen 8 jan+piet 9 -> samen 8 jan+piet 10? [y/N] ")
        c.sendline("y")
        c.expect_exact("[#2 piet deals] > ")
        c.sendline("penalty j te laat")
        c.expect_exact("type: precedent te laat: WHAT WAS DECIDED")
        c.expect_exact("[#3 piet deals] > ")
        c.sendline("quit")
        c.expect(pexpect.EOF)
    finally:
        c.close()
    assert [e["text"] for e in doc(db)["entries"] if not e["voided"]] == ["samen 8 jan+piet 10", "penalty jan"]
