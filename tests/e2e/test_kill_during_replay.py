"""kill -9 in the middle of a long replay: the ledger stays whole, and the evening is either wholly
recorded or not at all, so it can simply be replayed."""

from __future__ import annotations

import random
import signal
import time

import pytest
from _reliability_helpers import check_ok, integrity, make_evening, popen, query, run

from wiezen_score.ledger import Ledger
from wiezen_score.ledger.store import content_hash

pytestmark = pytest.mark.slow

KILLS = 24
BUDGET_S = 25.0  # the loop stops early (after at least 20 kills) rather than run long


def _state(db, text: str) -> tuple[int, int] | None:
    """(entries, voids) of the session replayed from ``text``, None when it is absent."""
    rows = query(db, "SELECT id FROM sessions WHERE source_hash = ?", (content_hash(text),))  # replay keys an evening by its content
    if not rows:
        return None
    sid = rows[0][0]
    n = query(db, "SELECT count(*) FROM entries WHERE session_id = ?", (sid,))[0][0]
    v = query(db, "SELECT count(*) FROM voids v JOIN entries e ON e.id = v.entry_id WHERE e.session_id = ?", (sid,))[0][0]
    return n, v


def test_sigkill_during_replay_leaves_all_or_nothing(tmp_path):
    db = tmp_path / "wiezen.db"
    rng = random.Random(20261127)
    base = make_evening(7, 2000, name="lange avond")
    # a first, complete run: the ledger exists and we learn how long a replay takes on this machine
    first = tmp_path / "avond-0.txt"
    first.write_text(base.text, encoding="utf-8")
    t0 = time.monotonic()
    r = run(db, "replay", str(first), timeout=60)
    full = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    assert _state(db, base.text) == (base.entries, base.undos)

    start = time.monotonic()
    outcomes = {"absent": 0, "present": 0}
    killed_files = []
    for i in range(1, KILLS + 1):
        # the same evening under another name: another session (another file hash) each time
        text = base.text.replace('"lange avond"', f'"lange avond {i}"', 1)
        f = tmp_path / f"avond-{i}.txt"
        f.write_text(text, encoding="utf-8")
        p = popen(db, "replay", str(f))
        # anywhere from start-up, through the open transaction, to the commit and the printing of the sheet
        time.sleep(rng.uniform(0.02, full * 1.05))
        p.send_signal(signal.SIGKILL)
        p.communicate(timeout=30)
        assert integrity(db) == ["ok"], f"kill {i}"
        st = _state(db, text)
        assert st in (None, (base.entries, base.undos)), f"kill {i}: a half-recorded evening: {st}"
        outcomes["absent" if st is None else "present"] += 1
        killed_files.append((f, text, st))
        if i >= 20 and time.monotonic() - start > BUDGET_S:
            break
    print("\nkill outcomes", outcomes, "full run", round(full, 2))
    assert len(killed_files) >= 20
    # the killed runs really were cut off at different moments (not all before or all after the commit)
    assert outcomes["absent"] >= 3, outcomes

    check_ok(db)
    # an evening whose replay was killed can be replayed again: in-process here, a child for the last one
    led = Ledger(str(db))
    try:
        from wiezen_score.cli.common import rules_from_spec

        for _f, text, st in killed_files[:-1]:
            sid, recorded = led.replay(text, lambda spec: rules_from_spec(spec), "2026-11-30", keep_open=False)
            assert recorded == (st is None)
    finally:
        led.close()
    f, text, st = killed_files[-1]
    r = run(db, "replay", str(f), timeout=60)
    assert r.returncode == 0, r.stderr
    assert ("already recorded" in r.stderr) == (st is not None)
    for _f, text, _ in killed_files:
        assert _state(db, text) == (base.entries, base.undos)
    assert query(db, "SELECT count(*) FROM sessions") == [(len(killed_files) + 1,)]
    assert integrity(db) == ["ok"]
    check_ok(db)
