#!/usr/bin/env python3
"""Benchmark of `wiezen standings --competition` (issue 18). Run: python benchmarks/competition.py [--quick]

Builds ledgers of 1,000,000 entries with run.py's generator (every session tagged), then times, as a user runs
it (a new process, bytecode cached, median of 3 after a warm-up run):

  - points, best 8 evenings, at least 8 evenings, tie-break on the last 4 evenings
  - placement (1000/600/300/0 with shared places), the same best, minimum and tie-break
  - the same placement competition with --honours (not part of the goal: it reads every deal)

once with sessions of 200 deals (5,000 sessions) and once with sessions of 20 deals (50,000 sessions, ten times
the per-seat rows). Goal: the ranking in under a second at 1,000,000 entries.

--quick: 100,000 entries.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from run import ENV, WZ, generate_entries, median_time  # noqa: E402

POINTS = 'name = "bench points"\ntag = "bench"\nbest = 8\nmin_evenings = 8\ntiebreak = ["last:4"]\n'
PLACEMENT = (
    'name = "bench placement"\ntag = "bench"\nbest = 8\nmin_evenings = 8\nscore = "placement"\n'
    'placement = [1000, 600, 300, 0]\ntiebreak = ["last:4", "points"]\n'
)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 100_000 if args.quick else 1_000_000
    tmp = tempfile.mkdtemp(prefix="wiezen-bench-comp-")
    missed = 0
    try:
        files = {}
        for name, text in (("points", POINTS), ("placement", PLACEMENT)):
            files[name] = os.path.join(tmp, f"{name}.toml")
            with open(files[name], "w") as f:
                f.write(text)
        for per_session in (200, 20):
            db = os.path.join(tmp, f"gen{per_session}.db")
            generate_entries(db, n, per_session=per_session, tag="bench")
            for name, path in files.items():
                for extra in ([], ["--honours"]):
                    cmd = WZ + ["--db", db, "standings", "--competition", path, "--format", "json", *extra]
                    r = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
                    if r.returncode != 0:
                        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr}")
                    t = median_time(cmd, 3)
                    goal = not extra
                    ok = t < 1.0
                    missed += goal and not ok
                    label = f"{name}{' --honours' if extra else ''}"
                    print(f"{'ok  ' if ok or not goal else 'MISS'} {n:,} entries in sessions of {per_session} deals "
                          f"({n // per_session:,} sessions), {label}: {t * 1000:.0f} ms"
                          + ("  (goal < 1 s)" if goal else "  (no goal)"), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"\n{'all goals met' if not missed else f'{missed} goal(s) missed'}")


if __name__ == "__main__":
    main()
