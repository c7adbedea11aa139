"""`wiezen serve`: the real server in its own process on a free port of 127.0.0.1, spoken to over HTTP."""

from __future__ import annotations

import html
import json
import re
import signal
import socket
import threading
import time
import urllib.request
from urllib.parse import urlencode

import pytest
from _ledger_helpers import copy_ledger, dump
from _serve_helpers import dump_record, request, run, serving, sheet_json, start_evening

PLAYERS = ["jan", "piet", "mieke", "lotte"]


@pytest.fixture
def db(ledger_template, tmp_path):
    """The open evening of start_evening(), built once per run (tests/conftest.py) and copied for each test."""
    return copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")


def cards(page: str) -> dict[str, str]:
    """Player -> the total shown large on his card."""
    return dict(re.findall(r'data-player="([^"]+)"><span class="name">[^<]*</span><span class="total [a-z]+">([^<]+)<', page))


def form(action: str, line: str = "", nonce: str = "") -> bytes:
    return urlencode({"action": action, "line": line, "nonce": nonce}).encode()


JSON = {"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded"}


def test_the_page_shows_every_player_and_his_total(db):
    expected = sheet_json(db)["totals"]
    # samen 8 jan+piet 9 gives 3 each under rupelstreek; the troel (4 each) after the rondje pas counts double
    assert expected == {"jan": -5, "piet": -5, "mieke": 5, "lotte": 5}
    with serving(db) as srv:
        status, headers, body = srv.get("/")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    page = body.decode("utf-8")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert cards(page) == {"jan": "-5", "piet": "-5", "mieke": "+5", "lotte": "+5"}
    assert "Café De Kroon" in page
    assert re.search(r'<b class="who">lotte</b> deals next', page)  # jan, piet (the pas: next dealer), mieke dealt
    assert "<svg" in page and "<polyline" in page
    # nothing from outside: no address of another site (only this server's own paths: the manifest and the icon),
    # and a policy that forbids them
    assert re.findall(r"""(?:src|href)=["']([^"']*)""", page) == ["/manifest.webmanifest", "/icon.svg", "/icon-192.png"]
    assert "http://" not in page.replace('http-equiv', '') and "https://" not in page
    assert "default-src 'none'" in headers["Content-Security-Policy"]


def test_a_pending_doubling_is_on_the_page(db):
    assert run(db, "pass").returncode == 0
    with serving(db) as srv:
        page = srv.get("/")[2].decode()
    assert re.search(r'class="double">The next deal counts <b>×2</b>', page)


def test_sheet_json_is_the_sheet_json_document(db):
    r = run(db, "sheet", "--json")
    with serving(db) as srv:
        status, headers, body = srv.get("/sheet.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body) == json.loads(r.stdout)
    assert body.decode("utf-8") == r.stdout  # byte for byte what `sheet --json` prints


def read_events(url: str, until, timeout: float = 10.0) -> list[dict]:
    """Read server-sent events from url until until(events) holds; the events (their JSON data)."""
    events: list[dict] = []
    with urllib.request.urlopen(url, timeout=timeout) as r:
        assert r.headers["Content-Type"].startswith("text/event-stream")
        kind = ""
        for raw in r:
            line = raw.decode("utf-8").rstrip("\n")
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "sheet":
                events.append(json.loads(line[6:]))
                if until(events):
                    return events
    return events


def test_a_deal_recorded_in_another_process_reaches_an_open_page(db):
    """(How fast: benchmarks/room.py, not a timed assertion here.)"""
    with serving(db) as srv:
        got: dict[str, float] = {}

        def listen() -> None:
            events = read_events(srv.url + "events", lambda ev: len(ev) >= 2)
            got["at"] = time.monotonic()
            got["html"] = "".join(events[-1].get("parts", {}).values()) or events[-1].get("html", "")
            got["whole"] = "html" in events[-1]

        t = threading.Thread(target=listen)
        t.start()
        time.sleep(0.5)  # the first event (the sheet as it is) has been sent by now
        r = run(db, "deal", "alleen", "5", "piet", "6")
        assert r.returncode == 0, r.stderr
        t.join(10)  # (a bound on the wait, so that a failure cannot hang the run)
        assert "at" in got, "no event after the deal"
        assert "alleen 5 piet 6" in got["html"]
        assert got["whole"] is False  # only the parts that changed
        # /sheet.json has it too, and equals the sheet
        assert json.loads(srv.get("/sheet.json")[2]) == sheet_json(db)


def test_writes_without_the_token_are_refused_and_write_nothing(db):
    before = dump_record(db)
    with serving(db) as srv:
        token = srv.scorer.rsplit("/", 1)[1]
        wrong = token[:-1] + ("A" if token[-1] != "A" else "B")
        base = srv.url.rstrip("/")
        for url in (base + "/", base + "/sheet.json", base + "/s/entry", f"{base}/s/{wrong}/entry", f"{base}/s//entry",
                    f"{base}/s/{token[:-1]}/entry", f"{base}/entry?token={token}"):
            status, _, body = request(url, data=form("entry", "alleen 5 piet 6"), headers=JSON)
            assert status == 403, (url, status, body)
        for method in ("PUT", "DELETE", "PATCH"):
            assert request(f"{base}/s/{token}/entry", data=b"x", method=method)[0] == 403
        assert request(f"{base}/s/{wrong}")[0] == 403  # the scorer's page needs the token too
    assert dump_record(db) == before


def test_with_the_token_the_form_records_through_the_ledger(db):
    with serving(db) as srv:
        entry = srv.scorer + "/entry"
        page = request(srv.scorer)[2].decode()
        assert 'id="scorer"' in page and 'data-w="troel"' in page and 'data-w="lotte"' in page
        status, _, body = srv.post(entry, form("entry", "alleen 5 piet 6", "n1"), JSON)
        answer = json.loads(body)
        assert status == 200 and answer["ok"], answer
        assert answer["message"].startswith("#4 alleen 5 piet 6")
        # the same form again (a phone retrying): answered as before, saying so, not recorded twice
        again = json.loads(srv.post(entry, form("entry", "alleen 5 piet 6", "n1"), JSON)[2])
        assert again["repeat"] is True and again["message"] == "already recorded: " + answer["message"]
        assert len(sheet_json(db)["entries"]) == 4
        assert json.loads(srv.post(entry, form("pass", "", "n2"), JSON)[2])["ok"]
        # undo asks first (as play does), about the entry it names; the yes is the same form with confirm=1
        asked = json.loads(srv.post(entry, form("undo", "", "n3"), JSON)[2])
        assert (asked["ok"], asked["question"], asked["declined"]) == (False, "undo #5 pas?", "not undone")
        assert [e["voided"] for e in sheet_json(db)["entries"]][-1] is False  # nothing done yet
        yes = form("undo", "", "n3b") + f"&confirm=1&expect={asked['expect']}".encode()
        assert json.loads(srv.post(entry, yes, JSON)[2])["message"] == "voided #5 pas"
        bad = srv.post(entry, form("entry", "samen 8 jan+nobody 9", "n4"), JSON)
        assert bad[0] == 400 and json.loads(bad[2])["error"].startswith("Error: ")
        # without the script, the form comes back to the scorer's page with the answer on it
        status, headers, _ = srv.post(entry, form("entry", "penalty lotte renonce", "n5"),
                                      {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 303 and headers["Location"].startswith("/s/")
        shown = request(srv.url.rstrip("/") + headers["Location"])[2].decode()
        assert html.escape("#6 penalty lotte") in shown
    doc = sheet_json(db)
    texts = [(e["text"], e["voided"]) for e in doc["entries"]]
    assert texts[3:] == [("alleen 5 piet 6", False), ("pas", True), ("penalty lotte", False)]
    assert doc["entries"][5]["reason"] == "renonce"
    assert all(sum(e["points"].values()) == 0 for e in doc["entries"])


def test_read_only_has_no_scorer_link(db):
    before = dump(db)
    with serving(db, "--read-only") as srv:
        assert srv.scorer is None
        assert all("/s/" not in line for line in srv.banner)
        assert request(srv.url + "s/x/entry", data=form("pass"), headers=JSON)[0] == 403
    assert dump(db) == before


def test_request_sizes_are_limited_and_no_file_is_ever_served(db):
    before = dump_record(db)
    with serving(db) as srv:
        big = form("entry", "alleen 5 piet 6") + b"&pad=" + b"x" * 5000
        assert srv.post(srv.scorer + "/entry", big, JSON)[0] == 413
        assert srv.get("/?" + "a" * 3000)[0] == 414
        for path in ("/README.md", "/../../../../etc/passwd", "/wiezen_score/views/live.py", "/%2e%2e/pyproject.toml",
                     "/club.db", "/favicon.ico"):
            status, _, body = srv.get(path)
            assert status == 404, path
            assert b"root:" not in body and b"wiezen" not in body.lower().replace(b"wiezen serve", b"")
        # a raw request without a length
        with socket.create_connection(("127.0.0.1", int(srv.url.rsplit(":", 1)[1].strip("/")))) as s:
            s.sendall(f"POST /s/{srv.scorer.rsplit('/', 1)[1]}/entry HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            assert s.recv(100).startswith(b"HTTP/1.0 411")
    assert dump_record(db) == before


def test_binds_to_loopback_unless_told(db):
    from wiezen_score.web.server import lan_addresses

    with serving(db) as srv:
        assert srv.url.startswith("http://127.0.0.1:")
        port = int(srv.url.rsplit(":", 1)[1].strip("/"))
        for ip in lan_addresses():
            with pytest.raises(OSError):
                socket.create_connection((ip, port), timeout=2).close()


def test_ctrl_c_stops_cleanly_with_a_page_open(db):
    with serving(db) as srv:
        stream = urllib.request.urlopen(srv.url + "events", timeout=10)
        stream.readline()
        srv.proc.send_signal(signal.SIGINT)
        assert srv.proc.wait(10) == 0  # (a bound on the wait: the open page does not keep it running)
        out, err = srv.proc.communicate()
        assert "stopped" in out and err == ""
        stream.close()


def test_bad_starts_are_one_error_line(tmp_path, db):
    r = run(tmp_path / "none.db", "serve", "--port", "0")
    assert r.returncode == 1 and r.stderr.startswith("Error: no ledger at") and r.stderr.count("\n") == 1
    r = run(db, "serve", "--port", "0", "--session", "99")
    assert r.returncode == 1 and r.stderr == "Error: no session 99 (see `wiezen sessions`)\n"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = run(db, "serve", "--port", str(port))
    assert r.returncode == 1 and r.stderr == f"Error: port {port} on 127.0.0.1 is in use: give another with --port (0: any free port)\n"


def test_the_qr_code_degrades_without_segno(monkeypatch, capsys):
    import sys

    from wiezen_score.cli.serve import print_qr

    print_qr("http://192.168.1.20:8080/")
    shown = capsys.readouterr().out.splitlines()
    assert len(shown) > 10 and len({len(x) for x in shown}) == 1 and "█" in shown[0]
    monkeypatch.setitem(sys.modules, "segno", None)
    print_qr("http://192.168.1.20:8080/")
    assert capsys.readouterr().out == "  (no QR code: install segno, `pip install segno`, to have one here)\n"


def test_the_page_escapes_what_it_shows():
    from wiezen_score.views.live import live_page

    doc = {"session": {"id": 1, "name": "<script>alert(1)</script>", "date": "2026-11-27", "rules": "whisthub",
                       "players": PLAYERS, "open": True},
           "entries": [{"no": 1, "kind": "penalty", "text": "penalty jan", "dealer": "jan", "multiplier": 1,
                        "points": {"jan": -15, "piet": 5, "mieke": 5, "lotte": 5}, "voided": False,
                        "reason": "<img src=x>"}],
           "totals": {"jan": -15, "piet": 5, "mieke": 5, "lotte": 5}, "dealer": "jan", "sitting_out": [],
           "pending_multiplier": 1, "rounds_owed": {}}
    page = live_page(doc)
    assert "<script>alert" not in page and "<img src=x>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert cards(page) == {"jan": "-15", "piet": "+5", "mieke": "+5", "lotte": "+5"}


def test_only_its_own_host_names_and_no_other_sites_form(db):
    """DNS rebinding: a page of another site that resolves its name to this server gets 421 and no sheet; a form
    posted from another site (its Origin) is refused even with a valid link, and writes nothing."""
    before = dump_record(db)
    with serving(db) as srv:
        port = srv.url.rsplit(":", 1)[1].strip("/")
        status, _, body = srv.get("/", headers={"Host": f"evil.example:{port}"})
        assert status == 421 and b"jan" not in body
        assert srv.get("/sheet.json", headers={"Host": "evil.example"})[0] == 421
        assert srv.get("/", headers={"Host": f"localhost:{port}"})[0] == 200
        status, _, body = srv.post(srv.scorer + "/entry", form("entry", "alleen 5 piet 6"),
                                   {**JSON, "Origin": "http://evil.example"})
        assert status == 403 and json.loads(body) == {"ok": False, "error": "Error: a form of another site is refused: "
                                                                            "nothing was recorded"}
        status, _, body = srv.post(srv.scorer + "/entry", form("pass"), {**JSON, "Origin": srv.url.rstrip("/")})
        assert status == 200 and json.loads(body)["ok"]  # the page's own origin
    assert len(dump_record(db)) > len(before)  # the one from its own page, and only that


def test_refusals_come_as_json_when_the_page_asks_for_json(db):
    with serving(db) as srv:
        base = srv.url.rstrip("/")
        status, headers, body = request(f"{base}/s/not-the-token/entry", data=form("entry", "pas"), headers=JSON)
        assert status == 403 and headers["Content-Type"].startswith("application/json")
        assert json.loads(body) == {"ok": False, "error": "forbidden: only the scorer's link can record (nothing was written)"}
        status, headers, body = request(f"{base}/s/not-the-token/entry", data=form("entry", "pas"),
                                        headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 403 and headers["Content-Type"].startswith("text/plain")
