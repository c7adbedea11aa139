"""Helpers for tests/test_reliability_*.py: generated evenings, the CLI as a child process, DB inspection."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import parse_rules
from wiezen_score.core.session import EntryInput, TableState, apply

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
PLAYERS4 = ("jan", "piet", "mieke", "lotte")


@dataclass(frozen=True)
class Evening:
    text: str
    entries: int  # rows the replay adds to `entries` (every line that is not a header, comment or undo)
    undos: int  # rows it adds to `voids`
    players: tuple[str, ...]


def _candidate(rng: random.Random, players: tuple[str, ...]) -> str:
    a, b = rng.sample(players, 2)
    t = rng.randint(0, 13)
    kind = rng.random()
    if kind < 0.35:
        return f"samen {rng.randint(8, 13)} {a}+{b} {t}"
    if kind < 0.5:
        return f"alleen {rng.randint(5, 8)} {a} {t}"
    if kind < 0.56:
        return f"abondance {rng.randint(9, 12)} {a} {t}"
    if kind < 0.62:
        return f"troel {a}+{b} {rng.randint(0, 13)}"
    if kind < 0.68:
        return f"grote-miserie {a} {rng.randint(0, 2)}" + (f" {b} {rng.randint(0, 2)}" if rng.random() < 0.3 else "")
    if kind < 0.72:
        return f"piccolo {a} {rng.randint(0, 3)}"
    if kind < 0.86:
        return "pas"
    if kind < 0.9:
        return "redeal carte blanche"
    if kind < 0.94:
        return f"penalty {a} renonce" if rng.random() < 0.7 else f"penalty {a} round te laat"
    return "undo"


def _as_input(line: str) -> EntryInput | None:
    from wiezen_score.core.sessionfile import Undo, parse_entry

    e = parse_entry(line.split())
    return None if isinstance(e, Undo) else e


def make_evening(seed: int, n: int, name: str = "", players: tuple[str, ...] = PLAYERS4, rules: str = "whisthub") -> Evening:
    """A deterministic evening of ``n`` body lines that replays cleanly (each line checked with the pure
    scorer before it is kept; what the ledger then stores is not computed here)."""
    rng = random.Random(seed)
    r = parse_rules(preset_text(rules))
    state = TableState(0, 1)
    stack: list[TableState] = []
    lines = [f'session "{name or f"evening {seed}"}" 2026-11-{1 + seed % 28:02d}', f"rules {rules}", "players " + " ".join(players), ""]
    entries = undos = 0
    while entries + undos < n:
        line = _candidate(rng, players)
        if line == "undo":
            if not stack:
                continue
            state = stack.pop()
            undos += 1
            lines.append("undo")
            continue
        e = _as_input(line)
        assert e is not None
        try:
            sc = apply(e, r, players, state)
        except WiezenError:
            continue
        stack.append(state)
        state = sc.after
        entries += 1
        lines.append(line)
    return Evening("\n".join(lines) + "\n", entries, undos, players)


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("WIEZEN_DEBUG", None)  # the user's view: never a traceback
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def wiezen_cmd(db: Path | str, *args: str) -> list[str]:
    # through main(), as the console script does (it turns unexpected errors into one line)
    return [sys.executable, "-c", "from wiezen_score.cli import main; main()", "--db", str(db), *map(str, args)]


def run(db: Path | str, *args: str, timeout: float = 30, **kw) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        wiezen_cmd(db, *args), capture_output=True, text=True, timeout=timeout, env=child_env(), cwd=str(ROOT), **kw
    )


def run_here(db: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    """`wiezen --db DB ARGS` in-process, as run() reports it (exit status, stdout, stderr) without a child's
    start-up. An unexpected exception, which main() would print as one "Error: unexpected ..." line, is raised
    instead, so the test fails on it either way."""
    from click.testing import CliRunner

    from wiezen_score.cli import cli

    argv = ["--db", str(db), *map(str, args)]
    r = CliRunner().invoke(cli, argv, env={"WIEZEN_DEBUG": None}, prog_name="wiezen")
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return subprocess.CompletedProcess(argv, r.exit_code, r.stdout, r.stderr)


def popen(db: Path | str, *args: str, **kw) -> subprocess.Popen[str]:
    return subprocess.Popen(
        wiezen_cmd(db, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env(),
        cwd=str(ROOT), **kw,
    )


def assert_clean_error(proc: subprocess.CompletedProcess[str], *needles: str) -> str:
    """Exit 1, one `Error:` line on stderr, no traceback; returns the line."""
    assert proc.returncode == 1, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), proc.stderr
    assert "unexpected" not in lines[0], lines[0]
    for n in needles:
        assert n.lower() in lines[0].lower(), (n, lines[0])
    return lines[0]


def query(db: Path | str, sql: str, args: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(str(db), timeout=30)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def integrity(db: Path | str) -> list[str]:
    return [r[0] for r in query(db, "PRAGMA integrity_check")]


def dump(db: Path | str) -> list[str]:
    conn = sqlite3.connect(str(db))
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def check_ok(db: Path | str) -> None:
    """`wiezen check` in-process (no child start-up): no problems."""
    from wiezen_score.ledger import Ledger
    from wiezen_score.ledger.check import check_ledger

    led = Ledger(str(db), readonly=True)
    try:
        res = check_ledger(led.conn)
    finally:
        led.close()
    assert res.ok, "\n".join(p.line() for p in res.problems)
