"""Club competitions: `standings --competition FILE` (with --night and --honours) and `seating`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, TypedDict

import click

from ..core import dates as _dates
from ..core.competition import Competition
from ..core.errors import WiezenError
from ..core.i18n import N_, _, ngettext
from ..views.competition import (
    competition_doc,
    competition_html,
    competition_rows,
    competition_text,
    listing_html,
    listing_markdown,
)
from ..views.formats import column
from .common import Output, SafePath, _db
from .dutch import command

if TYPE_CHECKING:
    from ..core.documents import SeatedTable
    from ..core.ranking import Honours, PairRow, Ranked, TableRow
    from ..core.seating import FinalSeat
    from ..views.competition import Unit


def load_competition(path: str) -> Competition:
    from ..core.competition import parse_competition
    from .common import read_text_file

    if path == "-":
        import sys

        return parse_competition(sys.stdin.read(), _("competition file (stdin)"))
    return parse_competition(read_text_file(path, N_("competition file")), _("competition file '{path}'").format(path=path))


def competition_standings(ctx: click.Context, path: str, output: Output, title: str | None, night: str | None,
                          with_honours: bool, until: str | None = None, after_night: int | None = None,
                          period: str | None = None, grid: bool = False, teams: bool = False) -> None:
    """`standings --competition FILE`: the competition's ranking (of the season, or of one --night, or of one
    --period, or as it stood --until a date or --after-night N) in the chosen output format, each player's movement
    since the night before, with its rules in words and (--honours) the honours; --nights the grid of player x
    night, --teams the team ranking."""
    from .. import ledger
    from ..core import dates
    from ..core.competition import in_words, tiebreak_sentence
    from ..core.dates import parse_when
    from ..core.ranking import honours, nights_of, rank, with_movement

    c = load_competition(path)
    for warning in c.warnings:
        click.echo(_("Warning: {message}").format(message=warning), err=True)
    if night is not None and (until or after_night or period or grid or teams):
        raise WiezenError(_("--night ranks one night: it does not go with --until, --after-night, --period, --nights "
                            "or --teams"))
    season = c
    if period is not None:
        p = c.period(period)
        c = replace(c, since=max(filter(None, (c.since, p.since)), default=None),
                    until=min(filter(None, (c.until, p.until)), default=None))
    if until is not None:
        day_until = parse_when(until, dates.today()).isoformat()
        c = replace(c, until=min(filter(None, (c.until, day_until))))
    day = parse_when(night, dates.today()).isoformat() if night is not None else None
    rows: list[TableRow] = []
    hon: Honours | None = None
    db = ledger.existing_db_path(_db(ctx))
    per = "table" if day else "evening"
    comp = replace(c, best=None) if day else c
    mis: dict[str, int] = {}
    partners: list[PairRow] = []
    opponents: list[PairRow] = []
    all_rows: list[TableRow] = []
    if db is not None:
        with ledger.open_ledger(db, readonly=True) as led:
            rows = led.table_rows(c, day)
            if after_night is not None:
                held = nights_of(rows)
                if after_night > len(held):  # (not the ranking of today, shown as if it were after night N)
                    raise WiezenError(ngettext("--after-night {n}: competition '{name}' has had {count} night so far",
                                               "--after-night {n}: competition '{name}' has had {count} nights so far",
                                               len(held)).format(n=after_night, name=season.name, count=len(held)))
                shown = set(held[:after_night])
                rows = [r for r in rows if r.date in shown]
                c = replace(c, until=max(shown, default=c.until))
            if with_honours:
                mis, partners, opponents = led.honours_figures(replace(c, since=day or c.since,
                                                                                until=day or c.until))
                if season.periods and period is None:
                    all_rows = led.table_rows(season)
    scaled: dict[str, int] = {}
    ranking = rank(comp, rows, per) if day else with_movement(comp, rows, scaled)
    if with_honours:
        hon = honours(comp, ranking, mis, partners, opponents)
        if all_rows:
            hon["periods"] = [{"period": p.name, "champion": [d["player"] for d in rank(replace(season, since=p.since,
                               until=p.until), [r for r in all_rows if (not p.since or r.date >= p.since)
                                                and (not p.until or r.date <= p.until)]) if d["rank"] == 1]}
                              for p in season.periods]  # fmt: skip
    name = f"{season.name}: {period}" if period else season.name
    if teams:
        _emit_teams(output, c, name, ranking, scaled)
        return
    if grid:
        _emit_grid(output, name, ranking)
        return
    words = in_words(c)
    if day:
        words = [_("One night: {day}, ranked across its tables; each round (table) is scored as below, and the "
                   "rounds add up (best N and the minimums are for the season).").format(day=day), words[1],
                 tiebreak_sentence(c, night=True)]
    heading = title or (f"{name}, {day}" if day else name)
    unit: Unit = N_("rounds") if day else N_("evenings")
    tb = list(c.tiebreak)
    headers, table_rows = competition_rows(ranking, unit, tb)
    output.emit(headers, table_rows, competition_doc(name, day, words, ranking, hon),
                text=lambda: competition_text(heading, ranking, hon, words, unit, tb),
                markdown=lambda: competition_text(heading, ranking, hon, words, unit, tb, markdown=True),
                html=lambda: competition_html(heading, c.description, ranking, hon, words, unit, tb, day,
                                              dates.today().isoformat()))


def _emit_teams(output: Output, c: Competition, name: str, ranking: list[Ranked], scaled: dict[str, int]) -> None:
    """`standings --competition FILE --teams`: the teams of [teams] by their members' scores."""
    from ..core.numbers import decimal
    from ..core.ranking import team_ranking

    if not c.teams:
        raise WiezenError(_('competition \'{name}\' has no teams: add a [teams] table, e.g. [teams] "De Kroon" = '
                            '["an", "bert", "carla"]').format(name=c.name))
    ranked = team_ranking(c, ranking, scaled)
    rows = [[t["rank"], t["team"], decimal(t["score"]), ", ".join(f"{m['player']} {decimal(m['score'])}" for m in t["members"])]
            for t in ranked]
    csv_rows = [[t["rank"], t["team"], t["score"], " ".join(m["player"] for m in t["members"])] for t in ranked]
    headers = ["#", N_("team"), N_("score"), N_("members")]
    shown = [column(h) for h in headers]
    heading = _("{competition}: the teams").format(competition=name)
    output.emit(headers, rows, {"competition": name, "teams": ranked},
                csv_headers=["rank", "team", "score", "members"], csv_rows=csv_rows,
                markdown=lambda: listing_markdown(heading, shown, rows, names=(1, 3)),
                html=lambda: listing_html(heading, shown, rows, "", _dates.today().isoformat()))


def _emit_grid(output: Output, name: str, ranking: list[Ranked]) -> None:
    """`standings --competition FILE --nights`: player x night, a night that does not count in brackets."""
    from ..core.dates import day_text
    from ..core.numbers import decimal
    from ..core.ranking import nights_grid

    grid = nights_grid(ranking)

    def cell(score: int | float | None, counted: bool) -> str:
        if score is None:
            return "-"
        return decimal(score) if counted else f"({decimal(score)})"

    rows = [[d["rank"] if d["rank"] is not None else "", d["player"],
             *(cell(s, k) for s, k in zip(d["scores"], d["counted"], strict=False))] for d in grid["players"]]
    csv_rows = [[d["rank"] if d["rank"] is not None else "", d["player"], *("" if s is None else s for s in d["scores"]),
                 " ".join(n for n, k in zip(grid["nights"], d["counted"], strict=False) if k)] for d in grid["players"]]
    headers = ["#", N_("player"), *(day_text(n) for n in grid["nights"])]
    shown = [column(h) for h in headers]
    heading = _("{competition}: the nights").format(competition=name)
    note = _("Each player's score each night; a night that does not count (outside his best N) in brackets, "
             "- where he did not play.")
    output.emit(headers, rows, {"competition": name, **grid},
                csv_headers=["rank", "player", *grid["nights"], "counted"], csv_rows=csv_rows,
                markdown=lambda: listing_markdown(heading, shown, rows),
                html=lambda: listing_html(heading, shown, rows, note, _dates.today().isoformat()))


# ------------------------------------------------------------------------------------------------- seating



class SeatingDoc(TypedDict, total=False):
    """The `seating --json` document: a round drawn (``seed``) or by standing, or the final table (``why``)."""

    round: int | None
    night: str | None
    final: bool
    tables: list[SeatedTable]
    why: list[FinalSeat]
    seed: int
    by: str


@command()
@click.option("--players", metavar="A,B,...", help="The players to seat (for a later round: best first, "
              "unless --competition gives the standing).")
@click.option("--competition", "comp_path", metavar="FILE", type=SafePath(dir_okay=False, allow_dash=True),
              help="A competition file: its standing seats the later rounds (and gives the players when "
              "--players is left out).")
@click.option("--round", "round_", type=click.IntRange(1, 99), metavar="N", help="The round to seat (1: drawn).")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), metavar="S",
              help="Round 1: the draw's seed (the same seed, the same draw). Default: a new one, printed.")
@click.option("--final", is_flag=True, help="Seat the final table: the round winners of the night, completed "
              "from the ranking (needs --competition).")
@click.option("--size", type=click.IntRange(4, 6), default=4, show_default=True, help="Seats at the final table.")
@click.option("--date", "night", metavar="DATE", help="The night (default: the competition's latest date).")
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def seating(ctx: click.Context, players: str | None, comp_path: str | None, round_: int | None, seed: int | None,
            final: bool, size: int, night: str | None, as_json: bool) -> None:
    """Seat one round of a night with several tables: tables of four (five or six where the count demands).

    Round 1 is drawn at random (give --seed to draw the same tables again). Later rounds go by standing:
    the best four at table 1, the next four at table 2, and so on; the standing is the competition's
    ranking before that round (rounds N and later of the night do not count yet), or the order of --players.
    Each table gets the `session start` line that records it with its round and table. --final seats the
    final table from the winners of the night's rounds and the ranking.

    \b
    Examples:
        wiezen seating --players an,bert,carla,dirk,eva,frans,greet,hans,ilse --round 1 --seed 7
        wiezen seating --competition gesves.toml --round 2
        wiezen seating --competition gesves.toml --final --json
    """
    from ..core import dates
    from ..core import seating as st
    from ..core.dates import parse_when
    from ..core.ranking import rank

    if not final and round_ is None:
        raise WiezenError(_("give the round to seat: --round N (1 is drawn, later rounds go by standing), or --final"))
    if final and comp_path is None:
        raise WiezenError(_("--final needs --competition FILE: the round winners and the ranking come from it"))
    if comp_path is None and players is None:
        raise WiezenError(_("give the players (--players A,B,C,...) or a competition file (--competition FILE)"))
    given = [p.strip() for p in players.split(",")] if players is not None else None
    if given is not None:
        st.check_players(given)
    c = load_competition(comp_path) if comp_path else None
    day = parse_when(night, dates.today()).isoformat() if night else None
    doc: SeatingDoc = {"round": round_}
    standing: list[str] = []
    winners: list[str] = []
    tag = c.tags[0] if c is not None and len(c.tags) == 1 else None
    if c is not None:
        from .. import ledger

        db = ledger.existing_db_path(_db(ctx))
        rounds: dict[int, list[str]] = {}
        if db is not None:
            with ledger.open_ledger(db, readonly=True) as led:
                if given is not None:  # a name merged into another player's is that player (`players merge`)
                    person = led.person_names()
                    given = list(dict.fromkeys(person.get(g.casefold(), g) for g in given))
                day = day or led.last_night(c)
                rounds = led.night_rounds(c, day) if day else {}
                before = (day, round_) if day and round_ is not None else None
                rows = led.table_rows(c, None, before)
                if final and day:
                    night_rows = led.table_rows(c, day)
                    for r in sorted(x for x in rounds if round_ is None or x < round_):
                        # the round's winner: the best score over its tables (ties: the tie-breaks, the name)
                        top = rank(replace(c, best=None), [t for t in night_rows if t.round == r], "table")
                        if top:
                            winners.append(top[0]["player"])
        else:
            rows = []
        standing = [d["player"] for d in rank(c, rows)]
        if given is None:
            if rounds and round_ is not None and round_ - 1 in rounds:
                given = rounds[round_ - 1]
            elif rounds and (final or round_ is None or round_ > max(rounds)):
                given = rounds[max(rounds)]
            else:
                given = standing
        doc["night"] = day
        if final:
            ranking = [p for p in standing if p.casefold() in {g.casefold() for g in given}] if given else standing
            seated = st.final_table(winners, ranking, size)
            doc.update({"round": round_, "final": True,
                        "tables": [{"table": 1, "players": [d["player"] for d in seated]}], "why": seated})
            _emit(doc, as_json, tag)
            return
    assert given is not None and round_ is not None
    if not given:
        raise WiezenError(_("no players to seat: the competition has no sessions yet; give --players A,B,C,..."))
    if round_ == 1:
        if seed is None:
            import random

            seed = random.SystemRandom().randrange(1, 1_000_000)
        tables = st.draw(given, seed)
        doc["seed"] = seed
        doc["by"] = "draw"
    else:
        if seed is not None:
            raise WiezenError(_("--seed is for the draw of round 1; later rounds go by standing"))
        pos = {p.casefold(): i for i, p in enumerate(standing)}
        order = sorted(given, key=lambda p: (pos.get(p.casefold(), len(pos)), given.index(p)))
        tables = st.by_standing(order)
        doc["by"] = "standing"
    doc["tables"] = [{"table": i + 1, "players": t} for i, t in enumerate(tables)]
    _emit(doc, as_json, tag)


def _emit(doc: SeatingDoc, as_json: bool, tag: str | None) -> None:
    if as_json:
        from .common import echo_json

        echo_json(doc)
        return
    if doc.get("final"):
        click.echo(_("final table ({night}):").format(night=doc["night"]) if doc.get("night") else _("final table:"))
        for d in doc["why"]:
            click.echo(f"  {d['player']}: {d['why']}")
    else:
        how = _("drawn with seed {seed}").format(seed=doc["seed"]) if doc["by"] == "draw" else _("by standing, best first")
        click.echo(_("round {round} ({how}):").format(round=doc["round"], how=how))
    for t in doc["tables"]:
        click.echo(_("table {table}: {players}").format(table=t["table"], players=", ".join(t["players"])))
        opts = "".join(f" --{k} {v}" for k, v in (("tag", tag), ("round", doc["round"]),
                                                   ("table", None if doc.get("final") else t["table"])) if v)
        click.echo(f"  wiezen session start --players {','.join(t['players'])}{opts}")
