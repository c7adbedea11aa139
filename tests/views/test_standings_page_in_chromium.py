"""The standings page as a browser shows it: Debian's headless Chromium takes a screenshot, and the pixels must
show the table (its dark green header) and the chart (each player's line in its own colour).

Skipped where `chromium` is not installed (`apt-get install chromium`).
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib

import pytest
from _ledger_helpers import ok

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")

HEADER = (0x1D, 0x3B, 0x2A)  # the table header's background (wiezen_score/render.py)
# The chart's first colours, in the order of the standings (lotte, bert, jan, mieke, piet); bert played one
# evening only, so he is a dot, not a line.
LINES = {"lotte": (0x00, 0x72, 0xB2), "jan": (0x00, 0x9E, 0x73), "mieke": (0xCC, 0x79, 0xA7), "piet": (0x56, 0xB4, 0xE9)}


def read_png(data: bytes) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """Width, height and RGB rows of an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
            bpp = 4 if colour == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp : x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def near(px: tuple[int, int, int], rgb: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px, rgb, strict=False))


def test_chromium_shows_the_table_and_the_chart(tmp_path, make_club):
    db = make_club("club.db")
    page = tmp_path / "standings.html"
    page.write_text(ok(db, "standings", "--format", "html", "--title", "Café De Kroon").stdout, encoding="utf-8")
    shot = tmp_path / "standings.png"
    subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         f"--screenshot={shot}", "--window-size=1000,900", page.as_uri()],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    width, height, rows = read_png(shot.read_bytes())
    assert (width, height) == (1000, 900)
    header_rows = [y for y, row in enumerate(rows) if sum(near(px, HEADER, 6) for px in row) > width // 2]
    assert header_rows, "no table header band in the screenshot"
    table_top = header_rows[0]
    assert table_top < 300
    # every player's line is drawn, below the table
    for player, rgb in LINES.items():
        hits = [(x, y) for y in range(table_top + 40, height) for x, px in enumerate(rows[y]) if near(px, rgb)]
        assert len(hits) > 40, f"{player}'s line is not in the chart"
        xs = {x for x, _ in hits}
        assert max(xs) - min(xs) > 300, f"{player}'s line does not run across the chart"
    # the table's rows: five players between the header and the chart (alternate rows are shaded)
    shaded = [y for y in range(table_top, table_top + 300) if near(rows[y][500], (0xFA, 0xF8, 0xF3), 2)]
    assert shaded, "no shaded table rows"


def test_the_page_prints_on_a4_and_folds_on_a_phone(tmp_path, make_club):
    """Printed to PDF by chromium: A4 portrait (595 x 842 points) with every column; on a 390 px phone the table
    keeps rank, player, points and evenings and nothing scrolls sideways."""
    db = make_club("club.db")
    page = tmp_path / "standings.html"
    page.write_text(ok(db, "standings", "--format", "html").stdout, encoding="utf-8")
    flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}"]
    pdf = tmp_path / "standings.pdf"
    subprocess.run([*flags, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()], check=True,
                   capture_output=True, timeout=120)
    data = pdf.read_bytes()
    boxes = {tuple(round(float(v)) for v in m.groups()) for m in re.finditer(
        rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)}
    assert boxes == {(595, 842)}, boxes  # A4 portrait, every page
    shot = tmp_path / "phone.png"
    subprocess.run([*flags, f"--screenshot={shot}", "--window-size=390,844", page.as_uri()], check=True,
                   capture_output=True, timeout=120)
    width, _height, rows = read_png(shot.read_bytes())
    header = [y for y, row in enumerate(rows) if sum(near(px, HEADER, 6) for px in row) > width // 2]
    assert header, "no table header band across the phone's screen"
