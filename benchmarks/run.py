#!/usr/bin/env python3
"""wiezen's performance benchmark (issue 8). Run: python benchmarks/run.py [--quick]

Builds ledgers in a temporary folder, then prints each figure with PASS or FAIL against its goal, as the best
of several runs (wall time; the CPU time of the command, from getrusage, beside it: less sensitive to other
work on the machine) and as a ratio against a floor measured in the same run:

  - `wiezen --version`                  vs `python -c "import click"`               goal <= 1.5x
  - `wiezen deal` into a 20,000-entry session vs a click+sqlite3 one-insert script   goal <= 1.5x
    ... and vs the same deal into a 10-entry session                                 goal <= 1.25x
  - `wiezen deal`                       vs `sqlite-utils insert` of one row          goal: faster
  - `replay` of 20,000 deals as a whole command                                     goal >= 10,000 deals/s
  - 200 `play` lines into a 20,000-entry session vs into a 10-entry session          goal <= 1.25x
  - `import` of a 20,000-entry export                                                goal >= 10,000 entries/s
  - `check` of that ledger                                                           goal >= 20,000 entries/s
  - `standings --format json` over 10k / 100k / 1M entries (generated into SQLite)   goal < 1 s at 1M, ~linear

--quick uses fewer repetitions and stops at 100k entries for standings.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
WZ = [PY, "-m", "wiezen_score"]
# The commands run as after `pip install`: with their bytecode cached. (A machine that sets
# PYTHONDONTWRITEBYTECODE would otherwise recompile wiezen's modules on every run while click, installed
# with its bytecode, would not.) The first, untimed run of each command writes the cache.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")
PLAYERS = ["jan", "piet", "mieke", "lotte"]


def run(cmd: list[str], stdin: str | None = None, check: bool = True) -> float:
    return run2(cmd, stdin, check)[0]


def run2(cmd: list[str], stdin: str | None = None, check: bool = True) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd``: the CPU time (user + system, from getrusage of the
    children) is less sensitive than the wall time to other work on the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=ENV)
    dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if check and r.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    return dt, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best_time(cmd: list[str], n: int, stdin: str | None = None, prepare: Callable[[], None] | None = None,
              check: bool = True) -> tuple[float, float]:
    """The best (lowest) wall time and the best CPU time of ``n`` runs, after one untimed warm-up run (bytecode
    and file-system caches). ``prepare()`` runs before each run (e.g. to start from a fresh copy of a ledger)."""
    if prepare is not None:
        prepare()
    run2(cmd, stdin, check)
    walls, cpus = [], []
    for _ in range(n):
        if prepare is not None:
            prepare()
        w, c = run2(cmd, stdin, check)
        walls.append(w)
        cpus.append(c)
    return min(walls), min(cpus)


def median_time(cmd: list[str], n: int, stdin: str | None = None) -> float:
    """The median wall time of ``n`` runs after a warm-up run (benchmarks/competition.py)."""
    run(cmd, stdin)
    return statistics.median(run(cmd, stdin) for _ in range(n))


def copy_ledger(src: str, dst: str) -> None:
    """A consistent copy of a ledger (its write-ahead log included), replacing ``dst``."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(dst + suffix):
            os.remove(dst + suffix)
    a, b = sqlite3.connect(src), sqlite3.connect(dst)
    try:
        a.backup(b)
    finally:
        a.close()
        b.close()


def deal_line(rng: random.Random) -> str:
    a, b = rng.sample(PLAYERS, 2)
    kind = rng.random()
    if kind < 0.45:
        return f"samen {rng.choice([8, 9, 10])} {a}+{b} {rng.randint(5, 13)}"
    if kind < 0.65:
        return f"alleen {rng.choice([5, 6])} {a} {rng.randint(3, 10)}"
    if kind < 0.72:
        return f"abondance 9 {a} {rng.randint(7, 13)}"
    if kind < 0.78:
        return f"troel {a}+{b} {rng.randint(6, 13)}"
    if kind < 0.86:
        return f"grote-miserie {a} {rng.choice([0, 0, 1])}"
    if kind < 0.90:
        return f"kleine-miserie {a} 0 {b} {rng.choice([0, 1])}"
    if kind < 0.97:
        return "pas"
    return f"penalty {a} renonce"


def session_file(i: int, n: int, rng: random.Random, date: str) -> str:
    lines = [f'session "bench {i}" {date}', "players " + " ".join(PLAYERS)]
    lines += [deal_line(rng) for _ in range(n)]
    return "\n".join(lines) + "\n"


def generate_entries(path: str, n_entries: int, per_session: int = 200, tag: str | None = None) -> None:
    """Write n_entries deals straight into a wiezen ledger (created by the tool, filled with SQL); with ``tag``,
    every session carries that competition tag."""
    subprocess.run([PY, "-c", "import sys; from wiezen_score.ledger import Ledger; Ledger(sys.argv[1]).close()", path],
                   env=ENV, check=True)
    c = sqlite3.connect(path, isolation_level=None)
    c.execute("PRAGMA foreign_keys = ON")
    rng = random.Random(7)
    names = [f"p{i:02d}" for i in range(24)]
    c.executemany("INSERT OR IGNORE INTO players (name, created_at) VALUES (?, '2026-01-01')", [(n,) for n in names])
    pid = {name: i for i, name in c.execute("SELECT id, name FROM players")}
    n_sessions = max(1, n_entries // per_session)
    c.execute("BEGIN")
    eid = c.execute("SELECT coalesce(max(id), 0) FROM entries").fetchone()[0]
    for s in range(n_sessions):
        table = rng.sample(names, 4)
        date = f"20{20 + s * 6 // max(1, n_sessions)}-{1 + s % 12:02d}-{1 + s % 28:02d}"
        cur = c.execute(
            "INSERT INTO sessions (uid, name, date, rules_name, rules_toml, first_dealer, started_at, ended_at"
            + (", tag) VALUES (?, ?, ?, 'whisthub', '', 0, ?, ?, ?)" if tag else ") VALUES (?, ?, ?, 'whisthub', '', 0, ?, ?)"),
            (uuid.uuid4().hex, f"gen {s}", date, date, date, *((tag,) if tag else ())),
        )
        sid = cur.lastrowid
        c.executemany("INSERT INTO seats VALUES (?, ?, ?)", [(sid, k, pid[p]) for k, p in enumerate(table)])
        entries, points = [], []
        for no in range(1, per_session + 1):
            eid += 1
            x = rng.choice([3, 8, 11, 14, 16])
            a, b = rng.sample(range(4), 2)
            made = rng.random() < 0.6
            sign = 1 if made else -1
            entries.append((eid, uuid.uuid4().hex, sid, no, "deal", "samen 8 x+y 9", "samen", no % 4, 1, 0, "", (no + 1) % 4, 1, date))
            for k in range(4):
                taker = k in (a, b)
                # entry_points stores twice the points, an integer (the column points is derived from it)
                points.append((eid, pid[table[k]], 2 * (sign * x if taker else -sign * x), int(taker), int(made) if taker else None))
        c.executemany(
            "INSERT INTO entries (id, uid, session_id, no, kind, text, contract, dealer, multiplier, round, reason, "
            "next_dealer, next_multiplier, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries
        )
        c.executemany("INSERT INTO entry_points (entry_id, player_id, half, taker, made) VALUES (?, ?, ?, ?, ?)", points)
    c.execute("COMMIT")
    c.execute("ANALYZE")
    c.close()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    reps = 5 if args.quick else 11  # start-up timings (cheap): the best of this many runs
    heavy = 2 if args.quick else 3  # replay, import, check, play (seconds each): the best of this many
    tmp = tempfile.mkdtemp(prefix="wiezen-bench-")
    results: list[tuple[str, str, str, bool]] = []

    def report(name: str, figure: str, goal: str, ok: bool) -> None:
        results.append((name, figure, goal, ok))
        print(f"{'PASS' if ok else 'FAIL'} {name}: {figure}  (goal {goal})", flush=True)

    def cpu(c: float) -> str:
        return f"CPU {c:.2f} s"

    try:
        load = os.getloadavg()
        print(f"load average before the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs",
              flush=True)
        # 1. startup
        floor, floor_c = best_time([PY, "-c", "import click"], reps)
        version, version_c = best_time(WZ + ["--version"], reps)
        report("wiezen --version vs python -c 'import click'",
               f"{version * 1000:.0f} ms vs {floor * 1000:.0f} ms = {version / floor:.2f}x "
               f"(CPU {version_c * 1000:.0f} ms vs {floor_c * 1000:.0f} ms = {version_c / floor_c:.2f}x)",
               "<= 1.5x", version / floor <= 1.5)

        # 2. replay throughput: one 20,000-line file as a whole command (its summary printed), into a new ledger
        rng = random.Random(1)
        p = os.path.join(tmp, "long.txt")
        with open(p, "w") as f:
            f.write(session_file(999, 20000, rng, "2026-06-01"))
        long_db = os.path.join(tmp, "long.db")
        scratch = os.path.join(tmp, "scratch.db")

        def fresh_scratch() -> None:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(scratch + suffix):
                    os.remove(scratch + suffix)

        dt, dc = best_time(WZ + ["--db", scratch, "replay", "--keep-open", p], heavy, prepare=fresh_scratch)
        run(WZ + ["--db", long_db, "replay", "--keep-open", p])
        report("replay of 20,000 deals (whole command)",
               f"{20000 / dt:,.0f} deals/s ({dt:.2f} s; {cpu(dc)}: {20000 / dc:,.0f} deals/s)", ">= 10,000 deals/s",
               20000 / dt >= 10000)

        # import of a 20,000-entry export into a new ledger, and check of the result
        export = os.path.join(tmp, "long.json")
        with open(export, "w") as f:
            subprocess.run(WZ + ["--db", long_db, "export"], stdout=f, check=True, env=ENV)
        dt, dc = best_time(WZ + ["--db", scratch, "import", export], heavy, prepare=fresh_scratch)
        report("import of a 20,000-entry export",
               f"{20000 / dt:,.0f} entries/s ({dt:.2f} s; {cpu(dc)}: {20000 / dc:,.0f} entries/s)",
               ">= 10,000 entries/s", 20000 / dt >= 10000)
        imp_db = os.path.join(tmp, "imported.db")
        run(WZ + ["--db", imp_db, "import", export])
        dt, dc = best_time(WZ + ["--db", imp_db, "check"], heavy)
        report("check of 20,000 entries (hash chain included)",
               f"{20000 / dt:,.0f} entries/s ({dt:.2f} s; {cpu(dc)}: {20000 / dc:,.0f} entries/s)",
               ">= 20,000 entries/s", 20000 / dt >= 20000)

        # 3. one deal into a 20,000-entry session vs a 10-entry session vs floors
        small_db = os.path.join(tmp, "small.db")
        with open(os.path.join(tmp, "short.txt"), "w") as f:
            f.write(session_file(1000, 10, rng, "2026-06-02"))
        run(WZ + ["--db", small_db, "replay", "--keep-open", os.path.join(tmp, "short.txt")])
        deal = ["deal", "samen", "8", "jan+piet", "9"]
        big, big_c = best_time(WZ + ["--db", long_db] + deal, reps)
        small, small_c = best_time(WZ + ["--db", small_db] + deal, reps)
        floor_script = os.path.join(tmp, "floor.py")
        floor_db = os.path.join(tmp, "floor.db")
        sqlite3.connect(floor_db).execute("CREATE TABLE t (a TEXT, b INTEGER)").connection.commit()
        with open(floor_script, "w") as f:
            f.write("import click, sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                    "c.execute('INSERT INTO t VALUES (?, ?)', ('samen 8 jan+piet 9', 3))\nc.commit()\n")
        fl, fl_c = best_time([PY, floor_script, floor_db], reps)
        report("wiezen deal (20,000-entry session) vs a click+sqlite3 one-row commit",
               f"{big * 1000:.0f} ms vs {fl * 1000:.0f} ms = {big / fl:.2f}x "
               f"(CPU {big_c * 1000:.0f} ms vs {fl_c * 1000:.0f} ms = {big_c / fl_c:.2f}x)", "<= 1.5x", big / fl <= 1.5)
        report("wiezen deal: 20,000-entry vs 10-entry session",
               f"{big * 1000:.0f} ms vs {small * 1000:.0f} ms = {big / small:.2f}x "
               f"(CPU {big_c / small_c:.2f}x)", "<= 1.25x", big / small <= 1.25)
        # 200 lines typed into `play` (piped), each run on a fresh copy: the cost per line must not grow
        lines = "".join(deal_line(rng) + "\n" for _ in range(200))
        play_db = os.path.join(tmp, "play.db")
        play_big, play_big_c = best_time(WZ + ["--db", play_db, "play"], heavy, stdin=lines, check=False,
                                         prepare=lambda: copy_ledger(long_db, play_db))
        play_small, play_small_c = best_time(WZ + ["--db", play_db, "play"], heavy, stdin=lines, check=False,
                                             prepare=lambda: copy_ledger(small_db, play_db))
        report("200 play lines: 20,000-entry vs 10-entry session",
               f"{play_big:.2f} s vs {play_small:.2f} s = {play_big / play_small:.2f}x "
               f"(CPU {play_big_c:.2f} s vs {play_small_c:.2f} s = {play_big_c / play_small_c:.2f}x)", "<= 1.25x",
               play_big / play_small <= 1.25)
        su = shutil.which("sqlite-utils") or os.path.join(os.path.dirname(PY), "sqlite-utils")
        if os.path.exists(su):
            su_db = os.path.join(tmp, "su.db")
            row = json.dumps({"text": "samen 8 jan+piet 9", "points": 3})
            sut = best_time([su, "insert", su_db, "entries", "-"], reps, stdin=row)[0]
            report("wiezen deal vs sqlite-utils insert of one row",
                   f"{big * 1000:.0f} ms vs {sut * 1000:.0f} ms = {big / sut:.2f}x", "faster (< 1x)", big < sut)

        # 4. standings over generated ledgers
        sizes = [10_000, 100_000] + ([] if args.quick else [1_000_000])
        times = {}
        for n in sizes:
            db = os.path.join(tmp, f"gen{n}.db")
            generate_entries(db, n)
            cmd = WZ + ["--db", db, "standings", "--format", "json"]
            r = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
            if r.returncode != 0:
                report(f"standings over {n:,} entries", f"command failed: {r.stderr.strip()[-200:]}", "< 1 s", False)
                break
            times[n] = best_time(cmd, 3)[0]
        if times:
            fig = ", ".join(f"{n:,}: {t * 1000:.0f} ms" for n, t in times.items())
            top = max(times)
            ok = times[top] < 1.0
            if len(times) > 1:
                lo = min(times)
                growth = (times[top] - times[lo]) / (top - lo) * 1e6
                fig += f" ({growth:.2f} ms per 1,000 entries)"
            report("standings --format json", fig, "< 1 s at the largest, linear or better", ok)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    missed = [r for r in results if not r[3]]
    load = os.getloadavg()
    print(f"\n{len(results) - len(missed)} goals met, {len(missed)} missed "
          f"(load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")


if __name__ == "__main__":
    main()
