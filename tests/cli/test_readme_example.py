"""README's first command: `wiezen replay examples/cafe-de-kroon-rupelstreek.txt` (a real process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from _ledger_helpers import ROOT

# the hand-computed totals of the evening (tests/data/expected_evenings.json, checked against its entries there)
TOTALS_LINE = "totals: jan -33, piet -35, mieke +45, lotte +23"


def wiezen(db, *args):
    exe = Path(sys.executable).parent / "wiezen"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "wiezen_score"]
    env = {**os.environ, "WIEZEN_DB": str(db)}
    env.pop("WIEZEN_DEBUG", None)
    return subprocess.run(cmd + list(args), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_readme_first_command_and_replaying_twice(tmp_path):
    db = tmp_path / "fresh" / "wiezen.db"  # its folder does not exist yet either
    r = wiezen(db, "replay", "examples/cafe-de-kroon-rupelstreek.txt")
    assert r.returncode == 0, r.stderr
    assert r.stderr == f"new ledger: {db}\n"  # a new ledger, in a new folder: it says so, and nothing else
    lines = r.stdout.splitlines()
    assert lines[0].startswith("session 1: Café De Kroon, 2026-11-27 (rupelstreek")
    assert TOTALS_LINE in lines
    assert "rounds owed: piet 1" in lines
    assert sum(1 for ln in lines if ln.lstrip().split(" ", 1)[0].isdigit()) == 20  # one row per entry

    again = wiezen(db, "replay", "examples/cafe-de-kroon-rupelstreek.txt")
    assert again.returncode == 0, again.stderr
    assert "already recorded as session 1" in again.stderr
    assert TOTALS_LINE in again.stdout.splitlines()

    s = wiezen(db, "sessions", "--json")
    assert s.returncode == 0, s.stderr
    sessions = json.loads(s.stdout)
    assert len(sessions) == 1
    assert sessions[0]["totals"] == {"jan": -33, "piet": -35, "mieke": 45, "lotte": 23}


def test_same_file_with_other_whitespace_is_recognised(tmp_path):
    """Trailing spaces and a final newline do not make it another evening."""
    db = tmp_path / "w.db"
    text = (ROOT / "examples" / "cafe-de-kroon-rupelstreek.txt").read_text(encoding="utf-8")
    copy = tmp_path / "kopie.txt"
    copy.write_text("\n".join(line + "  " for line in text.splitlines()) + "\n\n", encoding="utf-8")
    assert wiezen(db, "replay", "examples/cafe-de-kroon-rupelstreek.txt").returncode == 0
    r = wiezen(db, "replay", str(copy))
    assert r.returncode == 0 and "already recorded as session 1" in r.stderr
    assert len(json.loads(wiezen(db, "sessions", "--json").stdout)) == 1
