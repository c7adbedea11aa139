"""The live sheet for the players' phones (`wiezen serve`): pure presenters, strings in and strings out.

The page is one HTML document with its CSS and JavaScript inline and an inline SVG chart: it asks for nothing
outside itself (the server's Content-Security-Policy, :func:`csp`, lets it load nothing else either). The part
that changes, :func:`sheet_fragment`, is rendered here from the `sheet --json` document and sent to the
browsers as it changes; the script only swaps it in, so all the presenting stays in Python.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.dates import date_text
from ..core.i18n import N_, _, dutch, language, ngettext
from ..core.numbers import decimal, signed

__all__ = ["RECENT", "csp", "event_data", "live_page", "page_title", "sheet_fragment"]

RECENT = 8  # how many of the last entries the phone page lists

#: the `sheet --json` document (ledger/documents.py sheet_doc): JSON, read here by key
SheetDoc = Mapping[str, Any]
#: one of its entries
Entry = Mapping[str, Any]

# Okabe-Ito colours that stay apart on a dark background (the print stylesheet darkens the light ones)
_COLOURS = 6


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _f1(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def _sign_class(v: float) -> str:
    return "pos" if v > 0 else "neg" if v < 0 else "zero"


def page_title(doc: SheetDoc) -> str:
    s = doc["session"]
    return _("{title}: the live sheet").format(title=s["name"] or _("Session {id}").format(id=s["id"]))


def _next_line(doc: SheetDoc) -> str:
    out = _e(_("{player} deals next")).format(player=f'<b class="who">{_e(doc["dealer"])}</b>')
    if doc["sitting_out"]:
        names = _e(_(" and ")).join(_e(p) for p in doc["sitting_out"])
        out += _e(ngettext("; {players} sits out", "; {players} sit out", len(doc["sitting_out"]))).format(players=names)
    return out


def _chart(doc: SheetDoc) -> str:
    """Each player's running total after every entry that counts, as a small SVG line chart."""
    players = list(doc["session"]["players"])
    running = {p: 0.0 for p in players}
    series: dict[str, list[float]] = {p: [0.0] for p in players}
    for e in doc["entries"]:
        if e["voided"]:
            continue
        for p, v in e["points"].items():
            running[p] = running.get(p, 0.0) + float(v)
        for p in players:
            series[p].append(running[p])
    n = len(series[players[0]]) if players else 1
    W, H, left, right, top, bottom = 340, 150, 34, 8, 8, 16
    pw, ph = W - left - right, H - top - bottom
    values = [v for vs in series.values() for v in vs]
    lo, hi = min([0.0, *values]), max([0.0, *values])
    if hi - lo < 1e-9:
        lo, hi = -10.0, 10.0
    raw = (hi - lo) / 4
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if raw <= m * mag)
    lo, hi = math.floor(lo / step) * step, math.ceil(hi / step) * step

    def X(i: int) -> float:
        return left + (pw * i / (n - 1) if n > 1 else pw / 2)

    def Y(v: float) -> float:
        return float(top + ph * (hi - v) / (hi - lo))

    def f(x: float) -> str:
        s = f"{x:.1f}"
        return "0" if s in ("0.0", "-0.0") else s.removesuffix(".0")

    out = [('<svg class="chart" viewBox="0 0 ' + str(W) + ' ' + str(H) + '" role="img" aria-label="' + _e(_("Running totals, entry by entry")) + '">')]
    k = 0
    while lo + k * step <= hi + 1e-9:
        v = lo + k * step
        y = f(Y(v))
        cls = "axis" if abs(v) < 1e-9 else "grid"
        out.append(f'<line class="{cls}" x1="{left}" y1="{y}" x2="{W - right}" y2="{y}"/>')
        out.append(f'<text class="tick" x="{left - 4}" y="{y}" dy="3.5" text-anchor="end">{_e(decimal(v))}</text>')
        k += 1
    out.append('<text class="tick" x="' + str(left) + '" y="' + str(H - 3) + '">' + _e(_("start")) + '</text>')
    if n > 1:
        out.append('<text class="tick" x="' + str(W - right) + '" y="' + str(H - 3) + '" text-anchor="end">' + _e(_("entry {no}").format(no=n - 1)) + '</text>')
    for i, p in enumerate(players):
        pts = " ".join(f"{f(X(j))},{f(Y(v))}" for j, v in enumerate(series[p]))
        if n > 1:
            # partners share a line: the first drawn is the widest, so every line still shows under the next
            width = _f1(2 + 3.5 * (len(players) - 1 - i) / max(1, len(players) - 1))
            out.append(f'<polyline class="line c{i % _COLOURS}" stroke-width="{width}" points="{pts}">'
                       f"<title>{_e(p)}</title></polyline>")
        out.append(
            f'<circle class="dot c{i % _COLOURS}" cx="{f(X(n - 1))}" cy="{f(Y(series[p][-1]))}" r="3.5">'
            f"<title>{_e(p)} {_e(signed(series[p][-1]))}</title></circle>"
        )
    out.append("</svg>")
    legend = "".join(f'<li><i class="sw c{i % _COLOURS}"></i>{_e(p)}</li>' for i, p in enumerate(players))
    return "".join(out) + f'<ul class="legend">{legend}</ul>'


def _entry_text(e: Entry) -> str:
    from .fit import entry_words

    text = str({"pass": "rondje pas", "redeal": _("redeal")}.get(e["kind"]) or entry_words(e))
    if e.get("reason"):
        text += f" ({e['reason']})"
    return text


def _mult(e: Entry) -> str:
    if e["multiplier"] <= 1:
        return ""
    title = _e(_("counted x{n}").format(n=e["multiplier"]))
    return f' <span class="mult" title="{title}">×{e["multiplier"]}</span>'


def _recent(doc: SheetDoc) -> str:
    entries = list(doc["entries"])[-RECENT:][::-1]
    if not entries:
        return ('<p class="none">' + _e(_("No deals yet.")) + '</p>')
    items = []
    for e in entries:
        pts = [(p, v) for p, v in e["points"].items() if v or e["kind"] == "deal"]
        if e["voided"]:
            body = ('<span class="tag">' + _e(_("voided")) + '</span>')
        elif pts:
            body = "".join(
                f'<span class="pt">{_e(p)} <b class="{_sign_class(v)}">{_e(signed(v))}</b></span>' for p, v in pts
            )
        else:
            body = ('<span class="tag">' + _e(_("no points")) + '</span>')
        items.append(
            '<li class="entry' + str(" voided" if e["voided"] else "") + '" data-no="' + str(e["no"]) + '"><div class="what"><span class="no">#' + str(e["no"]) + '</span> <span class="text">' + _e(_entry_text(e)) + '</span>' + str(_mult(e)) + '<span class="by">' + _e(_("{player} dealt").format(player=e["dealer"])) + '</span></div><div class="pts">' + str(body) + '</div></li>'
        )
    return f'<ol class="recent">{"".join(items)}</ol>'


def _full_table(doc: SheetDoc) -> str:
    """The whole evening as the paper sheet (running totals), for the printed page."""
    players = list(doc["session"]["players"])
    running = {p: 0.0 for p in players}
    head = "".join(f"<th>{_e(p)}</th>" for p in players)
    rows = []
    for e in doc["entries"]:
        if not e["voided"]:
            for p, v in e["points"].items():
                running[p] += float(v)
        cells = "".join(
            f'<td class="n">{"" if e["voided"] else _e(decimal(running[p]))}'
            + (f' <small>({_e(signed(e["points"][p]))})</small>' if p in e["points"] and e["points"][p] else "")
            + "</td>"
            for p in players
        )
        cls = ' class="voided"' if e["voided"] else ""
        mult = f"×{e['multiplier']}" if e["multiplier"] > 1 else ""
        rows.append(f"<tr{cls}><td>{e['no']}</td><td>{_e(_entry_text(e))}</td><td>{mult}</td>{cells}</tr>")
    body = "".join(rows) or ('<tr><td colspan="' + str(3 + len(players)) + '">' + _e(_("No deals yet.")) + '</td></tr>')
    return (
        '<table class="full"><thead><tr><th>#</th><th>' + _e(_("entry")) + '</th><th>x</th>' + str(head) + '</tr></thead><tbody>' + str(body) + '</tbody></table>'
    )


def sheet_fragment(doc: SheetDoc) -> str:
    """The part of the page that follows the ledger: heading, totals, next dealer, doubling, chart, last deals."""
    s = doc["session"]
    players = list(s["players"])
    totals = doc["totals"]
    best = max((totals.get(p, 0) for p in players), default=0)
    where = ([_("table {table}").format(table=s["table"])] if s.get("table") else []) + (
        [_("round {round}").format(round=s["round"])] if s.get("round") else [])  # a club night: which table it shows
    meta = [*where, date_text(s["date"]), s["rules"], _("session {id}").format(id=s["id"])] + (
        [] if s["open"] else [_("ended")])
    cards = []
    for i, p in enumerate(players):
        v = totals.get(p, 0)
        tags = []
        if s["open"] and p == doc["dealer"]:
            # the tag is the verb of "{player} deals" ("deals" alone is also a count of deals: another word in Dutch)
            tags.append('<span class="tag deals">' + _e(_("{player} deals").format(player="").strip()) + '</span>')
        if s["open"] and p in doc["sitting_out"]:
            tags.append('<span class="tag out">' + _e(_("sits out")) + '</span>')
        lead = " lead" if v == best and best > 0 else ""
        cards.append(
            f'<li class="card c{i % _COLOURS}{lead}" data-player="{_e(p)}"><span class="name">{_e(p)}</span>'
            f'<span class="total {_sign_class(v)}">{_e(signed(v))}</span>{"".join(tags)}</li>'
        )
    parts = [
        ('<header class="top"><h1>' + _e(s["name"] or _("Session {id}").format(id=s["id"])) + '</h1><p class="meta">' + " · ".join(_e(m) for m in meta) + '</p></header>'),
        ('<ul class="totals" aria-label="' + _e(_("Totals")) + '">' + "".join(cards) + '</ul>'),
    ]
    if s["open"]:
        parts.append(f'<p class="next">{_next_line(doc)}</p>')
        if doc["pending_multiplier"] > 1:
            parts.append('<p class="double">' + _e(_("The next deal counts {factor}")).format(
                factor=f'<b>×{doc["pending_multiplier"]}</b>') + "</p>")
    else:
        parts.append('<p class="next">' + _e(_("This evening has ended.")) + '</p>')
    owed = {p: n for p, n in doc.get("rounds_owed", {}).items() if n}
    if owed:
        parts.append(
            '<p class="owed">' + _e(_("Rounds owed: {owed}")).format(owed=", ".join(f"{_e(p)} {n}" for p, n in owed.items()))
            + "</p>"
        )
    parts.append('<section class="evening"><h2>' + _e(_("The evening")) + '</h2>' + str(_chart(doc)) + '</section>')
    parts.append('<section class="last"><h2>' + _e(_("Last deals")) + '</h2>' + str(_recent(doc)) + '</section>')
    parts.append('<section class="sheet"><h2>' + _e(_("The sheet")) + '</h2>' + str(_full_table(doc)) + '</section>')
    return "".join(parts)


def event_data(gen: int, doc: SheetDoc, fragment: str) -> str:
    """The data line of one server-sent event: what the page's script swaps in (one line of JSON)."""
    return json.dumps(
        {"gen": gen, "session": doc["session"]["id"], "title": page_title(doc), "html": fragment},
        ensure_ascii=False, separators=(",", ":"),
    )


CSS = """
:root { color-scheme: dark; --bg: #111418; --panel: #1c2127; --line: #2e353d; --text: #ece8e1; --muted: #a9b1ba;
  --pos: #7ee08a; --neg: #ff9a8c; --accent: #ffd166; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 17px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main, .scorer { max-width: 40rem; margin: 0 auto; padding: 0.75rem 0.75rem 1.5rem; overflow-wrap: anywhere; }
h1 { font-size: 1.3rem; margin: 0; }
h2 { font-size: 0.95rem; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 1.2rem 0 0.4rem; }
.top { display: flex; flex-direction: column; gap: 0.1rem; padding-right: 4.5rem; }  /* room for the status */
.meta { margin: 0; color: var(--muted); font-size: 0.9rem; }
.status { position: fixed; top: 0.5rem; right: 0.5rem; font-size: 0.75rem; padding: 0.1rem 0.5rem; border-radius: 1rem;
  background: var(--panel); color: var(--muted); border: 1px solid var(--line); }
.status.on { color: var(--pos); }
.status.off { color: var(--neg); }
ul, ol { list-style: none; margin: 0; padding: 0; }
.totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: 0.5rem; margin-top: 0.8rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-left: 0.4rem solid var(--c); border-radius: 0.6rem;
  padding: 0.45rem 0.7rem 0.55rem; display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 0.5rem; min-width: 0; }
.card .name { flex: 1 1 100%; font-size: 1.05rem; color: var(--text); }
.card .total { font-size: 2.6rem; font-weight: 700; line-height: 1.05; font-variant-numeric: tabular-nums; }
.card.lead { box-shadow: inset 0 0 0 2px var(--accent); }
.tag { font-size: 0.78rem; border-radius: 1rem; padding: 0.05rem 0.5rem; background: var(--line); color: var(--text); }
.tag.deals { background: var(--accent); color: #1b1b1b; font-weight: 700; }
.pos { color: var(--pos); } .neg { color: var(--neg); } .zero { color: var(--muted); }
.next { font-size: 1.1rem; margin: 0.8rem 0 0; }
.next .who { color: var(--accent); }
.double { margin: 0.5rem 0 0; padding: 0.5rem 0.7rem; border-radius: 0.6rem; background: #3a2e05; color: var(--accent);
  border: 1px solid #6b5609; font-size: 1.1rem; }
.owed { margin: 0.5rem 0 0; color: var(--muted); }
.chart { display: block; width: 100%; height: auto; background: var(--panel); border-radius: 0.6rem; }
.chart .grid { stroke: var(--line); stroke-width: 1; }
.chart .axis { stroke: var(--muted); stroke-width: 1; }
.chart .tick { fill: var(--muted); font-size: 10px; }
.chart .line { fill: none; stroke: var(--c); stroke-linejoin: round; stroke-linecap: round; }
.chart .dot { fill: var(--c); }
.legend { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; margin-top: 0.35rem; font-size: 0.9rem; color: var(--muted); }
.sw { display: inline-block; width: 0.9rem; height: 0.25rem; border-radius: 1px; background: var(--c); margin-right: 0.3rem;
  vertical-align: middle; }
.c0 { --c: #e69f00; } .c1 { --c: #56b4e9; } .c2 { --c: #f0e442; } .c3 { --c: #cc79a7; } .c4 { --c: #2bc48f; }
.c5 { --c: #ff7a3d; }
.recent li { border-top: 1px solid var(--line); padding: 0.45rem 0; }
.recent .what { display: flex; flex-wrap: wrap; gap: 0 0.4rem; align-items: baseline; }
.recent .no { color: var(--muted); font-variant-numeric: tabular-nums; }
.recent .text { font-weight: 600; }
.recent .by { color: var(--muted); font-size: 0.8rem; margin-left: auto; }
.mult { color: #1b1b1b; background: var(--accent); border-radius: 0.3rem; padding: 0 0.3rem; font-weight: 700; font-size: 0.85rem; }
.recent .pts { display: flex; flex-wrap: wrap; gap: 0 0.9rem; font-variant-numeric: tabular-nums; color: var(--muted); }
.recent .pts b { font-weight: 700; }
.recent .voided .text { text-decoration: line-through; color: var(--muted); }
.none { color: var(--muted); }
.sheet { display: none; }
.full { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
.full th, .full td { border-bottom: 1px solid #bbb; padding: 0.15rem 0.4rem; text-align: left; }
.full td.n { text-align: right; }
.full tr.voided td { text-decoration: line-through; color: #777; }
/* the scorer's form */
.scorer { border-top: 2px solid var(--accent); }
.scorer h2 { color: var(--accent); }
.line-row { display: flex; gap: 0.4rem; }
.line-row input { flex: 1 1 auto; min-width: 0; font: inherit; font-size: 1.1rem; padding: 0.55rem; border-radius: 0.5rem;
  border: 1px solid var(--line); background: #0b0d10; color: var(--text); }
.keys { display: none; flex-wrap: wrap; gap: 0.35rem; margin: 0.5rem 0; }
.js .keys { display: flex; }
button { font: inherit; border-radius: 0.5rem; border: 1px solid var(--line); background: var(--panel); color: var(--text);
  padding: 0.5rem 0.7rem; min-height: 2.75rem; min-width: 2.75rem; touch-action: manipulation;
  overflow-wrap: normal; word-break: keep-all; hyphens: manual; }  /* a label wraps between words, never inside one */
.line-row button { flex: 0 0 auto; }  /* the line gives way, not the button */
button:active { background: var(--line); }
button.word { background: #242a31; }
button.player { border-color: #6b5609; }
button.go { background: var(--accent); color: #1b1b1b; font-weight: 700; border-color: var(--accent); }
.actions { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-top: 0.6rem; }
.msg { min-height: 1.4em; margin: 0.5rem 0 0; white-space: pre-line; }
.msg.bad { color: var(--neg); }
.msg.good { color: var(--pos); }
.preview { min-height: 1.4em; margin: 0.2rem 0 0; color: var(--muted); font-variant-numeric: tabular-nums; }
@media print {
  :root { color-scheme: light; --bg: #fff; --panel: #fff; --line: #bbb; --text: #000; --muted: #444; --pos: #0a6b1f;
    --neg: #a3160a; --accent: #000; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .status, .scorer, .last { display: none; }
  .top { padding-right: 0; }
  .sheet { display: block; }
  .card { border-width: 1px 1px 1px 0.3rem; break-inside: avoid; }
  .card .total { font-size: 1.8rem; }
  .double { background: none; border-color: #000; color: #000; }
  .chart { max-height: 7cm; }
  .c2 { --c: #9a8c00; } .c0 { --c: #b87d00; }
  .tag.deals, .mult { background: none; color: #000; border: 1px solid #000; }
}
"""

SCRIPT = """
(function () {
  var doc = document.documentElement;
  doc.className += " js";
  var main = document.getElementById("sheet"), status = document.getElementById("status");
  var session = main.getAttribute("data-session"), scorer = document.getElementById("scorer");
  function say(text, cls) { status.textContent = text; status.className = "status " + cls; }
  if (window.EventSource) {
    var es = new EventSource(main.getAttribute("data-events") || "/events");
    es.addEventListener("sheet", function (ev) {
      var d = JSON.parse(ev.data);
      if (scorer && String(d.session) !== session) { location.reload(); return; }
      main.innerHTML = d.html; session = String(d.session); document.title = d.title;
      main.setAttribute("data-gen", String(d.gen)); say("live", "on");
    });
    es.onopen = function () { say("live", "on"); };
    es.onerror = function () { say("reconnecting…", "off"); };
  }
  if (!scorer) return;
  var line = document.getElementById("line"), msg = document.getElementById("msg");
  var nonce = scorer.querySelector("[name=nonce]"), players = scorer.getAttribute("data-players").split(" ");
  function words() { var t = line.value.trim(); return t ? t.split(/\\s+/) : []; }
  scorer.addEventListener("click", function (ev) {
    var b = ev.target.closest ? ev.target.closest("button") : null;
    if (!b) return;
    var w = b.getAttribute("data-w"), k = b.getAttribute("data-k");
    if (w !== null) {
      var ws = words(), last = ws.length ? ws[ws.length - 1].split("+").pop() : "";
      if (b.className.indexOf("player") >= 0 && players.indexOf(last) >= 0) ws[ws.length - 1] += "+" + w;
      else ws.push(w);
      line.value = ws.join(" "); ev.preventDefault(); return;
    }
    if (k === "back") { var v = words(); v.pop(); line.value = v.join(" "); ev.preventDefault(); return; }
    if (k === "clear") { line.value = ""; ev.preventDefault(); return; }
    if (b.name === "action") { ev.preventDefault(); send(b.value); }
  });
  scorer.addEventListener("submit", function (ev) { ev.preventDefault(); send("entry"); });
  // the points the line would record, shown while it is built (nothing is written: /preview)
  var preview = document.getElementById("preview"), timer = null, shown = "";
  function look() {
    var t = line.value.trim();
    if (t === shown) return;
    shown = t;
    if (!t) { preview.textContent = ""; return; }
    fetch(scorer.getAttribute("action").replace(/[/]entry$/, "/preview") + "?line=" + encodeURIComponent(t),
          {headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (line.value.trim() !== t) return;
        if (!d.ok) { preview.textContent = ""; preview.className = "preview"; return; }
        preview.textContent = Object.keys(d.points).map(function (p) {
          var v = d.points[p]; return p + " " + (v > 0 ? "+" + v : String(v));
        }).join(", ") + (d.multiplier > 1 ? " (x" + d.multiplier + ")" : "");
        preview.className = "preview good";
      })
      .catch(function () {});
  }
  function soon() { clearTimeout(timer); timer = setTimeout(look, 200); }
  line.addEventListener("input", soon);
  scorer.addEventListener("click", soon);
  function send(action, expect) {
    var body = new URLSearchParams(), again = null;
    body.set("action", action); body.set("line", line.value); body.set("nonce", nonce.value);
    if (expect !== undefined) { body.set("confirm", "1"); body.set("expect", String(expect)); }
    var buttons = scorer.querySelectorAll("button[name=action]");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
    msg.className = "msg"; msg.textContent = "…";
    fetch(scorer.getAttribute("action"), {method: "POST", body: body, headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); })
      .then(function (d) {
        if (d.nonce) nonce.value = d.nonce;
        if (d.question) {  // undo, amend, end: the same line again with the yes
          if (window.confirm(d.question)) again = d.expect;
          else { msg.textContent = d.declined; msg.className = "msg"; }
          return;
        }
        msg.textContent = d.ok ? d.message : d.error; msg.className = "msg " + (d.ok ? "good" : "bad");
        if (d.ok) line.value = "";
      })
      .catch(function () { msg.textContent = "No answer: check the sheet before trying again."; msg.className = "msg bad"; })
      .then(function () {
        for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
        if (again !== null) send(action, again);
      });
  }
})();
"""


#: the words the script shows; in Dutch the script is served with them translated (and hashed as served)
_SCRIPT_WORDS = (
    N_("live"), N_("reconnecting…"),
    N_("No answer: check the sheet before trying again."),
)


def script() -> str:
    """The page's script in the language spoken (English: :data:`SCRIPT` itself)."""
    if not dutch():
        return SCRIPT
    out = SCRIPT
    for word in _SCRIPT_WORDS:
        out = out.replace(json.dumps(word, ensure_ascii=False), json.dumps(_(word), ensure_ascii=False))
    return out


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def csp() -> str:
    """The Content-Security-Policy of the pages: their own inline styles and scripts (by hash), nothing else."""
    from .room import ROOM_CSS, ROOM_SCRIPT

    return (
        f"default-src 'none'; style-src {_sha(CSS)} {_sha(ROOM_CSS)}; script-src {_sha(script())} {_sha(ROOM_SCRIPT)}; "
        "connect-src 'self'; "
        "img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    )


def _scorer_form(action: str, nonce: str, players: Sequence[str], contracts: Sequence[str], message: str,
                 examples: Sequence[str] = ()) -> str:
    """The scorer's form; ``examples``: lines the session's house rules take (core/deal.py deal_example), the first
    one the input's placeholder, then a penalty in the reader's words."""
    def key(word: str, cls: str) -> str:
        return f'<button type="button" class="{cls}" data-w="{_e(word)}">{_e(word)}</button>'

    contract_keys = "".join(key(c, "word") for c in contracts)
    player_keys = "".join(key(p, "player") for p in players)
    number_keys = "".join(key(str(n), "num") for n in range(14))
    first = players[0] if players else "jan"
    shown = [*(examples or ("samen 8 jan+piet 9",)), _("penalty {player} renonce").format(player=first)]
    return (
        ('<form class="scorer" id="scorer" method="post" action="' + _e(action) + '" data-players="' + _e(" ".join(players)) + '"><h2>' + _e(_("Scorer")) + '</h2><div class="line-row"><input id="line" name="line" autocomplete="off" autocapitalize="none" spellcheck="false" placeholder="' + _e(shown[0]) + '" aria-label="' + _e(_("Deal line")) + '"><button type="submit" class="go" name="action" value="entry">' + _e(_("Record")) + '</button></div><div class="keys contracts">' + str(contract_keys) + '</div><div class="keys players">' + str(player_keys) + '</div><div class="keys numbers">' + str(number_keys) + '<button type="button" data-k="back" aria-label="' + _e(_("Remove the last word")) + '">⌫</button><button type="button" data-k="clear">' + _e(_("clear")) + '</button></div><div class="actions"><button type="submit" name="action" value="pass">Rondje pas</button><button type="submit" name="action" value="redeal">' + _e(_("Redeal")) + '</button><button type="submit" name="action" value="undo">' + _e(_("Undo last")) + '</button></div><input type="hidden" name="nonce" value="' + _e(nonce) + '"><p class="msg" id="msg" role="status">' + _e(message) + '</p><p class="preview" id="preview" aria-live="polite"></p><p class="meta">') + _e(_("Type or tap a deal line ({examples}); tapping two players joins them with +.")).format(
            examples=", ".join(f"<i>{_e(x)}</i>" for x in shown)
        ) + "</p>"
        "</form>"
    )


def _confirm_form(action: str, nonce: str, form_action: str, line: str, expect: int) -> str:
    """The yes to a question (undo, amend, end): the same form again with confirm=1 and the question's expect."""
    hidden = "".join(f'<input type="hidden" name="{_e(k)}" value="{_e(v)}">' for k, v in (
        ("action", form_action), ("line", line), ("confirm", "1"), ("expect", str(expect)), ("nonce", nonce + "y")))
    yes = _e(_("Yes"))
    return (f'<form class="scorer confirm" method="post" action="{_e(action)}">{hidden}'
            f'<button type="submit" class="go">{yes}</button></form>')


# without a script the players' page reloads itself (the scorer's does not: it would lose what is typed)
_NOSCRIPT = '<noscript><meta http-equiv="refresh" content="10"></noscript>'


def live_page(
    doc: SheetDoc,
    fragment: str | None = None,
    *,
    gen: int = 0,
    scorer_action: str | None = None,
    nonce: str = "",
    contracts: Sequence[str] = (),
    message: str = "",
    confirm: tuple[str, str, int] | None = None,
    events: str = "/events",
    examples: Sequence[str] = (),
) -> str:
    """The whole page. With ``scorer_action`` (the scorer's secret form address) it carries the scoring form;
    with ``confirm`` (the form's action, line and the question's ``expect``), the yes to the question ``message``
    asks, as a button (for a phone without the script, which asks with a dialog instead)."""
    body = sheet_fragment(doc) if fragment is None else fragment
    form = ""
    if scorer_action is not None:
        form = _scorer_form(scorer_action, nonce, list(doc["session"]["players"]), contracts, message, examples)
        if confirm is not None:
            form += _confirm_form(scorer_action, nonce, *confirm)
    return (
        '<!DOCTYPE html>\n<html lang="' + str(language()) + '"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="dark light"><meta name="theme-color" content="#111418"><meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>' + _e(page_title(doc)) + '</title><style>' + str(CSS) + '</style>' + str('' if scorer_action else _NOSCRIPT) + '</head><body><p class="status" id="status" role="status">' + _e(_("not live")) + '</p><main id="sheet" data-session="' + str(doc["session"]["id"]) + '" data-events="' + _e(events) + '" data-gen="' + str(gen) + '">' + str(body) + '</main>' + str(form) + '<script>' + str(script()) + '</script></body></html>\n'
    )
