"""Every refused command exits 1 with one `Error:` line, and writes nothing (INTERFACE.md, "Global")."""

from __future__ import annotations

import pytest
from _ledger_helpers import ROOT, copy_ledger, dump, ok, record, refused, sheet, start

PLAYERS = ["jan", "jef", "mieke", "lotte"]


@pytest.fixture
def open_db(ledger_template, tmp_path):
    """A ledger with a replayed (closed) evening and an open session with history: a voided and an amended entry.
    Built once per run (tests/conftest.py) and copied for each test, as closed_db is."""
    def build(db, _):
        ok(db, "replay", ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt")
        start(db, PLAYERS, "whisthub")
        record(db, "samen 8 jan+jef 9", "pas", "alleen 5 mieke 6")
        ok(db, "undo")  # entry 3 voided
        ok(db, "amend", "1", "samen", "8", "jan+jef", "10")

    return copy_ledger(ledger_template("refusals-open", build), tmp_path / "w.db")


@pytest.fixture
def closed_db(ledger_template, tmp_path):
    def build(db, _):
        ok(db, "replay", ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt")

    return copy_ledger(ledger_template("refusals-closed", build), tmp_path / "w.db")


NO_OPEN_SESSION = [
    ["deal", "samen", "8", "jan+piet", "9"],
    ["pass"],
    ["redeal"],
    ["penalty", "jan"],
    ["undo"],
    ["amend", "1", "pas"],
    ["session", "end"],
]


@pytest.mark.parametrize("args", NO_OPEN_SESSION, ids=[" ".join(a) for a in NO_OPEN_SESSION])
def test_no_open_session(closed_db, args):
    before = dump(closed_db)
    msg = refused(closed_db, *args)
    assert "no open session" in msg
    assert dump(closed_db) == before


REFUSED = {
    "unknown player": (["deal", "samen", "8", "jan+xander", "9"], "xander"),
    "unknown offender": (["penalty", "zz"], "zz"),
    "unknown contract": (["deal", "foo", "8", "jan+jef", "9"], "foo"),
    "no tricks": (["deal", "samen", "8", "jan+jef"], ""),
    "no such level": (["deal", "samen", "7", "jan+jef", "9"], "7"),
    "team contract alone": (["deal", "samen", "8", "jan", "9"], ""),
    "solo with a partner": (["deal", "alleen", "5", "jan+jef", "6"], ""),
    "tricks not a number": (["deal", "samen", "8", "jan+jef", "negen"], "negen"),
    "14 tricks": (["deal", "samen", "8", "jan+jef", "14"], "14"),
    "miserie 14 tricks": (["deal", "grote-miserie", "jan", "14"], "14"),
    "miseries over 13": (["deal", "grote-miserie", "jan", "7", "jef", "7"], ""),
    "taker named twice": (["deal", "samen", "8", "jan+jan", "9"], "jan"),
    "amend voided entry": (["amend", "3", "pas"], "3"),
    "amend missing entry": (["amend", "99", "pas"], "99"),
    "amend with a bad deal": (["amend", "1", "samen", "8", "jan+jef", "14"], "14"),
    "amend with undo": (["amend", "1", "undo"], ""),
    "penalty for a missing deal": (["penalty", "jan", "--deal", "42"], "42"),
    "penalty for a pas": (["penalty", "jan", "--deal", "2"], "2"),
    "second session start": (["session", "start", "--players", "a,b,c,d"], "open"),
}


BAD_STARTS = {
    "unknown house rules": (["--players", "a,b,c,d", "--rules", "nergens"], "nergens"),
    "three players": (["--players", "a,b,c"], "3"),
    "seven players": (["--players", "a,b,c,d,e,f,g"], "7"),
    "a player twice": (["--players", "a,b,c,A"], "twice"),
    "dealer not at the table": (["--players", "a,b,c,d", "--dealer", "zz"], "zz"),
    "bad date": (["--players", "a,b,c,d", "--date", "2026-13-45"], "2026-13-45"),
}


@pytest.mark.parametrize("case", list(BAD_STARTS), ids=list(BAD_STARTS))
def test_refused_session_start_writes_nothing(closed_db, case):
    args, needle = BAD_STARTS[case]
    before = dump(closed_db)
    assert needle in refused(closed_db, "session", "start", *args)
    assert dump(closed_db) == before


@pytest.mark.parametrize("case", list(REFUSED), ids=list(REFUSED))
def test_refused_writes_nothing(open_db, case):
    args, needle = REFUSED[case]
    before = dump(open_db)
    msg = refused(open_db, *args)
    assert needle in msg
    assert dump(open_db) == before


@pytest.mark.parametrize("prefix", ["j", "J"])
def test_ambiguous_prefix_lists_the_candidates(open_db, prefix):
    before = dump(open_db)
    msg = refused(open_db, "deal", "samen", "8", f"{prefix}+mieke", "9")
    assert "ambiguous" in msg and "jan" in msg and "jef" in msg
    msg = refused(open_db, "penalty", prefix)
    assert "jan" in msg and "jef" in msg
    assert dump(open_db) == before
    # an unambiguous prefix works, case-insensitively
    ok(open_db, "deal", "samen", "8", "JA+Mi", "9")
    e = sheet(open_db)["entries"][-1]
    assert e["text"] == "samen 8 jan+mieke 9"


def test_undo_with_nothing_to_undo(tmp_path):
    db = tmp_path / "w.db"
    start(db, PLAYERS)
    before = dump(db)
    assert "nothing to undo" in refused(db, "undo")
    assert dump(db) == before
    record(db, "pas", "pas")
    ok(db, "undo")
    ok(db, "undo")
    before = dump(db)
    assert "nothing to undo" in refused(db, "undo")
    assert dump(db) == before


def test_sheet_and_explain_of_missing_things(open_db, tmp_path):
    before = dump(open_db)
    refused(open_db, "sheet", "--session", "77")
    refused(open_db, "explain", "99")
    assert dump(open_db) == before
    # no ledger at all: the sheet says so and creates nothing
    empty = tmp_path / "none.db"
    refused(empty, "sheet")
    assert not empty.exists()


def test_replay_with_a_bad_line_records_nothing(open_db, tmp_path):
    f = tmp_path / "bad.txt"
    f.write_text("players jan piet mieke lotte\nsamen 8 jan+piet 9\npas\nsamen 8 jan+piet 14\n", encoding="utf-8")
    before = dump(open_db)
    msg = refused(open_db, "replay", f)
    assert "line 4" in msg
    f.write_text("players jan piet mieke lotte\npas\nundo\nundo\n", encoding="utf-8")
    assert "line 4" in refused(open_db, "replay", f)
    f.write_text("samen 8 jan+piet 9\n", encoding="utf-8")
    assert "players" in refused(open_db, "replay", f)
    assert dump(open_db) == before
