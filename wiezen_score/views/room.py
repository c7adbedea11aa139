"""The room of a club night as a page: every open table's totals and last deals, the night's ranking, the next seating.

Readable across a café on a TV (large type, a grid of tables that fills a wide screen) and on a phone (one column).
A pure presenter of the room's document (web/room.py): the page, its fragment, and the printable cards of /qr.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.dates import date_text
from ..core.i18n import _, language
from ..core.numbers import decimal, signed

if TYPE_CHECKING:
    from ..core.documents import RoomDoc
    from ..core.scoring import Points

ROOM_CSS = """
:root { color-scheme: dark; --bg: #111418; --panel: #1c2127; --line: #2e353d; --text: #ece8e1; --muted: #a9b1ba;
  --pos: #7ee08a; --neg: #ff9a8c; --accent: #ffd166; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: clamp(16px, 1.6vw, 30px)/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
main { padding: 1.6rem 0.8rem 0.8rem; }
h1 { font-size: 1.5em; margin: 0 0 0.2em; } h2 { font-size: 1.15em; margin: 0 0 0.3em; color: var(--accent); }
.status { position: fixed; top: 0.4rem; right: 0.6rem; margin: 0; font-size: 0.8em; color: var(--muted); }
.status.on { color: var(--pos); }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(18em, 1fr)); gap: 0.8rem; }
.table, .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 0.5rem; padding: 0.6rem 0.8rem; }
.table ol { margin: 0.3em 0 0; padding-left: 0; list-style: none; color: var(--muted); font-size: 0.85em; }
.totals { display: grid; grid-template-columns: 1fr auto; gap: 0 0.8em; font-size: 1.1em; }
.pos { color: var(--pos); } .neg { color: var(--neg); }
.side { display: grid; grid-template-columns: repeat(auto-fit, minmax(18em, 1fr)); gap: 0.8rem; margin-top: 0.8rem; }
table.rank { border-collapse: collapse; width: 100%; } .rank td, .rank th { padding: 0.1em 0.4em; text-align: left; }
.rank td.n { text-align: right; font-variant-numeric: tabular-nums; }
a { color: var(--accent); }
.cards { display: grid; grid-template-columns: repeat(2, 1fr); gap: 1rem; }
.card { border: 2px dashed #888; padding: 1rem; text-align: center; page-break-inside: avoid; background: #fff; color: #000; }
.card svg { width: 60%; height: auto; } .card .label { font-size: 2em; font-weight: bold; } .card .url { word-break: break-all; }
@media print { body { background: #fff; color: #000; } .status { display: none; } }
"""

ROOM_SCRIPT = """
(function () {
  var main = document.getElementById("room"), status = document.getElementById("status");
  if (!window.EventSource) return;
  var es = new EventSource("/room/events");
  es.addEventListener("room", function (ev) { main.innerHTML = JSON.parse(ev.data).html; status.className = "status on"; });
  es.onopen = function () { status.className = "status on"; };
  es.onerror = function () { status.className = "status"; };
})();
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _num(v: Points) -> str:
    cls = "pos" if v > 0 else "neg" if v < 0 else ""
    return f'<span class="{cls}">{_e(signed(v))}</span>'


def room_fragment(doc: RoomDoc) -> str:
    """The room's body: the night's heading, a card per open table, the ranking and the next round's seating."""
    night = doc.get("night")
    out = []
    if night is not None:
        n = night["night"]
        name = n["name"] or _("The night")
        rnd = (_("round {round} of {rounds}").format(round=n["round"], rounds=n["rounds"]) if n.get("rounds")
               else _("round {round}").format(round=n["round"]))
        out.append(f"<h1>{_e(name)} · {_e(date_text(n['date']))} · {_e(rnd)}</h1>")
    else:
        heading = _("The room")
        out.append(f"<h1>{_e(heading)}</h1>")
    if not doc["tables"]:
        nothing = _("No table is open.")
        out.append(f"<p>{_e(nothing)}</p>")
    cards = []
    for t in doc["tables"]:
        rows = "".join(f"<span>{_e(p)}</span>{_num(v)}" for p, v in t["totals"].items())
        last = "".join(f"<li>{_e(x)}</li>" for x in t["last"])
        head = _("Table {table}").format(table=t["table"]) if t["table"] is not None else _("The table")
        where = " · " + _e(_("round {round}").format(round=t["round"])) if t["round"] else ""
        listed = f"<ol>{last}</ol>" if last else ""
        cards.append(f'<section class="table"><h2><a href="/t/{_e(t["table"] or 0)}">{_e(head)}</a>{where}</h2>'
                     f'<div class="totals">{rows}</div>{listed}</section>')
    out.append(f'<div class="grid">{"".join(cards)}</div>')
    side = []
    if night is not None and night["ranking"]:
        body = "".join(f'<tr><td class="n">{_e(d["rank"] if d["rank"] is not None else "")}</td><td>{_e(d["player"])}</td>'
                       f'<td class="n">{_e(decimal(d["score"]))}</td></tr>' for d in night["ranking"])
        heading = _e(_("The night's ranking"))
        side.append(f'<section class="panel"><h2>{heading}</h2><table class="rank">{body}</table></section>')
    if night is not None and night["next"]:
        items = [_("table {table}: {players}").format(table=t["table"], players=", ".join(t["players"])) for t in night["next"]]
        body = "".join(f"<li>{_e(x)}</li>" for x in items)
        heading = _e(_("The next round, as it stands"))
        side.append(f'<section class="panel"><h2>{heading}</h2><ul>{body}</ul></section>')
    if side:
        out.append(f'<div class="side">{"".join(side)}</div>')
    return "".join(out)


def room_page(doc: RoomDoc) -> str:
    """The whole room page (it follows every entry through /room/events)."""
    title, live = _e(_("The room")), _e(_("live"))
    return (f'<!DOCTYPE html>\n<html lang="{_e(language())}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">'
            f'<link rel="icon" href="data:,"><title>{title}</title><style>{ROOM_CSS}</style></head><body>'
            f'<p class="status" id="status" role="status">{live}</p>'
            f'<main id="room">{room_fragment(doc)}</main><script>{ROOM_SCRIPT}</script></body></html>\n')


def cards_page(cards: Sequence[tuple[int | str, str, str]]) -> str:
    """/qr: one card per table to print and put on it: its label, the QR code of its scorer's link, the link."""
    how = _e(_("The scorer scans this code to record the deals."))
    body = []
    for t, url, svg in cards:
        label = _e(_("Table {table}").format(table=t) if t else _("The table"))
        body.append(f'<div class="card"><div class="label">{label}</div>{svg}<div class="url">{_e(url)}</div><p>{how}</p></div>')
    title, nothing = _e(_("Scorer cards")), _e(_("No table is open."))
    return (f'<!DOCTYPE html>\n<html lang="{_e(language())}"><head><meta charset="utf-8"><title>{title}</title>'
            f'<style>{ROOM_CSS}</style></head><body><main><div class="cards">{"".join(body) or nothing}'
            "</div></main></body></html>\n")
