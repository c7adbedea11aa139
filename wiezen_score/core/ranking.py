"""A competition's ranking: table scores, best N, the minimums, tie-breaks, guests, teams, honours. Pure.

Scores are kept as integers in units of 1/SCALE (points are whole or half points; a place shared by 2 to 6 players
divides its points by at most 6), so that ties are exact whatever the figures. What counts and how (the file) is
core/competition.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from .competition import Competition
from .i18n import _

SCALE = 120  # score units per point: half points and the average over 2 .. 6 shared places stay whole


@dataclass(frozen=True)
class TableRow:
    """One player at one table (a session): what the ledger gives, one row per seat."""

    session: int
    date: str
    player: str
    points: float
    round: int | None = None
    table: int | str | None = None
    made: int = 0
    taken: int = 0


class UnitScore(TypedDict, total=False):
    """A player's score of one evening (``evening``: its date) or, in a night's ranking, one round (``round``)."""

    evening: str
    round: str
    score: int | float
    points: int | float
    counted: bool


class Ranked(TypedDict, total=False):
    """One player of a ranking (`standings --competition --json`'s players); ``evenings`` per evening, ``rounds``
    per table; ``previous_rank`` and ``movement`` only from :func:`with_movement`."""

    rank: int | None
    player: str
    score: int | float
    evenings: int
    rounds: int
    counted: int
    tables: int
    wins: int
    points: int | float
    opponents: int
    made: int
    taken: int
    tiebreak: dict[str, int | float]
    scores: list[UnitScore]
    unranked: str | None
    guest: bool
    _key: tuple[int, ...]  # (while ranking: the score and the tie-breaks)
    previous_rank: int | None
    movement: str | None


class PairFigure(TypedDict):
    player: str
    points: int | float
    deals: int


class NightWinner(TypedDict):
    night: str
    players: list[str]
    score: int | float


class _Leaders(TypedDict):
    players: list[str]


class MiserieKing(_Leaders):
    miseries: int


class MostContracts(_Leaders):
    made: int


class Prize(TypedDict):
    rank: int | None
    player: str
    score: int | float


class Prizes(TypedDict):
    places: int | None
    players: list[Prize]


class PlayerHonours(TypedDict):
    player: str
    rank: int | None
    miseries: int
    made: int
    taken: int
    partner: PairFigure | None
    nemesis: PairFigure | None


class PeriodChampion(TypedDict):
    period: str
    champion: list[str]


class _HonoursFields(TypedDict):
    competition: str
    champion: list[str]
    nights: list[NightWinner]
    rode_lantaarn: list[str]
    miserie_king: MiserieKing
    most_contracts: MostContracts
    prizes: Prizes
    players: list[PlayerHonours]


class Honours(_HonoursFields, total=False):
    """The season's honours; ``periods`` when the file has periods and the whole season is shown."""

    periods: list[PeriodChampion]


class GridRow(TypedDict):
    player: str
    rank: int | None
    scores: list[int | float | None]
    counted: list[bool]


class NightsGrid(TypedDict):
    nights: list[str]
    players: list[GridRow]


class TeamMember(TypedDict):
    player: str
    score: int | float


class TeamRow(TypedDict):
    rank: int
    team: str
    score: int | float
    members: list[TeamMember]


@dataclass
class _Unit:
    key: str | int  # the evening's date, or the table's session
    label: str
    order: tuple[str | int, ...]
    score: int = 0  # in 1/SCALE
    points: int = 0  # in 1/SCALE


@dataclass
class _Player:
    name: str
    units: dict[str | int, _Unit] = field(default_factory=dict)
    tables: int = 0
    wins: int = 0
    points: int = 0
    made: int = 0
    taken: int = 0
    opponents: set[str] = field(default_factory=set)


def _num(scaled: int) -> int | float:
    q, r = divmod(scaled, SCALE)
    return q if r == 0 else round(scaled / SCALE, 2)


def table_scores(c: Competition, points: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """Each player's (score in 1/SCALE, place) at one table: his points (plus his place's bonus), or his place's
    placement points; players on equal points share the average of their places' points."""
    ordered = sorted(points.items(), key=lambda kv: -kv[1])
    out: dict[str, tuple[int, int]] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        places = c.placement if c.score == "placement" else c.place_bonus
        vals = [places[k] if k < len(places) else 0 for k in range(i, j)]
        share = sum(vals) * SCALE // (j - i)  # players on equal points share their places' points
        for name, pts in ordered[i:j]:
            out[name] = (share if c.score == "placement" else round(pts * SCALE) + share, i + 1)
        i = j
    return out


def rank(c: Competition, rows: Iterable[TableRow], per: str = "evening",
         scaled: dict[str, int] | None = None) -> list[Ranked]:
    """The competition's ranking: ranked players first in rank order, then the unranked (rank None).

    ``per`` is the unit that best N, the minimum and ``last:K`` count: ``"evening"`` (a date), or ``"table"``
    (each session, for one night's ranking across its rounds). Players equal on the score and every tie-break
    share a rank (1, 2, 2, 4). Guests are listed apart, unranked. ``scaled`` (if given) gets each player's score
    in 1/SCALE, exact, for sums over players (teams).
    """
    by_session: dict[int, list[TableRow]] = {}
    for r in rows:
        by_session.setdefault(r.session, []).append(r)
    players: dict[str, _Player] = {}
    for sid, seat_rows in by_session.items():
        scores = table_scores(c, {r.player: r.points for r in seat_rows})
        names = [r.player for r in seat_rows]
        for r in seat_rows:
            p = players.get(r.player)
            if p is None:
                p = players[r.player] = _Player(r.player)
            sc, place = scores[r.player]
            if per == "table":
                key: str | int = sid
                label = f"round {r.round}" if r.round is not None else f"{r.date} #{sid}"
                order: tuple[str | int, ...] = (r.date, r.round or 0, sid)
            else:
                key, label, order = r.date, r.date, (r.date,)
            u = p.units.get(key)
            if u is None:
                u = p.units[key] = _Unit(key, label, order)
            u.score += sc
            pts = round(r.points * SCALE)
            u.points += pts
            p.points += pts
            p.tables += 1
            p.wins += place == 1
            p.made += r.made
            p.taken += r.taken
            p.opponents.update(n for n in names if n != r.player)
    # the club's nights (or the night's rounds: all its tables of one round are one), in order: for club-last:K
    club_keys = sorted({u.order[:2] for p in players.values() for u in p.units.values()})
    guests = {g.casefold() for g in c.guests}
    ranked: list[tuple[tuple[int, ...], Ranked]] = []
    unranked: list[Ranked] = []
    for p in players.values():
        units = sorted(p.units.values(), key=lambda u: u.order)
        best = c.best if c.best is not None else len(units)
        # the best N: highest scores, the earlier evening first among equal ones
        chosen = sorted(range(len(units)), key=lambda i: (-units[i].score, i))[:best]
        counted = set(chosen)
        score = sum(units[i].score for i in chosen)
        tb_vals: list[int] = []
        tb_out: dict[str, int | float] = {}
        for t in c.tiebreak:
            if t.startswith("club-last:"):
                last = set(club_keys[-int(t[10:]):])
                v = sum(u.score for u in units if u.order[:2] in last)
            elif t.startswith("last:"):
                k = int(t[5:])
                v = sum(u.score for u in units[-k:])
            elif t == "best":
                v = max((u.score for u in units), default=0)
            elif t == "points":
                v = p.points
            elif t == "wins":
                v = p.wins * SCALE
            else:  # evenings
                v = len(units) * SCALE
            tb_vals.append(v)
            tb_out[t] = _num(v)
        missing = []
        guest = p.name.casefold() in guests
        if guest:
            missing.append(_("a guest"))
        elif per == "evening" and len(units) < c.min_evenings:
            missing.append(_("{n} of the {needed} evenings needed").format(n=len(units), needed=c.min_evenings))
        if not guest and per == "evening" and len(p.opponents) < c.min_opponents:
            missing.append(_("{n} of the {needed} different opponents needed").format(n=len(p.opponents), needed=c.min_opponents))
        d: Ranked = {"rank": None, "player": p.name, "score": _num(score)}
        if per == "evening":
            d["evenings"] = len(units)
        else:
            d["rounds"] = len(units)
        d.update({
            "counted": len(chosen),
            "tables": p.tables, "wins": p.wins, "points": _num(p.points), "opponents": len(p.opponents),
            "made": p.made, "taken": p.taken, "tiebreak": tb_out,
            "scores": [_unit_score(per, u, i in counted) for i, u in enumerate(units)],
            "unranked": "; ".join(missing) or None, "guest": guest,
            "_key": (score, *tb_vals),
        })  # fmt: skip
        if scaled is not None:
            scaled[p.name] = score
        if missing:
            unranked.append(d)
        else:
            ranked.append(((score, *tb_vals), d))
    ranked.sort(key=lambda kd: (tuple(-v for v in kd[0]), kd[1]["player"].casefold()))
    out: list[Ranked] = []
    for i, (sort_key, d) in enumerate(ranked):
        d["rank"] = out[-1]["rank"] if i and sort_key == ranked[i - 1][0] else i + 1
        out.append(d)
    unranked.sort(key=lambda d: (-d["_key"][0], d["player"].casefold()))
    out.extend(unranked)
    for d in out:
        del d["_key"]
    return out


def _unit_score(per: str, u: _Unit, counted: bool) -> UnitScore:
    s: UnitScore = {"evening": u.label} if per == "evening" else {"round": u.label}
    s.update({"score": _num(u.score), "points": _num(u.points), "counted": counted})
    return s


# ------------------------------------------------------------------------------------------------- honours


def prize_places(c: Competition, ranking: Sequence[Ranked]) -> int | None:
    """How many places win a prize: the top N, or the share of the ranked players rounded up."""
    n_ranked = sum(1 for d in ranking if d["rank"] is not None)
    if c.prizes:
        return c.prizes
    if c.prize_share:
        return max(1, math.ceil(c.prize_share * n_ranked - 1e-9)) if n_ranked else 0
    return None


@dataclass(frozen=True)
class PairRow:
    """One player's deals with another: as partners (both takers) or as opponents (on opposite sides)."""

    player: str
    other: str
    points: float  # the player's points over those deals
    deals: int


def _leaders(values: Mapping[str, int]) -> tuple[list[str], int]:
    top = max(values.values(), default=0)
    if top <= 0:
        return [], 0
    return sorted((p for p, v in values.items() if v == top), key=str.casefold), top


def honours(
    c: Competition,
    ranking: Sequence[Ranked],
    miseries: Mapping[str, int],
    partners: Iterable[PairRow],
    opponents: Iterable[PairRow],
) -> Honours:
    """The season's honours and statistics.

    - champion: rank 1 (all who share it); rode lantaarn ("red lantern"): the last rank among the ranked;
    - miserie king: most miseries made; most contracts made (as taker);
    - each player's favourite partner (the partner his points together are highest with, if above 0) and
      nemesis (the opponent his points against are lowest against, if below 0); equal totals: more deals
      together first, then the name;
    - the prize band: the players placed within :func:`prize_places`;
    - the winner of each night (:func:`night_winners`).
    """
    ranked = [d for d in ranking if d["rank"] is not None]
    champion = [d["player"] for d in ranked if d["rank"] == 1]
    last_rank = max((d["rank"] or 0 for d in ranked), default=None)  # (every rank there is a number)
    lantern = [d["player"] for d in ranked if d["rank"] == last_rank] if len(ranked) > 1 else []
    names = [d["player"] for d in ranking]
    king, n_mis = _leaders({p: miseries.get(p, 0) for p in names})
    contracts, n_made = _leaders({d["player"]: int(d.get("made", 0)) for d in ranking})

    def pick(pairs: Iterable[PairRow], best: bool) -> dict[str, PairFigure]:
        sign = 1 if best else -1
        per: dict[str, list[PairRow]] = {}
        for r in pairs:
            per.setdefault(r.player, []).append(r)
        out: dict[str, PairFigure] = {}
        for p, rs in per.items():
            r = min(rs, key=lambda x: (-sign * x.points, -x.deals, x.other.casefold()))
            if (r.points > 0) if best else (r.points < 0):
                out[p] = {"player": r.other, "points": _num(round(r.points * SCALE)), "deals": r.deals}
        return out

    fav = pick(partners, True)
    nem = pick(opponents, False)
    places = prize_places(c, ranking)
    prizes: list[Prize] = [{"rank": d["rank"], "player": d["player"], "score": d["score"]}
                           for d in ranked if places is not None and (d["rank"] or 0) <= places]
    return {
        "competition": c.name,
        "champion": champion,
        "nights": night_winners(ranking),
        "rode_lantaarn": lantern,
        "miserie_king": {"players": king, "miseries": n_mis},
        "most_contracts": {"players": contracts, "made": n_made},
        "prizes": {"places": places, "players": prizes},
        "players": [
            {"player": d["player"], "rank": d["rank"], "miseries": miseries.get(d["player"], 0),
             "made": d.get("made", 0), "taken": d.get("taken", 0), "partner": fav.get(d["player"]),
             "nemesis": nem.get(d["player"])}
            for d in ranking
        ],
    }  # fmt: skip


# ------------------------------------------------------------------------------------------- over the season


def nights_of(rows: Iterable[TableRow]) -> list[str]:
    """The competition's nights (dates) in order."""
    return sorted({r.date for r in rows})


def with_movement(c: Competition, rows: Sequence[TableRow], scaled: dict[str, int] | None = None) -> list[Ranked]:
    """The ranking, each player with his rank before the last night (``previous_rank``: None when he was not
    ranked then) and his ``movement`` since: ``+2`` (up two places), ``-1``, ``=``, or ``new``."""
    ranking = rank(c, rows, scaled=scaled)
    nights = nights_of(rows)
    before = {d["player"]: d["rank"] for d in rank(c, [r for r in rows if r.date != nights[-1]])} if len(nights) > 1 else {}
    for d in ranking:
        prev = before.get(d["player"])
        d["previous_rank"] = prev
        if d["rank"] is None:
            d["movement"] = None
        elif prev is None:
            d["movement"] = "new"
        else:
            d["movement"] = "=" if prev == d["rank"] else f"{prev - d['rank']:+d}"
    return ranking


def nights_grid(ranking: Sequence[Ranked]) -> NightsGrid:
    """Player x night: each cell his score that night (None: absent), and whether it counts (best N)."""
    nights = sorted({s["evening"] for d in ranking for s in d["scores"]})
    players: list[GridRow] = []
    for d in ranking:
        by = {s["evening"]: s for s in d["scores"]}
        players.append({"player": d["player"], "rank": d["rank"],
                        "scores": [by[n]["score"] if n in by else None for n in nights],
                        "counted": [bool(by[n]["counted"]) if n in by else False for n in nights]})
    return {"nights": nights, "players": players}


def night_winners(ranking: Sequence[Ranked]) -> list[NightWinner]:
    """The winner of each night (ties: all of them) by the night's score; guests do not win a night."""
    best: dict[str, tuple[float, list[str]]] = {}
    for d in ranking:
        if d.get("guest"):
            continue
        for s in d["scores"]:
            night = s.get("evening")  # (a night's own ranking has rounds, not nights)
            if night is None:
                continue
            top = best.get(night)
            if top is None or s["score"] > top[0]:
                best[night] = (s["score"], [d["player"]])
            elif s["score"] == top[0]:
                top[1].append(d["player"])
    return [{"night": n, "players": sorted(best[n][1], key=str.casefold), "score": best[n][0]} for n in sorted(best)]


def team_ranking(c: Competition, ranking: Sequence[Ranked], scaled: Mapping[str, int]) -> list[TeamRow]:
    """The teams of ``[teams]`` by the sum of their members' scores (each member's counted evenings); a member
    who played no counted evening adds 0. Equal sums share a rank."""
    found = {d["player"].casefold(): d["player"] for d in ranking}
    rows: list[tuple[int, str, list[TeamMember]]] = []
    for team, members in c.teams:
        names = [found.get(m.casefold(), m) for m in members]
        total = sum(scaled.get(n, 0) for n in names)
        rows.append((total, team, [{"player": n, "score": _num(scaled[n]) if n in scaled else 0} for n in names]))
    rows.sort(key=lambda r: (-r[0], r[1].casefold()))
    out: list[TeamRow] = []
    for i, (total, team, shown) in enumerate(rows):
        rnk = out[-1]["rank"] if i and total == rows[i - 1][0] else i + 1
        out.append({"rank": rnk, "team": team, "score": _num(total), "members": shown})
    return out
