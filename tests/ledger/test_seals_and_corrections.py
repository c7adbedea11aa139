"""Proving the record: seals, corrections after the evening, and imports that the command line could not have
written."""

from __future__ import annotations

import copy
import json
import shutil
import sqlite3

import pytest
from _ledger_helpers import ok, refused, wz
from _record_helpers import EVENING, seal_of


def _check(db, *args):
    return wz(db, "check", *args)


# ------------------------------------------------------------------------------------------------ the seal


def test_session_end_prints_the_seal_and_the_sheet_shows_it(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    doc = json.loads(ok(db, "sheet", "--json").stdout)
    assert doc["session"]["seal"] is None  # open: no seal yet
    out = ok(db, "session", "end").stdout
    line = next(x for x in out.splitlines() if x.startswith("seal: "))
    code = line.split()[1]
    assert len(code) == 16 and code.count("-") == 3  # 12 characters and a check character
    assert seal_of(db, 1) == code
    assert f"Seal: {code}" in ok(db, "sheet").stdout.splitlines()[-1]
    assert f"Seal: {code}" in ok(db, "sheet", "--format", "html").stdout


def _one_wrong(code: str) -> str:
    """The seal with its sixth character (the first of the second group) noted wrong."""
    wrong = "0" if code[5] != "0" else "1"
    return code[:5] + wrong + code[6:]


def test_a_seal_noted_with_one_wrong_character_is_a_typo_not_a_changed_history(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    code = ok(db, "session", "end").stdout.split("seal: ")[1].split()[0]
    for typed in (_one_wrong(code), _one_wrong(code)[:14]):  # with its check character, and an old 12-character one
        msg = refused(db, "check", "--session", "1", "--seal", typed)
        assert "is not a seal: one character is wrong?" in msg and f"session 1: {code}" in msg, msg
        assert "forged" not in msg
    assert "vouches" in ok(db, "check", "--seal", code.lower().replace("-", " ")).stdout
    assert "vouches" in ok(db, "check", "--seal", code[:14]).stdout  # as printed before the check character
    msg = refused(db, "check", "--seal", "7KQ2-M9XD")
    assert "is not a seal: a seal is 12 letters and digits and a check character" in msg
    r = wz(db, "--lang", "nl", "check", "--seal", _one_wrong(code))
    assert r.exit_code == 1 and "is geen zegel: is er één teken verkeerd? de zegels: sessie 1: " + code in r.stderr


def _forged(tmp_path, name: str, line_from: str, line_to: str):
    text = EVENING.read_text(encoding="utf-8")
    assert line_from in text
    f = tmp_path / f"{name}.txt"
    f.write_text(text.replace(line_from, line_to, 1), encoding="utf-8")
    db = tmp_path / f"{name}.db"
    ok(db, "replay", f)
    return db


def test_a_forged_ledger_fails_the_genuine_seal(tmp_path):
    genuine = tmp_path / "genuine.db"
    ok(genuine, "replay", EVENING)
    seal = seal_of(genuine, 1)
    # the same evening replayed with one deal changed: a consistent ledger that passes check on its own
    forged = _forged(tmp_path, "forged", "alleen 5 lotte 6", "alleen 5 lotte 5")
    assert _check(forged).exit_code == 0
    assert seal_of(forged, 1) != seal
    r = _check(forged, "--session", "1", "--seal", seal)
    assert r.exit_code == 1 and "seal:" in r.stdout and "does not vouch" in r.stdout
    assert _check(forged, "--seal", seal).exit_code == 1  # without --session: no session of it has that seal
    r = _check(genuine, "--session", "1", "--seal", seal)
    assert r.exit_code == 0 and "vouches for session 1" in r.stdout
    # seals are typed by hand: any case, without dashes, O for 0
    typed = seal.replace("-", " ").lower().replace("0", "o")
    assert _check(genuine, "--seal", typed).exit_code == 0


def test_the_seal_still_vouches_after_a_correction(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", EVENING)
    first = seal_of(db, 1)
    # a correction the next morning needs a reason
    msg = refused(db, "amend", "--session", "1", "3", "alleen", "5", "lotte", "5")
    assert "needs a reason" in msg
    out = ok(db, "amend", "--session", "1", "3", "alleen", "5", "lotte", "5", "--reason", "lotte counted again").stdout
    second = seal_of(db, 1)
    assert second != first and f"seal: {second}" in out and first in out
    doc = json.loads(ok(db, "sheet", "--session", "1", "--json").stdout)
    assert [s["seal"] for s in doc["session"]["seals"]] == [first, second]
    new = [e for e in doc["entries"] if e["no"] == 3 and not e["voided"]][0]
    assert new["correction"]["reason"] == "lotte counted again" and new["correction"]["at"].startswith("20")
    sheet_text = ok(db, "sheet", "--session", "1").stdout
    assert "corrected after the evening" in sheet_text and "lotte counted again" in sheet_text
    for code in (first, second):
        r = _check(db, "--session", "1", "--seal", code)
        assert r.exit_code == 0, r.output
    r = _check(db, "--session", "1", "--seal", first)
    assert "recorded after that seal (corrections)" in r.stdout and "#3 alleen 5 lotte 5" in r.stdout
    # undo of an ended session: the last entry, with a reason; a third seal
    ok(db, "undo", "--session", "1", "--reason", "the last deal was never played")
    assert len(json.loads(ok(db, "sheet", "--session", "1", "--json").stdout)["session"]["seals"]) == 3
    assert _check(db).exit_code == 0
    assert _check(db, "--session", "1", "--seal", first).exit_code == 0
    # the forged ledger fails the genuine seals after the correction too
    forged = _forged(tmp_path, "forged", "samen 8 jan+piet 9", "samen 8 jan+piet 10")
    for code in (first, second):
        assert _check(forged, "--session", "1", "--seal", code).exit_code == 1


def test_a_hand_edit_before_the_seal_fails_it(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", EVENING)
    seal = seal_of(db, 1)
    conn = sqlite3.connect(str(db), isolation_level=None)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.execute("UPDATE entries SET reason = 'geen renonce' WHERE kind = 'penalty'")
    conn.close()
    r = _check(db, "--session", "1", "--seal", seal)
    assert r.exit_code == 1 and "does not vouch" in r.stdout


def test_a_bad_seal_is_one_error_line(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", EVENING)
    assert "is not a seal" in refused(db, "check", "--seal", "xyz")


# ------------------------------------------------------------------------------------------------- imports


@pytest.fixture
def exported(tmp_path):
    """A real export of an ended, corrected evening, and a target ledger holding another evening."""
    src = tmp_path / "table.db"
    ok(src, "replay", EVENING)
    ok(src, "amend", "--session", "1", "2", "samen", "8", "mieke+lotte", "9", "--reason", "recounted")
    doc = json.loads(ok(src, "export").stdout)
    target = tmp_path / "club.db"
    ok(target, "session", "start", "--players", "an,bert,carla,dirk", "--date", "2026-11-01")
    ok(target, "deal", "samen", "8", "an+bert", "9")
    ok(target, "session", "end")
    return doc, target


def _counting(s):
    return [e for e in s["entries"] if e["void"] is None]


def _refused_untouched(tmp_path, target, doc, name) -> str:
    before = target.read_bytes()
    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    msg = refused(target, "import", f)
    assert target.read_bytes() == before, name
    return msg


def test_the_genuine_export_imports_with_its_seals(exported, tmp_path):
    doc, target = exported
    f = tmp_path / "good.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    ok(target, "import", f)
    assert _check(target).exit_code == 0
    sid = 2
    assert [x["seal"] for x in doc["sessions"][0]["seals"]] == [
        x["seal"] for x in json.loads(ok(target, "sheet", "--session", sid, "--json").stdout)["session"]["seals"]]
    assert _check(target, "--session", sid, "--seal", doc["sessions"][0]["seals"][0]["seal"]).exit_code == 0


def _voided_huge(doc):
    s = doc["sessions"][0]
    e = next(e for e in s["entries"] if e["void"] is not None)
    names = list(e["points"])
    e["points"] = {names[0]: 1e300, names[1]: -1e300, **{n: 0 for n in names[2:]}}


def _counting_huge(doc):
    e = _counting(doc["sessions"][0])[0]
    names = list(e["points"])
    e["points"] = {names[0]: 1e300, names[1]: -1e300, **{n: 0 for n in names[2:]}}


def _wrong_points(doc):
    e = next(e for e in _counting(doc["sessions"][0]) if e["kind"] == "deal")
    e["points"] = {p: -v for p, v in e["points"].items()}  # still sums to 0


def _undo_in_the_middle(doc):
    s = doc["sessions"][0]
    e = _counting(s)[5]
    e["void"] = {"action": "undo", "by": None, "reason": "hand edit", "created_at": s["ended_at"]}
    s["history"].append(["void", e["uid"]])


def _penalty_after_the_end(doc):
    s = doc["sessions"][0]
    last = max(_counting(s), key=lambda e: e["no"])
    names = list(s["players"])
    pen = {**copy.deepcopy(last), "uid": "f" * 32, "no": max(e["no"] for e in s["entries"]) + 1, "kind": "penalty",
           "text": f"penalty {names[0]}", "contract": None, "offender": names[0], "round": False, "deal_no": None,
           "reason": "late", "replaces": None, "takers": {}, "void": None, "created_at": s["ended_at"]}
    # what `wiezen penalty` scores under rupelstreek, and the table state it leaves: internally consistent
    pen["points"] = {n: (-15 if n == names[0] else 5) for n in names}
    pen["dealer"], pen["multiplier"] = last["next_dealer"], 1
    s["entries"].append(pen)
    s["history"].append(["entry", pen["uid"]])


def _wrong_correction_chain(doc):
    s = doc["sessions"][0]
    amended = next(e for e in s["entries"] if e["void"] is not None and e["void"]["action"] == "amend")
    other = next(e for e in s["entries"] if e["void"] is None and e["no"] != amended["no"] and e["uid"] != amended["void"]["by"])
    amended["void"]["by"] = other["uid"]


def _reason_changed(doc):
    s = doc["sessions"][0]
    e = next(e for e in s["entries"] if e["kind"] == "penalty")
    e["reason"] = "geen renonce"


def _seal_dropped(doc):
    doc["sessions"][0]["seals"] = []


@pytest.mark.parametrize("edit, needle", [
    (_voided_huge, "entry #"),
    (_counting_huge, "entry #"),
    (_wrong_points, "entry #"),
    (_undo_in_the_middle, "not of the last entry that counted"),
    (_penalty_after_the_end, "after the evening ended"),
    (_wrong_correction_chain, "entry"),
    (_reason_changed, "seal"),
    (_seal_dropped, "no seal"),
])
def test_hostile_imports_are_refused_with_the_ledger_untouched(exported, tmp_path, edit, needle):
    doc, target = exported
    bad = copy.deepcopy(doc)
    edit(bad)
    msg = _refused_untouched(tmp_path, target, bad, edit.__name__)
    assert needle in msg, msg
    assert "session" in msg
    assert _check(target).exit_code == 0


def test_a_hostile_import_into_a_new_ledger_leaves_no_file(exported, tmp_path):
    doc, _ = exported
    bad = copy.deepcopy(doc)
    _voided_huge(bad)
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(bad), encoding="utf-8")
    fresh = tmp_path / "fresh.db"
    refused(fresh, "import", f)
    assert not fresh.exists()


# ------------------------------------------------------------------------------------------------- play


def test_play_undoes_exactly_the_entry_it_asked_about(tmp_path):
    from wiezen_score.cli.play import Table
    from wiezen_score.core.errors import WiezenError
    from wiezen_score.ledger import Ledger

    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    led = Ledger(str(db))
    table = Table(led, interactive=True, last=3, color=False)
    asked = []

    def meanwhile(question):  # while the scorer looks at the question, another scorer records a deal
        asked.append(question)
        ok(db, "deal", "alleen", "5", "mieke", "5")
        return True

    table.ask = meanwhile
    with pytest.raises(WiezenError, match="nothing undone"):
        table.handle("undo")
    assert asked == ["undo #1 samen 8 jan+piet 9?"]
    doc = json.loads(ok(db, "sheet", "--json").stdout)
    assert [e["voided"] for e in doc["entries"]] == [False, False]  # neither #1 nor #2 was undone
    table.ask = lambda q: True
    table.handle("undo")  # asked about #2, undoes #2
    doc = json.loads(ok(db, "sheet", "--json").stdout)
    assert [e["voided"] for e in doc["entries"]] == [False, True]
    # amend likewise: entry #1 changed meanwhile -> refused
    def amend_meanwhile(question):
        ok(db, "amend", "1", "samen", "8", "jan+piet", "10")
        return True

    table.ask = amend_meanwhile
    with pytest.raises(WiezenError, match="nothing amended"):
        table.handle("amend 1 samen 8 jan+piet 8")
    led.close()
    rows = [e for e in json.loads(ok(db, "sheet", "--json").stdout)["entries"] if e["no"] == 1 and not e["voided"]]
    assert rows[0]["text"] == "samen 8 jan+piet 10"


def test_a_copy_of_a_sealed_ledger_keeps_its_seal(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", EVENING)
    seal = seal_of(db, 1)
    cp = tmp_path / "copy.db"
    ok(db, "db", "backup", cp)
    assert _check(cp, "--seal", seal).exit_code == 0
    shutil.copy(cp, tmp_path / "again.db")
    assert seal_of(tmp_path / "again.db", 1) == seal


# ----------------------------------------------------------------------------------------------- migration


def test_an_old_ledger_is_brought_onto_the_chain_and_says_so(tmp_path):
    from _reliability_helpers import DATA, run

    old = tmp_path / "old.db"
    shutil.copy(DATA / "ledger-schema1.db", old)
    conn = sqlite3.connect(str(old))
    before = conn.execute(
        "SELECT e.session_id, ep.player_id, sum(ep.points) FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
        "WHERE NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id) GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
    ended = conn.execute("SELECT count(*) FROM sessions WHERE ended_at IS NOT NULL").fetchone()[0]
    conn.close()
    p = run(old, "sessions")
    assert p.returncode == 0, p.stderr
    assert f"{ended} ended session" in p.stderr and "sealed" in p.stderr
    conn = sqlite3.connect(str(old))
    after = conn.execute(
        "SELECT e.session_id, ep.player_id, sum(ep.points) FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
        "WHERE NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id) GROUP BY 1, 2 ORDER BY 1, 2").fetchall()
    types = {t for (t,) in conn.execute("SELECT DISTINCT typeof(sixth) FROM entry_points")}
    seals = conn.execute("SELECT count(*) FROM seals").fetchone()[0]
    conn.close()
    assert after == before and types == {"integer"} and seals == ended
    assert _check(old).exit_code == 0
    assert "note:" not in run(old, "sessions").stderr  # said once, at the upgrade


def test_play_prints_the_seal_when_the_evening_ends(tmp_path):
    db = tmp_path / "w.db"
    out = ok(db, "play", input="players jan piet mieke lotte\nsamen 8 jan+piet 9\nend\n").stdout
    line = next(x for x in out.splitlines() if x.startswith("seal: "))
    assert line.split()[1] == seal_of(db, 1)
