"""A competition's standing as text: its numbers and the honours lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal, TypedDict

from ..core.dates import date_text
from ..core.i18n import _
from ..core.numbers import decimal, signed_decimal

if TYPE_CHECKING:
    from ..core.ranking import Honours, Ranked

#: what a player's ranking counts: evenings (a season), or rounds (one night)
Unit = Literal["evenings", "rounds"]



class CompetitionDoc(TypedDict, total=False):
    """The `standings --competition FILE --json` document (``night``: one night's ranking)."""

    competition: str
    night: str
    rules: list[str]
    players: list[Ranked]
    honours: Honours

def movement(d: Ranked) -> str:
    """A player's movement since the night before, as the table shows it: +2, -1, =, new (or nothing)."""
    m = d.get("movement")
    if m is None:
        return ""
    return _("new") if m == "new" else str(m)


def _honours_lines(hon: Honours | None) -> list[str]:
    if hon is None:
        return []

    def names(xs: list[str]) -> str:
        return ", ".join(xs) if xs else _("nobody yet")

    lines = [_("Champion: {players}").format(players=names(hon["champion"])),
             _("Rode lantaarn (last place): {players}").format(players=names(hon["rode_lantaarn"]))]
    mk = hon["miserie_king"]
    lines.append(_("Miserie king (most miseries made): {players}").format(players=names(mk["players"]))
                 + (f" ({mk['miseries']})" if mk["players"] else ""))
    mc = hon["most_contracts"]
    lines.append(_("Most contracts made: {players}").format(players=names(mc["players"]))
                 + (f" ({mc['made']})" if mc["players"] else ""))
    pz = hon["prizes"]

    if pz["places"] is not None:
        prize = _("Prizes (top {n}): {players}").format(
            n=pz["places"],
            players=", ".join(f"{d['rank']}. {d['player']}" for d in pz["players"]) or _("nobody ranked yet"),
        )
        lines.append(prize)
    for n in hon.get("nights", []):
        lines.append(_("Night of {night}: won by {players} ({score})").format(
            night=date_text(n["night"]), players=names(n["players"]), score=decimal(n["score"])))
    for per in hon.get("periods", []):
        lines.append(_("Period {period}: champion {players}").format(period=per["period"], players=names(per["champion"])))
    for p in hon["players"]:
        bits = [_("{n} miseries made").format(n=p["miseries"]),
                _("{made} of {taken} contracts made").format(made=p["made"], taken=p["taken"])]
        if p["partner"]:
            q = p["partner"]
            bits.append(_("favourite partner {player} ({points} in {deals} deals)").format(
                player=q["player"], points=signed_decimal(q["points"]), deals=q["deals"]))
        if p["nemesis"]:
            q = p["nemesis"]
            bits.append(_("nemesis {player} ({points} in {deals} deals)").format(
                player=q["player"], points=signed_decimal(q["points"]), deals=q["deals"]))
        lines.append(f"{p['player']}: " + ", ".join(bits))
    return lines


def competition_doc(name: str, day: str | None, words: list[str], ranking: list[Ranked],
                    hon: Honours | None) -> CompetitionDoc:
    """The `standings --competition FILE --json` document."""
    doc: CompetitionDoc = {"competition": name}
    if day:
        doc["night"] = day
    doc.update({"rules": words, "players": ranking})
    if hon is not None:
        doc["honours"] = hon
    return doc


def competition_rows(ranking: list[Ranked], unit: Unit, tb: list[str]) -> tuple[list[str], list[list[object]]]:
    """The CSV headers and rows: one row per player, numbers as numbers."""
    moves = any("movement" in d for d in ranking)
    headers = ["rank", "player", "score", unit, "counted", "tables", "wins", "points", "opponents",
               *(f"tiebreak {t}" for t in tb), "unranked", *(("previous_rank", "movement") if moves else ())]
    return headers, [_row(d, unit, tb) + ([d.get("previous_rank") if d.get("previous_rank") is not None else "",
                                           d.get("movement") or ""] if moves else []) for d in ranking]


def _row(d: Ranked, unit: Unit, tb: list[str]) -> list[object]:
    return [d["rank"] if d["rank"] is not None else "", d["player"], d["score"], d[unit], d["counted"],
            d["tables"], d["wins"], d["points"], d["opponents"], *(d["tiebreak"][t] for t in tb),
            d["unranked"] or ""]  # fmt: skip


def competition_html(heading: str, description: str, ranking: list[Ranked], hon: Honours | None,
                     words: list[str], unit: Unit, tb: list[str], day: str | None, today: str) -> str:
    """The ranking as one self-contained HTML page: the table, the chart, the rules in words, the honours.

    The chart plots what the table counts: each player's score adding up over the evenings that count (his best
    N, filled dots); an evening that does not count is a faded ring where his line stays level, so that each line
    ends on the score in the table."""
    from .render import html_page

    series: dict[str, list[tuple[str, int | float]]] = {}
    counted: dict[str, list[bool]] = {}
    for d in ranking:
        total = 0.0
        for s in d["scores"]:
            total += s["score"] if s["counted"] else 0
            series.setdefault(d["player"], []).append((s["round"] if day else s["evening"], round(total, 2)))
            counted.setdefault(d["player"], []).append(bool(s["counted"]))
    some_left_out = not all(k for flags in counted.values() for k in flags)
    moves = any("movement" in d for d in ranking)
    hdr = ["#", *((_("move"),) if moves else ()), _("player"), _("score"), _(unit), _("counted"),
           _("tables"), _("wins"), _("points"), _("opponents"), *(_("tiebreak {name}").format(name=t) for t in tb)]
    # the unranked (guests, players below a minimum) are listed apart, as the text does, with their reason
    ranked = [d for d in ranking if d["rank"] is not None]
    apart = [_("{player}: score {score}, {unit} {n} ({why})").format(player=d["player"], score=decimal(d["score"]),
                                                                  n=d[unit], unit=_(unit), why=d["unranked"])
             for d in ranking if d["rank"] is None]
    sections = [(_("Listed apart, unranked"), apart)] if apart else []
    sections.append((_("How this competition ranks"), words))
    if hon is not None:
        sections.append((_("Honours"), _honours_lines(hon)))
    rows = [_row(d, unit, tb)[:-1] for d in ranked]  # (the last cell, why unranked: empty for the ranked)
    if moves:
        rows = [[r[0], movement(d), *r[1:]] for r, d in zip(rows, ranked, strict=False)]
    return html_page(heading, hdr, rows, series,
                     subtitle=(description + " " if description else "") + _("As of {date}.").format(date=today),
                     chart_heading=_("Score over the night") if day else _("Score over the season"),
                     sections=sections, counted=counted, y_label=_("score"),
                     chart_title=_("{title}: each player's score as it adds up").format(title=heading),
                     caption=_("Each line adds up what the table counts and ends on the player's score. A filled dot "
                               "is an evening that counts; a faded ring is one that does not (outside his best "
                               "evenings), where his line stays level.") if some_left_out else "")  # fmt: skip


def competition_text(heading: str, ranking: list[Ranked], hon: Honours | None, words: list[str],
                     unit: Unit, tb: list[str], markdown: bool = False) -> str:
    """The ranking as text (or markdown): the ranked table with trends, those listed apart, honours, rules."""
    from .render import _md, sparkline, table

    md = markdown
    ranked = [d for d in ranking if d["rank"] is not None]
    apart = [d for d in ranking if d["rank"] is None]
    moves = any("movement" in d for d in ranking)
    cols = ["#", *((_("move"),) if moves else ()), _("player"), _("score"), _(unit), _("counted"), _("tables"),
            _("points"), *(_("tie {name}").format(name=t) for t in tb), _("trend")]
    body = [[d["rank"], *((movement(d),) if moves else ()), _md(d["player"]) if md else d["player"],
             decimal(d["score"]), d[unit], d["counted"],
             d["tables"], decimal(d["points"]), *(decimal(d["tiebreak"][t]) for t in tb),
             sparkline([s["score"] for s in d["scores"]])] for d in ranked]  # fmt: skip
    out = [f"## {heading}\n" if md else heading]
    if not ranking:
        out.append(_("no sessions count for this competition yet"))
    if ranked:
        out.append(table(body, cols, tablefmt="pipe" if md else "simple"))
    if apart:
        out.append(("\n### " if md else "\n") + _("Listed apart, unranked") + ("\n" if md else ":"))
        out.append(table([[_md(d["player"]) if md else d["player"], decimal(d["score"]), d[unit], d["unranked"]]
                          for d in apart], [_("player"), _("score"), _(unit), _("why")], tablefmt="pipe" if md else "simple"))
    if hon is not None:
        out.append("\n### " + _("Honours") + "\n" if md else "\n" + _("honours:"))
        out.extend(("- " if md else "  ") + x for x in _honours_lines(hon))
    out.append("\n### " + _("How this competition ranks") + "\n" if md else "\n" + _("how it ranks:"))
    out.extend(("- " if md else "  ") + x for x in words)
    return "\n".join(out)


def listing_markdown(heading: str, headers: list[str], rows: Sequence[Sequence[object]], names: tuple[int, ...] = (1,)) -> str:
    """A listing of the competition (the grid of nights, the teams) as a markdown heading and table; the columns
    ``names`` hold names (escaped as markdown), the others figures."""
    from .render import _md, table

    cells = [[_md(str(c)) if i in names else c for i, c in enumerate(r)] for r in rows]
    return f"## {_md(heading)}\n\n" + table(cells, headers, tablefmt="pipe")


def listing_html(heading: str, headers: list[str], rows: Sequence[Sequence[object]], note: str, today: str) -> str:
    """A listing of the competition (the grid of nights, the teams) as one self-contained page, without a chart."""
    from .render import html_page

    return html_page(heading, headers, [list(r) for r in rows], None,
                     subtitle=(note + " " if note else "") + _("As of {date}.").format(date=today))
