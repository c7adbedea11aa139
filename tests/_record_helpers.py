"""Helpers for the tests of the provable record (tests/test_record_*.py): a ledger with a row in every table."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from _ledger_helpers import DATA, ROOT, ok, wz

EVENING = ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt"


def build_full_ledger(db: Path) -> None:
    """Every table gets rows: added house rules, two ended sessions (one corrected after it ended, with an
    undo, an amendment, a penalty and a rondje pas), an open session, and a precedent with two versions."""
    ok(db, "rules", "add", DATA / "rules-stack.toml")
    ok(db, "replay", EVENING)  # session 1, ended
    ok(db, "session", "start", "--players", "an,bert,carla,dirk", "--rules", "stapel", "--date", "2026-11-20")
    ok(db, "deal", "samen", "8", "an+bert", "9")
    ok(db, "pass")
    ok(db, "deal", "troel", "carla+dirk", "8")
    ok(db, "penalty", "an", "--reason", "renonce")
    ok(db, "deal", "alleen", "5", "bert", "5")
    ok(db, "undo", "--reason", "misdealt")
    ok(db, "amend", "1", "samen", "8", "an+bert", "8", "--reason", "recounted")
    ok(db, "session", "end")
    ok(db, "amend", "--session", "2", "3", "troel", "carla+dirk", "9", "--reason", "the next morning")  # seal 2
    ok(db, "precedent", "add", "Renonce in troef", "--ruling", "the offender pays each player", "--session", "2",
       "--deal", "4", "--tag", "renonce")
    ok(db, "precedent", "edit", "1", "--ruling", "the offender pays each player double", "--reason", "club meeting")
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")  # session 3, open
    ok(db, "deal", "samen", "8", "jan+piet", "9")


def check_lines(db: Path) -> tuple[int, list[str]]:
    r = wz(db, "check")
    return r.exit_code, r.stdout.strip().splitlines()


def seal_of(db: Path, session: int, n: int | None = None) -> str:
    doc = json.loads(ok(db, "sheet", "--session", session, "--json").stdout)
    if n is None:
        return str(doc["session"]["seal"])
    return str(doc["session"]["seals"][n - 1]["seal"])


def schema_objects(db: Path) -> list[tuple[str, str, str, str]]:
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name"
        ).fetchall()
    finally:
        conn.close()
