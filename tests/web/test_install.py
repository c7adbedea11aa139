"""The pages are installable: a web app manifest linked from each page (its start the page itself), icons, a
service worker; all of it from the server itself, made in memory."""

from __future__ import annotations

import json
import re
import struct
import zlib

import pytest
from _ledger_helpers import copy_ledger
from _serve_helpers import request, serving, start_evening


@pytest.fixture
def db(ledger_template, tmp_path):
    return copy_ledger(ledger_template("serve-evening", lambda path, _: start_evening(path)), tmp_path / "club.db")


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, after checking its signature and every chunk's CRC."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, size = 8, (0, 0)
    while at < len(data):
        (n,) = struct.unpack(">I", data[at:at + 4])
        tag, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        assert struct.unpack(">I", data[at + 8 + n:at + 12 + n])[0] == zlib.crc32(tag + body)
        if tag == b"IHDR":
            size = struct.unpack(">II", body[:8])
        at += 12 + n
    return size


def test_every_page_links_a_manifest_that_starts_at_itself(db):
    with serving(db) as srv:
        base = srv.url.rstrip("/")
        token = srv.scorer.rsplit("/", 1)[1]
        for page, start in ((base + "/", "/"), (srv.scorer, f"/s/{token}")):
            html = request(page)[2].decode()
            href = re.search(r'<link rel="manifest" href="([^"]+)">', html).group(1)
            status, headers, body = request(base + href)
            assert status == 200 and headers["Content-Type"].startswith("application/manifest+json")
            m = json.loads(body)
            assert m["start_url"] == start and m["display"] == "standalone" and m["name"] == "Café De Kroon: the live sheet"
            sizes = set()
            for icon in m["icons"]:
                assert icon["src"].startswith("/")  # the server's own
                status, headers, data = request(base + icon["src"])
                assert status == 200 and headers["Content-Type"].split(";")[0] == icon["type"]
                if icon["type"] == "image/png":
                    w, h = png_size(data)
                    assert f"{w}x{h}" == icon["sizes"]
                    sizes.add(w)
            assert {192, 512} <= sizes
        status, headers, body = request(base + "/sw.js")
        assert status == 200 and headers["Content-Type"].startswith("text/javascript") and b"fetch" in body
        assert b"http" not in body  # it asks nothing of anybody else
        assert request(base + "/s/not-the-token/manifest.webmanifest")[0] == 403
        csp = request(base + "/")[1]["Content-Security-Policy"]
        assert "manifest-src 'self'" in csp and "worker-src 'self'" in csp and "default-src 'none'" in csp
