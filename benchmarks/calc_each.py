"""Benchmarks of the scoring path and of start-up.

    .venv/bin/python benchmarks/calc_each.py

1. 10,000 deal lines (a mix of every whisthub contract) piped to `wiezen calc --json --each -` in one
   process: wall time, median of 3. Goal: < 1 s.
2. `wiezen --version` against `python -c "import click"` (median of 10 each) and their ratio.
3. `python -X importtime -m wiezen_score --version`: which of our modules load, and that none of the heavy
   ones (tabulate, sqlite_utils, sqlite3, platformdirs, fractions, tomllib) do.

Exit status 1 when --version imports a heavy module or a calc run fails.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SCRIPT = Path(PY).with_name("wiezen")
WIEZEN = [str(SCRIPT)] if SCRIPT.exists() else [PY, "-m", "wiezen_score"]
HEAVY = ("tabulate", "sqlite_utils", "sqlite3", "platformdirs", "fractions", "tomllib", "tomli")
N_DEALS = 10_000
PLAYERS = "ABCD"


def deal_lines(n: int, seed: int = 2026) -> list[str]:
    """Valid whisthub deal lines, every contract, levels and tricks spread out."""
    rnd = random.Random(seed)
    trick = {"samen": (True, range(8, 14)), "alleen": (False, range(5, 9)), "abondance": (False, range(9, 13)),
             "troel": (True, (8, 9)), "solo-slim": (False, (13,))}
    miserie = ("kleine-miserie", "grote-miserie", "open-miserie", "piccolo")
    out = []
    for _ in range(n):
        if rnd.random() < 0.75:
            name = rnd.choice(list(trick))
            team, levels = trick[name]
            takers = rnd.sample(PLAYERS, 2 if team else 1)
            out.append(f"{name} {rnd.choice(levels)} {'+'.join(takers)} {rnd.randint(0, 13)}")
        else:
            name = rnd.choice(miserie)
            who = rnd.sample(PLAYERS, rnd.choice((1, 1, 1, 2, 3, 4)))
            out.append(f"{name} " + " ".join(f"{p} {rnd.randint(0, 3)}" for p in who))
    return out


def bench_each(env: dict[str, str]) -> float:
    lines = deal_lines(N_DEALS)
    stdin = "# benchmark\n" + "\n".join(lines) + "\n"
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        p = subprocess.run(WIEZEN + ["calc", "--json", "--rules", "whisthub", "--players", "A,B,C,D", "--each", "-"],
                           input=stdin, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - t0)
        if p.returncode != 0:
            sys.exit(f"calc --each failed (exit {p.returncode}): {p.stderr.strip()[-300:]}")
        docs = [json.loads(x) for x in p.stdout.splitlines()]
        if len(docs) != N_DEALS or any("error" in d for d in docs):
            sys.exit(f"calc --each: expected {N_DEALS} scored lines, got {len(docs)}")
        if any(sum(d["points"].values()) != 0 for d in docs):
            sys.exit("calc --each: a deal does not sum to 0")
    return statistics.median(times)


def median_run(cmd: list[str], env: dict[str, str], n: int = 10) -> float:
    subprocess.run(cmd, capture_output=True, env=env)  # warm the file cache
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, env=env)
        times.append(time.perf_counter() - t0)
        if p.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {p.stderr.decode()[-300:]}")
    return statistics.median(times)


def imported_modules(args: list[str], env: dict[str, str]) -> dict[str, int]:
    """Module -> cumulative import time (µs) of `python -X importtime -m wiezen_score ARGS`."""
    p = subprocess.run([PY, "-X", "importtime", "-m", "wiezen_score", *args], capture_output=True, text=True,
                       env=env)
    mods: dict[str, int] = {}
    for line in p.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|", 2)
        mods[name.strip()] = int(cumulative)
    return mods


def main() -> int:
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "WIEZEN_DB": os.path.join(tmp, "bench.db")}  # never created
        wall = bench_each(env)
        print(f"calc --json --each -: {N_DEALS} deals in {wall:.3f} s (median of 3); goal < 1 s: "
              f"{'met' if wall < 1 else 'MISSED'}  ({wall / N_DEALS * 1e6:.0f} µs a deal, start-up included)")

        version = median_run(WIEZEN + ["--version"], env)
        click_only = median_run([PY, "-c", "import click"], env)
        bare = median_run([PY, "-c", "pass"], env)
        print(f"wiezen --version: {version * 1000:.1f} ms; python -c 'import click': {click_only * 1000:.1f} ms; "
              f"ratio {version / click_only:.2f}  (bare python: {bare * 1000:.1f} ms; median of 10 each)")
        calc_one = median_run(WIEZEN + ["calc", "samen", "9", "A+B", "11"], env)
        print(f"wiezen calc samen 9 A+B 11 (one deal, table output): {calc_one * 1000:.1f} ms")

        mods = imported_modules(["--version"], env)
        ours = sorted(m for m in mods if m == "wiezen_score" or m.startswith("wiezen_score."))
        print(f"--version imports of ours: {', '.join(ours)}")
        click_us = mods.get("click", 0)
        heavy = [m for m in mods if m.split(".")[0] in HEAVY]
        heavier = [f"{m} ({us / 1000:.1f} ms)" for m, us in mods.items()
                   if us > click_us and m not in ("wiezen_score.cli",) and not m.startswith("__editable__")
                   and m.split(".")[0] not in ("encodings", "site")]
        print(f"click import: {click_us / 1000:.1f} ms; modules heavier than click: {', '.join(heavier) or 'none'}")
        if heavy:
            print(f"PROBLEM: --version imports {', '.join(sorted(heavy))}")
            status = 1
        else:
            print(f"none of {', '.join(HEAVY)} is imported by --version: ok")
    return status


if __name__ == "__main__":
    sys.exit(main())
