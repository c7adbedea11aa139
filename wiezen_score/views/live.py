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

__all__ = ["RECENT", "csp", "event_data", "live_page", "page_title", "sheet_fragment", "sheet_parts"]

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
    from .fit import entry_words

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
        # the line that records it again, in the words of the page's language (the builder opens with it to correct it)
        line = entry_words(e) + (" " + str(e["reason"]) if e["kind"] in ("penalty", "redeal") and e.get("reason") else "")
        items.append(
            '<li class="entry' + str(" voided" if e["voided"] else "") + '" data-no="' + str(e["no"]) + '" data-line="' + _e(line) + '"><div class="what"><span class="no">#' + str(e["no"]) + '</span> <span class="text">' + _e(_entry_text(e)) + '</span>' + str(_mult(e)) + '<span class="by">' + _e(_("{player} dealt").format(player=e["dealer"])) + '</span></div><div class="pts">' + str(body) + '</div></li>'
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
    return "".join(sheet_parts(doc))


def sheet_parts(doc: SheetDoc) -> list[str]:
    """:func:`sheet_fragment` as its elements, one string each: an update sends only those that changed."""
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
    return parts


def event_data(gen: int, doc: SheetDoc, fragment: str, parts: Sequence[str] = (), before: Sequence[str] = ()) -> str:
    """The data line of one server-sent event: what the page's script swaps in (one line of JSON; ``strip``: the
    scorer's compact totals). Given the ``parts`` of the fragment and those the page has (``before``), only the parts
    that changed, by place (``n``: how many there are), when there are as many as before; else the whole fragment."""
    from .phone import strip

    s = doc["session"]
    d: dict[str, object] = {"gen": gen, "session": s["id"], "title": page_title(doc), "strip": strip(doc),
                            "seated": doc.get("seating") or s["players"]}  # (the scorer's player keys follow joins)
    if not s["open"] and s.get("seal"):  # every page that follows the evening keeps its seal (the phone, a witness)
        d["sealed"] = {"session": s["id"], "name": s["name"] or page_title(doc), "date": s["date"], "seal": s["seal"],
                       "totals": doc["totals"]}
    if parts and len(parts) == len(before):
        d["parts"] = {str(i): p for i, (p, b) in enumerate(zip(parts, before, strict=True)) if p != b}
        d["n"] = len(parts)
    else:
        d["html"] = fragment
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


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
.top { display: flex; flex-direction: column; gap: 0.1rem; }  /* (a box of its own: beside the status, not under it) */
.meta { margin: 0; color: var(--muted); font-size: 0.9rem; }
.status { float: right; margin: 0.6rem 0.6rem 0 0.4rem; font-size: 0.75rem; padding: 0.1rem 0.5rem; border-radius: 1rem;
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
.witnessed { max-width: 40rem; margin: 0 auto; padding: 0 0.75rem 1.5rem; }
.witnessed li { border-top: 1px solid var(--line); padding: 0.45rem 0; display: flex; flex-direction: column; }
.witnessed .code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; color: var(--accent); }
.witnessed .verdict { color: var(--muted); }
.witnessed .verdict.pos { color: var(--pos); } .witnessed .verdict.neg { color: var(--neg); }
.full { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
.full th, .full td { border-bottom: 1px solid #bbb; padding: 0.15rem 0.4rem; text-align: left; }
.full td.n { text-align: right; }
.full tr.voided td { text-decoration: line-through; color: #777; }
@media print {
  :root { color-scheme: light; --bg: #fff; --panel: #fff; --line: #bbb; --text: #000; --muted: #444; --pos: #0a6b1f;
    --neg: #a3160a; --accent: #000; }
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  .status, .scorer, .last, .witnessed { display: none; }
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
  var mini = document.getElementById("mini"), es = null;
  function connect() {
    es = new EventSource(main.getAttribute("data-events") || "/events");
    es.addEventListener("sheet", function (ev) {
      var d = JSON.parse(ev.data);
      if (scorer && String(d.session) !== session) { location.reload(); return; }
      if (d.parts && main.children.length === d.n) {  // only what changed, by place
        var kids = Array.prototype.slice.call(main.children);
        for (var i in d.parts) kids[+i].outerHTML = d.parts[i];
      } else if (d.html !== undefined) main.innerHTML = d.html;
      session = String(d.session); document.title = d.title;
      if (mini && d.strip !== undefined) mini.innerHTML = d.strip;
      if (d.seated) document.dispatchEvent(new CustomEvent("wiezen-seated", {detail: d.seated}));
      main.setAttribute("data-gen", String(d.gen)); live();
      if (d.sealed) witness(d.sealed);
    });
    es.onopen = live;
    es.onerror = function () {
      say("reconnecting…", "off");
      if (es.readyState === 2) setTimeout(connect, 5000);  // refused (the server is full): try again by itself
    };
  }
  function live() { say("live", "on"); document.dispatchEvent(new Event("wiezen-live")); }
  if (window.EventSource) connect();
  window.addEventListener("pagehide", function () { if (es) es.close(); });  // its place is free at once
  // every phone a witness: the seals of the evenings it followed, kept on the phone, checked against the ledger
  var wit = document.getElementById("witnessed"), KEY = "wiezen:witnessed";
  function kept() { try { return JSON.parse(window.localStorage.getItem(KEY) || "[]"); } catch (e) { return []; } }
  function witness(s) {
    var list = kept();
    for (var i = 0; i < list.length; i++) if (list[i].seal === s.seal && list[i].host === location.host) return;
    s.host = location.host; list.push(s);
    try { window.localStorage.setItem(KEY, JSON.stringify(list.slice(-50))); } catch (e) { return; }
    shown();
  }
  function shown() {
    if (!wit) return;
    var W = JSON.parse(wit.getAttribute("data-words")), ul = wit.querySelector("ul");
    var mine = kept().filter(function (s) { return s.host === location.host; }).reverse();
    ul.textContent = ""; wit.hidden = !mine.length;
    mine.forEach(function (s) {
      var li = document.createElement("li"), what = document.createElement("span"), seal = document.createElement("b");
      var verdict = document.createElement("span");
      what.textContent = s.name + " · " + s.date + " · " + Object.keys(s.totals).map(function (p) {
        var v = s.totals[p]; return p + " " + (v > 0 ? "+" + v : String(v)); }).join(", ");
      seal.textContent = s.seal; seal.className = "code"; verdict.className = "verdict"; verdict.textContent = W.checking;
      li.appendChild(what); li.appendChild(seal); li.appendChild(verdict); ul.appendChild(li);
      fetch("/seal.json?session=" + s.session + "&seal=" + encodeURIComponent(s.seal), {headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json(); })
        .then(function (d) { verdict.textContent = (d.ok ? "✓ " + W.holds : "✗ " + d.error); verdict.className = "verdict " + (d.ok ? "pos" : "neg"); })
        .catch(function () { verdict.textContent = W.unchecked; });
    });
  }
  shown();
  if (navigator.serviceWorker && window.isSecureContext) navigator.serviceWorker.register("/sw.js").catch(function () {});
})();
"""


#: the words the script shows; in Dutch the script is served with them translated (and hashed as served)
_SCRIPT_WORDS = (
    N_("live"), N_("reconnecting…"),
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
    from .phone import PHONE_CSS, PHONE_SCRIPT
    from .room import ROOM_CSS, ROOM_SCRIPT

    return (
        f"default-src 'none'; style-src {_sha(CSS)} {_sha(ROOM_CSS)} {_sha(PHONE_CSS)}; "
        f"script-src {_sha(script())} {_sha(ROOM_SCRIPT)} {_sha(PHONE_SCRIPT)}; "
        "connect-src 'self'; "
        "img-src 'self' data:; manifest-src 'self'; worker-src 'self'; form-action 'self'; base-uri 'none'; "
        "frame-ancestors 'none'"
    )


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
    example: str = "",
    manifest: str = "/manifest.webmanifest",
) -> str:
    """The whole page. With ``scorer_action`` (the scorer's secret form address) it carries the scoring form;
    with ``confirm`` (the form's action, line and the question's ``expect``), the yes to the question ``message``
    asks, as a button (for a phone without the script, which asks with a dialog instead)."""
    from .phone import PHONE_CSS, PHONE_SCRIPT, confirm_form, example_line, scorer_form, strip, witnessed

    body = sheet_fragment(doc) if fragment is None else fragment
    status = '<p class="status" id="status" role="status">' + _e(_("not live")) + '</p>'
    head = ('<!DOCTYPE html>\n<html lang="' + str(language()) + '"><head><meta charset="utf-8"><meta name="viewport" '
            'content="width=device-width, initial-scale=1"><meta name="color-scheme" content="dark light"><meta '
            'name="theme-color" content="#111418"><meta name="referrer" content="no-referrer"><link rel="manifest" '
            'href="' + _e(manifest) + '"><link rel="icon" href="/icon.svg" type="image/svg+xml"><link '
            'rel="apple-touch-icon" href="/icon-192.png"><title>' + _e(page_title(doc)) + '</title><style>' + CSS + '</style>')
    main = ('<main id="sheet" data-session="' + str(doc["session"]["id"]) + '" data-events="' + _e(events)
            + '" data-gen="' + str(gen) + '">' + body + '</main>')
    main += witnessed()
    if scorer_action is None:
        return (head + _NOSCRIPT + '</head><body>' + status + main + '<script>' + script()
                + '</script></body></html>\n')
    players = list(doc.get("seating") or doc["session"]["players"])  # (who sits at the table now)
    form = scorer_form(scorer_action, nonce, players, contracts, message, example or example_line((), players))
    if confirm is not None:
        form += confirm_form(scorer_action, nonce, *confirm)
    # the scorer's page: compact totals, then the builder (it does not move when the sheet below changes)
    return (head + '<style>' + PHONE_CSS + '</style></head><body class="scoring"><div class="strip"><ul class="mini" '
            'id="mini" aria-label="' + _e(_("Totals")) + '">' + strip(doc) + '</ul>' + status + '</div>' + form
            + main + '<script>' + script() + '</script><script>' + PHONE_SCRIPT + '</script></body></html>\n')
