"""The scorer's phone in a real browser (chromium, 390 x 844 mobile emulation), tapped as a scorer would: a bad
connection loses and doubles nothing, a second tap is ignored, the same deal asks "again?", a rondje pas is taken
back with one tap, a half-typed line survives a reload, a past deal is corrected by tapping it, and the evening
ends with its seal on the screen.

By hand (rupelstreek; start_evening leaves jan and piet -5, mieke and lotte +5, lotte to deal, no doubling):
alleen 5 piet 6 is 2 + 1 overtrick: piet +9, the three others -3.
"""

from __future__ import annotations

import os

import pytest
import test_phone_in_chromium as base
from _serve_helpers import run, serving, sheet_json, start_evening
from test_phone_in_chromium import text, wait_for

pytestmark = base.pytestmark  # slow; skipped, with the reason, without chromium, its driver or selenium
phone = base.phone  # the fixture: chromium as a 390 x 844 phone


def tap(driver, css: str) -> None:
    driver.find_element("css selector", css).click()


def taps(driver, *words: str) -> None:
    for w in words:
        tap(driver, f'#scorer button[data-w="{w}"]')


def panel(driver) -> str:
    """The text of the page's question panel while it is open, else ''."""
    return driver.execute_script(
        "const p = document.getElementById('panel'); return p.hidden ? '' : p.querySelector('#panel-text').textContent")


def answer(driver, label: str) -> None:
    for b in driver.find_elements("css selector", "#panel-buttons button"):
        if b.text == label:
            b.click()
            return
    raise AssertionError(f"no button {label!r} in the panel")


def entries(db) -> list[tuple[str, bool]]:
    return [(e["text"], e["voided"]) for e in sheet_json(db)["entries"]]


def shot(driver, name: str) -> None:
    where = os.environ.get("WIEZEN_SHOTS")
    if where:
        driver.save_screenshot(os.path.join(where, name + ".png"))


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "club.db"
    start_evening(path)
    return path


def test_offline_the_line_is_kept_and_sent_when_the_server_answers(db, phone):
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        phone.execute_cdp_cmd("Network.enable", {})
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        taps(phone, "alleen", "5", "piet", "6")
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("The server cannot be reached")), text(phone, "#msg")
        assert phone.find_element("id", "line").get_attribute("value") == "alleen 5 piet 6"  # kept
        shot(phone, "offline")
        assert len(entries(db)) == 3
        # a tap on Record while the line waits is ignored
        phone.execute_script("document.querySelector('#scorer button[value=entry]').click()")
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 alleen 5 piet 6"), 15), text(phone, "#msg")
        assert phone.find_element("id", "line").get_attribute("value") == ""
    assert entries(db)[3:] == [("alleen 5 piet 6", False)]


def test_a_double_tap_records_once_and_the_same_deal_asks_again(db, phone):
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        taps(phone, "alleen", "5", "piet", "6")
        # two taps in the same moment, the second while the first is on its way
        phone.execute_script("const b = document.querySelector('#scorer button[value=entry]'); b.click(); b.click();")
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 alleen 5 piet 6")), text(phone, "#msg")
        assert "good" in phone.find_element("id", "msg").get_attribute("class")
        assert len(entries(db)) == 4
        taps(phone, "alleen", "5", "piet", "6")
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: panel(phone)) == "#4 was the same deal: alleen 5 piet 6. Record it again?"
        shot(phone, "again")
        answer(phone, "No")
        assert wait_for(lambda: text(phone, "#msg") == "not recorded") and len(entries(db)) == 4
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: panel(phone))
        answer(phone, "Yes")
        assert wait_for(lambda: text(phone, "#msg").startswith("#5 alleen 5 piet 6")), text(phone, "#msg")
    assert entries(db)[3:] == [("alleen 5 piet 6", False), ("alleen 5 piet 6", False)]


def test_a_rondje_pas_is_taken_back_with_one_tap(db, phone):
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        tap(phone, '#scorer button[value="pass"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 pas")), text(phone, "#msg")
        tap(phone, "#msg button")
        assert wait_for(lambda: text(phone, "#msg") == "voided #4 pas"), text(phone, "#msg")
    assert entries(db)[3:] == [("pas", True)]


def test_a_half_typed_line_survives_a_reload(db, phone):
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        taps(phone, "alleen", "5", "piet")
        phone.refresh()
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert phone.find_element("id", "line").get_attribute("value") == "alleen 5 piet"
        taps(phone, "6")
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 alleen 5 piet 6")), text(phone, "#msg")
        phone.refresh()
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert phone.find_element("id", "line").get_attribute("value") == ""


def test_a_past_deal_is_corrected_or_explained_by_tapping_it_and_the_evening_ends_with_its_seal(db, phone):
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        phone.execute_script("document.querySelector('.recent li[data-no=\"1\"]').scrollIntoView()")
        tap(phone, '.recent li[data-no="1"]')
        assert wait_for(lambda: panel(phone)) == "#1 samen 8 jan+piet 9"
        answer(phone, "Explain")
        assert wait_for(lambda: panel(phone).startswith("#1 samen 8 jan+piet 9 (session 1")), panel(phone)
        answer(phone, "Close")
        tap(phone, '.recent li[data-no="1"]')
        answer(phone, "Correct it")
        assert phone.find_element("id", "line").get_attribute("value") == "samen 8 jan+piet 9"
        assert text(phone, "#mode-text").startswith("Correcting #1")
        tap(phone, '#scorer button[data-k="back"]')
        taps(phone, "8")
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: panel(phone)) == "amend #1 samen 8 jan+piet 9 -> samen 8 jan+piet 8?"
        answer(phone, "Yes")
        assert wait_for(lambda: "(amended)" in text(phone, "#msg")), text(phone, "#msg")
        assert phone.execute_script("return document.getElementById('mode').hidden") is True
        # a penalty: the button, the player, the kind
        tap(phone, '#scorer button[data-k="penalty"]')
        taps(phone, "mieke", "renonce")
        assert phone.find_element("id", "line").get_attribute("value") == "penalty mieke renonce"
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("#4 penalty mieke")), text(phone, "#msg")
        # the end, with a confirmation and the cents a point
        tap(phone, '#scorer button[data-k="end"]')
        assert wait_for(lambda: panel(phone)).startswith("end session 1")
        phone.find_element("id", "cents").send_keys("10")
        answer(phone, "Yes")
        assert wait_for(lambda: panel(phone) == "The evening has ended. Its seal:"), panel(phone)
        seal = text(phone, "#seal")
        size = phone.execute_script("return parseFloat(getComputedStyle(document.getElementById('seal')).fontSize)")
        assert size >= 36  # large enough to photograph
        shot(phone, "seal")
        paid = phone.execute_script("return [...document.querySelectorAll('.paid li')].map(li => li.textContent)")
    doc = sheet_json(db)
    # by hand: #1 amended to samen 8 made exactly (+2 jan, piet), #3 troel 8 doubled (mieke, lotte +8), mieke's
    # penalty -15 (+5 to each other): jan +2-8+5 = -1, piet -1, mieke -2+8-15 = -9, lotte -2+8+5 = +11
    assert doc["totals"] == {"jan": -1, "piet": -1, "mieke": -9, "lotte": 11}
    assert seal and run(db, "check", "--session", "1", "--seal", seal).returncode == 0  # the seal vouches for it
    assert sorted(paid) == sorted(["jan pays lotte 1 (€0.10)", "piet pays lotte 1 (€0.10)", "mieke pays lotte 9 (€0.90)"])


PLACES = """
const at = el => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.bottom)]; };
return {line: at(document.getElementById('line')), record: at(document.querySelector('#scorer button[value=entry]')),
        nine: at(document.querySelector('#scorer button[data-w="9"]')),
        last: at(document.querySelector('#scorer .actions button:last-child')), height: window.innerHeight};
"""

SMALL_OR_NAMELESS = """
const out = [];
for (const b of document.querySelectorAll('#scorer button, #scorer input:not([type=hidden]), #panel button')) {
  const r = b.getBoundingClientRect();
  if (r.width === 0) continue;  // not shown
  const name = (b.getAttribute('aria-label') || b.textContent || '').trim();
  if (r.width < 44 || r.height < 44 || !name) out.push([b.outerHTML.slice(0, 60), r.width, r.height, name]);
}
return out;
"""

COVERED = """
const s = document.getElementById('status').getBoundingClientRect(), out = [];
for (const el of document.querySelectorAll('body *')) {
  if (el.id === 'status' || el.contains(document.getElementById('status'))) continue;
  if (![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;  // only what shows text
  const r = el.getBoundingClientRect();
  if (r.width && r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top) out.push(el.outerHTML.slice(0, 60));
}
return out;
"""


def test_the_builder_fits_the_first_screen_and_stays_put(tmp_path, phone):
    """whisthub's samen has levels 8 to 13: samen, 8, jan, piet, 9, Record is a deal with partner in six taps."""
    db = tmp_path / "club.db"
    run(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "whisthub")
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        empty = phone.execute_script(PLACES)
        assert empty["last"][2] <= empty["height"] == 844, empty  # every key and action in the first screen
        assert phone.find_element("id", "line").get_attribute("placeholder") == "samen 8 jan+piet 9"
        for key in ("samen", "8", "jan", "piet", "9"):
            taps(phone, key)
        tap(phone, '#scorer button[value="entry"]')  # the sixth tap
        assert wait_for(lambda: text(phone, "#msg").startswith("#1 samen 8 jan+piet 9")), text(phone, "#msg")
        assert phone.execute_script(SMALL_OR_NAMELESS) == []
        assert phone.execute_script(COVERED) == []
        for i in range(10):  # updates that arrive from elsewhere: nothing of the builder moves
            assert run(db, "deal", "alleen", "5", "piet", str(6 + i % 3)).returncode == 0
        assert wait_for(lambda: text(phone, ".recent li .no") == "#11"), text(phone, ".recent li .no")
        assert phone.execute_script(PLACES) == empty
        assert phone.execute_script(COVERED) == []
        shot(phone, "ten-deals")
        tap(phone, '#scorer button[value="undo"]')  # the panel's buttons too
        assert wait_for(lambda: panel(phone))
        assert phone.execute_script(SMALL_OR_NAMELESS) == []
        answer(phone, "No")
        # the players' page: the live label covers nothing, at the top and further down
        phone.get(srv.url)
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert phone.execute_script(COVERED) == []
        phone.execute_script("window.scrollTo(0, 400)")
        assert phone.execute_script(COVERED) == []


def test_a_page_the_full_server_refused_tries_again_by_itself(db, phone, monkeypatch):
    """One place only, taken by another page: this page is refused (503) and says so; when the other page closes,
    its place is free at once and this page goes live without a reload."""
    import socket
    import threading

    from wiezen_score.web import server as S

    monkeypatch.setattr(S, "MAX_STREAMS", 1)
    srv = S.make_server(str(db), None, "127.0.0.1", 0, read_only=True)
    srv.room.start()
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        port = srv.server_address[1]
        other = socket.create_connection(("127.0.0.1", port), timeout=10)
        other.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        assert b"200" in other.recv(100)
        phone.get(f"http://127.0.0.1:{port}/")
        phone.execute_script("window.notReloaded = true")
        assert wait_for(lambda: text(phone, "#status") == "reconnecting…"), text(phone, "#status")
        other.close()
        assert wait_for(lambda: text(phone, "#status") == "live", 20), text(phone, "#status")
        assert phone.execute_script("return window.notReloaded") is True
    finally:
        srv.shutdown()
        srv.shut()


def test_the_page_is_installable_and_opens_without_the_server(db, phone):
    """On 127.0.0.1 (a secure context, as HTTPS would be): the service worker takes the page, chromium finds nothing
    against installing it, and with the network gone the page still opens (its last copy) and says it is not live."""
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert wait_for(lambda: phone.execute_script("return !!navigator.serviceWorker.controller"), 15)
        errors = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {})
        assert errors.get("installabilityErrors") == [], errors
        manifest = phone.execute_cdp_cmd("Page.getAppManifest", {})
        assert manifest.get("errors") == [] and '"start_url": "/s/' in manifest.get("data", ""), manifest
        taps(phone, "alleen", "5")
        phone.execute_cdp_cmd("Network.enable", {})
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        phone.refresh()
        assert wait_for(lambda: phone.find_elements("css selector", "#scorer .keys button"))
        assert phone.find_element("id", "line").get_attribute("value") == "alleen 5"  # what was typed, kept
        assert text(phone, "#status") != "live"
        shot(phone, "offline-shell")
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        assert wait_for(lambda: text(phone, "#status") == "live", 20)  # and follows the evening again by itself


def test_every_phone_keeps_the_seal_and_later_shows_whether_it_still_holds(db, phone):
    with serving(db) as srv:
        phone.get(srv.url)  # a player's page, following the evening
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert phone.execute_script("return document.getElementById('witnessed').hidden") is True
        assert run(db, "session", "end").returncode == 0
        seal = sheet_json(db)["session"]["seal"]
        assert wait_for(lambda: text(phone, "#witnessed .code") == seal), text(phone, "#witnessed")
        assert wait_for(lambda: text(phone, "#witnessed .verdict").startswith("✓ the ledger still holds"))
        port = srv.url.rsplit(":", 1)[1].strip("/")
    # days later, the same phone opens the page again (another evening is open by then; the same address: what a
    # page keeps on the phone belongs to its address)
    assert run(db, "session", "start", "--players", "an,bert,carla,dirk").returncode == 0
    with serving(db, "--port", port) as srv:
        phone.get(srv.url)
        assert wait_for(lambda: text(phone, "#witnessed .verdict").startswith("✓")), text(phone, "#witnessed")
        assert text(phone, "#witnessed li span").startswith("Café De Kroon · ")
        phone.execute_script("document.getElementById('witnessed').scrollIntoView()")
        shot(phone, "witnessed")


def test_in_dutch_the_builder_fits_too(tmp_path, phone):
    """A phone that asks for Dutch gets the page in Dutch; its longer words still fit the first screen."""
    db = tmp_path / "club.db"
    run(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "whisthub")
    phone.execute_cdp_cmd("Network.enable", {})
    phone.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "nl-BE,nl;q=0.9"}})
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        assert phone.execute_script("return document.documentElement.lang") == "nl"
        assert text(phone, '#scorer button[data-k="end"]') == "Avond beëindigen"
        places = phone.execute_script(PLACES)
        assert places["last"][2] <= places["height"], places
        assert phone.execute_script(SMALL_OR_NAMELESS) == [] and phone.execute_script(COVERED) == []
        shot(phone, "dutch")
        taps(phone, "samen", "8", "jan", "piet", "9")
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("#1 samen 8 jan+piet 9")), text(phone, "#msg")
        tap(phone, '#scorer button[data-k="penalty"]')
        taps(phone, "jan", "renonce")
        assert phone.find_element("id", "line").get_attribute("value") == "straf jan renonce"
        tap(phone, '#scorer button[value="entry"]')
        assert wait_for(lambda: text(phone, "#msg").startswith("#2 straf jan")), text(phone, "#msg")
        tap(phone, '#scorer button[data-k="end"]')
        assert wait_for(lambda: panel(phone)).startswith("sessie 1 (jan, piet, mieke, lotte) afsluiten?"), panel(phone)
        assert phone.find_element("css selector", "#panel-more label").text == "Cent per punt (voor de betalingen)"


def test_the_player_keys_follow_a_player_who_joins_or_leaves(db, phone):
    keys = "Array.from(document.querySelectorAll('#scorer .keys.players button')).map(b => b.textContent)"
    with serving(db) as srv:
        phone.get(srv.scorer)
        assert wait_for(lambda: text(phone, "#status") == "live")
        before = phone.execute_script("return " + keys)
        assert "kris" not in before
        assert run(db, "session", "join", "kris").returncode == 0  # (another process, as a second scorer)
        assert wait_for(lambda: "kris" in phone.execute_script("return " + keys), 10), phone.execute_script("return " + keys)
        taps(phone, "alleen", "5", "kris", "6")  # the new key works: the line takes him
        assert phone.find_element("id", "line").get_attribute("value") == "alleen 5 kris 6"
        assert run(db, "session", "leave", before[0]).returncode == 0
        assert wait_for(lambda: before[0] not in phone.execute_script("return " + keys), 10)
