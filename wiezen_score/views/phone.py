"""The scorer's phone (`wiezen serve`'s scorer's link): its form, the keys that build a line, its style and script.

Pure presenters, strings in and strings out. The form sits at the top of the page, under a strip of compact totals
of a fixed height, so that neither the keys nor the line move when the sheet below is updated. The script
(:data:`PHONE_SCRIPT`, one constant: its words come in the form's ``data-words``) keeps a half-typed line in the
phone's storage, keeps a line the server did not answer and sends it again with the same nonce until it does,
ignores a second tap while a line is on its way, asks its questions in a panel of the page, and shows the seal
when the evening ends.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.deal import AGREED_TIMES
from ..core.i18n import N_, _
from ..core.numbers import signed

__all__ = ["PHONE_CSS", "PHONE_SCRIPT", "confirm_form", "example_line", "scorer_form", "strip", "witnessed"]


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def example_line(contracts: Sequence[Any], players: Sequence[str]) -> str:
    """A deal line the house rules take, for the line's placeholder: their first contract with a partner at its
    lowest level (``samen 8 jan+piet 9`` where samen has only level 8), else their first contract played alone."""
    a, b = (list(players) + ["jan", "piet"])[:2]
    for c in contracts:
        levels = getattr(c, "levels", ())
        if getattr(c, "team", False) and levels:
            return f"{c.name} {levels[0]} {a}+{b} {min(13, levels[0] + 1)}"
    for c in contracts:
        levels = getattr(c, "levels", ())
        if levels:
            return f"{c.name} {levels[0]} {a} {levels[0]}"
    return f"{contracts[0].name} {a} 0" if contracts else ""


def strip(doc: Mapping[str, Any]) -> str:
    """The compact totals above the scorer's keys: one cell per player, the dealer marked (one line, fixed height)."""
    s = doc["session"]
    cells = []
    for p in s["players"]:
        v = doc["totals"].get(p, 0)
        cls = "pos" if v > 0 else "neg" if v < 0 else "zero"
        deals = ' class="dealer"' if s["open"] and p == doc.get("dealer") else ""
        cells.append(f'<li{deals}><span class="n">{_e(p)}</span> <b class="{cls}">{_e(signed(v))}</b></li>')
    return "".join(cells)


#: the words the script says, by key (sent in the form's data-words, in the page's language)
WORDS = {
    "offline": N_("The server cannot be reached: the line is kept and sent as soon as it answers."),
    "off": N_("offline"),
    "sending": N_("sending…"),
    "yes": N_("Yes"),
    "no": N_("No"),
    "close": N_("Close"),
    "correct": N_("Correct it"),
    "explain": N_("Explain"),
    "correcting": N_("Correcting #{number}: build the line, then Record"),
    "takeback": N_("Take back"),
    "cents": N_("Cents a point (for the payments)"),
    "ended": N_("The evening has ended. Its seal:"),
    "sealnote": N_("Photograph it: with the seal, `wiezen check` proves this evening later."),
}


def scorer_form(action: str, nonce: str, players: Sequence[str], contracts: Sequence[str], message: str,
                example: str) -> str:
    """The builder: the line and Record, the points it would record, the keys, the other actions."""

    def key(word: str, cls: str, label: str = "") -> str:
        aria = f' aria-label="{_e(label)}"' if label else ""
        return f'<button type="button" class="{cls}" data-w="{_e(word)}"{aria}>{_e(word)}</button>'

    penalty = _("penalty {player}").format(player="").strip()  # the word of a penalty line: straf in Dutch
    words = json.dumps({**{k: _(v) for k, v in WORDS.items()}, "penalty": penalty}, ensure_ascii=False)
    contract_keys = "".join(key(c, "word") for c in contracts)
    player_keys = "".join(key(p, "player") for p in players)
    number_keys = "".join(key(str(n), "num") for n in range(14))  # (a level or the tricks: the number says it)
    number_keys += "".join(key(f"x{n}", "word", _("the deal counts {n} times (by agreement)").format(n=n))
                           for n in AGREED_TIMES)  # a deal doubled by agreement: at the end of its line
    penalty_keys = key("renonce", "word") + key("round", "word", _("a round instead of points"))
    buttons = (
        '<button type="submit" name="action" value="pass">Rondje pas</button>'
         '<button type="submit" name="action" value="redeal">' + _e(_("Redeal")) + '</button>'
         '<button type="button" data-k="penalty">' + _e(_("Penalty")) + '</button>'
         '<button type="submit" name="action" value="undo">' + _e(_("Undo last")) + '</button>'
         '<button type="button" data-k="settle">' + _e(_("Settle")) + '</button>'
         '<button type="button" data-k="end" class="end">' + _e(_("End the evening")) + '</button>')
    help_text = _e(_("Type or tap a deal line ({examples}); tapping two players joins them with +. Tap a deal of the "
                     "sheet to correct it or to see how it was scored.")).format(
        examples=f"<i>{_e(example)}</i>, <i>{_e(penalty)} {_e(players[0] if players else 'jan')} renonce</i>")
    return (
        '<form class="scorer" id="scorer" method="post" action="' + _e(action) + '" data-players="'
        + _e(" ".join(players)) + '" data-words="' + _e(words) + '" aria-label="' + _e(_("Scorer")) + '">'
        '<p class="mode" id="mode" hidden><span id="mode-text"></span> <button type="button" data-k="cancel">'
        + _e(_("Cancel")) + '</button></p>'
        '<div class="line-row"><input id="line" name="line" autocomplete="off" autocapitalize="none" '
        'spellcheck="false" placeholder="' + _e(example) + '" aria-label="' + _e(_("Deal line")) + '">'
        '<button type="submit" class="go" name="action" value="entry">' + _e(_("Record")) + '</button></div>'
        '<p class="preview" id="preview" aria-live="polite"></p>'
        '<p class="msg" id="msg" role="status">' + _e(message) + '</p>'
        '<div class="keys contracts">' + contract_keys + '</div>'
        '<div class="keys players">' + player_keys + '</div>'
        '<div class="keys penalty" id="penalty-keys" hidden>' + penalty_keys + '</div>'
        '<div class="keys numbers">' + number_keys
        + '<button type="button" data-k="back" aria-label="' + _e(_("Remove the last word")) + '">⌫</button>'
        '<button type="button" data-k="clear">' + _e(_("clear")) + '</button></div>'
        '<div class="actions">' + buttons + '</div>'
        '<input type="hidden" name="nonce" value="' + _e(nonce) + '">'
        '<p class="meta help">' + help_text + '</p></form>'
        '<div class="panel" id="panel" role="alertdialog" aria-modal="true" aria-labelledby="panel-text" hidden>'
        '<div class="box"><p id="panel-text"></p><div id="panel-more"></div><div class="actions" id="panel-buttons">'
        '</div></div></div>'
    )


#: the words of the evenings a phone witnessed (every live page lists them)
WITNESS_WORDS = {
    "checking": N_("checking the ledger…"),
    "holds": N_("the ledger still holds exactly what this seal vouches for"),
    "unchecked": N_("not checked: the server cannot be reached"),
}


def witnessed() -> str:
    """The list of the evenings this phone followed to their end, with their seals (the script fills it from the
    phone's storage, and asks the server whether each seal still holds)."""
    words = json.dumps({k: _(v) for k, v in WITNESS_WORDS.items()}, ensure_ascii=False)
    return ('<section class="witnessed" id="witnessed" hidden data-words="' + _e(words) + '"><h2>'
            + _e(_("Evenings this phone witnessed")) + '</h2><ul></ul></section>')


def confirm_form(action: str, nonce: str, form_action: str, line: str, expect: int) -> str:
    """The yes to a question (undo, amend, end): the same form again with confirm=1 and the question's expect."""
    hidden = "".join(f'<input type="hidden" name="{_e(k)}" value="{_e(v)}">' for k, v in (
        ("action", form_action), ("line", line), ("confirm", "1"), ("expect", str(expect)), ("nonce", nonce + "y")))
    yes = _e(_("Yes"))
    return (f'<form class="scorer confirm" method="post" action="{_e(action)}">{hidden}'
            f'<button type="submit" class="go">{yes}</button></form>')


PHONE_CSS = """
.scoring .strip { display: flex; align-items: center; gap: 0.4rem; height: 2.9rem; padding: 0.25rem 0.75rem;
  max-width: 40rem; margin: 0 auto; }
.scoring .status { float: none; margin: 0; flex: none; }
.mini { flex: 1 1 auto; display: grid; grid-auto-flow: column; grid-auto-columns: minmax(0, 1fr); gap: 0.3rem;
  min-width: 0; }
.mini li { background: var(--panel); border-radius: 0.4rem; padding: 0.05rem 0.35rem; white-space: nowrap; overflow: hidden;
  text-overflow: ellipsis; line-height: 1.15; border: 1px solid var(--line); display: flex; flex-direction: column; }
.mini .n { font-size: 0.75rem; color: var(--muted); overflow: hidden; text-overflow: ellipsis; }
.mini b { font-size: 1.05rem; }
.mini li.dealer { border-color: var(--accent); }
.mini b { font-variant-numeric: tabular-nums; }
.scoring .scorer { border-top: 0; border-bottom: 2px solid var(--accent); padding-top: 0.25rem; }
.line-row { display: flex; gap: 0.4rem; }
.line-row input { flex: 1 1 auto; min-width: 0; font: inherit; font-size: 1.1rem; padding: 0.55rem; border-radius: 0.5rem;
  border: 1px solid var(--line); background: #0b0d10; color: var(--text); }
.keys { display: none; flex-wrap: wrap; gap: 0.3rem; margin: 0.3rem 0; }
.js .keys { display: flex; }
.js .keys[hidden] { display: none; }
.keys.numbers button { flex: 1 0 2.75rem; padding: 0.4rem 0; }
.keys.contracts button, .keys.players button { flex: 1 0 auto; }
button { font: inherit; border-radius: 0.5rem; border: 1px solid var(--line); background: var(--panel); color: var(--text);
  padding: 0.45rem 0.6rem; min-height: 2.75rem; min-width: 2.75rem; touch-action: manipulation;
  overflow-wrap: normal; word-break: keep-all; hyphens: manual; }  /* a label wraps between words, never inside one */
button:active { background: var(--line); }
button:disabled { opacity: 0.55; }
button.word { background: #242a31; }
button.player { border-color: #6b5609; }
button.go { background: var(--accent); color: #1b1b1b; font-weight: 700; border-color: var(--accent); }
button.end { border-color: var(--neg); }
.actions { display: flex; flex-wrap: wrap; gap: 0.3rem; margin-top: 0.3rem; }
.actions button { flex: 1 0 auto; }
.msg { height: 2.8em; overflow-y: auto; margin: 0.1rem 0 0; white-space: pre-line; font-size: 0.95rem; line-height: 1.4; }
.msg.bad { color: var(--neg); }
.msg.good { color: var(--pos); }
.msg.off { color: var(--accent); }
.msg button { min-height: 2.75rem; margin-left: 0.4rem; }
.preview { height: 1.4em; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; margin: 0.2rem 0 0;
  color: var(--muted); font-variant-numeric: tabular-nums; }
.mode { margin: 0 0 0.3rem; color: var(--accent); display: flex; align-items: center; justify-content: space-between; }
.mode[hidden] { display: none; }
.help { margin-top: 0.4rem; }
.js .recent li.entry:not(.voided) { cursor: pointer; }
.panel { position: fixed; inset: 0; background: rgba(0, 0, 0, 0.6); display: flex; align-items: flex-end;
  justify-content: center; z-index: 10; }
.panel[hidden] { display: none; }
.panel .box { background: var(--panel); border: 1px solid var(--line); border-radius: 0.8rem 0.8rem 0 0; width: 100%;
  max-width: 40rem; padding: 1rem; max-height: 90vh; overflow-y: auto; }
.panel p { white-space: pre-line; margin: 0 0 0.6rem; }
.panel label { display: block; margin: 0.4rem 0; }
.panel input { font: inherit; width: 6rem; padding: 0.5rem; border-radius: 0.5rem; border: 1px solid var(--line);
  background: #0b0d10; color: var(--text); margin-left: 0.4rem; }
.seal { font: 700 2.6rem/1.2 ui-monospace, "DejaVu Sans Mono", monospace; letter-spacing: 0.08em; text-align: center;
  color: var(--accent); background: #0b0d10; border-radius: 0.6rem; padding: 0.6rem; margin: 0.4rem 0; overflow-wrap: anywhere; }
.paid { list-style: none; padding: 0; margin: 0.4rem 0; font-size: 1.1rem; }
"""

PHONE_SCRIPT = r"""
(function () {
  var form = document.getElementById("scorer");
  if (!form) return;
  var W = JSON.parse(form.getAttribute("data-words"));
  var line = document.getElementById("line"), msg = document.getElementById("msg");
  var preview = document.getElementById("preview");
  var panel = document.getElementById("panel"), ptext = document.getElementById("panel-text");
  var pmore = document.getElementById("panel-more"), pbuttons = document.getElementById("panel-buttons");
  var mode = document.getElementById("mode"), modeText = document.getElementById("mode-text");
  var penaltyKeys = document.getElementById("penalty-keys"), status = document.getElementById("status");
  var players = form.getAttribute("data-players").split(" "), url = form.getAttribute("action");
  var key = "wiezen:" + url, amendNo = null, busy = false, pending = null, timer = null, shown = "", retry = null;
  function get(k) { try { return window.localStorage.getItem(key + k); } catch (e) { return null; } }
  function put(k, v) {
    try { if (v === null || v === "") window.localStorage.removeItem(key + k); else window.localStorage.setItem(key + k, v); }
    catch (e) { /* private mode: nothing kept */ }
  }
  // a nonce of the page's own for every new request (a copy of the page from the service worker's cache has an old one
  // in its form, which the server has answered already); a request sent again keeps its nonce
  function fresh() {
    var a = new Uint8Array(12), out = "";
    window.crypto.getRandomValues(a);
    for (var i = 0; i < a.length; i++) out += ("0" + a[i].toString(16)).slice(-2);
    return out;
  }
  function words() { var t = line.value.trim(); return t ? t.split(/\s+/) : []; }
  function keep() {
    put(":line", line.value); put(":amend", amendNo === null ? "" : String(amendNo));
    penaltyKeys.hidden = !/^(penalty|straf)\b/i.test(line.value.trim());
  }
  function say(text, cls) { msg.textContent = text; msg.className = "msg " + (cls || ""); }
  function setAmend(no) {
    amendNo = no; mode.hidden = no === null;
    modeText.textContent = no === null ? "" : W.correcting.replace("{number}", String(no));
    keep(); soon();
  }
  function buttons(off) {
    var bs = form.querySelectorAll("button");
    for (var i = 0; i < bs.length; i++) if (bs[i].name === "action" || bs[i].getAttribute("data-k") === "end"
        || bs[i].getAttribute("data-k") === "settle" || bs[i].getAttribute("data-k") === "penalty") bs[i].disabled = off;
  }
  function button(text, cls, act) {
    var b = document.createElement("button"); b.type = "button"; b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", act); return b;
  }
  function close() { panel.hidden = true; pmore.textContent = ""; pbuttons.textContent = ""; }
  function open(text, choices) {
    ptext.textContent = text; pbuttons.textContent = "";
    for (var i = 0; i < choices.length; i++) pbuttons.appendChild(choices[i]);
    panel.hidden = false;
    var first = pbuttons.querySelector("button"); if (first) first.focus();
  }
  // the points the line would record, shown while it is built (nothing is written: /preview)
  function look() {
    var t = line.value.trim();
    if (amendNo !== null) t = "";  // a correction is scored where it stands: the answer says it
    if (t === shown) return;
    shown = t;
    if (!t) { preview.textContent = ""; return; }
    fetch(url.replace(/[/]entry$/, "/preview") + "?line=" + encodeURIComponent(t), {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (line.value.trim() !== t) return;
        if (!d.ok) { preview.textContent = ""; return; }
        preview.textContent = Object.keys(d.points).map(function (p) {
          var v = d.points[p], s = d.shown && d.shown[p]; return p + " " + (s || (v > 0 ? "+" + v : String(v)));
        }).join(", ") + (d.multiplier > 1 ? " (x" + d.multiplier + ")" : "");
        preview.className = "preview good";
      })
      .catch(function () {});
  }
  function soon() { clearTimeout(timer); timer = setTimeout(look, 200); }
  function offline(on) {
    if (!status) return;
    if (on) { status.textContent = W.off; status.className = "status off"; }
  }
  // one request at a time; a request the server did not answer is kept (here and in the phone's storage) and
  // sent again, with the same nonce, until it answers: the server answers a repeat as before, and says so
  function go(req) {
    busy = true; buttons(true); pending = req; put(":pending", JSON.stringify(req));
    if (retry === null) say(W.sending, "");
    var body = new URLSearchParams();
    ["action", "line", "nonce", "confirm", "expect", "cents"].forEach(function (k) {
      if (req[k] !== undefined && req[k] !== null) body.set(k, req[k]);
    });
    fetch(url, {method: "POST", body: body, headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) { done(req, d); }, function () {
        say(W.offline, "off"); offline(true);
        clearTimeout(retry); retry = setTimeout(function () { retry = 0; go(req); }, 3000);
      });
  }
  function again() { if (pending !== null && retry) { clearTimeout(retry); retry = 0; go(pending); } }
  document.addEventListener("wiezen-live", again);
  // a player came or went (join, leave): the player keys are those at the table now
  document.addEventListener("wiezen-seated", function (ev) {
    var now = ev.detail, box = form.querySelector(".keys.players");
    if (!box || now.join(" ") === players.join(" ")) return;
    players = now; form.setAttribute("data-players", now.join(" ")); box.textContent = "";
    now.forEach(function (p) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "player"; b.setAttribute("data-w", p); b.textContent = p; box.appendChild(b);
    });
  });
  window.addEventListener("online", again);
  window.addEventListener("offline", function () { if (busy) say(W.offline, "off"); offline(true); });
  function done(req, d) {
    clearTimeout(retry); retry = null; pending = null; put(":pending", ""); busy = false; buttons(false);
    if (d.question) { ask(req, d); return; }
    if (!d.ok) { say(d.error || "?", "bad"); return; }
    if (req.typed) { line.value = ""; setAmend(null); }
    say(d.message, "good");
    if (d.undo) {
      msg.appendChild(button(W.takeback, "", function () {
        send({action: "undo", line: "", nonce: fresh(), confirm: "1", expect: String(d.undo)});
      }));
    }
    if (d.seal) sealed(d);
    else if (/^(explain|uitleg|settle|afrekenen)\b/i.test(req.line)) open(d.message, [button(W.close, "go", close)]);
  }
  function ask(req, d) {
    var yes = button(W.yes, "go", function () {
      var more = {}; for (var k in req) more[k] = req[k];
      more.nonce = fresh(); more.confirm = "1"; more.expect = String(d.expect);
      var c = document.getElementById("cents");
      if (c) { more.cents = c.value.replace(/[^0-9]/g, ""); put(":cents", more.cents); }
      close(); busy = false; go(more);
    });
    open(d.question, [yes, button(W.no, "", function () { close(); say(d.declined, ""); })]);
    if (d.ask === "end" || d.ask === "einde") {
      var label = document.createElement("label"), input = document.createElement("input");
      label.textContent = W.cents; input.id = "cents"; input.inputMode = "numeric"; input.value = get(":cents") || "";
      label.appendChild(input); pmore.appendChild(label);
    }
  }
  function sealed(d) {
    open(W.ended, [button(W.close, "go", close)]);
    var s = document.createElement("p"); s.className = "seal"; s.id = "seal"; s.textContent = d.seal;
    var ul = document.createElement("ul"); ul.className = "paid";
    (d.paid || []).forEach(function (t) { var li = document.createElement("li"); li.textContent = t; ul.appendChild(li); });
    var note = document.createElement("p"); note.className = "meta"; note.textContent = W.sealnote;
    pmore.appendChild(s); pmore.appendChild(ul); pmore.appendChild(note);
  }
  function send(req) {
    if (busy) return;  // a second tap while the first is on its way: ignored
    go(req);
  }
  function record(action) {
    var t = action === "entry" ? line.value.trim() : "";  // (not a half-built line as the reason of an undo)
    if (action === "entry" && amendNo !== null && t) t = "amend " + amendNo + " " + t;
    send({action: action, line: t, nonce: fresh(), typed: action === "entry" ? "1" : ""});
  }
  form.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button") : null;
    if (!b || b.disabled) return;
    var w = b.getAttribute("data-w"), k = b.getAttribute("data-k");
    if (w !== null) {
      var ws = words(), last = ws.length ? ws[ws.length - 1].split("+").pop() : "";
      if (b.className.indexOf("player") >= 0 && players.indexOf(last) >= 0 && ws[0] !== W.penalty) ws[ws.length - 1] += "+" + w;
      else ws.push(w);
      line.value = ws.join(" ");
    } else if (k === "back") { var v = words(); v.pop(); line.value = v.join(" "); }
    else if (k === "clear") { line.value = ""; }
    else if (k === "cancel") { line.value = ""; setAmend(null); }
    else if (k === "penalty") { line.value = W.penalty; }
    else if (k === "end" || k === "settle") { ev.preventDefault(); send({action: "entry", line: k, nonce: fresh()}); return; }
    else if (b.name === "action") { ev.preventDefault(); record(b.value); return; }
    else return;
    ev.preventDefault(); keep(); soon();
  });
  form.addEventListener("submit", function (ev) { ev.preventDefault(); record("entry"); });
  line.addEventListener("input", function () { keep(); soon(); });
  // a past deal, tapped: correct it (the builder opens with its line) or see how it was scored
  document.getElementById("sheet").addEventListener("click", function (ev) {
    var li = ev.target.closest ? ev.target.closest("li.entry") : null;
    if (!li || li.className.indexOf("voided") >= 0 || busy) return;
    var no = parseInt(li.getAttribute("data-no"), 10), text = li.getAttribute("data-line") || "";
    open("#" + no + " " + text, [
      button(W.correct, "go", function () { close(); line.value = text; setAmend(no); line.focus(); }),
      button(W.explain, "", function () { close(); send({action: "entry", line: "explain " + no, nonce: fresh()}); }),
      button(W.close, "", close)]);
  });
  // what was being typed survives a reload and the next session; a line on its way is sent again
  if (!line.value) line.value = get(":line") || "";
  var a = parseInt(get(":amend") || "", 10);
  setAmend(isNaN(a) ? null : a);
  var kept = get(":pending");
  if (kept) { try { go(JSON.parse(kept)); } catch (e) { put(":pending", ""); } }
})();
"""
