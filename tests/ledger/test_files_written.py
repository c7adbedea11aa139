"""Files the tool writes: never over the ledger in use, never over another SQLite file without --force, and
written to a temporary name and renamed when whole (a killed backup leaves nothing or a whole ledger)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import time

import pytest
from _ledger_helpers import ok, refused, wz
from _record_helpers import EVENING
from _reliability_helpers import check_ok, integrity, popen


@pytest.fixture
def ledger(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "replay", EVENING)
    return db


def test_export_onto_the_ledger_itself_is_refused(ledger, tmp_path):
    before = ledger.read_bytes()
    msg = refused(ledger, "export", "-o", ledger)
    assert "is the ledger in use" in msg
    msg = refused(ledger, "export", "-o", ledger, "--force")  # --force never overwrites the open ledger
    assert "is the ledger in use" in msg
    assert ledger.read_bytes() == before
    assert wz(ledger, "check").exit_code == 0
    # through another name for the same file: a symbolic link, a path with '..'
    link = tmp_path / "link.db"
    link.symlink_to(ledger)
    assert "ledger in use" in refused(ledger, "export", "-o", link)
    sub = tmp_path / "sub"
    sub.mkdir()
    assert "ledger in use" in refused(ledger, "export", "-o", sub / ".." / "club.db")
    assert "ledger in use" in refused(ledger, "export", "-o", str(ledger) + "-wal")
    assert ledger.read_bytes() == before


def test_export_will_not_write_over_another_ledger_without_force(ledger, tmp_path):
    other = tmp_path / "other.db"
    ok(other, "session", "start", "--players", "an,bert,carla,dirk")
    raw = other.read_bytes()
    assert "SQLite database" in refused(ledger, "export", "-o", other)
    assert other.read_bytes() == raw
    ok(ledger, "export", "-o", other, "--force")
    assert other.read_bytes().startswith(b"{")
    # a plain file is replaced, as a shell's > would
    plain = tmp_path / "out.json"
    plain.write_text("old", encoding="utf-8")
    ok(ledger, "export", "-o", plain)
    assert plain.read_text(encoding="utf-8").startswith("{")
    assert not [f for f in os.listdir(tmp_path) if ".wiezen-part-" in f]


def test_backup_guards(ledger, tmp_path):
    before = ledger.read_bytes()
    assert "ledger in use" in refused(ledger, "db", "backup", ledger, "--force")
    assert ledger.read_bytes() == before
    copy = tmp_path / "copy.db"
    ok(ledger, "db", "backup", copy)
    assert "exists already" in refused(ledger, "db", "backup", copy)
    ok(ledger, "db", "backup", copy, "--force")
    check_ok(copy)


def _big_ledger(path) -> None:
    lines = ["players jan piet mieke lotte"]
    deals = ["samen 8 jan+piet 9", "alleen 5 mieke 6", "pas", "troel piet+lotte 8", "samen 8 mieke+lotte 7"]
    lines += [deals[i % len(deals)] for i in range(1500)]
    f = path.parent / "long.txt"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ok(path, "replay", f)


@pytest.mark.slow
def test_kill_9_during_backup_leaves_nothing_or_a_whole_ledger(tmp_path):
    db = tmp_path / "big.db"
    _big_ledger(db)
    rng = random.Random(12)
    outcomes = {"nothing": 0, "whole": 0}
    for i in range(30):
        target = tmp_path / f"backup-{i}.db"
        p = popen(db, "db", "backup", str(target))
        time.sleep(rng.uniform(0.05, 0.6))
        with contextlib.suppress(ProcessLookupError):
            os.kill(p.pid, signal.SIGKILL)
        p.communicate()
        if target.exists():
            assert integrity(target) == ["ok"]
            check_ok(target)
            outcomes["whole"] += 1
        else:
            outcomes["nothing"] += 1
        # whatever was left behind is a hidden temporary file, never at the target's name
        # (the -wal and -shm files of a whole copy are SQLite's own, made when check opened it)
        left = [f for f in os.listdir(tmp_path) if f.startswith(f"backup-{i}.db")
                and f not in (f"backup-{i}.db", f"backup-{i}.db-wal", f"backup-{i}.db-shm")]
        assert left == [], left
    assert sum(outcomes.values()) == 30
    print(outcomes)
    # a later backup to the same name cleans what killed ones left behind
    target = tmp_path / "backup-final.db"
    ok(db, "db", "backup", target)
    check_ok(target)
