"""The live sheet in a real browser with a phone's metrics: Debian's chromium driven by chromium-driver (selenium).

Skipped, with the reason, where chromium, chromium-driver or selenium is missing
(`apt-get install chromium chromium-driver`, `pip install ".[test]"`); `.ci/run` installs them.
"""

from __future__ import annotations

import os
import shutil
import time

import pytest
from _serve_helpers import run, serving, sheet_json, start_evening

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
try:
    import selenium  # noqa: F401

    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

MISSING = [what for what, there in (("chromium", CHROMIUM), ("chromium-driver", DRIVER), ("selenium", HAVE_SELENIUM))
           if not there]
if MISSING and os.environ.get("WIEZEN_REQUIRE_BROWSER"):  # .ci/run sets it: there, a skip would hide a failure
    pytest.fail(f"WIEZEN_REQUIRE_BROWSER is set, but {', '.join(MISSING)} is missing", pytrace=False)

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.skipif(DRIVER is None, reason="chromium-driver is not installed (apt-get install chromium-driver)"),
    pytest.mark.skipif(not HAVE_SELENIUM, reason="selenium is not installed (pip install '.[test]')"),
    pytest.mark.slow,
]

WIDTH = 390  # CSS pixels: a common phone


@pytest.fixture
def phone(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={tmp_path / 'profile'}"):
        opts.add_argument(arg)
    opts.add_experimental_option("mobileEmulation", {
        "deviceMetrics": {"width": WIDTH, "height": 844, "pixelRatio": 2.0, "touch": True},
        "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                     "Chrome/120.0 Mobile Safari/537.36",
    })
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def wait_for(predicate, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


OVERFLOW = """
const w = document.documentElement.clientWidth;
const wide = [...document.querySelectorAll('body *')].filter(el => {
  const r = el.getBoundingClientRect(); return r.width > 0 && (r.right > w + 0.5 || r.left < -0.5);
}).map(el => el.tagName + '.' + el.className.baseVal + el.className);
return [w, document.documentElement.scrollWidth, window.innerWidth, wide.slice(0, 5)];
"""


def text(driver, css: str) -> str:
    """The text of the first element matching css, read in one step (the page may swap it at any moment)."""
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : ''", css)


def totals_on_screen(driver) -> dict[str, str]:
    """Each player's total as the phone shows it, only if his card is in the first screen and visible."""
    return driver.execute_script("""
      const out = {};
      for (const card of document.querySelectorAll('.card')) {
        const t = card.querySelector('.total'), r = t.getBoundingClientRect();
        const style = getComputedStyle(t);
        if (r.top >= 0 && r.bottom <= window.innerHeight && r.height > 20 && style.visibility === 'visible'
            && style.display !== 'none') out[card.dataset.player] = t.textContent;
      }
      return out;""")


def test_the_phone_page_fits_shows_every_total_and_follows_a_new_deal(tmp_path, phone):
    db = tmp_path / "club.db"
    start_evening(db)
    totals = sheet_json(db)["totals"]
    with serving(db) as srv:
        phone.get(srv.url)
        assert wait_for(lambda: text(phone, "#status") == "live"), "the page did not go live"
        width, scroll, inner, wide = phone.execute_script(OVERFLOW)
        assert width == WIDTH and inner == WIDTH
        assert scroll <= width and not wide, f"sideways scrolling at {WIDTH} px: {scroll} px wide; {wide}"
        assert totals_on_screen(phone) == {p: f"{v:+d}" if v else "0" for p, v in totals.items()}
        # big enough to read across the table: at least 32 CSS px
        size = phone.execute_script("return parseFloat(getComputedStyle(document.querySelector('.total')).fontSize)")
        assert size >= 32
        # a deal recorded at the scorer's terminal: the page follows it without a reload
        phone.execute_script("window.notReloaded = true")
        assert run(db, "deal", "alleen", "5", "piet", "6").returncode == 0
        new_totals = sheet_json(db)["totals"]
        assert new_totals != totals
        expected = {p: f"{v:+d}" if v else "0" for p, v in new_totals.items()}
        assert wait_for(lambda: totals_on_screen(phone) == expected, 5), totals_on_screen(phone)  # (how fast: benchmarks/room.py)
        assert phone.execute_script("return window.notReloaded") is True
        assert "alleen 5 piet 6" in text(phone, ".recent li")
        assert phone.execute_script(OVERFLOW)[1] <= WIDTH
        # printed: light, the whole sheet as a table (every entry), no live badge
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        printed = phone.execute_script("""
          const bg = getComputedStyle(document.body).backgroundColor;
          const rows = document.querySelectorAll('table.full tbody tr');
          const shown = el => el.getBoundingClientRect().height > 0;
          return [bg, rows.length, shown(document.querySelector('table.full')), shown(document.getElementById('status'))];""")
        assert printed == ["rgb(255, 255, 255)", len(sheet_json(db)["entries"]), True, False], printed
        phone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
        if os.environ.get("WIEZEN_SCREENSHOT"):  # how docs/live-sheet.png is made: after a rondje pas
            assert run(db, "pass").returncode == 0
            assert wait_for(lambda: phone.find_elements("css selector", ".double"))
            phone.save_screenshot(os.environ["WIEZEN_SCREENSHOT"])


def test_the_scorer_records_a_deal_from_the_phone(tmp_path, phone):
    db = tmp_path / "club.db"
    start_evening(db)
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        for word in ("alleen", "5", "piet", "6"):
            phone.find_element("css selector", f'#scorer button[data-w="{word}"]').click()
        assert phone.find_element("id", "line").get_attribute("value") == "alleen 5 piet 6"
        phone.find_element("css selector", '#scorer button[value="entry"]').click()
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 alleen 5 piet 6")), text(phone, "#msg")
        assert wait_for(lambda: "alleen 5 piet 6" in text(phone, ".recent li"))
        width, scroll, _, wide = phone.execute_script(OVERFLOW)
        assert scroll <= width and not wide, wide
    assert [e["text"] for e in sheet_json(db)["entries"]][-1] == "alleen 5 piet 6"



def test_the_scorer_answers_the_question_of_undo_and_settles_from_the_phone(tmp_path, phone):
    """Undo asks first, as at the prompt: the page shows the question; no keeps the entry, yes voids it."""
    db = tmp_path / "club.db"
    start_evening(db)
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        undo = phone.find_element("css selector", '#scorer button[value="undo"]')
        undo.click()
        assert wait_for(lambda: _question(phone)) == "undo #3 troel 8 mieke+lotte 8?"  # the words play asks with
        _choose(phone, "No")
        assert wait_for(lambda: text(phone, "#msg") == "not undone"), text(phone, "#msg")
        assert [e["voided"] for e in sheet_json(db)["entries"]] == [False, False, False]
        undo.click()
        assert wait_for(lambda: _question(phone))
        _choose(phone, "Yes")
        assert wait_for(lambda: text(phone, "#msg") == "voided #3 troel 8 mieke+lotte 8"), text(phone, "#msg")
        assert [e["voided"] for e in sheet_json(db)["entries"]] == [False, False, True]
        # a line of play's that answers in several lines: each on a line of its own
        phone.find_element("id", "line").send_keys("afrekenen")
        phone.find_element("css selector", '#scorer button[value="entry"]').click()
        assert wait_for(lambda: _question(phone).startswith("totals: jan +3, piet +3, mieke -3, lotte -3\n"), 15), repr(_question(phone))
        lines = phone.execute_script("return document.getElementById('panel-text').innerText").splitlines()
        assert lines[0] == "totals: jan +3, piet +3, mieke -3, lotte -3" and len(lines) == 3, lines


def test_the_points_show_while_the_line_is_built_and_nothing_is_written(tmp_path, phone):
    """By hand (rupelstreek, start_evening's three entries): alleen 5 piet 6 is 2 + 1 overtrick: piet +9, the others
    -3 each. Tapped key by key on the phone, the line's points appear before Record, and nothing is recorded."""
    db = tmp_path / "club.db"
    start_evening(db)
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        for word in ("alleen", "5", "piet", "6"):
            phone.find_element("css selector", f'#scorer button[data-w="{word}"]').click()
        assert wait_for(lambda: text(phone, "#preview") == "jan -3, piet +9, mieke -3, lotte -3"), text(phone, "#preview")
        assert len(sheet_json(db)["entries"]) == 3  # shown, not written
        phone.find_element("css selector", '#scorer button[data-k="clear"]').click()
        assert wait_for(lambda: text(phone, "#preview") == "")


def _question(driver) -> str:
    """The text of the page's panel (a question, or a long answer) while it is open, else ''."""
    return driver.execute_script(
        "const p = document.getElementById('panel'); return p.hidden ? '' : p.querySelector('#panel-text').textContent")


def _choose(driver, label: str) -> None:
    next(b for b in driver.find_elements("css selector", "#panel-buttons button") if b.text == label).click()
