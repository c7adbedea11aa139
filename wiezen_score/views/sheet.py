"""The scoresheet as players read it: the paper sheet, its CSV rows and HTML page, and the recording lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.i18n import _, ngettext
from ..core.numbers import fmt, plain, signed
from ..core.session import Scored, TableState, sitting_out
from .fit import entry_words, row_words

if TYPE_CHECKING:
    from ..core.documents import Correction, SealRef, SheetDoc, SheetEntry, SheetSession
    from ..core.rules import HouseRules
    from ..core.session import EntryInput


def date_text(iso: str) -> str:
    """core/dates.py's date_text, imported when a date is shown (not by every `wiezen deal`)."""
    from ..core.dates import date_text as text

    return text(iso)


def status_line(players: tuple[str, ...], state: TableState) -> str:
    """Whose deal it is, who sits out, and a pending doubling."""
    out = _("{player} deals").format(player=players[state.dealer])
    out_players = sitting_out(players, state.dealer)
    if out_players:
        out += ngettext(", {players} sits out", ", {players} sit out", len(out_players)).format(
            players=_(" and ").join(out_players)
        )
    if state.pending > 1:
        out += _("; the next deal counts x{n}").format(n=state.pending)
    if state.queued:
        out += _(", and {n} more after it").format(n=state.queued)
    return out


def recorded_line(no: int, sc: Scored, players: tuple[str, ...]) -> str:
    mult = f" (x{sc.multiplier})" if sc.multiplier > 1 else ""
    if sc.seating:  # a join or a leave: no points; the table from now on
        return f"#{no} {row_words(sc)}: " + _("at the table now: {players}").format(players=", ".join(sc.seating))
    pts = ", ".join(f"{p} {signed(v)}" for p, v in sc.points.items())
    return f"#{no} {row_words(sc)}{mult}: {pts}"


def _not_yet_seated(doc: SheetDoc) -> set[str]:
    """The players of the sheet who sat down later (their first row of the sheet is their join)."""
    seen: set[str] = set()
    later: set[str] = set()
    for e in doc["entries"]:
        if e["kind"] in ("join", "leave") and not e["voided"]:
            who = str(e["text"]).split()[1]
            if e["kind"] == "join" and who not in seen:
                later.add(who)
            seen.add(who)
        seen.update(e["points"])
    return {p for p in doc["session"]["players"] if p in later}


def _ruling_mark(ids: list[int]) -> str:
    return ngettext(" [precedent {ids}]", " [precedents {ids}]", len(ids)).format(ids=", ".join(map(str, ids)))


def render_sheet(doc: SheetDoc, last: int | None = None, width: int | None = None, heading: bool = True) -> str:
    """The paper sheet: one row per entry with the running totals; '*' on doubled deals; the seal last.

    With ``width`` no line is wider: the table falls back to the compact layout (views/fit.py) and the
    other lines are wrapped.
    """
    from .fit import compact_sheet, entry_lines, wrap
    from .safe import safe_tree

    doc = safe_tree(doc)  # user text shown, never obeyed: one line per field
    players = doc["session"]["players"]
    running = {p: float(doc.get("running_from", {}).get(p, 0)) for p in players}
    shown = doc["entries"] if last is None else doc["entries"][-last:]
    marks, notes = footnotes(shown)
    marks = [""] * (len(doc["entries"]) - len(shown)) + marks
    rows = []
    away = _not_yet_seated(doc)  # players who came later (`session join`) or left: no "(out)" for them
    for e, note in zip(doc["entries"], marks, strict=True):
        mark = "" if e["multiplier"] == 1 else "*" if e["multiplier"] == 2 else f"*{e['multiplier']}"
        if e["kind"] == "join" and not e["voided"]:
            away.discard(str(e["text"]).split()[1])
        if e["voided"]:  # its points struck through, as the entry is: they count nowhere
            cells = [struck(e["points"][p]) if e["points"].get(p) else "" for p in players]
            text = _("~{entry}~ voided").format(entry=entry_words(e)) + note + (
                _ruling_mark(e["precedents"]) if e.get("precedents") else "")
            rows.append([str(e["no"]), e["dealer"], text, mark] + cells)
            continue
        for p, v in e["points"].items():
            running[p] += v
        cells = []
        for p in players:
            if p in away:
                cells.append("")
            elif p not in e["points"]:
                cells.append(_("{points}  (out)").format(points=fmt(plain(running[p])))
                             if e["kind"] not in ("penalty", "join", "leave") else fmt(plain(running[p])))
            elif e["kind"] in ("pass", "redeal") or (e["kind"] == "penalty" and e["points"][p] == 0):
                cells.append(fmt(plain(running[p])))
            else:
                cells.append(f"{fmt(plain(running[p]))}  ({signed(e['points'][p])})")
        text = entry_words(e) + note + (f" - {e['reason']}" if e.get("reason") else "")
        if e.get("precedents"):
            text += _ruling_mark(e["precedents"])
        rows.append([str(e["no"]), e["dealer"], text, mark] + cells)
        if e["kind"] == "leave":  # his total stays on this row; blank after it
            away.add(str(e["text"]).split()[1])
    shown = doc["entries"]
    if last is not None:
        rows = rows[-last:]
    s = doc["session"]
    head = (_("session {id}: {name}{date} ({rules})") if s["open"] else _("session {id}: {name}{date} ({rules}, ended)")).format(
        id=s["id"], name=s["name"] + ", " if s["name"] else "", date=date_text(s["date"]), rules=s["rules"]
    )
    out = [head] if heading else []
    if rows:
        colalign = ("right", "left", "left", "left") + ("right",) * len(players)
        from .render import table

        full = table(rows, ["#", _("dealer"), _("entry"), "x"] + players, colalign=colalign).split("\n")
        if width is None or max(len(x) for x in full) <= width:
            out += full
        else:
            out += compact_sheet(doc, shown, width, signed, marks[-len(shown):]) or entry_lines(
                doc, shown, width, signed, marks[-len(shown):])
        out += notes  # each correction's reason once, under the table: a row stays as wide as its entry
    else:
        out.append(_("(no entries yet)"))
    out.append(_("totals: {points}").format(points=", ".join(f"{p} {signed(v)}" for p, v in doc["totals"].items())))
    if s["open"]:
        seating = tuple(doc.get("seating") or players)  # players came and went: the table as it is now
        st = TableState(seating.index(doc["dealer"]), doc["pending_multiplier"])
        out.append(_("next: {status}").format(status=status_line(seating, st)))
    owed = {p: n for p, n in doc["rounds_owed"].items() if n}
    if owed:
        out.append(_("rounds owed: {owed}").format(owed=", ".join(f"{p} {n}" for p, n in owed.items())))
    if doc.get("evening"):
        out.append(doc["evening"]["progress"])
    footer = seal_footer(s)
    if footer and not s["open"]:
        out.append(footer)
    return "\n".join(piece for line in out for piece in wrap(line, width))


def struck(points: int | float) -> str:
    """A voided entry's points as the sheet shows them: struck through like the entry (``~-15~``)."""
    return f"~{signed(points)}~"


def footnotes(entries: Sequence[SheetEntry]) -> tuple[list[str], list[str]]:
    """Each entry's mark (`` [1]``, or '') and the notes under the sheet: one per correction made after the evening,
    its date and reason said once for the version it voided and the one that replaced it."""
    numbers: dict[str, int] = {}
    marks, notes = [], []
    for e in entries:
        c = e.get("correction") or e.get("voided_after")
        if not c:
            marks.append("")
            continue
        note = correction_note(c)
        if note not in numbers:
            numbers[note] = len(numbers) + 1
            notes.append(f"[{numbers[note]}] {note}")
        marks.append(f" [{numbers[note]}]")
    return marks, notes


def sheet_rows(doc: SheetDoc) -> tuple[list[str], list[list[object]]]:
    """The sheet as CSV rows: one per entry, each player's points of that entry (empty where he sat out or
    the entry is voided), so that a spreadsheet's SUM of a column is the player's total."""
    players = doc["session"]["players"]
    headers = ["no", "kind", "entry", "reason", "dealer", "multiplier", "voided", *players]
    rows = [
        [e["no"], e["kind"], e["text"], e.get("reason", ""), e["dealer"], e["multiplier"], int(e["voided"])]
        + [None if e["voided"] else e["points"].get(p) for p in players]
        for e in doc["entries"]
    ]
    return headers, rows


def rounds_owed_line(owed: dict[str, int]) -> str:
    """'rounds owed: jan 1, piet 2 (een rondje geven)', or '' when nobody owes a round."""
    who = {p: n for p, n in owed.items() if n}
    if not who:
        return ""
    return _("rounds owed: {owed} (een rondje geven)").format(owed=", ".join(f"{p} {n}" for p, n in who.items()))


def sheet_html(doc: SheetDoc) -> str:
    """One evening's sheet (the `sheet --json` document) as a self-contained HTML page with its chart."""
    from .render import html_page

    s = doc["session"]
    players = list(s["players"])
    running: dict[str, int | float] = {p: 0 for p in players}
    rows: list[list[object]] = []
    series: dict[str, list[tuple[str, int | float]]] = {p: [(_("start"), 0)] for p in players}
    marks, notes = footnotes(doc["entries"])  # each correction's reason once, under the table
    for e, note in zip(doc["entries"], marks, strict=True):
        mark = f"x{e['multiplier']}" if e["multiplier"] > 1 else ""
        text = entry_words(e) + note + (f" - {e['reason']}" if e.get("reason") else "")
        if e["voided"]:
            rows.append([e["no"], e["dealer"], _("{entry} (voided{after})").format(entry=text, after=""), mark]
                        + ["" for _p in players])
            continue
        for p, v in e["points"].items():
            running[p] = running.get(p, 0) + v
        rows.append([e["no"], e["dealer"], text, mark] + [running[p] for p in players])
        for p in players:
            series[p].append((f"#{e['no']}", running[p]))
    rows.append(["", "", _("totals"), ""] + [doc["totals"].get(p, 0) for p in players])
    title = f"{s['name'] + ', ' if s['name'] else ''}{date_text(s['date'])}"
    return html_page(
        _("Scoresheet: {title}").format(title=title), ["#", _("dealer"), _("entry"), "x", *players], rows, series,
        subtitle=_("Session {id}, house rules {rules}; running totals after each entry.").format(id=s["id"], rules=s["rules"]),
        chart_heading=_("Points over the evening"),
        footer=seal_footer(s),
        sections=[(_("Corrections after the evening"), notes)] if notes else [],
    )


def correction_note(c: Correction) -> str:
    """'corrected after the evening, 2026-11-28: REASON'."""
    day = date_text(str(c["at"])[:10])
    if c.get("reason"):
        return _("corrected after the evening, {date}: {reason}").format(date=day, reason=c["reason"])
    return _("corrected after the evening, {date}").format(date=day)


def seal_footer(s: SheetSession) -> str:
    """The sheet's last line: the session's seal (and the earlier ones, after corrections)."""
    seals = s.get("seals") or []
    void = _("Void: this session counts nowhere ({reason}).").format(reason=s["void"]) + "\n" if s.get("void") else ""
    if not seals:
        return _("Open: the session gets its seal when it ends.") if s.get("open") else ""
    return void + _sealed(seals)


def _sealed(seals: list[SealRef]) -> str:
    last = seals[-1]
    at = str(last["at"])[:16].replace("T", " ")
    at = f"{date_text(at[:10])}{at[10:]}"
    if len(seals) > 1:
        earlier = ", ".join(
            _("{seal} of {date}").format(seal=x["seal"], date=date_text(str(x["at"])[:10])) for x in seals[:-1]
        )
        return _("Seal: {seal} (sealed {at} UTC; after corrections; earlier: {earlier}). "
                 "Check it with `wiezen check --seal CODE`.").format(seal=last["seal"], at=at, earlier=earlier)
    return _("Seal: {seal} (sealed {at} UTC). Check it with `wiezen check --seal CODE`.").format(seal=last["seal"], at=at)


def resolved_text(entry: EntryInput, rules: HouseRules, players: tuple[str, ...]) -> str:
    """The entry as it will be recorded: the contract and the players' names written out."""
    from ..core.deal import parse_deal, resolve_player

    if entry.kind == "deal":
        return parse_deal(entry.text, rules, players, over_troel=entry.over_troel).text
    if entry.kind == "penalty":
        out = f"penalty {resolve_player(entry.offender, players)}" + (" round" if entry.round else "")
        return out + (f" {entry.reason}" if entry.reason else "")
    if entry.kind == "redeal":
        return "redeal" + (f" {entry.reason}" if entry.reason else "")
    return "pas"
