"""Fast at any length (issue 11): what a line typed into `play` (or one `wiezen deal`) reads from the ledger does
not grow with the session (the SQLite work of each read is counted, in virtual-machine steps, at 10 and at 2,000
entries); a long replay or import, written in batches, leaves the same ledger as one entry at a time."""

from __future__ import annotations

import pytest
from _ledger_helpers import ok

from wiezen_score.ledger import Ledger

HEAD = 'session "Lang" 2026-11-27\nrules whisthub\nplayers jan piet mieke lotte\n'
LINES = ["samen 8 jan+piet 9", "alleen 5 mieke 4", "samen 9 piet+lotte 10", "pas"]
OWED = "penalty lotte round\npenalty jan round\n"  # rounds owed: rare, like in a real evening


def steps(led: Ledger, read) -> int:
    """SQLite virtual-machine steps (in units of 100) that ``read()`` takes."""
    n = [0]

    def tick() -> int:
        n[0] += 1
        return 0

    led.conn.set_progress_handler(tick, 100)
    try:
        read()
    finally:
        led.conn.set_progress_handler(None, 0)
    return n[0]


def ledger_with(tmp_path, n: int) -> str:
    db = tmp_path / f"l{n}.db"
    f = tmp_path / f"l{n}.txt"
    f.write_text(HEAD + OWED + "".join(LINES[i % len(LINES)] + "\n" for i in range(n)))
    ok(db, "replay", "--keep-open", f)
    return str(db)


def test_the_reads_of_one_line_cost_the_same_in_a_long_session(tmp_path):
    costs = {}
    for n in (10, 2000):
        led = Ledger(ledger_with(tmp_path, n))
        try:
            s = led.require_open()
            owed = led.rounds_owed(s)
            assert owed == {"jan": 1, "piet": 0, "mieke": 0, "lotte": 1}
            costs[n] = {
                # (each lambda is called at once, inside this iteration)
                "rounds_owed": steps(led, lambda: led.rounds_owed(s)),  # noqa: B023
                "state": steps(led, lambda: led.state(s)),  # noqa: B023
                "totals": steps(led, lambda: led.totals(s.id)),  # noqa: B023
                "window": steps(led, lambda: led.entries(s, since_no=led.window_start(s, 6))),  # noqa: B023
            }
        finally:
            led.close()
    for read, small in costs[10].items():
        # an index read grows with the logarithm of the session at most: far below 200 times the entries
        assert costs[2000][read] <= 2 * small + 5, (read, costs)


def test_a_long_replay_written_in_batches_keeps_the_caches_and_the_schema(tmp_path):
    """Thousands of points rows written in batches: the caches must hold what the entries add up to, the
    triggers must all be there, and a later deal must still go through them."""
    import sqlite3

    db = tmp_path / "b.db"
    f = tmp_path / "b.txt"
    body = "".join(LINES[i % len(LINES)] + "\n" for i in range(700))
    f.write_text(HEAD + OWED + body + "undo\nundo\n" + body)  # undos between batches, voids in the caches
    ok(db, "replay", "--keep-open", f)
    led = Ledger(str(db))
    try:
        s = led.require_open()
        assert led.row_count(s) == 2 + 700 + 700
        assert led.totals(s.id) == led.summed_totals(s.id)
        before = led.totals(s.id)
    finally:
        led.close()
    out = ok(db, "check").stdout
    assert out.startswith("ok:"), out
    ok(db, "deal", "samen", "8", "jan+piet", "9")  # made with one over, after a rondje pas: x2 (whisthub)
    led = Ledger(str(db))
    try:
        s = led.require_open()
        after = led.totals(s.id)
        assert after == led.summed_totals(s.id)
    finally:
        led.close()
    gain = {p: after[p] - before[p] for p in after}
    assert gain["jan"] == gain["piet"] == -gain["mieke"] == -gain["lotte"] > 0, gain
    conn = sqlite3.connect(db)
    try:
        names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
        assert conn.execute("SELECT count(*) FROM chain").fetchone()[0] > 1400  # (one write of thousands of links)
    finally:
        conn.close()
    assert {"session_totals_add", "player_evenings_add", "entries_no_replace", "entry_points_no_replace",
            "chain_no_replace"} <= names
    assert ok(db, "check").stdout.startswith("ok:")


def test_a_batch_that_meets_an_existing_row_is_refused_and_the_triggers_stay(tmp_path):
    """A bulk write (bulk.py) goes through every trigger: a batch whose entry repeats a stored uid, or whose
    points row repeats a stored key, is refused, nothing of it stays, and the triggers are all as they were."""
    import sqlite3

    from wiezen_score.ledger.bulk import insert_entries
    from wiezen_score.ledger.rows import NewEntry

    db = ledger_with(tmp_path, 1200)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        def triggers() -> dict[str, str]:
            return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())

        before = triggers()
        count = conn.execute("SELECT count(*) FROM entries").fetchone()[0]
        sid, top = conn.execute("SELECT session_id, max(no) FROM entries").fetchone()
        old_uid = conn.execute("SELECT uid FROM entries LIMIT 1").fetchone()[0]
        pids = [r[0] for r in conn.execute("SELECT player_id FROM seats WHERE session_id = ? ORDER BY seat", (sid,))]

        def batch(uid_of) -> list[NewEntry]:
            return [NewEntry(uid=uid_of(k), session_id=sid, no=top + 1 + k, kind="pass", text="pas", contract=None,
                             dealer=0, multiplier=1, offender_id=None, round=False, deal_no=None, reason="",
                             next_dealer=1, next_multiplier=2, replaces=None, created_at="2026-12-02T06:00:00",
                             sixths=[(p, 0, None) for p in pids]) for k in range(600)]

        conn.execute("BEGIN IMMEDIATE")
        assert insert_entries(conn, batch(lambda k: f"fresh-{k}"))
        with pytest.raises(sqlite3.IntegrityError):
            insert_entries(conn, batch(lambda k: old_uid if k == 300 else f"again-{k}"))
        assert conn.in_transaction and triggers() == before
        conn.execute("ROLLBACK")
        assert conn.execute("SELECT count(*) FROM entries").fetchone()[0] == count
        assert triggers() == before
    finally:
        conn.close()
    assert ok(db, "check").stdout.startswith("ok:")
