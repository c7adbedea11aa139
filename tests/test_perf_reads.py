"""What a line typed into `play` (or one `wiezen deal`) reads from the ledger does not grow with the session:
the SQLite work of each read is counted (in virtual-machine steps) at 10 and at 2,000 entries (issue 11)."""

from __future__ import annotations

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
                "rounds_owed": steps(led, lambda: led.rounds_owed(s)),
                "state": steps(led, lambda: led.state(s)),
                "totals": steps(led, lambda: led.totals(s.id)),
                "window": steps(led, lambda: led.entries(s, since_no=led.window_start(s, 6))),
            }
        finally:
            led.close()
    for read, small in costs[10].items():
        # an index read grows with the logarithm of the session at most: far below 200 times the entries
        assert costs[2000][read] <= 2 * small + 5, (read, costs)
