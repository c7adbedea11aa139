"""Club competitions: how a club ranks its season (or one night of several tables). Pure: no I/O, no SQL.

A competition file (TOML) says which sessions count and how they are scored::

    name = "Kampioenschap 2026-27"
    since = 2026-09-01            # which sessions count (also: until, tag)
    until = 2027-06-30
    tag = "kampioenschap"         # only sessions started with this tag (a list of tags is accepted too)
    best = 8                      # each player's best N evenings count (all when left out)
    min_evenings = 8              # fewer evenings: listed apart, unranked
    min_opponents = 6             # fewer different opponents: listed apart, unranked
    score = "points"              # or "placement": points for the place at each table
    placement = [1000, 600, 300, 0]   # first, second ... (ties share the average of their places)
    tiebreak = ["last:4"]         # then: the total of the last 4 evenings, and so on
    prizes = 3                    # the prize band: the top 3 (or a share: "25%")

An *evening* is a date: all the tables a player sat at that day add up to his evening's score. With
``score = "points"`` a table gives the player's points there; with ``"placement"`` the points of his place at
that table (1st, 2nd ... by points), players on equal points sharing the average of their places' points, and
places beyond the list scoring 0.

Scores are kept as integers in units of 1/120 (points are whole or half points; a shared place divides by at
most 6), so ties are exact whatever the figures.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .dates import date_text
from .errors import WiezenError
from .numbers import grouped, percent
from .i18n import N_, _, dutch, ngettext

SCALE = 120  # score units per point: half points and the average over 2 .. 6 shared places stay whole

TIEBREAKS = {
    "last:K": N_("the total of the last K evenings"),
    "best": N_("the best single evening"),
    "points": N_("the points scored at the tables (all evenings)"),
    "wins": N_("the number of tables won (first place, shared or not)"),
    "evenings": N_("the number of evenings played"),
}

_KEYS = ("name", "description", "since", "until", "tag", "best", "min_evenings", "min_opponents", "score",
         "placement", "tiebreak", "prizes")  # fmt: skip
MAX_COUNT = 10_000


@dataclass(frozen=True)
class Competition:
    name: str
    description: str = ""
    since: str | None = None
    until: str | None = None
    tags: tuple[str, ...] = ()
    best: int | None = None
    min_evenings: int = 0
    min_opponents: int = 0
    score: str = "points"  # points | placement
    placement: tuple[int, ...] = ()
    tiebreak: tuple[str, ...] = ()
    prizes: int | None = None  # the top N ...
    prize_share: float | None = None  # ... or this share of the ranked players (0 < share <= 1)


# ------------------------------------------------------------------------------------------------ parsing


def _line_of(text: str, key: str) -> int | None:
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if "=" in line and line.split("=", 1)[0].strip().strip('"') == key:
            return no
    return None


def parse_competition(text: str, source: str = "competition file") -> Competition:
    """Parse and validate a competition file. Raises WiezenError naming the file, the line and what is valid."""
    from .rules import load_toml

    data = load_toml(text, source)

    def fail(msg: str, key: str | None = None) -> WiezenError:
        no = _line_of(text, key) if key else None
        where = _("line {no}: ").format(no=no) if no else ""
        return WiezenError(f"{source}: {where}{msg}")

    for k, v in data.items():
        if k not in _KEYS:
            raise fail(_("unknown key '{key}' (known: {keys})").format(key=k, keys=", ".join(_KEYS)), k)
        if isinstance(v, dict):
            raise fail(_("'{key}' must be a value, not a table").format(key=k), k)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail(_('a competition needs a name, e.g. name = "Kampioenschap 2026-27"'), "name" if "name" in data else None)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail(_("'description' must be text"), "description")

    def date(key: str) -> str | None:
        v = data.get(key)
        if v is None:
            return None
        if isinstance(v, datetime.datetime):
            v = v.date()
        if isinstance(v, datetime.date):
            return v.isoformat()
        if isinstance(v, str):
            from .dates import parse_date

            try:
                return parse_date(v).isoformat()
            except WiezenError:
                pass
        raise fail(_("'{key}' must be a date, e.g. {key} = 2026-09-01").format(key=key), key)

    since, until = date("since"), date("until")
    if since and until and since > until:
        raise fail(_("'since' ({since}) is after 'until' ({until}): no session can count").format(since=since, until=until), "until")
    tag = data.get("tag")
    tags: tuple[str, ...] = ()
    if tag is not None:
        from .sessionfile import TAG_RE

        raw = tag if isinstance(tag, list) else [tag]
        if not raw or not all(isinstance(t, str) and TAG_RE.match(t) for t in raw):
            raise fail(_("'tag' must be a tag (one word: letters, digits, '-', '.', '_') or a list of tags"), "tag")
        tags = tuple(raw)

    def count(key: str, minimum: int) -> int | None:
        v = data.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or not minimum <= v <= MAX_COUNT:
            raise fail(_("'{key}' must be a whole number from {minimum} to {most}").format(key=key, minimum=minimum, most=grouped(MAX_COUNT)), key)
        return v

    best = count("best", 1)
    min_evenings = count("min_evenings", 0) or 0
    min_opponents = count("min_opponents", 0) or 0
    score = data.get("score", "points")
    if score not in ("points", "placement"):
        raise fail(_("'score' must be \"points\" or \"placement\""), "score")
    placement: tuple[int, ...] = ()
    if "placement" in data:
        pl = data["placement"]
        if (not isinstance(pl, list) or not 1 <= len(pl) <= 6
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 1_000_000 for x in pl)):
            raise fail(_("'placement' must list the points of 1st, 2nd ... place (1 to 6 whole numbers from 0 to "
                         "1,000,000), e.g. placement = [1000, 600, 300, 0]"), "placement")
        if any(a < b for a, b in zip(pl, pl[1:])):
            raise fail(_("'placement' must not give a place more than the place before it: {places}").format(places=pl), "placement")
        placement = tuple(pl)
        if score != "placement":
            raise fail(_("'placement' is only used with score = \"placement\""), "placement")
    elif score == "placement":
        raise fail(_("score = \"placement\" needs the points per place, e.g. placement = [1000, 600, 300, 0]"), "score")
    tb = data.get("tiebreak", [])
    if isinstance(tb, str):
        tb = [tb]
    if not isinstance(tb, list) or not all(isinstance(t, str) for t in tb):
        raise fail(_('\'tiebreak\' must be a list, e.g. tiebreak = ["last:4", "best"]'), "tiebreak")
    for t in tb:
        m = re.fullmatch(r"last:(\d+)", t)
        if m and 1 <= int(m.group(1)) <= MAX_COUNT:
            continue
        if t not in TIEBREAKS or t == "last:K":
            raise fail(_("unknown tie-break '{word}' (known: last:K for a number K, best, points, wins, evenings)").format(word=t),
                       "tiebreak")
    if len(set(tb)) != len(tb):
        raise fail(_("'tiebreak' names a tie-break twice"), "tiebreak")
    prizes: int | None = None
    share: float | None = None
    pz = data.get("prizes")
    if pz is not None:
        m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*", pz) if isinstance(pz, str) else None
        if isinstance(pz, int) and not isinstance(pz, bool) and 1 <= pz <= MAX_COUNT:
            prizes = pz
        elif m and 0 < float(m.group(1)) <= 100:
            share = float(m.group(1)) / 100
        else:
            raise fail(_('\'prizes\' must be the number of prize winners (prizes = 3) or a share (prizes = "25%")'),
                       "prizes")
    return Competition(
        name=name.strip(), description=description, since=since, until=until, tags=tags, best=best,
        min_evenings=min_evenings, min_opponents=min_opponents, score=score, placement=placement,
        tiebreak=tuple(tb), prizes=prizes, prize_share=share,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------- in words


def _nth(n: int) -> str:
    if dutch():
        return f"{n}e"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _tiebreak_words(t: str) -> str:
    m = re.fullmatch(r"last:(\d+)", t)
    if m:
        k = int(m.group(1))
        return _("the total of the last evening") if k == 1 else _("the total of the last {n} evenings").format(n=k)
    return _(TIEBREAKS[t])


def in_words(c: Competition) -> list[str]:
    """The competition's rules as sentences, for the standings page and the table output."""
    out: list[str] = []
    if c.since and c.until:
        span = _("from {since} to {until}").format(since=date_text(c.since), until=date_text(c.until))
    elif c.since:
        span = _("from {since} on").format(since=date_text(c.since))
    elif c.until:
        span = _("up to {until}").format(until=date_text(c.until))
    else:
        span = _("of every date")
    tagged = ""
    if c.tags:
        tagged = _(" tagged {tags}").format(tags=_(" or ").join(f"'{t}'" for t in c.tags))
    out.append(_("The sessions {span}{tagged} count. An evening is a date: the tables a player sat at that day add "
                 "up to his evening's score.").format(span=span, tagged=tagged))
    if c.score == "points":
        out.append(_("At each table a player scores the points he made there."))
    else:
        places = ", ".join(f"{_nth(i + 1)} {v}" for i, v in enumerate(c.placement))
        further = "" if len(c.placement) >= 6 else _(", any place further 0")
        out.append(_("At each table a player scores by his place on the points there: {places}{further}. Players on "
                     "equal points share their places: each gets the average of those places' points.").format(
                         places=places, further=further))
    out.append(ngettext("Each player's best {n} evening count.", "Each player's best {n} evenings count.", c.best)
               .format(n=c.best) if c.best else _("Every evening counts."))
    need = []
    if c.min_evenings:
        need.append(ngettext("at least {n} evening", "at least {n} evenings", c.min_evenings).format(n=c.min_evenings))
    if c.min_opponents:
        need.append(ngettext("at least {n} different opponent", "at least {n} different opponents", c.min_opponents)
                    .format(n=c.min_opponents))
    if need:
        out.append(_("To be ranked a player needs {needs}; the others are listed apart, unranked.").format(
            needs=_(" and ").join(need)))
    if c.tiebreak:
        out.append(_("Equal scores are decided by {tiebreaks}; players equal on all of these share the place.").format(
            tiebreaks=_(", then ").join(_tiebreak_words(t) for t in c.tiebreak)))
    else:
        out.append(_("Players on equal scores share the place."))
    if c.prizes:
        out.append(_("Prizes go to the top {n} (a shared place at the border included).").format(n=c.prizes))
    elif c.prize_share:
        out.append(_("Prizes go to the best {share} of the ranked players (rounded up; a shared "
                     "place at the border included).").format(share=percent(c.prize_share, places=4)))
    return out


# ------------------------------------------------------------------------------------------------ ranking


@dataclass(frozen=True)
class TableRow:
    """One player at one table (a session): what the ledger gives, one row per seat."""

    session: int
    date: str
    player: str
    points: float
    round: int | None = None
    table: int | None = None
    made: int = 0
    taken: int = 0


@dataclass
class _Unit:
    key: Any
    label: str
    order: tuple[Any, ...]
    score: int = 0  # in 1/SCALE
    points: int = 0  # in 1/SCALE


@dataclass
class _Player:
    name: str
    units: dict[Any, _Unit] = field(default_factory=dict)
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
    """Each player's (score in 1/SCALE, place) at one table: his points, or his place's placement points
    with equal points sharing the average of their places."""
    ordered = sorted(points.items(), key=lambda kv: -kv[1])
    out: dict[str, tuple[int, int]] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j][1] == ordered[i][1]:
            j += 1
        if c.score == "placement":
            vals = [c.placement[k] if k < len(c.placement) else 0 for k in range(i, j)]
            share = sum(vals) * SCALE // (j - i)
        for name, pts in ordered[i:j]:
            out[name] = (share if c.score == "placement" else round(pts * SCALE), i + 1)
        i = j
    return out


def rank(c: Competition, rows: Iterable[TableRow], per: str = "evening") -> list[dict[str, Any]]:
    """The competition's ranking: ranked players first in rank order, then the unranked (rank None).

    ``per`` is the unit that best N, the minimum and ``last:K`` count: ``"evening"`` (a date), or ``"table"``
    (each session, for one night's ranking across its rounds). Players equal on the score and every tie-break
    share a rank (1, 2, 2, 4).
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
                key: Any = sid
                label = f"round {r.round}" if r.round is not None else f"{r.date} #{sid}"
                order: tuple[Any, ...] = (r.date, r.round or 0, sid)
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
    ranked: list[tuple[tuple[int, ...], dict[str, Any]]] = []
    unranked: list[dict[str, Any]] = []
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
            if t.startswith("last:"):
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
        if per == "evening" and len(units) < c.min_evenings:
            missing.append(_("{n} of the {needed} evenings needed").format(n=len(units), needed=c.min_evenings))
        if per == "evening" and len(p.opponents) < c.min_opponents:
            missing.append(_("{n} of the {needed} different opponents needed").format(n=len(p.opponents), needed=c.min_opponents))
        d: dict[str, Any] = {
            "rank": None, "player": p.name, "score": _num(score),
            "evenings" if per == "evening" else "rounds": len(units), "counted": len(chosen),
            "tables": p.tables, "wins": p.wins, "points": _num(p.points), "opponents": len(p.opponents),
            "made": p.made, "taken": p.taken, "tiebreak": tb_out,
            "scores": [{"evening" if per == "evening" else "round": u.label, "score": _num(u.score),
                        "points": _num(u.points), "counted": i in counted} for i, u in enumerate(units)],
            "unranked": "; ".join(missing) or None,
            "_key": (score, *tb_vals),
        }  # fmt: skip
        if missing:
            unranked.append(d)
        else:
            ranked.append(((score, *tb_vals), d))
    ranked.sort(key=lambda kd: (tuple(-v for v in kd[0]), kd[1]["player"].casefold()))
    out: list[dict[str, Any]] = []
    for i, (key, d) in enumerate(ranked):
        d["rank"] = out[-1]["rank"] if i and key == ranked[i - 1][0] else i + 1
        out.append(d)
    unranked.sort(key=lambda d: (-d["_key"][0], d["player"].casefold()))
    out.extend(unranked)
    for d in out:
        del d["_key"]
    return out


# ------------------------------------------------------------------------------------------------- honours


def prize_places(c: Competition, ranking: Sequence[Mapping[str, Any]]) -> int | None:
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
    ranking: Sequence[Mapping[str, Any]],
    miseries: Mapping[str, int],
    partners: Iterable[PairRow],
    opponents: Iterable[PairRow],
) -> dict[str, Any]:
    """The season's honours and statistics.

    - champion: rank 1 (all who share it); rode lantaarn ("red lantern"): the last rank among the ranked;
    - miserie king: most miseries made; most contracts made (as taker);
    - each player's favourite partner (the partner his points together are highest with, if above 0) and
      nemesis (the opponent his points against are lowest against, if below 0); equal totals: more deals
      together first, then the name;
    - the prize band: the players placed within :func:`prize_places`.
    """
    ranked = [d for d in ranking if d["rank"] is not None]
    champion = [d["player"] for d in ranked if d["rank"] == 1]
    last_rank = max((d["rank"] for d in ranked), default=None)
    lantern = [d["player"] for d in ranked if d["rank"] == last_rank] if len(ranked) > 1 else []
    names = [d["player"] for d in ranking]
    king, n_mis = _leaders({p: miseries.get(p, 0) for p in names})
    contracts, n_made = _leaders({d["player"]: int(d.get("made", 0)) for d in ranking})

    def pick(pairs: Iterable[PairRow], best: bool) -> dict[str, dict[str, Any]]:
        sign = 1 if best else -1
        per: dict[str, list[PairRow]] = {}
        for r in pairs:
            per.setdefault(r.player, []).append(r)
        out = {}
        for p, rs in per.items():
            r = min(rs, key=lambda x: (-sign * x.points, -x.deals, x.other.casefold()))
            if (r.points > 0) if best else (r.points < 0):
                out[p] = {"player": r.other, "points": _num(round(r.points * SCALE)), "deals": r.deals}
        return out

    fav = pick(partners, True)
    nem = pick(opponents, False)
    places = prize_places(c, ranking)
    prizes = [{"rank": d["rank"], "player": d["player"], "score": d["score"]}
              for d in ranked if places is not None and d["rank"] <= places]
    return {
        "competition": c.name,
        "champion": champion,
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
