"""What makes the live pages installable on a phone's home screen: the web app manifest, the icons, the service worker.

Pure presenters: values in, text or bytes out. The icons are drawn here (a PNG is written with zlib, no image
library): four cards in the players' colours on the page's dark background, inside the safe zone of a maskable
icon. The service worker keeps a copy of each page it saw and shows it when the server cannot be reached (the
page then says so itself); it touches nothing else: the event streams, the forms and the previews go to the server.
"""

from __future__ import annotations

import json
import struct
import zlib
from functools import lru_cache

from ..core.i18n import _

__all__ = ["ICON_SIZES", "SERVICE_WORKER", "icon_png", "icon_svg", "manifest"]

ICON_SIZES = (192, 512)
BACKGROUND = (0x11, 0x14, 0x18)
#: the cards: the page's first four player colours (Okabe-Ito), as on the totals
CARDS = ((0xE6, 0x9F, 0x00), (0x56, 0xB4, 0xE9), (0xF0, 0xE4, 0x42), (0xCC, 0x79, 0xA7))


def manifest(start: str, title: str) -> str:
    """The web app manifest of a page at ``start`` (the players' sheet, a table's, or the scorer's link)."""
    icons = [{"src": f"/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png", "purpose": "any maskable"}
             for n in ICON_SIZES] + [{"src": "/icon.svg", "sizes": "any", "type": "image/svg+xml"}]
    return json.dumps({
        "name": title, "short_name": "wiezen", "description": _("The live sheet of the evening"),
        "start_url": start, "scope": "/", "display": "standalone", "orientation": "portrait",
        "background_color": "#111418", "theme_color": "#111418", "icons": icons,
    }, ensure_ascii=False, indent=2) + "\n"


def _boxes(size: int) -> list[tuple[int, int, int, int, tuple[int, int, int]]]:
    """The four cards as (left, top, right, bottom, colour), within the middle 64% (a maskable icon's safe zone)."""
    lo, hi = round(size * 0.18), round(size * 0.82)
    gap = max(2, round(size * 0.04))
    mid = (lo + hi) // 2
    return [(lo, lo, mid - gap // 2, mid - gap // 2, CARDS[0]), (mid + gap // 2, lo, hi, mid - gap // 2, CARDS[1]),
            (lo, mid + gap // 2, mid - gap // 2, hi, CARDS[2]), (mid + gap // 2, mid + gap // 2, hi, hi, CARDS[3])]


@lru_cache(maxsize=4)
def icon_png(size: int) -> bytes:
    """The icon as a PNG of ``size`` x ``size`` pixels (RGB, 8 bits)."""
    bg = bytes(BACKGROUND)
    boxes = _boxes(size)
    rows = []
    for y in range(size):
        row = bytearray(bg * size)
        for left, top, right, bottom, colour in boxes:
            if top <= y < bottom:
                row[left * 3:right * 3] = bytes(colour) * (right - left)
        rows.append(b"\0" + bytes(row))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def icon_svg() -> str:
    """The same icon as SVG (the page's own icon in the browser's tab)."""
    cards = "".join(f'<rect x="{a}" y="{b}" width="{c - a}" height="{d - b}" rx="6" fill="#{bytes(col).hex()}"/>'
                    for a, b, c, d, col in _boxes(192))
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 192 192"><rect width="192" height="192" rx="24" '
            f'fill="#{bytes(BACKGROUND).hex()}"/>{cards}</svg>\n')


SERVICE_WORKER = """
// wiezen's pages: network first; the last copy of a page when the server cannot be reached (the page says so)
var SHELL = "wiezen-pages-1";
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (e) {
  var r = e.request;
  if (r.method !== "GET" || r.mode !== "navigate") return;  // streams, forms, previews: to the server as they are
  e.respondWith(fetch(r).then(function (resp) {
    if (resp.ok) { var copy = resp.clone(); caches.open(SHELL).then(function (c) { c.put(r, copy); }); }
    return resp;
  }, function () {
    return caches.match(r).then(function (kept) { return kept || Response.error(); });
  }));
});
"""
