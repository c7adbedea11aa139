"""A club's room on one laptop: `wiezen serve` with 20 open tables and 200 pages following them.

    python benchmarks/room.py [--tables 20] [--pages 200] [--deals 20]

Starts a real server (its own process, 127.0.0.1, any free port) on a ledger with TABLES open tables, opens PAGES
event streams (the pages' own /t/N/events and /room/events connections, spread over the tables and the room), and
then, one after another, records DEALS deals with `wiezen deal --table N` at random tables. For each deal it measures
the time from the deal's command ending (committed) to each page following that table (and the room) receiving the
update: median and worst. Also: the server's CPU while the 200 pages are open and nothing happens (10 s), its memory
(RSS), and that a 201st page and a stalled page (one that never reads) do not slow the others.

Goals (issue 27): an update on every page within a second (median and worst), idle CPU under 2% of a core.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}


def wiezen(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wiezen_score", "--db", str(db), *args], capture_output=True, text=True,
                          env=ENV, check=True)


class Stream(threading.Thread):
    """One page's event stream: notes when each event arrives (time.monotonic) by its id."""

    def __init__(self, port: int, path: str, stall: bool = False) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.stall = stall
        self.events: list[float] = []
        self.ok = False

    def run(self) -> None:
        if self.stall:
            return  # a phone that never reads: the server's writes to it fill its buffers
        buf = b""
        while True:
            try:
                chunk = self.sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            if not self.ok and b" 200 " in buf.split(b"\r\n", 1)[0]:
                self.ok = True
            while b"\n\n" in buf:
                block, buf = buf.split(b"\n\n", 1)
                if b"\nevent: " in b"\n" + block or block.startswith(b"id: "):
                    self.events.append(time.monotonic())


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--deals", type=int, default=20)
    a = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="wiezen-room-"))
    db = folder / "club.db"
    names = [f"p{i:03d}" for i in range(a.tables * 4)]
    for t in range(a.tables):
        wiezen(db, "session", "start", "--players", ",".join(names[4 * t:4 * t + 4]), "--table", str(t + 1))
    proc = subprocess.Popen([sys.executable, "-m", "wiezen_score", "--db", str(db), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, text=True, env=ENV)
    port = 0
    assert proc.stdout is not None
    for line in proc.stdout:
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if m and not port:
            port = int(m.group(1))
        if line.startswith("Ctrl-C stops"):
            break
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    try:
        # the pages: one in ten follows the room, the others a table each, round-robin
        pages: list[tuple[int | None, Stream]] = []
        for i in range(a.pages):
            table = None if i % 10 == 0 else (i % a.tables) + 1
            s = Stream(port, "/room/events" if table is None else f"/t/{table}/events")
            s.start()
            pages.append((table, s))
        stalled = Stream(port, "/room/events", stall=True)
        time.sleep(3)
        opened = sum(1 for _t, s in pages if s.ok)
        extra = Stream(port, "/t/1/events")  # the 201st page
        extra.start()
        time.sleep(1)
        before = cpu_seconds(proc.pid)
        time.sleep(10)
        idle = (cpu_seconds(proc.pid) - before) / 10
        lat: list[float] = []
        rnd = random.Random(7)
        for _ in range(a.deals):
            t = rnd.randrange(a.tables) + 1
            p = names[4 * (t - 1):4 * t]
            counts = {id(s): len(s.events) for _tt, s in pages}
            wiezen(db, "deal", "--table", str(t), "samen", "8", f"{p[0]}+{p[1]}", str(rnd.randrange(5, 14)))
            done = time.monotonic()
            following = [s for tt, s in pages if tt in (t, None)]
            deadline = done + 5
            while time.monotonic() < deadline and any(len(s.events) == counts[id(s)] for s in following):
                time.sleep(0.005)
            for s in following:
                if len(s.events) > counts[id(s)]:
                    lat.append(max(0.0, s.events[counts[id(s)]] - done))
                else:
                    lat.append(float("inf"))
            time.sleep(0.3)
        print(f"room: {a.tables} tables, {a.pages} pages ({opened} open), {a.deals} deals")
        print(f"  update on every page following the table: median {statistics.median(lat) * 1000:.0f} ms, "
              f"worst {max(lat) * 1000:.0f} ms  (goal < 1000 ms: {'PASS' if max(lat) < 1 else 'FAIL'})")
        print(f"  idle CPU with the pages open: {idle * 100:.2f}% of a core  (goal < 2%: {'PASS' if idle < 0.02 else 'FAIL'})")
        print(f"  server memory: {rss_mb(proc.pid):.0f} MB RSS")
        print(f"  the {a.pages + 1}st page opened: {extra.ok} (all of the above measured with it open, and with a stalled "
              f"page that never reads, still connected: {stalled.sock.fileno() >= 0})")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)


if __name__ == "__main__":
    main()
