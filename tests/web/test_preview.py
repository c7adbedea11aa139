"""`/s/TOKEN/preview?line=...`: the points a line would record, before it is written (the phone shows them while
the line is being built), and nothing written.

By hand (rupelstreek, the evening of tests/_serve_helpers.py start_evening, whose rondje pas doubled its troel):
alleen 5 piet 6 is 2 + 1 overtrick = 3 from each of the three others, 9 to piet, entry 4."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from _ledger_helpers import copy_ledger
from _serve_helpers import dump_record, request, serving, start_evening


@pytest.fixture
def db(ledger_template, tmp_path):
    return copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")


def preview(srv, line: str) -> tuple[int, dict]:
    status, _h, body = request(f"{srv.scorer}/preview?line={quote(line)}")
    return status, json.loads(body)


def test_a_line_scored_before_it_is_written(db):
    before = dump_record(db)
    with serving(db) as srv:
        status, doc = preview(srv, "alleen 5 piet 6")
        assert status == 200 and doc["ok"]
        assert doc["points"] == {"jan": -3, "piet": 9, "mieke": -3, "lotte": -3} and doc["multiplier"] == 1
        assert doc["no"] == 4 and doc["text"] == "alleen 5 piet 6" and doc["explanation"]
        status, doc = preview(srv, "a 5 p 6")  # abbreviations, as the prompt takes them
        assert doc["text"] == "alleen 5 piet 6"
        status, doc = preview(srv, "samen 8 jan+nobody 9")
        assert status == 400 and not doc["ok"] and "nobody" in doc["error"]
        status, doc = preview(srv, "undo")
        assert status == 400 and "nothing to preview" in doc["error"]
        status, _h, body = request(srv.url.rstrip("/") + "/s/not-a-token/preview?line=pas")
        assert status == 403 and json.loads(body)["ok"] is False
    assert dump_record(db) == before
