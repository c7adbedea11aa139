"""Table labels: a table is a number or a short word (`--table terras`), in every command, the export and the room
(/t/terras, its scorer's link and card)."""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

import pytest
from _ledger_helpers import dump, ok, refused, sheet, wz
from _serve_helpers import request, serving

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.tables import parse_table, table_key

JSON = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize(("typed", "label"), [("1", 1), ("07", 7), ("99", 99), ("terras", "terras"),
                                              ("Terras", "terras"), (" zaal-2 ", "zaal-2"), ("bar_1", "bar_1")])
def test_a_label_as_typed(typed, label):
    assert parse_table(typed) == label


@pytest.mark.parametrize("typed", ["0", "100", "", "ter ras", "7zaal", "-x", "café", "a" * 13, "terras!"])
def test_not_a_label(typed):
    with pytest.raises(WiezenError, match="not a table"):
        parse_table(typed)


def test_tables_in_order():
    assert sorted(["terras", 10, None, 2, "bar"], key=table_key) == [None, 2, 10, "bar", "terras"]


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "club.db"
    ok(db, "session", "start", "--players", "an,bert,carla,dirk", "--table", "Terras")
    ok(db, "session", "start", "--players", "eva,frans,greet,hans", "--table", "2")
    return db


def test_a_labelled_table_records_like_a_numbered_one(db, monkeypatch):
    ok(db, "deal", "--table", "terras", "samen", "8", "an+bert", "9")
    monkeypatch.setenv("WIEZEN_TABLE", "TERRAS")
    ok(db, "pass")
    monkeypatch.delenv("WIEZEN_TABLE")
    doc = sheet(db, "--table", "terras")
    assert doc["session"]["table"] == "terras"
    assert [e["kind"] for e in doc["entries"]] == ["deal", "pass"]
    assert sheet(db, "--table", "2")["entries"] == []
    line = refused(db, "deal", "samen", "8", "an+bert", "9")
    assert "terras: an, bert, carla, dirk" in line and "2: eva" in line
    ok(db, "session", "end", "--table", "terras")
    ok(db, "check")


def test_a_label_in_use_and_a_bad_label_write_nothing(db):
    before = dump(db)
    assert "terras is in use" in refused(db, "session", "start", "--players", "x1,x2,x3,x4", "--table", "TERRAS")
    assert "not a table" in refused(db, "session", "start", "--players", "x1,x2,x3,x4", "--table", "ter ras")
    assert wz(db, "deal", "--table", "7zaal", "pas").exit_code == 2
    assert dump(db) == before


def test_the_label_travels_with_export_and_import(db, tmp_path):
    ok(db, "deal", "--table", "terras", "samen", "8", "an+bert", "9")
    ok(db, "session", "end", "--table", "terras")
    f = tmp_path / "x.json"
    f.write_text(ok(db, "export").stdout, encoding="utf-8")
    assert {s.get("table") for s in json.loads(f.read_text(encoding="utf-8"))["sessions"]} == {"terras", 2}
    club = tmp_path / "other.db"
    ok(club, "import", f)
    assert sheet(club, "--session", "1")["session"]["table"] == "terras"
    ok(club, "import", f)  # again: nothing new, no conflict
    doc = json.loads(f.read_text(encoding="utf-8"))
    doc["sessions"][0]["table"] = "ter ras"
    f.write_text(json.dumps(doc), encoding="utf-8")
    assert "table" in refused(tmp_path / "third.db", "import", f)


def test_the_room_serves_a_labelled_table(db):
    with serving(db) as srv:
        link = {m.group(1): m.group(2) for line in srv.banner
                for m in [re.search(r"table (\w+): (http://\S+/s/\S+)", line)] if m}
        assert set(link) == {"terras", "2"}
        answer = json.loads(request(link["terras"] + "/entry", data=urlencode({"line": "samen 8 an+bert 9"}).encode(),
                                    headers=JSON)[2])
        assert answer["ok"], answer
        wrong = json.loads(request(link["terras"] + "/entry", data=urlencode({"line": "samen 8 eva+frans 9"}).encode(),
                                   headers=JSON)[2])
        assert not wrong["ok"]
        assert "Table terras" in srv.get("/")[2].decode()
        status, _h, body = srv.get("/t/terras")
        assert status == 200 and 'data-events="/t/terras/events"' in body.decode()
        assert srv.get("/t/Terras")[0] == 200
        assert srv.get("/t/zaal")[0] == 404 and srv.get("/t/ter%20ras")[0] == 404
        cards = srv.get("/qr")[2].decode()
        assert "Table terras" in cards and link["terras"].split("/s/")[1] in cards
    assert [e["text"] for e in sheet(db, "--table", "terras")["entries"]] == ["samen 8 an+bert 9"]
    assert sheet(db, "--table", "2")["entries"] == []
