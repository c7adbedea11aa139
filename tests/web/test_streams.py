"""The pages' event streams: an update sends only the parts of the sheet that changed, gzip-compressed when the page
accepts it; a page that closes its stream frees its place at once (not at the next keep-alive); the pages and
their JSON are compressed too."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import threading
import time
import zlib

import pytest
from _ledger_helpers import copy_ledger
from _serve_helpers import run, serving, start_evening


@pytest.fixture
def db(ledger_template, tmp_path):
    return copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")


def events_of(text: str) -> list[dict]:
    out = []
    for block in text.split("\n\n"):
        lines = block.split("\n")
        if "event: sheet" in lines:
            out.append(json.loads(next(x for x in lines if x.startswith("data: "))[6:]))
    return out


def test_an_update_sends_what_changed_gzipped(db):
    with serving(db) as srv:
        host, port = srv.url.split("//")[1].strip("/").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        conn.request("GET", "/events", headers={"Accept-Encoding": "gzip, deflate"})
        r = conn.getresponse()
        assert r.status == 200 and r.headers["Content-Encoding"] == "gzip"
        unzip = zlib.decompressobj(31)
        wire: list[int] = []
        text = ""

        def read_until(n: int) -> None:
            nonlocal text
            while len(events_of(text)) < n:
                chunk = r.fp.read1(65536)  # type: ignore[union-attr]
                assert chunk, "the stream ended"
                wire.append(len(chunk))
                text += unzip.decompress(chunk).decode("utf-8")

        read_until(1)
        first_bytes = sum(wire)
        first = events_of(text)[0]
        assert "alleen 5 piet 6" not in first["html"]
        assert run(db, "deal", "alleen", "5", "piet", "6").returncode == 0
        read_until(2)
        second = events_of(text)[1]
        conn.close()
    # the second event carries the parts that changed (totals, the next dealer, the chart, the last deals, the
    # sheet), not the heading, and costs far fewer bytes on the wire than it has in it
    assert "html" not in second and second["n"] > 5 and "0" not in second["parts"]
    assert any("alleen 5 piet 6" in p for p in second["parts"].values())
    raw = len(text.encode("utf-8")) - len(events_of(text)[0]["html"].encode("utf-8"))
    assert sum(wire) - first_bytes < raw / 2, (sum(wire) - first_bytes, raw)


def test_pages_are_gzipped_when_the_browser_takes_it(db):
    with serving(db) as srv:
        status, headers, body = srv.get("/", headers={"Accept-Encoding": "gzip"})
        plain = srv.get("/")[2]
        assert status == 200 and headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in headers["Vary"]
        assert gzip.decompress(body) == plain and len(body) < len(plain) / 2
        status, headers, body = srv.get("/sheet.json", headers={"Accept-Encoding": "gzip;q=0"})
        assert "Content-Encoding" not in headers and json.loads(body)


def test_a_closed_page_frees_its_place_at_once(db, monkeypatch):
    """With no keep-alive for an hour, only the server's looking for the hang-up frees the place."""
    from wiezen_score.web import server as S

    monkeypatch.setattr(S, "KEEPALIVE_SECONDS", 3600)
    srv = S.make_server(str(db), None, "127.0.0.1", 0, read_only=True)
    srv.live.start() if srv.room is None else srv.room.start()
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        port = srv.server_address[1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            got = b""
            while b"event: sheet" not in got:
                got += s.recv(65536)
            assert srv.streams == 1
        deadline = time.monotonic() + 30  # (a bound on the wait: the keep-alive would take an hour)
        while srv.streams and time.monotonic() < deadline:
            time.sleep(0.05)
        assert srv.streams == 0
    finally:
        srv.shutdown()
        srv.shut()
