"""A club night's standing and the next round's seating, from the tables played so far. Pure.

The night is ranked across its tables (each table scored as the competition file says, or by points, the rounds
adding up: core/ranking.py with ``per = "table"``); the next round seats its players by that standing, best first
(core/seating.py). A player of the night that the ranking does not have (he has played no table yet) is seated after
the others, and said so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .competition import Competition
from .ranking import Ranked, TableRow, rank
from .seating import by_standing


@dataclass(frozen=True, slots=True)
class Standing:
    """The night's ranking so far, the order it seats the next round in, and who the ranking lacks."""

    ranking: list[Ranked]
    order: list[str]
    missing: list[str]


def night_standing(c: Competition | None, rows: Sequence[TableRow], players: Sequence[str]) -> Standing:
    """The night's ranking over ``rows`` (its tables so far), and ``players`` (the next round's) in its order."""
    comp = replace(c, best=None, min_evenings=0, min_opponents=0) if c is not None else Competition(name="night")
    ranking = rank(comp, rows, "table")
    at = {p.casefold(): p for p in players}
    order = [at[d["player"].casefold()] for d in ranking if d["player"].casefold() in at]
    seen = {p.casefold() for p in order}
    missing = [p for p in players if p.casefold() not in seen]
    return Standing(ranking, order + missing, missing)


def next_seating(standing: Standing) -> list[list[str]]:
    """The next round's tables: the best four at table 1, and so on (tables of five or six where the count demands)."""
    return by_standing(standing.order)
