"""Seating a night with several tables: table sizes, the draw, later rounds by standing, the final. Pure.

Round 1 is drawn (a seed makes the draw repeatable); later rounds seat the players by their standing; the
final table takes the round winners of the night."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypedDict

from .errors import WiezenError
from .i18n import _, ngettext

MAX_PLAYERS = 600


def table_sizes(n: int) -> list[int]:
    """Tables of four, with five or six where the count demands; the larger tables last (so that table 1,
    seated by standing, holds the best four whenever the count allows)."""
    if n in (4, 5, 6):
        return [n]
    if n < 8 or n > MAX_PLAYERS:
        raise WiezenError(
            _("{n} players cannot be seated at tables of 4 to 6: seat 4, 5, 6, or 8 to {most} players").format(
                n=n, most=MAX_PLAYERS
            )
        )
    t, r = divmod(n, 4)
    sizes = [4] * t
    for i in range(r):
        sizes[-1 - (i % t)] += 1
    return sorted(sizes)


def _tables(ordered: Sequence[str]) -> list[list[str]]:
    out: list[list[str]] = []
    i = 0
    for size in table_sizes(len(ordered)):
        out.append(list(ordered[i:i + size]))
        i += size
    return out


def check_players(players: Sequence[str]) -> None:
    seen: dict[str, str] = {}
    for p in players:
        if not p:
            raise WiezenError(_("an empty player name in the list: give names separated by commas"))
        k = p.casefold()
        if k in seen:
            raise WiezenError(_("'{player}' is named twice: every player is seated once").format(player=p))
        seen[k] = p


def draw(players: Sequence[str], seed: int) -> list[list[str]]:
    """Round 1: the players drawn at random into tables; the same seed gives the same draw."""
    check_players(players)
    order = sorted(players, key=str.casefold)  # the draw does not depend on the order the names were typed
    random.Random(seed).shuffle(order)
    return _tables(order)


def by_standing(standing: Sequence[str]) -> list[list[str]]:
    """A later round: the players in order of standing, best first: the best four at table 1, and so on."""
    check_players(standing)
    return _tables(list(standing))



class FinalSeat(TypedDict):
    player: str
    why: str  # "won round 2", "placed 3 in the ranking"

def final_table(round_winners: Sequence[str], ranking: Sequence[str], size: int = 4) -> list[FinalSeat]:
    """The final table: the winners of the rounds (in order of the ranking when there are more of them than
    seats), completed from the ranking. Returns ``[{"player": NAME, "why": TEXT}]``."""
    if not 4 <= size <= 6:
        raise WiezenError(_("a final table seats 4 to 6 players, not {n}").format(n=size))
    pos = {p: i for i, p in enumerate(ranking)}
    winners: list[tuple[str, list[int]]] = []
    for rnd, p in enumerate(round_winners, 1):
        for w in winners:
            if w[0] == p:
                w[1].append(rnd)
                break
        else:
            winners.append((p, [rnd]))
    winners.sort(key=lambda w: pos.get(w[0], len(pos)))
    out: list[FinalSeat] = []
    for p, rounds in winners[:size]:
        which = ", ".join(str(r) for r in rounds)
        out.append({"player": p, "why": ngettext("won round {rounds}", "won rounds {rounds}", len(rounds)).format(rounds=which)})
    seated = {d["player"] for d in out}
    for i, p in enumerate(ranking):
        if len(out) >= size:
            break
        if p not in seated:
            out.append({"player": p, "why": _("placed {n} in the ranking").format(n=i + 1)})
            seated.add(p)
    if len(out) < size:
        raise WiezenError(_("only {n} players for a final table of {size}").format(n=len(out), size=size))
    return out
