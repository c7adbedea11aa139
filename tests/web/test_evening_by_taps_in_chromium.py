"""A whole evening on the scorer's phone, by taps, in chromium as a 390 x 844 phone: 30 entries with a correction,
a penalty and a rondje pas, then the end with its seal. The sheet it leaves is the one `wiezen play` leaves for the
same lines typed at the prompt (one engine), every entry sums to zero, and the page's weight and the bytes an
update costs are measured (benchmarks/README.md; WIEZEN_SHOTS=DIR keeps the screenshots and the figures there).
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import zlib

import test_phone_in_chromium as base
from _ledger_helpers import ok, sheet, wz
from _serve_helpers import serving
from test_phone_in_chromium import text, wait_for

pytestmark = base.pytestmark
phone = base.phone

PLAYERS = ["jan", "piet", "mieke", "lotte"]
# 27 deals, a rondje pas (entry 10) and a penalty (entry 20): 29 entries; the 30th is entry 25 played again
DEALS = [
    "samen 8 jan+piet 9", "alleen 5 mieke 6", "troel 8 piet+lotte 9", "samen 8 mieke+lotte 8", "grote-miserie jan 0",
    "alleen 5 lotte 4", "samen 8 jan+mieke 10", "abondance 9 piet 9", "samen 8 piet+lotte 7",
    "PAS",
    "alleen 5 jan 7", "samen 8 jan+lotte 9", "open-miserie mieke 0", "samen 8 piet+mieke 11", "alleen 5 piet 5",
    "troel 8 jan+mieke 10", "samen 8 jan+piet 8", "abondance 10 lotte 11", "samen 8 mieke+lotte 9",
    "PENALTY lotte",
    "alleen 5 mieke 5", "samen 8 jan+piet 12", "grote-miserie piet 1", "samen 8 jan+lotte 8", "alleen 5 jan 6",
    "samen 8 piet+mieke 9", "abondance 9 jan 10", "samen 8 mieke+lotte 10", "alleen 5 lotte 6",
]
AMEND = (25, "alleen 5 jan 8")  # entry 25 (alleen 5 jan 6) corrected: jan made 8, not 6


def tap(driver, css: str) -> None:
    """A tap on what ``css`` finds (found again when an update swapped it between finding and tapping)."""
    from selenium.common.exceptions import StaleElementReferenceException

    for _try in range(5):
        try:
            driver.find_element("css selector", css).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{css}: swapped away five times in a row")


def panel(driver) -> str:
    return driver.execute_script(
        "const p = document.getElementById('panel'); return p.hidden ? '' : p.querySelector('#panel-text').textContent")


def answer(driver, label: str) -> None:
    next(b for b in driver.find_elements("css selector", "#panel-buttons button") if b.text == label).click()


def record(driver, no: int) -> None:
    tap(driver, '#scorer button[value="entry"]')
    assert wait_for(lambda: text(driver, "#msg").startswith(f"#{no} "), 15), (no, text(driver, "#msg"))


def build(driver, line: str) -> None:
    """Tap the keys of a deal line: players of a team one after the other (the page joins them with +)."""
    for word in line.split():
        for w in word.split("+"):
            tap(driver, f'#scorer button[data-w="{w}"]')
    assert driver.find_element("id", "line").get_attribute("value") == line


class Listener(threading.Thread):
    """A second page's event stream, gzipped as a browser takes it: the bytes on the wire for every update."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        host, port = url.split("//")[1].strip("/").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=60)
        self.wire: list[int] = []  # compressed bytes per event
        self.raw: list[int] = []  # the same, uncompressed
        self.stop = False
        self.ended = False  # an update of the ended evening (its seal) came

    def run(self) -> None:
        self.conn.request("GET", "/events", headers={"Accept-Encoding": "gzip"})
        r = self.conn.getresponse()
        unzip, pending, got = zlib.decompressobj(31), 0, ""
        try:
            while not self.stop:
                chunk = r.fp.read1(65536)  # type: ignore[union-attr]
                if not chunk:
                    return
                pending += len(chunk)
                got += unzip.decompress(chunk).decode("utf-8")
                while "\n\n" in got:
                    block, got = got.split("\n\n", 1)
                    if "event: sheet" in block:
                        self.ended = self.ended or '"sealed":' in block
                        self.wire.append(pending)
                        self.raw.append(len(block.encode("utf-8")) + 2)
                        pending = 0
        except OSError:
            return


def test_a_whole_evening_by_taps(tmp_path, phone):
    db, typed = tmp_path / "phone.db", tmp_path / "play.db"
    for path in (db, typed):
        ok(path, "session", "start", "--players", ",".join(PLAYERS), "--rules", "rupelstreek", "--name", "Café De Kroon")
    shots = os.environ.get("WIEZEN_SHOTS")
    with serving(db) as srv:
        listener = Listener(srv.url)
        listener.start()
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        nav = phone.execute_script("const n = performance.getEntriesByType('navigation')[0]; "
                                   "return [n.transferSize, n.encodedBodySize, n.decodedBodySize]")
        for no, line in enumerate(DEALS, 1):
            if line == "PAS":
                tap(phone, '#scorer button[value="pass"]')
                assert wait_for(lambda no=no: text(phone, "#msg").startswith(f"#{no} pas"))
            elif line.startswith("PENALTY"):
                tap(phone, '#scorer button[data-k="penalty"]')
                tap(phone, f'#scorer button[data-w="{line.split()[1]}"]')
                tap(phone, '#scorer button[data-w="renonce"]')
                record(phone, no)
            else:
                build(phone, line)
                record(phone, no)
            if no == 12 and shots:
                phone.save_screenshot(os.path.join(shots, "evening-12.png"))
        # entry 30: a deal played again, and the same one asks first
        build(phone, DEALS[-1])
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: panel(phone)).startswith("#29 was the same deal")
        answer(phone, "Yes")
        assert wait_for(lambda: text(phone, "#msg").startswith("#30 "), 15), text(phone, "#msg")
        # the correction: entry 25 tapped on the sheet (once the sheet shows entry 30: the list stands still), its
        # tricks changed
        assert wait_for(lambda: text(phone, ".recent li .no") == "#30", 15)
        no, line = AMEND
        phone.execute_script(f"document.querySelector('.recent li[data-no=\"{no}\"]').scrollIntoView()")
        tap(phone, f'.recent li[data-no="{no}"]')
        answer(phone, "Correct it")
        tap(phone, '#scorer button[data-k="back"]')
        tap(phone, f'#scorer button[data-w="{line.split()[-1]}"]')
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: panel(phone)).startswith(f"amend #{no} ")
        answer(phone, "Yes")
        assert wait_for(lambda: "(amended)" in text(phone, "#msg"), 15), text(phone, "#msg")
        if shots:
            phone.save_screenshot(os.path.join(shots, "evening-30.png"))
        fetched = phone.execute_script("""
          const out = {entry: [0, 0], preview: [0, 0]};
          for (const r of performance.getEntriesByType('resource')) {
            const k = r.name.includes('/entry') ? 'entry' : r.name.includes('/preview') ? 'preview' : null;
            if (k) { out[k][0] += 1; out[k][1] += r.transferSize; }
          }
          return out;""")
        tap(phone, '#scorer button[data-k="end"]')
        assert wait_for(lambda: panel(phone)).startswith("end session 1")
        phone.find_element("id", "cents").send_keys("5")
        answer(phone, "Yes")
        assert wait_for(lambda: text(phone, "#seal"), 15)
        if shots:
            phone.save_screenshot(os.path.join(shots, "evening-end.png"))
        paid = phone.execute_script("return [...document.querySelectorAll('.paid li')].map(li => li.textContent)")
        # the first sheet, then an update per change the poller saw (two commits within its quarter second: one)
        assert wait_for(lambda: listener.ended, 15)
        listener.stop = True
        listener.conn.close()
    # the same lines typed at the prompt leave the same sheet
    lines = [{"PAS": "pas"}.get(x, x) for x in DEALS] + [DEALS[-1], f"amend {AMEND[0]} {AMEND[1]}", "end"]
    lines = ["penalty lotte renonce" if x.startswith("PENALTY") else x for x in lines]  # (a pipe: no y/N asked)
    r = wz(typed, "play", input="\n".join(lines) + "\n")
    assert r.exit_code == 0, r.stderr
    mine, theirs = sheet(db), sheet(typed)
    assert [(e["text"], e["points"], e["voided"]) for e in mine["entries"]] == [
        (e["text"], e["points"], e["voided"]) for e in theirs["entries"]]
    assert mine["totals"] == theirs["totals"] and not mine["session"]["open"]
    counting = [e for e in mine["entries"] if not e["voided"]]
    assert len(counting) == 30 and all(sum(e["points"].values()) == 0 for e in mine["entries"])
    assert counting[AMEND[0] - 1]["text"] == AMEND[1]
    assert paid and all("(€" in p for p in paid)
    updates = listener.wire[1:]
    figures = {
        "page": {"transfer": nav[0], "gzipped body": nav[1], "body": nav[2]},
        "update per entry (median)": {"gzipped": sorted(updates)[len(updates) // 2],
                                      "uncompressed": sorted(listener.raw[1:])[len(updates) // 2],
                                      "first sheet gzipped": listener.wire[0], "first sheet": listener.raw[0],
                                      "updates": len(updates), "all updates gzipped": sum(updates),
                                      "all updates uncompressed": sum(listener.raw[1:])},
        "form posts": {"count": fetched["entry"][0], "bytes": fetched["entry"][1]},
        "previews": {"count": fetched["preview"][0], "bytes": fetched["preview"][1]},
    }
    if shots:
        with open(os.path.join(shots, "evening-figures.json"), "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    # an update costs a fraction of the sheet it carries (only what changed, gzipped in one stream)
    assert figures["update per entry (median)"]["gzipped"] < figures["update per entry (median)"]["uncompressed"] / 3
