"""Every phone a witness: a page that followed an evening to its end keeps its seal; `/seal.json` says whether the
ledger still holds exactly what a seal vouches for: yes as it was, no once an entry was changed behind its back."""

from __future__ import annotations

import json
import sqlite3
from urllib.parse import quote

import pytest
from _ledger_helpers import copy_ledger, ok
from _serve_helpers import serving, sheet_json, start_evening


@pytest.fixture
def db(ledger_template, tmp_path):
    path = copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")
    ok(path, "session", "end")
    return path


def behind_the_back(db, sql: str) -> None:
    """An edit of the file that no command makes: every trigger dropped, the change, the triggers put back."""
    conn = sqlite3.connect(str(db), isolation_level=None)
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute(sql)
        for _, create in triggers:
            conn.execute(create)
    finally:
        conn.close()


def seal_json(srv, session: object, seal: str) -> tuple[int, dict]:
    status, _h, body = srv.get(f"/seal.json?session={session}&seal={quote(seal)}")
    return status, json.loads(body)


def test_a_seal_that_holds_and_one_that_no_longer_does(db):
    seal = sheet_json(db)["session"]["seal"]
    with serving(db, "--read-only") as srv:
        status, doc = seal_json(srv, 1, seal)
        assert status == 200 and doc["ok"] is True and "it holds exactly that history" in doc["message"]
        status, doc = seal_json(srv, 99, seal)
        assert status == 404 and doc["ok"] is False
        assert seal_json(srv, "x", seal)[0] == 400
        status, doc = seal_json(srv, 1, "not a seal")
        assert doc["ok"] is False and "is not a seal" in doc["error"]
    # the first deal made a little better for jan and piet, behind the ledger's back
    behind_the_back(db, "UPDATE entries SET text = 'samen 8 jan+piet 10' WHERE no = 1")
    with serving(db, "--read-only") as srv:
        status, doc = seal_json(srv, 1, seal)
        assert status == 200 and doc["ok"] is False and "does not vouch for session 1" in doc["error"]


def test_an_update_of_an_ended_evening_carries_its_seal(db):
    from wiezen_score.views.live import event_data, sheet_fragment

    doc = sheet_json(db)
    data = json.loads(event_data(1, doc, sheet_fragment(doc)))
    assert data["sealed"] == {"session": 1, "name": "Café De Kroon", "date": doc["session"]["date"],
                              "seal": doc["session"]["seal"], "totals": {"jan": -5, "piet": -5, "mieke": 5, "lotte": 5}}
