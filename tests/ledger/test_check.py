"""`wiezen check`: passes on a sound ledger; a score changed behind the tool's back, a broken void
chain, a damaged file each make it exit 1 and name what is wrong."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest
from _ledger_helpers import copy_ledger
from _reliability_helpers import DATA, ROOT, assert_clean_error, run
from click.testing import CliRunner

from wiezen_score.cli import cli


def wz(db, *args):
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)])


@pytest.fixture
def ledger(ledger_template, tmp_path):
    """Two example evenings, and an open one with an undo and an amendment (a re-scored later entry); built once
    per run (tests/conftest.py) and copied for each test."""
    def build(db, _):
        for f in ("examples/cafe-de-kroon-rupelstreek.txt", "examples/vijf-spelers-whisthub.txt"):
            assert wz(db, "replay", ROOT / f).exit_code == 0
        assert wz(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek").exit_code == 0
        for args in (["deal", "samen", "8", "jan+piet", "9"], ["deal", "samen", "8", "mieke+lotte", "10"], ["pass"],
                     ["deal", "alleen", "5", "lotte", "6"], ["deal", "samen", "8", "jan+mieke", "8"], ["pass"]):
            assert wz(db, *args).exit_code == 0
        assert wz(db, "undo", "--reason", "typo").exit_code == 0
        # entry 1 was a deal, now a rondje pas: entry 2 counts double, so it is re-scored too
        r = wz(db, "amend", "1", "pas", "--reason", "it was a rondje pas")
        assert r.exit_code == 0, r.output

    return copy_ledger(ledger_template("check-evenings", build), tmp_path / "wiezen.db")


def tamper(db, *sql: str) -> None:
    """Behind the tool's back: drop the append-only triggers and change rows with plain sqlite3."""
    conn = sqlite3.connect(str(db), isolation_level=None)
    try:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_no_%'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        for s in sql:
            conn.execute(s)
    finally:
        conn.close()


def entry_id(db, session: int, no: int) -> int:
    conn = sqlite3.connect(str(db))
    try:
        (eid,) = conn.execute(
            "SELECT id FROM entries e WHERE session_id = ? AND no = ? AND NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id)",
            (session, no),
        ).fetchone()
        return int(eid)
    finally:
        conn.close()


def problems(db) -> list[dict]:
    r = wz(db, "check", "--json")
    doc = json.loads(r.stdout)
    assert r.exit_code == (0 if doc["ok"] else 1)
    assert doc["ok"] == (doc["problems"] == [])
    return doc["problems"]


def test_a_sound_ledger_passes(ledger):
    r = wz(ledger, "check")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("ok: 3 sessions")
    doc = json.loads(wz(ledger, "check", "--json").stdout)
    assert doc["ok"] is True and doc["problems"] == [] and doc["sessions"] == 3
    # every entry row is counted; the undo and the amendment (with the entries it re-scored) are voided ones
    conn = sqlite3.connect(str(ledger))
    n, v = conn.execute("SELECT count(*), (SELECT count(*) FROM voids) FROM entries").fetchone()
    conn.close()
    assert (doc["entries"], doc["voided"], doc["rescored"]) == (n, v, n - v)
    assert v >= 3  # the undo, the amended entry and at least one entry re-scored after it


def test_a_changed_score_is_named(ledger):
    eid = entry_id(ledger, 1, 3)  # alleen 5 lotte 6 under rupelstreek: lotte +9, the others -3
    tamper(ledger, f"UPDATE entry_points SET sixth = 114 WHERE entry_id = {eid} AND sixth = 54")
    r = wz(ledger, "check")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    named = [line for line in lines if "session 1 entry #3 " in line]
    assert any(line.startswith("sum:") and "+10, not 0" in line for line in named), lines
    assert any(line.startswith("rescore:") and "lotte +19" in line and "lotte +9" in line for line in named), lines
    assert any(line.startswith("triggers:") for line in lines)
    assert "problems in the ledger" in r.stderr
    # the same through a child process, as a user or a cron job sees it: exit status 1, no traceback
    p = run(ledger, "check")
    assert p.returncode == 1 and "Traceback" not in p.stderr and "session 1 entry #3 " in p.stdout


def test_a_balanced_change_is_still_caught_by_rescoring(ledger):
    eid = entry_id(ledger, 2, 2)  # five players: alleen 5 carla 10 ... swap two players' points: the sum stays 0
    conn = sqlite3.connect(str(ledger))
    pts = dict(conn.execute("SELECT player_id, sixth FROM entry_points WHERE entry_id = ?", (eid,)).fetchall())
    conn.close()
    (hi, lo) = (max(pts, key=pts.get), min(pts, key=pts.get))
    tamper(
        ledger,
        f"UPDATE entry_points SET sixth = {pts[lo]} WHERE entry_id = {eid} AND player_id = {hi}",
        f"UPDATE entry_points SET sixth = {pts[hi]} WHERE entry_id = {eid} AND player_id = {lo}",
    )
    found = [p for p in problems(ledger) if p["check"] != "triggers"]
    assert {(p["check"], p["session"], p["entry"], p["entry_id"]) for p in found} >= {("rescore", 2, 2, eid)}
    assert not [p for p in found if p["check"] == "sum"]


@pytest.mark.parametrize(
    "column, value, needle",
    [("text", "'samen 8 jan+piet 12'", "points"), ("next_multiplier", "4", "next dealer"), ("multiplier", "2", "multiplier x2")],
)
def test_a_changed_entry_is_named(ledger, column, value, needle):
    eid = entry_id(ledger, 1, 1)  # samen 8 jan+piet 9, jan deals, x1
    tamper(ledger, f"UPDATE entries SET {column} = {value} WHERE id = {eid}")
    found = [p for p in problems(ledger) if p["entry_id"] == eid]
    assert found and all(p["session"] == 1 and p["entry"] == 1 for p in found)
    assert any(p["check"] == "rescore" and needle in p["message"] for p in found), found


def test_a_broken_void_chain_is_named(ledger):
    # the open session (3): undo the amendment's void, so the old and the new entry #1 both count
    conn = sqlite3.connect(str(ledger))
    old, new = conn.execute(
        "SELECT v.entry_id, v.by_entry FROM voids v JOIN entries e ON e.id = v.entry_id WHERE e.session_id = 3 AND e.no = 1"
    ).fetchone()
    conn.close()
    tamper(ledger, f"DELETE FROM voids WHERE entry_id = {old}")
    found = problems(ledger)
    assert any(p["check"] == "chain" and p["session"] == 3 and p["entry"] == 1 and "share this number" in p["message"] for p in found)
    assert any(p["check"] == "chain" and p["entry_id"] == new and "is not voided" in p["message"] for p in found)


def test_a_void_pointing_at_the_wrong_entry_is_named(ledger):
    conn = sqlite3.connect(str(ledger))
    old, new = conn.execute(
        "SELECT v.entry_id, v.by_entry FROM voids v JOIN entries e ON e.id = v.entry_id WHERE e.session_id = 3 AND e.no = 1"
    ).fetchone()
    other = entry_id(ledger, 3, 3)
    conn.close()
    tamper(ledger, f"UPDATE voids SET by_entry = {other} WHERE entry_id = {old}")
    found = problems(ledger)
    assert any(
        p["check"] == "chain" and p["entry_id"] == old and f"voided by entry id {other}" in p["message"] for p in found
    ), found


def test_missing_points_rows_are_named(ledger):
    eid = entry_id(ledger, 1, 4)  # the rondje pas: 0 for each of the four, still four rows
    tamper(ledger, f"DELETE FROM entry_points WHERE entry_id = {eid}")
    found = problems(ledger)
    assert any(p["check"] == "sum" and p["entry_id"] == eid and "no points" in p["message"] for p in found)


def test_a_stale_totals_cache_is_named(ledger):
    conn = sqlite3.connect(str(ledger))
    has = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'session_totals'").fetchone()
    conn.close()
    if not has:
        pytest.skip("this schema keeps no session_totals cache")
    tamper(ledger, "UPDATE session_totals SET points = points + 1 WHERE session_id = 2")
    found = [p for p in problems(ledger) if p["check"] == "totals"]
    assert found and all(p["session"] == 2 for p in found)


def test_a_damaged_file_fails_check_without_a_traceback(ledger, tmp_path):
    # make the WAL part of the file, then scribble over pages in the middle of it
    conn = sqlite3.connect(str(ledger))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert pages > 8
    damaged = tmp_path / "damaged.db"
    shutil.copy(ledger, damaged)
    with open(damaged, "r+b") as f:
        for n in range(3, pages - 1, 2):
            f.seek(n * page + 100)
            f.write(b"\xde\xad\xbe\xef" * 200)
    p = run(damaged, "check")
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert "Traceback" not in p.stdout + p.stderr and "unexpected" not in p.stderr
    # either the file cannot even be opened (one Error: line), or integrity_check reports what is wrong
    assert p.stderr.startswith("Error: ") or p.stdout.startswith("integrity: "), (p.stdout, p.stderr)


def test_check_on_no_ledger_is_a_clear_error(tmp_path):
    assert_clean_error(run(tmp_path / "nothing.db", "check"), "no ledger")
    assert not (tmp_path / "nothing.db").exists()


def test_check_reads_the_schema1_fixture(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(DATA / "ledger-schema1.db", db)
    assert wz(db, "check").exit_code == 0
