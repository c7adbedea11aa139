"""Under house rules with ``[all_pass] double = "queue"`` the doubled deals still owed follow from the whole
session: a ledger counts them once per process and carries the count on while it records (issue 11: `play`
costs the same per line at any length). The count kept must always be the one read afresh."""

from __future__ import annotations

import random

import pytest
from _ledger_helpers import ok

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import preset_text
from wiezen_score.core.session import EntryInput
from wiezen_score.ledger import Ledger

PLAYERS = "jan,piet,mieke,lotte"
DEALS = ["samen 8 jan+piet 9", "alleen 5 mieke 4", "samen 9 piet+lotte 10", "troel jan+mieke 9", "grote-miserie lotte 0"]


def queue_ledger(tmp_path, name: str = "q") -> str:
    rules = tmp_path / "wachtrij.toml"
    rules.write_text(preset_text("whisthub").replace('double = "once"', 'double = "queue"')
                     .replace('name = "whisthub"', 'name = "wachtrij"'), encoding="utf-8")
    db = tmp_path / f"{name}.db"
    ok(db, "session", "start", "--players", PLAYERS, "--rules", str(rules))
    return str(db)


def afresh(path: str):
    led = Ledger(path, readonly=True)
    try:
        return led.state(led.require_open())
    finally:
        led.close()


def test_the_count_kept_is_the_count_read_afresh(tmp_path):
    path = queue_ledger(tmp_path)
    rng = random.Random(4)
    led = Ledger(path)
    other = Ledger(path)  # a second scorer on the same ledger
    try:
        queued_seen = set()
        for step in range(260):
            s = led.require_open()
            r = rng.random()
            try:
                if r < 0.40:
                    led.record(EntryInput("pass"))
                elif r < 0.75:
                    led.record(EntryInput("deal", text=rng.choice(DEALS)))
                elif r < 0.80:
                    led.record(EntryInput("redeal"))
                elif r < 0.84:
                    led.record(EntryInput("penalty", offender="jan", reason="renonce"))
                elif r < 0.89:
                    led.undo()
                elif r < 0.93:
                    n = led.state(s)[1] - 1
                    if n >= 1:
                        led.amend(rng.randint(1, n), EntryInput(rng.choice(["pass", "deal"]), text=rng.choice(DEALS)
                                                                 if rng.random() < 0.5 else ""), "typo")
                elif r < 0.97:
                    other.record(EntryInput(rng.choice(["pass", "deal"]), text=rng.choice(DEALS)))
                else:
                    with pytest.raises(RuntimeError), led.write():  # a write that fails after recording: all rolled back
                        led.record(EntryInput("pass"))
                        assert led.state(s)[0].owed() >= 1
                        raise RuntimeError("power cut")
            except WiezenError:
                pass  # (an amendment the rules refuse, an undo of nothing: nothing written)
            kept = led.state(s)
            assert kept == afresh(path), step
            assert other.state(s) == kept, step
            queued_seen.add(kept[0].queued)
        assert max(queued_seen) >= 2  # the runs of rondjes pas queued several doubled deals
    finally:
        led.close()
        other.close()


def test_the_session_is_read_once_per_process(tmp_path):
    """After the first read, recording and reading the state read no more of the session (SQLite VM steps)."""
    from test_reads_do_not_grow import steps

    path = queue_ledger(tmp_path)
    writer = Ledger(path)
    try:
        for i in range(600):
            writer.record(EntryInput("pass") if i % 3 == 0 else EntryInput("deal", text=DEALS[i % len(DEALS)]))
    finally:
        writer.close()
    led = Ledger(path)  # a new process, as `play` starts
    try:
        s = led.require_open()
        first = steps(led, lambda: led.state(s))
        again = steps(led, lambda: led.state(s))
        led.record(EntryInput("pass"))
        after_record = steps(led, lambda: led.state(s))
        assert first > 20 * max(again, 1)  # the first read counts the whole session ...
        assert again <= 3 and after_record <= 3  # ... then neither a read nor a recording does
        assert led.state(s) == afresh(path)
    finally:
        led.close()
