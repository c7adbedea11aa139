"""Append-only in the schema: plain SQL cannot rewrite or delete history (the triggers refuse)."""

from __future__ import annotations

import sqlite3

import pytest
from _ledger_helpers import ROOT, dump, ok, record, start

STATEMENTS = [
    "UPDATE entries SET text = 'samen 8 jan+piet 13'",
    "UPDATE entries SET multiplier = 2 WHERE no = 1",
    "DELETE FROM entries",
    "DELETE FROM entries WHERE id = (SELECT max(id) FROM entries)",
    "UPDATE entry_points SET sixth = 0",
    "UPDATE entry_points SET sixth = sixth + 6 WHERE entry_id = 1",
    "DELETE FROM entry_points",
    "UPDATE voids SET reason = 'nee'",
    "UPDATE voids SET action = 'undo', by_entry = NULL",
    "DELETE FROM voids",
    "DELETE FROM house_rules",
    "UPDATE house_rules SET toml = ''",
    "DELETE FROM seats",
    "UPDATE seats SET seat = seat + 10",
    "DELETE FROM sessions",
    "UPDATE sessions SET rules_toml = '' WHERE id = 1",
    "UPDATE sessions SET ended_at = NULL WHERE id = 1",  # an ended session stays ended
    # REPLACE deletes the old row without firing a delete trigger: refused all the same
    "INSERT OR REPLACE INTO entry_points SELECT entry_id, player_id, 999, taker, made FROM entry_points LIMIT 1",
    "REPLACE INTO entries SELECT id, uid, session_id, no, kind, 'samen 13 jan+piet 13', contract, dealer, multiplier, "
    "offender_id, round, deal_no, reason, next_dealer, next_multiplier, replaces, created_at FROM entries LIMIT 1",
    "INSERT OR REPLACE INTO voids SELECT entry_id, 'undo', NULL, 'x', created_at FROM voids LIMIT 1",
    "INSERT OR REPLACE INTO sessions SELECT id, uid, 'x', date, rules_name, rules_toml, first_dealer, started_at, "
    "ended_at, source_hash, plan, tag, round, table_no FROM sessions LIMIT 1",
    "INSERT OR REPLACE INTO seats SELECT session_id, seat, player_id FROM seats LIMIT 1",
    "INSERT OR REPLACE INTO house_rules SELECT id, name, '', reason, added_at FROM house_rules LIMIT 1",
    "UPDATE players SET name = 'jantje' WHERE name = 'jan'",
    "DELETE FROM players",
]


@pytest.fixture(scope="module")
def ledger_file(tmp_path_factory):
    db = tmp_path_factory.mktemp("schema") / "w.db"
    ok(db, "rules", "add", ROOT / "tests" / "data" / "rules-stack.toml")
    ok(db, "replay", ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt")
    start(db, ["jan", "piet", "mieke", "lotte"], "stapel")
    record(db, "samen 8 jan+piet 9", "pas", "samen 8 mieke+lotte 8", "penalty jan")
    ok(db, "undo")
    ok(db, "amend", "2", "samen", "8", "jan+piet", "9")  # voids 2 and re-scores 3
    conn = sqlite3.connect(db)
    try:
        counts = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                  for t in ("entries", "entry_points", "voids", "house_rules", "seats", "sessions")}
    finally:
        conn.close()
    assert all(counts.values()), counts  # every table has rows the statements could touch
    assert counts["voids"] == 3
    return db


@pytest.mark.parametrize("sql", STATEMENTS)
def test_history_cannot_be_rewritten(ledger_file, sql):
    before = dump(ledger_file)
    conn = sqlite3.connect(ledger_file, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.DatabaseError) as exc:
            conn.execute(sql)
        assert isinstance(exc.value, sqlite3.IntegrityError)  # RAISE(ABORT) from a trigger
        assert not conn.in_transaction
    finally:
        conn.close()
    assert dump(ledger_file) == before


def test_an_open_session_can_be_ended(ledger_file):
    """The one update the schema allows: ending the open session (and only once)."""
    conn = sqlite3.connect(ledger_file, isolation_level=None)
    try:
        sid = conn.execute("SELECT id FROM sessions WHERE ended_at IS NULL").fetchone()[0]
        conn.execute("UPDATE sessions SET ended_at = '2026-12-01T00:00:00+00:00' WHERE id = ?", (sid,))
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("UPDATE sessions SET ended_at = '2026-12-02T00:00:00+00:00' WHERE id = ?", (sid,))
    finally:
        conn.close()
