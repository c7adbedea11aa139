"""A competition's standing as text: its numbers and the honours lines."""

from __future__ import annotations

from typing import Any

from ..core.numbers import signed_decimal


def _honours_lines(hon: dict[str, Any] | None) -> list[str]:
    if hon is None:
        return []

    def names(xs: list[str]) -> str:
        return ", ".join(xs) if xs else "nobody yet"

    lines = [f"Champion: {names(hon['champion'])}", f"Rode lantaarn (last place): {names(hon['rode_lantaarn'])}"]
    mk = hon["miserie_king"]
    lines.append(f"Miserie king (most miseries made): {names(mk['players'])}"
                 + (f" ({mk['miseries']})" if mk["players"] else ""))
    mc = hon["most_contracts"]
    lines.append(f"Most contracts made: {names(mc['players'])}" + (f" ({mc['made']})" if mc["players"] else ""))
    pz = hon["prizes"]

    if pz["places"] is not None:
        prize = f"Prizes (top {pz['places']}): " + (", ".join(f"{d['rank']}. {d['player']}" for d in pz["players"])
                                                  or "nobody ranked yet")
        lines.append(prize)
    for p in hon["players"]:
        bits = [f"{p['miseries']} miseries made", f"{p['made']} of {p['taken']} contracts made"]
        if p["partner"]:
            q = p["partner"]
            bits.append(f"favourite partner {q['player']} ({signed_decimal(q['points'])} in {q['deals']} deals)")
        if p["nemesis"]:
            q = p["nemesis"]
            bits.append(f"nemesis {q['player']} ({signed_decimal(q['points'])} in {q['deals']} deals)")
        lines.append(f"{p['player']}: " + ", ".join(bits))
    return lines
