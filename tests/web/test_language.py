"""Each phone is answered in its own language (Accept-Language), unless `serve` was started with --lang: the page,
its updates, the scorer's answers; other phones at the same time keep theirs."""

from __future__ import annotations

import json
import urllib.request
from urllib.parse import urlencode

import pytest
from _ledger_helpers import copy_ledger
from _serve_helpers import request, serving, start_evening

NL = {"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.8"}
EN = {"Accept-Language": "en-GB,en;q=0.9,nl;q=0.5"}


@pytest.fixture
def db(ledger_template, tmp_path):
    return copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")


def first_event(url: str, headers: dict[str, str]) -> dict:
    req = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        for raw in r:
            line = raw.decode("utf-8")
            if line.startswith("data: {"):
                return json.loads(line[6:])
    raise AssertionError("no event")


def test_the_page_speaks_the_phones_language(db):
    with serving(db) as srv:
        dutch = srv.get("/", headers=NL)[2].decode()
        english = srv.get("/", headers=EN)[2].decode()
        assert '<html lang="nl">' in dutch and "<h2>Het scoreblad</h2>" in dutch
        assert '<html lang="en">' in english and "<h2>The sheet</h2>" in english
        assert '<html lang="en">' in srv.get("/")[2].decode()  # no preference: the server's language
        assert "<h2>Het scoreblad</h2>" in first_event(srv.url + "events", NL)["html"]
        assert "<h2>The sheet</h2>" in first_event(srv.url + "events", EN)["html"]
        scorer = request(srv.scorer, headers=NL)[2].decode()
        assert "Avond beëindigen" in scorer
        body = urlencode({"action": "entry", "line": "straf jan te laat", "nonce": "x"}).encode()
        answer = json.loads(request(srv.scorer + "/entry", body, {**NL, "Accept": "application/json"})[2])
        assert answer["message"].startswith("#4 straf jan: jan -15"), answer
        preview = json.loads(request(srv.scorer + "/preview?line=nobody", headers=NL)[2])
        assert preview["error"].startswith("Fout: "), preview


def test_serve_with_lang_speaks_it_to_every_phone(db):
    with serving(db, "--lang", "en") as srv:
        assert '<html lang="en">' in srv.get("/", headers=NL)[2].decode()
        assert "<h2>The sheet</h2>" in first_event(srv.url + "events", NL)["html"]
