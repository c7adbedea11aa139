"""A full room at once: terminals (`wiezen deal --table N`, separate processes) and phones (each table's scorer's
link, real HTTP requests to the real server) record at three tables at the same time. Nothing is lost, doubled or
misplaced, each table's deals are in the order each writer sent them, and `wiezen check` holds afterwards."""

from __future__ import annotations

import json
import re
import threading
from urllib.parse import urlencode

import pytest
from _ledger_helpers import ok, sheet
from _serve_helpers import request, run, serving

pytestmark = pytest.mark.slow

TABLES = {1: "an,bert,carla,dirk", 2: "eva,frans,greet,hans", 3: "ilse,jan,kris,lien"}
JSON = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}
ROUNDS = 12  # deals each writer records at each table


def test_terminals_and_phones_at_three_tables_at_once(tmp_path):
    db = tmp_path / "club.db"
    for t, players in TABLES.items():
        ok(db, "session", "start", "--players", players, "--table", str(t))
    errors: list[str] = []
    sent: dict[tuple[int, str], list[str]] = {}
    with serving(db) as srv:
        links = {int(m.group(1)): m.group(2) for line in srv.banner
                 for m in [re.search(r"table (\d+): (http://\S+/s/\S+)", line)] if m}
        assert set(links) == set(TABLES)

        def phone(t: int) -> None:
            p = TABLES[t].split(",")
            lines = sent.setdefault((t, "phone"), [])
            for i in range(ROUNDS):
                line = f"samen 8 {p[0]}+{p[1]} {i % 6 + 8}"
                status, _h, body = request(links[t] + "/entry", data=urlencode({"line": line, "nonce": f"{t}-{i}"}).encode(),
                                           headers=JSON)
                answer = json.loads(body)
                if status != 200 or not answer.get("ok"):
                    errors.append(f"phone {t}: {line}: {status} {answer}")
                lines.append(line)

        def terminal(t: int) -> None:
            p = TABLES[t].split(",")
            lines = sent.setdefault((t, "terminal"), [])
            for i in range(ROUNDS):
                line = f"samen 8 {p[2]}+{p[3]} {i % 6 + 8}"
                r = run(db, "deal", "--table", str(t), *line.split())
                if r.returncode != 0:
                    errors.append(f"terminal {t}: {line}: {r.stderr.strip()}")
                lines.append(line)

        threads = [threading.Thread(target=f, args=(t,)) for t in TABLES for f in (phone, terminal)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()  # each request and process is bounded in time by the helpers (10 s, 60 s)
        assert errors == []
    for t in TABLES:
        texts = [e["text"] for e in sheet(db, "--table", str(t))["entries"]]
        assert sorted(texts) == sorted(sent[(t, "phone")] + sent[(t, "terminal")])  # none lost, none doubled
        for who in ("phone", "terminal"):  # each writer's deals in the order he sent them
            mine = set(sent[(t, who)])
            assert [x for x in texts if x in mine] == [x for x in sent[(t, who)]]
    assert ok(db, "check").stdout.startswith("ok:")
