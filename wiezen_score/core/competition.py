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
    place_bonus = [90, 60, 30, 0] # with "points": a bonus for the place at each table, added to the points
    placement = [1000, 600, 300, 0]   # with "placement": first, second ... (ties share their places' average)
    tiebreak = ["last:4"]         # then: the total of the last 4 evenings, and so on (also club-last:K)
    prizes = 3                    # the prize band: the top 3 (or a share: "25%")
    guests = ["zeno"]             # listed apart, never ranked

    [teams]                       # a team competition beside the players' (standings --teams)
    "De Kroon" = ["an", "bert", "carla"]

    [[period]]                    # a month or any part of the season, ranked apart (standings --period NAME)
    name = "september"
    since = 2026-09-01
    until = 2026-09-30

An *evening* is a date: all the tables a player sat at that day add up to his evening's score. With
``score = "points"`` a table gives the player's points there; with ``"placement"`` the points of his place at
that table (1st, 2nd ... by points), players on equal points sharing the average of their places' points, and
places beyond the list scoring 0; ``place_bonus`` adds such place points to the points made.

The ranking itself is core/ranking.py. Scores are kept as integers in units of 1/120 (points are whole or half
points; a shared place divides by at most 6), so ties are exact whatever the figures.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .dates import date_text
from .errors import WiezenError
from .i18n import N_, _, dutch, ngettext
from .numbers import grouped, percent

TIEBREAKS = {
    "last:K": N_("the total of the last K evenings"),
    "club-last:K": N_("the total of the club's last K nights (a night missed counts 0)"),
    "best": N_("the best single evening"),
    "points": N_("the points scored at the tables (all evenings)"),
    "wins": N_("the number of tables won (first place, shared or not)"),
    "evenings": N_("the number of evenings played"),
}

_KEYS = ("name", "description", "since", "until", "tag", "best", "min_evenings", "min_opponents", "score",
         "placement", "place_bonus", "tiebreak", "prizes", "guests", "teams", "period")  # fmt: skip
_TABLES = ("teams", "period")  # the keys whose value is a table ([teams]) or a list of tables ([[period]])
MAX_COUNT = 10_000


@dataclass(frozen=True, slots=True)
class Period:
    """A part of the season ranked apart (a month): ``[[period]] name, since, until``."""

    name: str
    since: str | None = None
    until: str | None = None


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
    place_bonus: tuple[int, ...] = ()  # score = "points": the place's bonus at each table, added to the points
    tiebreak: tuple[str, ...] = ()
    prizes: int | None = None  # the top N ...
    prize_share: float | None = None  # ... or this share of the ranked players (0 < share <= 1)
    guests: tuple[str, ...] = ()  # listed apart, never ranked
    teams: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (team, its members)
    periods: tuple[Period, ...] = ()
    warnings: tuple[str, ...] = ()  # what the file says that is ignored (e.g. placement under "points")

    def period(self, name: str) -> Period:
        """The period called ``name`` (case-insensitively); an unknown name names the periods there are."""
        for p in self.periods:
            if p.name.casefold() == name.strip().casefold():
                return p
        from .errors import WiezenError

        raise WiezenError(_("competition '{name}' has no period '{period}' ({periods})").format(
            name=self.name, period=name,
            periods=_("its periods: {names}").format(names=", ".join(p.name for p in self.periods)) if self.periods
            else _("it defines none: add [[period]] tables with name, since and until")))


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
        if isinstance(v, dict) and k not in _TABLES:
            raise fail(_("'{key}' must be a value, not a table").format(key=k), k)
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise fail(_('a competition needs a name, e.g. name = "Kampioenschap 2026-27"'), "name" if "name" in data else None)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail(_("'description' must be text"), "description")

    def date(key: str, table: Mapping[str, Any] = data) -> str | None:
        v = table.get(key)
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
    warnings: list[str] = []

    def places(key: str, example: str) -> tuple[int, ...]:
        pl = data[key]
        if (not isinstance(pl, list) or not 1 <= len(pl) <= 6
                or not all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x <= 1_000_000 for x in pl)):
            raise fail(_("'{key}' must list the points of 1st, 2nd ... place (1 to 6 whole numbers from 0 to "
                         "1,000,000), e.g. {key} = {example}").format(key=key, example=example), key)
        if any(a < b for a, b in zip(pl, pl[1:], strict=False)):
            raise fail(_("'{key}' must not give a place more than the place before it: {places}").format(key=key, places=pl), key)
        return tuple(pl)

    placement: tuple[int, ...] = ()
    bonus: tuple[int, ...] = ()
    if "placement" in data:
        placement = places("placement", "[1000, 600, 300, 0]")
        if score != "placement":  # a club switches by one line: score = "points" leaves the list unused
            placement = ()
            no = _line_of(text, "placement")
            warnings.append(_("{source}: {where}'placement' is only used with score = \"placement\"; with score = "
                              "\"points\" it is ignored (a bonus for the place beside the points: place_bonus)").format(
                source=source, where=_("line {no}: ").format(no=no) if no else ""))
    elif score == "placement":
        raise fail(_("score = \"placement\" needs the points per place, e.g. placement = [1000, 600, 300, 0]"), "score")
    if "place_bonus" in data:
        bonus = places("place_bonus", "[90, 60, 30, 0]")
        if score != "points":
            bonus = ()
            no = _line_of(text, "place_bonus")
            warnings.append(_("{source}: {where}'place_bonus' is only used with score = \"points\"; with score = "
                              "\"placement\" it is ignored").format(
                source=source, where=_("line {no}: ").format(no=no) if no else ""))
    tb = data.get("tiebreak", [])
    if isinstance(tb, str):
        tb = [tb]
    if not isinstance(tb, list) or not all(isinstance(t, str) for t in tb):
        raise fail(_('\'tiebreak\' must be a list, e.g. tiebreak = ["last:4", "best"]'), "tiebreak")
    for t in tb:
        m = re.fullmatch(r"(?:club-)?last:(\d+)", t)
        if m and 1 <= int(m.group(1)) <= MAX_COUNT:
            continue
        if t not in TIEBREAKS or t.endswith(":K"):
            raise fail(_("unknown tie-break '{word}' (known: last:K or club-last:K for a number K, best, points, wins, "
                         "evenings)").format(word=t), "tiebreak")
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
    guests = data.get("guests", [])
    if not isinstance(guests, list) or not all(isinstance(g, str) and g.strip() for g in guests):
        raise fail(_('\'guests\' must be a list of names, e.g. guests = ["zeno", "yves"]'), "guests")
    teams = _teams(data.get("teams", {}), fail)
    periods = _periods(data.get("period", []), fail, date)
    return Competition(
        name=name.strip(), description=description, since=since, until=until, tags=tags, best=best,
        min_evenings=min_evenings, min_opponents=min_opponents, score=score, placement=placement,
        place_bonus=bonus, tiebreak=tuple(tb), prizes=prizes, prize_share=share,
        guests=tuple(g.strip() for g in guests), teams=teams, periods=periods, warnings=tuple(warnings),
    )  # fmt: skip


def _teams(raw: object, fail: Callable[..., WiezenError]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``[teams]``: a team's name = its members; a player is in one team at most."""
    example = '[teams] "De Kroon" = ["an", "bert", "carla"]'
    if not isinstance(raw, dict):
        raise fail(_("'teams' must be a table: {example}").format(example=example), "teams")
    out: list[tuple[str, tuple[str, ...]]] = []
    seen: dict[str, str] = {}
    for team, members in raw.items():
        if not team.strip() or not isinstance(members, list) or not members or not all(
                isinstance(m, str) and m.strip() for m in members):
            raise fail(_("team '{team}' must list its players: {example}").format(team=team, example=example), team)
        for m in members:
            key = m.strip().casefold()
            if key in seen:
                raise fail(_("'{player}' is in two teams ({first} and {second}): a player plays for one team").format(
                    player=m.strip(), first=seen[key], second=team), team)
            seen[key] = team
        out.append((team.strip(), tuple(m.strip() for m in members)))
    return tuple(out)


def _periods(raw: object, fail: Callable[..., WiezenError],
             date: Callable[[str, Mapping[str, object]], str | None]) -> tuple[Period, ...]:
    """``[[period]]`` tables: a name, and since and/or until."""
    example = '[[period]] name = "september", since = 2026-09-01, until = 2026-09-30'
    if not isinstance(raw, list) or not all(isinstance(p, dict) for p in raw):
        raise fail(_("'period' must be [[period]] tables, e.g. {example}").format(example=example), "period")
    out: list[Period] = []
    for p in raw:
        for k in p:
            if k not in ("name", "since", "until"):
                raise fail(_("unknown key '{key}' in a [[period]] (known: name, since, until)").format(key=k), k)
        name = p.get("name")
        if not isinstance(name, str) or not name.strip():
            raise fail(_("a [[period]] needs a name, e.g. {example}").format(example=example), "period")
        since, until = date("since", p), date("until", p)
        if since is None and until is None:
            raise fail(_("period '{name}' needs since, until or both").format(name=name), "name")
        if since and until and since > until:
            raise fail(_("period '{name}': since ({since}) is after until ({until})").format(name=name, since=since, until=until), "until")
        if any(q.name.casefold() == name.strip().casefold() for q in out):
            raise fail(_("two periods are called '{name}'").format(name=name), "name")
        out.append(Period(name.strip(), since, until))
    return tuple(out)


# --------------------------------------------------------------------------------------------- in words


def _nth(n: int) -> str:
    if dutch():
        return f"{n}e"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def tiebreak_words(t: str, night: bool = False) -> str:
    """One tie-break in words (``night``: on one night's ranking, where last:K and club-last:K count rounds)."""
    m = re.fullmatch(r"(club-)?last:(\d+)", t)
    if m and night:
        k = int(m.group(2))
        if m.group(1):
            return (_("the total of the night's last round (a round missed counts 0)") if k == 1 else
                    _("the total of the night's last {n} rounds (a round missed counts 0)").format(n=k))
        return _("the total of his last round") if k == 1 else _("the total of his last {n} rounds").format(n=k)
    if m and m.group(1):
        k = int(m.group(2))
        return (_("the total of the club's last night (a night missed counts 0)") if k == 1 else
                _("the total of the club's last {n} nights (a night missed counts 0)").format(n=k))
    if m:
        k = int(m.group(2))
        return _("the total of the last evening") if k == 1 else _("the total of the last {n} evenings").format(n=k)
    return _(TIEBREAKS[t])


def tiebreak_sentence(c: Competition, night: bool = False) -> str:
    """How equal scores are decided, as one sentence (the standings page and a night's page say it)."""
    if c.tiebreak:
        return _("Equal scores are decided by {tiebreaks}; players equal on all of these share the place.").format(
            tiebreaks=_(", then ").join(tiebreak_words(t, night) for t in c.tiebreak))
    return _("Players on equal scores share the place.")


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
    if c.score == "points" and c.place_bonus:
        bonus = ", ".join(f"{_nth(i + 1)} {v}" for i, v in enumerate(c.place_bonus))
        further = "" if len(c.place_bonus) >= 6 else _(", any place further 0")
        out.append(_("At each table a player scores the points he made there, plus a bonus for his place on the "
                     "points there: {places}{further}. Players on equal points share their places' bonus: each gets "
                     "the average.").format(places=bonus, further=further))
    elif c.score == "points":
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
    out.append(tiebreak_sentence(c))
    if c.guests:
        out.append(_("Guests ({names}) are listed apart and never ranked.").format(names=", ".join(c.guests)))
    if c.prizes:
        out.append(_("Prizes go to the top {n} (a shared place at the border included).").format(n=c.prizes))
    elif c.prize_share:
        out.append(_("Prizes go to the best {share} of the ranked players (rounded up; a shared "
                     "place at the border included).").format(share=percent(c.prize_share, places=4)))
    return out


