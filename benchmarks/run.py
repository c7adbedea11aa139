#!/usr/bin/env python3
"""wiezen's performance benchmark (issues 8 and 11). Run: python benchmarks/run.py [--quick] [--only ...] [--editable]

Builds ledgers in a temporary folder, then prints each figure with PASS or FAIL against its goal, as the best
of several runs (wall time; the CPU time of the command, from getrusage, beside it: less sensitive to other
work on the machine) and as a ratio against a floor measured in the same run:

  - `wiezen --version`                  vs `python -c "import click"`               goal <= 1.5x
  - `wiezen deal` into a 20,000-entry session vs a click+sqlite3 one-insert script   goal <= 2.0x
    ... and vs the same deal into a 10-entry session                                 goal <= 1.25x
  - `wiezen deal`                       vs `sqlite-utils insert` of one row          goal: faster
  - `replay` of 20,000 deals as a whole command                                     goal >= 10,000 deals/s
  - 200 `play` lines into a 20,000-entry session vs into a 10-entry session          goal <= 1.25x
    ... and the same under house rules whose rondjes pas queue doubled deals           goal <= 1.25x
  - `import` of a 20,000-entry export                                                goal >= 10,000 entries/s
  - `check` of that ledger                                                           goal >= 20,000 entries/s
  - `standings --format json` over 10k / 100k / 1M entries (generated into SQLite)   goal < 1 s at 1M, ~linear

--quick uses fewer repetitions and stops at 100k entries for standings. --only PART[,PART] runs some parts:
startup, heavy (replay, import, check), deal, play, standings.

wiezen is measured as a user runs it: by default the tree this script is in is installed with a plain
`pip install` (not editable) into a new virtual environment in the temporary folder, and every command runs
that environment's `wiezen` script; the floors (`import click`, the click+sqlite3 script) run with that
environment's python. (An editable install adds an import hook that every python of its environment loads at
start-up, the floors' too: about 15 ms on the development machine.) --editable measures the environment
running this script instead, with `python -m wiezen_score` and the tree on PYTHONPATH, as before.

Commands compared by a ratio run alternately (one run of each in turn), so that other work on the machine
weighs on both alike; a goal is met when the ratio of the best wall times and that of the best CPU times both
meet it.
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
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable
WZ = [PY, "-m", "wiezen_score"]
# The commands run as after `pip install`: with their bytecode cached. (A machine that sets
# PYTHONDONTWRITEBYTECODE would otherwise recompile wiezen's modules on every run while click, installed
# with its bytecode, would not.) The first, untimed run of each command writes the cache.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = os.path.dirname(HERE) + os.pathsep + os.environ.get("PYTHONPATH", "")
PLAYERS = ["jan", "piet", "mieke", "lotte"]


ENV_RUN = ENV  # the environment the measured commands run in (without PYTHONPATH for an installed wiezen)
PY_RUN = PY  # the python of the measured environment (the floors run with it)


def install(tmp: str) -> None:
    """A plain (not editable) pip install of this tree into a new virtual environment under ``tmp``; the
    measured commands run from it from now on."""
    global WZ, ENV_RUN, PY_RUN
    tree = os.path.join(tmp, "tree")
    root = os.path.dirname(HERE)
    shutil.copytree(root, tree, ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__",
                                                              ".mypy_cache", ".ruff_cache", ".pytest_cache"))
    venv = os.path.join(tmp, "venv")
    subprocess.run([PY, "-m", "venv", venv], check=True)
    py = os.path.join(venv, "bin", "python")
    env = {k: v for k, v in ENV.items() if k != "PYTHONPATH"}
    r = subprocess.run([py, "-m", "pip", "install", "-q", tree], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"pip install of the tree into {venv} failed (no package index? try --editable):\n{r.stderr}")
    WZ, ENV_RUN, PY_RUN = [os.path.join(venv, "bin", "wiezen")], env, py


def run(cmd: list[str], stdin: str | None = None, check: bool = True) -> float:
    return run2(cmd, stdin, check)[0]


def run2(cmd: list[str], stdin: str | None = None, check: bool = True) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of ``cmd``: the CPU time (user + system, from getrusage of the
    children) is less sensitive than the wall time to other work on the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=ENV_RUN)
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


def best_alternating(cmds: list[tuple[list[str], str | None, Callable[[], None] | None]], n: int,
                     check: bool = True) -> list[tuple[float, float]]:
    """The best wall time and the best CPU time of each of ``cmds`` (command, stdin, prepare), run ``n`` times
    in turn (the first, the second, ..., the first again) after one untimed warm-up run of each."""
    for cmd, stdin, prepare in cmds:
        if prepare is not None:
            prepare()
        run2(cmd, stdin, check)
    got: list[list[tuple[float, float]]] = [[] for _ in cmds]
    for _ in range(n):
        for i, (cmd, stdin, prepare) in enumerate(cmds):
            if prepare is not None:
                prepare()
            got[i].append(run2(cmd, stdin, check))
    return [(min(w for w, _c in g), min(c for _w, c in g)) for g in got]


def ratio(a: tuple[float, float], b: tuple[float, float], goal: float, unit: str = "ms") -> tuple[str, bool]:
    """The figure of ``a`` against ``b`` (wall and CPU), and whether both ratios are within ``goal``."""
    k = 1000 if unit == "ms" else 1
    fig = (f"{a[0] * k:.{0 if k > 1 else 2}f} {unit} vs {b[0] * k:.{0 if k > 1 else 2}f} {unit} = {a[0] / b[0]:.2f}x "
           f"(CPU {a[1] * k:.{0 if k > 1 else 2}f} {unit} vs {b[1] * k:.{0 if k > 1 else 2}f} {unit} = {a[1] / b[1]:.2f}x)")
    return fig, a[0] / b[0] <= goal and a[1] / b[1] <= goal


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
    # on the disk before the timed run, as a user's ledger is: else the run's first fsync would also write out
    # the whole copy just made (megabytes for the long session, nothing for the short one)
    fd = os.open(dst, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
    subprocess.run([PY_RUN, "-c", "import sys; from wiezen_score.ledger import Ledger; Ledger(sys.argv[1]).close()",
                    path], env=ENV_RUN, check=True)
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


PARTS = ("startup", "heavy", "deal", "play", "standings")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--editable", action="store_true",
                    help="measure this environment (python -m wiezen_score, the tree on PYTHONPATH), not a plain install")
    ap.add_argument("--only", default=",".join(PARTS), help=f"parts to run, of {', '.join(PARTS)}")
    args = ap.parse_args()
    parts = set(args.only.split(","))
    if parts - set(PARTS):
        ap.error(f"--only: unknown part(s) {', '.join(sorted(parts - set(PARTS)))}")
    reps = 11 if args.quick else 21  # start-up timings (cheap): the best of this many runs of each, in turn
    heavy = 2 if args.quick else 3  # replay, import, check (seconds each): the best of this many
    plays = 5 if args.quick else 9  # 200 play lines (half a second each): the best of this many, in turn
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
        if args.editable:
            print("measuring this environment: python -m wiezen_score with the tree on PYTHONPATH", flush=True)
        else:
            install(tmp)
            print(f"measuring a plain pip install of the tree in a new virtual environment: {WZ[0]}", flush=True)
        # 1. startup
        if "startup" in parts:
            version, floor = best_alternating([(WZ + ["--version"], None, None), ([PY_RUN, "-c", "import click"], None, None)],
                                              reps)
            fig, ok = ratio(version, floor, 1.5)
            report("wiezen --version vs python -c 'import click'", fig, "<= 1.5x", ok)

        # the ledgers: one session of 20,000 deals and one of 10, both left open (recorded with replay)
        rng = random.Random(1)
        p = os.path.join(tmp, "long.txt")
        with open(p, "w") as f:
            f.write(session_file(999, 20000, rng, "2026-06-01"))
        long_db = os.path.join(tmp, "long.db")
        scratch = os.path.join(tmp, "scratch.db")
        small_db = os.path.join(tmp, "small.db")
        with open(os.path.join(tmp, "short.txt"), "w") as f:
            f.write(session_file(1000, 10, rng, "2026-06-02"))

        def fresh_scratch() -> None:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(scratch + suffix):
                    os.remove(scratch + suffix)

        if parts & {"heavy", "deal", "play"}:
            run(WZ + ["--db", long_db, "replay", "--keep-open", p])
            run(WZ + ["--db", small_db, "replay", "--keep-open", os.path.join(tmp, "short.txt")])

        # 2. replay throughput: one 20,000-line file as a whole command (its summary printed), into a new ledger
        if "heavy" in parts:
            dt, dc = best_time(WZ + ["--db", scratch, "replay", "--keep-open", p], heavy, prepare=fresh_scratch)
            report("replay of 20,000 deals (whole command)",
                   f"{20000 / dt:,.0f} deals/s ({dt:.2f} s; {cpu(dc)}: {20000 / dc:,.0f} deals/s)", ">= 10,000 deals/s",
                   20000 / dt >= 10000)

            # import of a 20,000-entry export into a new ledger, and check of the result
            export = os.path.join(tmp, "long.json")
            with open(export, "w") as f:
                subprocess.run(WZ + ["--db", long_db, "export"], stdout=f, check=True, env=ENV_RUN)
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

        # 3. one deal into a 20,000-entry session vs a 10-entry session vs floors (each deal adds an entry: the
        # sessions grow by a few dozen entries during the runs, which changes nothing measurable)
        if "deal" in parts:
            deal = ["deal", "samen", "8", "jan+piet", "9"]
            floor_script = os.path.join(tmp, "floor.py")
            floor_db = os.path.join(tmp, "floor.db")
            sqlite3.connect(floor_db).execute("CREATE TABLE t (a TEXT, b INTEGER)").connection.commit()
            with open(floor_script, "w") as f:
                f.write("import click, sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\n"
                        "c.execute('INSERT INTO t VALUES (?, ?)', ('samen 8 jan+piet 9', 3))\nc.commit()\n")
            big, small, fl = best_alternating([(WZ + ["--db", long_db] + deal, None, None),
                                               (WZ + ["--db", small_db] + deal, None, None),
                                               ([PY_RUN, floor_script, floor_db], None, None)], reps)
            fig, ok = ratio(big, fl, 2.0)
            report("wiezen deal (20,000-entry session) vs a click+sqlite3 one-row commit", fig, "<= 2.0x", ok)
            fig, ok = ratio(big, small, 1.25)
            report("wiezen deal: 20,000-entry vs 10-entry session", fig, "<= 1.25x", ok)
            su = os.path.join(os.path.dirname(PY_RUN), "sqlite-utils")
            if not os.path.exists(su):
                su = shutil.which("sqlite-utils") or ""
            if su:
                su_db = os.path.join(tmp, "su.db")
                row = json.dumps({"text": "samen 8 jan+piet 9", "points": 3})
                sut = best_time([su, "insert", su_db, "entries", "-"], reps, stdin=row)[0]
                report("wiezen deal vs sqlite-utils insert of one row",
                       f"{big[0] * 1000:.0f} ms vs {sut * 1000:.0f} ms = {big[0] / sut:.2f}x", "faster (< 1x)",
                       big[0] < sut)

        # 200 lines typed into `play` (piped), each run on a fresh copy, the two sessions in turn: the cost per
        # line must not grow
        if "play" in parts:
            lines = "".join(deal_line(rng) + "\n" for _ in range(200))
            play_big_db, play_small_db = os.path.join(tmp, "play-big.db"), os.path.join(tmp, "play-small.db")
            play_big, play_small = best_alternating(
                [(WZ + ["--db", play_big_db, "play"], lines, lambda: copy_ledger(long_db, play_big_db)),
                 (WZ + ["--db", play_small_db, "play"], lines, lambda: copy_ledger(small_db, play_small_db))],
                plays, check=False)
            fig, ok = ratio(play_big, play_small, 1.25, unit="s")
            report(f"200 play lines: 20,000-entry vs 10-entry session (best of {plays} each)", fig, "<= 1.25x", ok)
            # the same under house rules whose rondjes pas queue doubled deals ([all_pass] double = "queue"): the
            # deals still owed follow from the whole session
            rules = os.path.join(tmp, "wachtrij.toml")
            with open(rules, "w", encoding="utf-8") as f:
                f.write("name = \"wachtrij\"\n[all_pass]\ndouble = \"queue\"\n[contracts.samen]\nteam = true\n"
                        "levels = [8, 9, 10, 11, 12, 13]\nmade = [8, 11, 14, 17, 20, 30]\nlost = [11, 14, 17, 20, 23, 26]\n"
                        "overtrick = 3\n[contracts.alleen]\nlevels = [5, 6, 7, 8]\nmade = [3, 4, 5, 7]\nlost = [4, 5, 6, 8]\n"
                        "[contracts.abondance]\nlevels = [9, 10, 11, 12]\nmade = [10, 15, 20, 30]\nlost = [10, 15, 20, 30]\n"
                        "[contracts.troel]\nteam = true\nlevels = [8, 9]\nmade = [16, 16]\nlost = [16, 16]\n"
                        "[contracts.grote-miserie]\nmiserie = 0\npoints = 12\n[contracts.kleine-miserie]\nmiserie = 0\npoints = 6\n")
            queued = {}
            for label, n in (("long", 20000), ("short", 10)):
                text = session_file(2000 + n, n, random.Random(n), "2026-06-03").split("\n")
                text.insert(1, f"rules {rules}")
                path = os.path.join(tmp, f"queue-{label}.txt")
                with open(path, "w") as f:
                    f.write("\n".join(text))
                queued[label] = os.path.join(tmp, f"queue-{label}.db")
                run(WZ + ["--db", queued[label], "replay", "--keep-open", path])
            q_big, q_small = best_alternating(
                [(WZ + ["--db", play_big_db, "play"], lines, lambda: copy_ledger(queued["long"], play_big_db)),
                 (WZ + ["--db", play_small_db, "play"], lines, lambda: copy_ledger(queued["short"], play_small_db))],
                plays, check=False)
            fig, ok = ratio(q_big, q_small, 1.25, unit="s")
            report(f"200 play lines under 'queue' house rules: 20,000 vs 10 entries (best of {plays} each)", fig,
                   "<= 1.25x", ok)

        # 4. standings over generated ledgers
        if "standings" in parts:
            sizes = [10_000, 100_000] + ([] if args.quick else [1_000_000])
            times = {}
            for n in sizes:
                db = os.path.join(tmp, f"gen{n}.db")
                generate_entries(db, n)
                cmd = WZ + ["--db", db, "standings", "--format", "json"]
                r = subprocess.run(cmd, capture_output=True, text=True, env=ENV_RUN)
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
