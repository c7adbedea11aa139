"""A competition's standing as text: its numbers and the honours lines."""

from __future__ import annotations

from typing import Any

from ..core.numbers import signed_decimal
from ..core.i18n import _


def _honours_lines(hon: dict[str, Any] | None) -> list[str]:
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
