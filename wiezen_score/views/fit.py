"""Text that fits the terminal: wrapped lines, short player labels and the compact scoresheet. Pure.

The full sheet shows every player's running total and what the entry gave him. When that is wider than the
terminal, the compact sheet shows short names (initials or the shortest prefix that tells players apart) in
the header, only the points of each entry, and the totals on their own row; entry texts are shortened to
fit. When even that cannot fit (a very narrow terminal), each entry becomes a wrapped line of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ..core.i18n import _

if TYPE_CHECKING:
    from ..core.documents import SheetDoc, SheetEntry

__all__ = ["compact_sheet", "entry_words", "row_words", "labels", "plain_table", "shorten_text", "table_width", "wrap", "wrap_all"]


def entry_words(e: Mapping[str, object]) -> str:
    """The entry's text as a person reads it, without its reason: the stored text (the grammar's words) in
    English; in Dutch a penalty and a redeal in the words `wiezen play` takes in Dutch (``straf piet rondje``,
    ``opnieuw delen``). The stored text itself never changes."""
    text = str(e["text"])
    if e.get("kind") == "penalty" and text.startswith("penalty "):
        who = text[len("penalty "):]
        if who.endswith(" round"):
            return _("penalty {player} round").format(player=who[: -len(" round")])
        return _("penalty {player}").format(player=who)
    if e.get("kind") == "redeal" and text == "redeal":
        return _("redeal")
    if e.get("kind") in ("join", "leave"):
        words = text.split()
        if len(words) == 4:
            return _("join {player} after {after}").format(player=words[1], after=words[3])
        if len(words) == 2:
            return (_("join {player}") if words[0] == "join" else _("leave {player}")).format(player=words[1])
    return text


class Worded(Protocol):
    """A recorded row or a scored entry: what it is and its line."""

    @property
    def kind(self) -> str: ...

    @property
    def text(self) -> str: ...


def row_words(row: Worded) -> str:
    """:func:`entry_words` of a recorded row or a scored entry (anything with ``kind`` and ``text``)."""
    return entry_words({"kind": row.kind, "text": row.text})


def wrap(line: str, width: int | None, indent: str = "  ") -> list[str]:
    """``line`` broken at spaces so that no piece is wider than ``width`` (None: as it is)."""
    if width is None or len(line) <= width:
        return [line]
    import textwrap

    lead = line[: len(line) - len(line.lstrip(" "))]
    return textwrap.wrap(
        line, width, initial_indent="", subsequent_indent=lead + indent, break_long_words=True,
        break_on_hyphens=False, drop_whitespace=True,
    ) or [line[:width]]


def wrap_all(text: str, width: int | None) -> str:
    return "\n".join(piece for line in text.split("\n") for piece in wrap(line, width))


def labels(players: Sequence[str], size: int) -> dict[str, str]:
    """Each player's label of at most ``size`` letters (longer only where needed to tell two apart):
    ``size`` 1 gives initials, capitalised."""
    out: dict[str, str] = {}
    for p in players:
        n = min(size, len(p))
        while n < len(p) and any(q != p and q[:n].casefold() == p[:n].casefold() for q in players):
            n += 1
        label = p[:n]
        out[p] = label[:1].upper() + label[1:] if size == 1 else label
    return out


def table_width(rows: Sequence[Sequence[str]], headers: Sequence[str]) -> int:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    return sum(widths) + 2 * (len(widths) - 1)


def plain_table(rows: Sequence[Sequence[str]], headers: Sequence[str], right: Sequence[bool],
                rule_before_last: bool = False) -> list[str]:
    """A table like tabulate's "simple" format (two spaces between columns, a dashed rule under the header),
    with an optional rule above the last row (the totals)."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=False)).rstrip()

    rule = "  ".join("-" * w for w in widths)
    out = [line(headers), rule]
    for i, r in enumerate(rows):
        if rule_before_last and i == len(rows) - 1:
            out.append(rule)
        out.append(line(r))
    return out


def shorten_text(text: str, names: Mapping[str, str], width: int) -> str:
    """A deal line with the players' labels for their names, cut to ``width`` (with '~' where cut)."""
    words = []
    for w in text.split(" "):
        words.append("+".join(names.get(part, part) for part in w.split("+")))
    short = " ".join(words)
    if len(short) <= width:
        return short
    from ..core.abbrev import ABBREVIATIONS

    abbrev = {full: a for a, full in ABBREVIATIONS.items()}
    lead = words[0].lstrip("~")
    if lead in abbrev:  # the contract as the scorer types it at the table: gm, om ...
        words[0] = words[0][: len(words[0]) - len(lead)] + abbrev[lead]
        short = " ".join(words)
        if len(short) <= width:
            return short
    return short[: max(width - 1, 0)] + "~" if width > 0 else ""


_MIN_ENTRY = 10


def compact_sheet(
    doc: SheetDoc,
    rows: Sequence[SheetEntry],
    width: int,
    signed: Callable[[int | float], str],
    marks: Sequence[str] = (),
) -> list[str] | None:
    """The compact table's lines for ``rows`` (entries of the sheet document, already cut to the last N), or None
    when it cannot fit ``width`` even with initials. ``marks``: each row's footnote mark (views/sheet.py)."""
    players = list(doc["session"]["players"])
    sizes = (8, 6, 5, 4, 3, 2, 1)
    # first the longest labels that leave the entries room enough (24, or what the longest needs), then any
    for want_room in (True, False):
        for size in sizes:
            found = _compact(doc, rows, width, signed, players, size, want_room, marks)
            if found is not None:
                return found
    return None


def _compact(doc: SheetDoc, rows: Sequence[SheetEntry], width: int, signed: Callable[[int | float], str],
             players: list[str], size: int, want_room: bool, marks: Sequence[str] = ()) -> list[str] | None:
    names = labels(players, size)
    cells = []
    for e in rows:
        pts = e["points"]
        if e["voided"]:  # struck through, as the entry is: they count nowhere
            vals = [f"~{signed(pts[p])}~" if pts.get(p) else "" for p in players]
        elif e["kind"] in ("pass", "redeal"):
            vals = ["" for _ in players]
        else:
            vals = [("" if e["kind"] == "penalty" and not pts[p] else signed(pts[p])) if p in pts
                    else (_("out") if e["kind"] != "penalty" else "") for p in players]
        mark = "" if e["multiplier"] == 1 else "*" if e["multiplier"] == 2 else f"*{e['multiplier']}"
        cells.append((str(e["no"]), names.get(e["dealer"], e["dealer"]), e, mark, vals))
    totals = [signed(doc["totals"].get(p, 0)) for p in players]
    headers = ["#", _("d"), _("entry"), "x", *[names[p] for p in players]]
    fixed = [("", "", "", "", totals)] + [(n, d, None, m, v) for n, d, _e, m, v in cells]
    widths = [max([len(headers[0]), *(len(c[0]) for c in fixed)]),
              max([len(headers[1]), *(len(c[1]) for c in fixed)]),
              0,
              max([len(headers[3]), *(len(c[3]) for c in fixed)])]
    widths += [max([len(headers[4 + i]), *(len(c[4][i]) for c in fixed)]) for i in range(len(players))]
    room = width - (sum(widths) + 2 * (len(widths) - 1))
    texts = []
    notes = [marks[i] if i < len(marks) else "" for i in range(len(cells))]  # footnote marks: never cut off
    for _n, _d, e, _m, _vals in cells:
        text = entry_words(e) + (f" - {e['reason']}" if e.get("reason") else "")
        texts.append(_("~{entry}~ voided").format(entry=text) if e["voided"] else text)
    needed = max([len(_("totals")), *(len(shorten_text(t, names, 10**6) + m) for t, m in zip(texts, notes, strict=True))])
    if room < (min(needed, 24) if want_room else _MIN_ENTRY):
        return None
    table_rows = []
    for (n, d, _e, m, vals), text, note in zip(cells, texts, notes, strict=True):
        table_rows.append([n, d, shorten_text(text, names, room - len(note)) + note, m, *vals])
    table_rows.append(["", "", _("totals"), "", *totals])
    out = plain_table(table_rows, headers, [True, False, False, False, *([True] * len(players))],
                      rule_before_last=True)
    legend = ", ".join(f"{names[p]} = {p}" for p in players if names[p] != p)
    if legend:
        out += wrap(_("players: {legend}").format(legend=legend), width)
    return out


def entry_lines(doc: SheetDoc, rows: Sequence[SheetEntry], width: int, signed: Callable[[int | float], str],
                marks: Sequence[str] = ()) -> list[str]:
    """The narrowest form: each entry on wrapped lines of its own."""
    out = []
    for i, e in enumerate(rows):
        mark = f" x{e['multiplier']}" if e["multiplier"] > 1 else ""
        note = marks[i] if i < len(marks) else ""
        reason = f" - {e['reason']}" if e.get("reason") else ""
        text = entry_words(e) + note + reason
        if e["voided"]:
            pts = ", ".join(f"{p} ~{signed(v)}~" for p, v in e["points"].items() if v)
            out += wrap(f"#{e['no']} ({e['dealer']}) " + _("~{entry}~ voided").format(entry=entry_words(e) + reason)
                        + note + (f": {pts}" if pts else ""), width)
            continue
        pts = ", ".join(f"{p} {signed(v)}" for p, v in e["points"].items())
        out += wrap(f"#{e['no']} ({e['dealer']}) {text}{mark}: {pts}", width)
    return out
