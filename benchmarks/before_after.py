#!/usr/bin/env python3
"""replay, import and check of 20,000 entries with two versions of wiezen, alternately, on the same machine at
the same time: a fair comparison on a busy machine. Run: python benchmarks/before_after.py OLD_TREE NEW_TREE [N]

OLD_TREE and NEW_TREE are source trees (e.g. made with `git archive COMMIT | tar -x -C DIR`); each command runs
with PYTHONPATH set to one of them. Prints the best CPU and wall time of N runs (default 3) of each.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from run import ENV, session_file

PY = sys.executable


def run(tree: str, args: list[str]) -> tuple[float, float]:
    env = dict(ENV, PYTHONPATH=tree)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run([PY, "-m", "wiezen_score", *args], capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"failed ({tree}): wiezen {' '.join(args)}\n{r.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fresh(path: str) -> str:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    return path


def main() -> None:
    old, new = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    tmp = tempfile.mkdtemp(prefix="wiezen-ab-")
    try:
        text = os.path.join(tmp, "long.txt")
        with open(text, "w") as f:
            f.write(session_file(999, 20000, random.Random(1), "2026-06-01"))
        export = os.path.join(tmp, "long.json")
        run(old, ["--db", fresh(os.path.join(tmp, "src.db")), "replay", "--keep-open", text])
        with open(export, "w") as f:
            subprocess.run([PY, "-m", "wiezen_score", "--db", os.path.join(tmp, "src.db"), "export"], stdout=f,
                           check=True, env=dict(ENV, PYTHONPATH=old))
        got: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(n):
            for label, tree in (("before", old), ("after", new)):
                db = fresh(os.path.join(tmp, f"{label}.db"))
                got.setdefault((label, "replay"), []).append(run(tree, ["--db", db, "replay", "--keep-open", text]))
                imp = fresh(os.path.join(tmp, f"{label}-imp.db"))
                got.setdefault((label, "import"), []).append(run(tree, ["--db", imp, "import", export]))
                got.setdefault((label, "check"), []).append(run(tree, ["--db", imp, "check"]))
        for what in ("replay", "import", "check"):
            b = min(c for _, c in got[("before", what)])
            a = min(c for _, c in got[("after", what)])
            bw = min(w for w, _ in got[("before", what)])
            aw = min(w for w, _ in got[("after", what)])
            print(f"{what:7s} CPU {b:.2f} s -> {a:.2f} s ({b / a:.2f}x; {20000 / a:,.0f} per s of CPU), "
                  f"wall {bw:.2f} s -> {aw:.2f} s ({20000 / aw:,.0f} per s)")
        load = os.getloadavg()
        print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
