"""Golden hashes of the chain: ledgers made with a fixed clock and fixed random bytes, their chain hashes and
seals written here as literal values, taken from the code before issue 26 (when an entry's text was written by
hand next to the json module's). Whatever way the chained text is made, these bytes must never change: every
existing ledger's chain and every seal players noted hangs on them.

The paths a link is written by are all here: one deal at a time (a new entry, a pass, a penalty, an undo, an
amendment, a correction after the end and its seal), a replay (thousands of links in one write, in the
ledger at hand), an import (another ledger's entries), the migration of a ledger from before the chain, and
`check`, which computes every link afresh.

Run with WIEZEN_GOLDEN_PRINT=1 (and -s) to print the values of the code at hand."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest
from _ledger_helpers import DATA, ok
from _record_helpers import build_full_ledger

from wiezen_score.core.sealcode import luhn32
from wiezen_score.ledger.seals import seal_code

PRINT = bool(os.environ.get("WIEZEN_GOLDEN_PRINT"))


@pytest.fixture()
def fixed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that ticks 7 seconds a call from 2026-11-20 19:00 UTC, and random bytes from a counter."""
    clock = [1795201200.0]

    def tick() -> float:
        clock[0] += 7
        return clock[0]

    count = [0]

    def urandom(n: int) -> bytes:
        count[0] += 1
        return hashlib.sha256(b"golden %d" % count[0]).digest()[:n]

    monkeypatch.setattr(time, "time", tick)
    monkeypatch.setattr(os, "urandom", urandom)


def _chain(db: Path) -> tuple[int, str, str, list[str]]:
    """(links, the last link's hash, a hash over all the session hashes, every seal in order)."""
    conn = sqlite3.connect(db)
    try:
        links = conn.execute("SELECT hash, shash FROM chain ORDER BY seq").fetchall()
        shashes = hashlib.sha256("".join(s or "-" for _h, s in links).encode()).hexdigest()
        codes = [seal_code(s)[:14] for (s,) in conn.execute(  # (the 12 characters: the check character is added below
            "SELECT c.shash FROM seals s JOIN chain c ON c.kind = 'seal' AND c.rid = s.id ORDER BY c.seq")]
        return len(links), links[-1][0], shashes, codes
    finally:
        conn.close()


def _same(db: Path, want: tuple[int, str, str, list[str]]) -> None:
    got = _chain(db)
    if PRINT:
        print(f"\n{db.name}: {got!r}")
        return
    assert got == want
    assert "ok:" in ok(db, "check").stdout  # every link computed afresh (check's bulk reading) fits
    for code in want[3]:  # a seal as printed before the check character, and as printed now
        assert "vouches" in ok(db, "check", "--seal", code).stdout
        assert "vouches" in ok(db, "check", "--seal", code + "-" + luhn32(code.replace("-", ""))).stdout


# (links, last hash, the hash over the session hashes, the seals), as the code before issue 26 made them
FULL = (49, "de2dab7c713bd6754ea28128dcda7c75df35fa00a9012c11e6436054b4d527ae",
        "0b3520335f35c0b87e381acd2ccce833f26c4b630a5a3e1202c95162a60dd175",
        ["GYPB-252P-X9QY", "WKCT-6YC0-26A6", "3MJK-SRZY-K19M"])
IMPORTED = (48, "874d60b6a27667b2acad5a8b805fdf68bc03e7843ca194a57c8690781c072119",
            "761a3caa61e3a5a522f9e690cbd0391e14961060bd4c4428f69146b9685c7d9c",
            ["WKCT-6YC0-26A6", "3MJK-SRZY-K19M", "GYPB-252P-X9QY"])
MIGRATED = (56, "a9d2fd729cf856667075305c2aed67208d6b937fbcb8ca222f4543e01c5633c7",
            "bac563da2ad356b518ec19775f74d0eee359ae24b4acf4d3471418a2d3f09c2e",
            ["WPM1-BWWG-HJTD", "YK55-M0QF-3WMY"])
BIG = (306, "277f6bfbc09c60761272ea51eb05b4ab0e7f90ec2ce5af986cb883e8abf346c0",
       "6ee86a34a1338672da99c4c3fb0a1480e598209f49d7bb84d488a371717f4901",
       ["9NN8-A1B1-HDEK"])


def test_a_ledger_written_deal_by_deal_and_by_a_replay(fixed: None, tmp_path: Path) -> None:
    db = tmp_path / "full.db"
    build_full_ledger(db)
    _same(db, FULL)


def test_a_ledger_imported(fixed: None, tmp_path: Path) -> None:
    db = tmp_path / "full.db"
    build_full_ledger(db)
    club = tmp_path / "imported.db"
    ok(club, "import", db)
    _same(club, IMPORTED)


def test_a_ledger_from_before_the_chain(fixed: None, tmp_path: Path) -> None:
    db = tmp_path / "migrated.db"
    shutil.copy(DATA / "ledger-schema1.db", db)
    ok(db, "sessions")  # opened: migrated, every fact linked at once
    _same(db, MIGRATED)


def _big_file(path: Path) -> None:
    """An evening of 300 entries in one file (its points rows in their thousands: the bulk write), with texts
    of every sort the JSON text escapes or keeps: accents, quotes, a backslash, a tab, signs beyond ASCII."""
    example = (Path(__file__).resolve().parents[2] / "examples" / "cafe-de-kroon-rupelstreek.txt").read_text("utf-8")
    lines = [ln for ln in example.splitlines()[5:] if ln.strip() and not ln.startswith("#")]
    lines = [ln for ln in lines if ln.split()[0] not in ("undo", "amend", "end", "ended")]
    body = [lines[i % len(lines)] for i in range(290)]
    body += ['penalty jan "renonce" in \u2660 \\ caf\u00e9\ttafel \U0001f0a1'] * 10
    head = 'session "Zo\u00eb\'s avond" 2026-11-27\nrules rupelstreek\nplayers jan piet mieke lotte\n\n'
    path.write_text(head + "\n".join(body) + "\n", encoding="utf-8")


def test_a_big_replay(fixed: None, tmp_path: Path) -> None:
    f = tmp_path / "big.txt"
    _big_file(f)
    db = tmp_path / "big.db"
    ok(db, "replay", f)
    _same(db, BIG)
