"""The scorer's phone in Dutch, in a real browser with a phone's metrics (issue 25, item 7): no button label broken
in the middle of a word ("Schrijve|n"), and the form's examples are lines the session's house rules take, in Dutch
words (the placeholder "samen 8 jan+piet 9" under rupelstreek, whose samen has level 8 only; "straf jan renonce").

Skipped like tests/test_serve_chromium.py where chromium, chromium-driver or selenium is missing.
"""

from __future__ import annotations

import pytest
import test_phone_in_chromium as browser
from _serve_helpers import serving, start_evening

from wiezen_score.core.deal import parse_deal
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import parse_rules

pytestmark = browser.pytestmark  # skipped where the browser is missing, and slow
phone = browser.phone  # the fixture: chromium with a phone's metrics
text, wait_for = browser.text, browser.wait_for

#: every word of every button of the form that the browser broke over two lines: [label, word]
BROKEN_WORDS = """
const out = [];
for (const b of document.querySelectorAll('#scorer button')) {
  const node = [...b.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
  if (!node || b.getBoundingClientRect().width === 0) continue;
  const re = /\\S+/g; let m;
  while ((m = re.exec(node.textContent)) !== null) {
    const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
    const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
    if (tops.size > 1) out.push([b.textContent, m[0]]);
  }
}
return out;
"""


@pytest.mark.parametrize("width", [320, 390])
def test_no_button_of_the_dutch_form_breaks_a_word(tmp_path, phone, width):
    db = tmp_path / "club.db"
    start_evening(db)
    with serving(db, "--lang", "nl") as srv:
        phone.get(srv.scorer)
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        assert wait_for(lambda: text(phone, "#status") == "live")
        labels = [b.text for b in phone.find_elements("css selector", "#scorer button")]
        assert "Schrijven" in labels  # the page is Dutch
        assert phone.execute_script("return document.documentElement.clientWidth") == width
        assert phone.execute_script(BROKEN_WORDS) == []


def test_the_examples_are_lines_the_house_rules_take_in_dutch(tmp_path, phone):
    db = tmp_path / "club.db"
    start_evening(db)  # rupelstreek: samen at level 8 only
    with serving(db, "--lang", "nl") as srv:
        phone.get(srv.scorer)
        line = phone.find_element("id", "line")
        placeholder = line.get_attribute("placeholder")
        assert line.get_attribute("aria-label") == "Spellijn"
        hint = text(phone, "#scorer .meta")
    rules = parse_rules(preset_text("rupelstreek"), "rupelstreek")
    players = ("jan", "piet", "mieke", "lotte")
    assert parse_deal(placeholder, rules, players).text == placeholder  # a line these house rules take
    assert placeholder in hint and "straf jan renonce" in hint and "penalty" not in hint
