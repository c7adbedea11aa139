"""`wiezen serve` on a club night: the room at /, each table at /t/N, /night.json, a scorer's link per table that
records only at its table and stays valid when the server starts again (--new-links replaces it), /qr's cards.

The real server in its own process, spoken to over HTTP (tests/_serve_helpers.py)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from _ledger_helpers import ok, sheet
from _serve_helpers import request, serving

NINE = "an,bert,carla,dirk,eva,frans,greet,hans,ilse"
JSON = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def night(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "night", "start", "--players", NINE, "--seed", "7", "--name", "Clubavond", "--date", "2026-11-27")
    return db


def links(srv) -> dict[int, str]:
    """Table number -> its scorer's link, as the terminal printed them."""
    return {int(m.group(1)): m.group(2) for line in srv.banner
            for m in [re.search(r"table (\d+): (http://\S+/s/\S+)", line)] if m}


def post(url: str, line: str) -> dict:
    status, _h, body = request(url + "/entry", data=urlencode({"line": line}).encode(), headers=JSON)
    return json.loads(body)


def players_at(db, table: int) -> list[str]:
    return sheet(db, "--table", str(table))["session"]["players"]


def test_the_room_shows_every_table_and_the_night(night):
    ok(night, "deal", "--table", "1", "samen", "8", "+".join(players_at(night, 1)[:2]), "9")
    with serving(night) as srv:
        page = srv.get("/")[2].decode()
        assert 'id="room"' in page and "Table 1" in page and "Table 2" in page and "round 1" in page
        assert "#1 samen 8" in page and "The night&#x27;s ranking" in page
        status, headers, body = srv.get("/night.json")
        assert status == 200 and json.loads(body) == json.loads(ok(night, "night", "show", "--json").stdout)
        assert json.loads(srv.get("/t/1/sheet.json")[2]) == sheet(night, "--table", "1")
        assert srv.get("/t/2")[0] == 200 and 'data-events="/t/2/events"' in srv.get("/t/2")[2].decode()
        assert srv.get("/t/7")[0] == 404


def test_a_tables_link_records_only_at_that_table(night):
    one, two = players_at(night, 1), players_at(night, 2)
    with serving(night) as srv:
        link = links(srv)
        assert set(link) == {1, 2}
        answer = post(link[1], f"samen 8 {one[0]}+{one[1]} 9")
        assert answer["ok"], answer
        refused = post(link[1], f"samen 8 {two[1]}+{two[2]} 9")  # table 2's players, through table 1's link
        assert not refused["ok"] and "at this table" in refused["error"]
    assert [e["text"] for e in sheet(night, "--table", "1")["entries"]] == [f"samen 8 {one[0]}+{one[1]} 9"]
    assert sheet(night, "--table", "2")["entries"] == []


def test_links_stay_valid_when_the_server_starts_again_and_new_links_replaces_them(night):
    one = players_at(night, 1)
    with serving(night) as srv:
        first = links(srv)
    with serving(night) as srv:
        assert links(srv) == {t: u.replace(u.split("/s/")[0], srv.url.rstrip("/")) for t, u in first.items()}
        assert post(links(srv)[1], f"samen 8 {one[0]}+{one[1]} 9")["ok"]
    with serving(night, "--new-links") as srv:
        new = links(srv)
        assert new[1].split("/s/")[1] != first[1].split("/s/")[1]
        old = srv.url.rstrip("/") + "/s/" + first[1].split("/s/")[1]
        status, _h, body = request(old)
        assert status == 410 and "this link was replaced: scan the new code" in body.decode()
        status, _h, body = request(old + "/entry", data=urlencode({"line": "pas"}).encode(), headers=JSON)
        assert status == 410
    assert len(sheet(night, "--table", "1")["entries"]) == 1


def test_the_cards_of_the_tables(night):
    with serving(night) as srv:
        status, _h, body = srv.get("/qr")
        page = body.decode()
        assert status == 200 and page.count('class="card"') == 2
        assert all(u.split("/s/")[1] in page for u in links(srv).values()) and "<svg" in page


def test_a_table_opened_after_the_start_gets_its_link(night):
    with serving(night) as srv:
        ok(night, "session", "start", "--players", "kris,lien,mark,nora", "--table", "3")
        line = ""
        import time

        deadline = time.monotonic() + 15  # (a wait for the line, not a timed assertion)
        while "table 3:" not in line and time.monotonic() < deadline:
            line = srv.proc.stdout.readline()  # type: ignore[union-attr]
        url = re.search(r"(http://\S+/s/\S+)", line)
        assert url, line
        assert post(url.group(1), "samen 8 kris+lien 9")["ok"]
    assert [e["text"] for e in sheet(night, "--table", "3")["entries"]] == ["samen 8 kris+lien 9"]


def test_a_tables_page_says_which_table_and_round_it_shows(night):
    with serving(night) as srv:
        page = srv.get("/t/2")[2].decode()
        assert "table 2" in page and "round 1" in page
        doc = json.loads(srv.get("/t/2/sheet.json")[2])
        assert (doc["session"]["table"], doc["session"]["round"]) == (2, 1)
