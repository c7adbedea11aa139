"""`wiezen night start|next|show|end`: a club night of several tables in one ledger, round after round."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import _
from .common import DATE_HELP, SafePath, _db, echo, echo_json
from .dutch import group

if TYPE_CHECKING:
    from ..core.competition import Competition
    from ..ledger import Ledger, SessionInfo
    from ..ledger.nights import Night

#: the options several night commands share
COMPETITION = click.option("--competition", "comp_path", metavar="FILE", type=SafePath(dir_okay=False, allow_dash=True),
                           help="The competition file whose score and tie-breaks rank the night (default: the points).")
FORCE = click.option("--force", is_flag=True, help="End the round even when a table has no deal or owes a doubled deal.")


@group()
def night() -> None:
    """A club night: several tables at once, seated by lot in round 1 and by the night's standing after that.

    \b
    Examples:
        wiezen night start --players an,bert,carla,dirk,eva,frans,greet,hans,ilse --seed 7 --name "Clubavond"
        wiezen deal --table 1 samen 8 an+bert 9        (each table records as usual, with --table)
        wiezen night show
        wiezen night next                               (ends the round, seats the next by standing)
        wiezen night end
    """


def _load(path: str | None) -> Competition | None:
    from .competition import load_competition

    return load_competition(path) if path else None


def _print_tables(tables: list[SessionInfo], rnd: int, how: str, rounds: int | None = None) -> None:
    if rounds is None:
        echo(_("round {round} ({how}):").format(round=rnd, how=how))
    else:
        echo(_("round {round} of {rounds} ({how}):").format(round=rnd, rounds=rounds, how=how))
    for s in tables:
        echo(_("  table {table}: {players} (session {id})").format(table=s.table, players=", ".join(s.players), id=s.id))


@night.command()
@click.option("--players", required=True, metavar="P1,P2,...", help="Everyone who plays tonight (4 to 6, or 8 or more).")
@COMPETITION
@click.option("--rules", "rules_spec", default="whisthub", show_default=True, metavar="NAME|FILE",
              help="House rules of every table: a preset, house rules added with `rules add`, or a .toml file.")
@click.option("--tag", metavar="TAG", help="The competition the night's tables belong to (default: the file's one tag).")
@click.option("--name", default="", help="The night's name, e.g. the club's.")
@click.option("--date", "date_", metavar="DATE", help="The night's date (default: today): " + DATE_HELP)
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), metavar="S",
              help="The draw of round 1 (the same seed, the same tables). Default: a new one, printed.")
@click.option("--rounds", type=click.IntRange(1, 99), metavar="N",
              help="How many rounds the night has: `night next` after the last one says to end the night.")
@click.pass_context
def start(ctx: click.Context, players: str, comp_path: str | None, rules_spec: str, tag: str | None, name: str,
          date_: str | None, seed: int | None, rounds: int | None) -> None:
    """Draw round 1 and open one table per four players (five or six where the count demands).

    \b
    Example:
        wiezen night start --players an,bert,carla,dirk,eva,frans,greet,hans,ilse --seed 7
    """
    import random

    from .. import ledger
    from ..core import dates
    from ..core import seating as st
    from ..core.dates import parse_when
    from ..ledger.nights import current_night, play_round
    from .common import new_ledger_note, rules_from_spec

    names = [p.strip() for p in players.split(",")]
    st.check_players(names)
    c = _load(comp_path)
    if tag is None and c is not None and len(c.tags) == 1:
        tag = c.tags[0]
    if tag is not None:
        from ..core.sessionfile import check_tag

        check_tag(tag)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    tables = st.draw(names, seed)
    day = parse_when(date_, dates.today()).isoformat() if date_ else dates.today().isoformat()
    with ledger.open_ledger(_db(ctx), create=new_ledger_note) as led:
        now = current_night(led)
        if now is not None and now.open:
            raise WiezenError(_("a night is open ({name} {date}): end it first with `wiezen night end`").format(
                name=now.name, date=now.date))
        rules, text = rules_from_spec(rules_spec, led.rules_text)
        opened = play_round(led, [], tables, 1, rules, text, name, day, tag, rounds)
    _print_tables(opened, 1, _("drawn with seed {seed}").format(seed=seed), rounds)
    echo(_("each table records with --table N (or WIEZEN_TABLE=N); `wiezen night next` seats round 2"))


def _round_to_end(led: Ledger, force: bool) -> tuple[Night, list[SessionInfo], list[str]]:
    """The open night, its current round's tables, and why that round cannot end yet (empty: it can); refused,
    naming each table, unless ``force``."""
    from ..ledger.nights import current_night, night_sessions, unfinished

    n = current_night(led)
    if n is None or not n.open:
        raise WiezenError(_("no night is open: start one with `wiezen night start --players ...`"))
    current = [s for s in night_sessions(led, n) if s.ended_at is None]
    why = unfinished(led, current)
    if why and not force:
        raise WiezenError(_("the round cannot end yet: {why} (--force ends it all the same)").format(why="; ".join(why)))
    return n, current, why


@night.command("next")
@COMPETITION
@FORCE
@click.pass_context
def next_(ctx: click.Context, comp_path: str | None, force: bool) -> None:
    """End the round (every table sealed) and seat the next one by the night's standing, best first.

    \b
    Example:
        wiezen night next --competition kampioenschap.toml
    """
    from .. import ledger
    from ..core.night import next_seating
    from ..ledger.nights import planned_rounds, play_round
    from ..ledger.nights import standing as night_standing

    c = _load(comp_path)
    with ledger.open_ledger(_db(ctx)) as led:
        night_, current, why = _round_to_end(led, force)
        rounds = planned_rounds(led, night_)
        if rounds is not None and max(s.round or 0 for s in current) >= rounds:
            raise WiezenError(_("the night has {rounds} rounds and this is the last: end it with `wiezen night end`").format(
                rounds=rounds))
        players = [p for s in current for p in s.at_table]
        # a table of this round taken out of every count (`session void --force`): its players still play on
        # (not ranked for it: seated after the others)
        from ..ledger.nights import night_sessions
        from ..ledger.voids import voided

        void = voided(led)
        this_round = max(s.round or 0 for s in current)
        players += [p for s in night_sessions(led, night_) if s.id in void and s.round == this_round
                    for p in s.at_table if p not in players]
        standing = night_standing(led, c, night_, players)
        seating = next_seating(standing)
        rnd = max(s.round or 0 for s in current) + 1  # (a night's sessions all have their round)
        first = current[0]
        opened = play_round(led, current, seating, rnd, first.rules, first.rules_toml, night_.name, night_.date, night_.tag)
    for w in why:
        echo(_("warning: {message}: seated on what was played").format(message=w), err=True)
    if standing.missing:
        echo(_("warning: not in the night's ranking yet (seated last): {players}").format(
            players=", ".join(standing.missing)), err=True)
    _print_tables(opened, rnd, _("by the night's standing, best first"), rounds)


@night.command()
@COMPETITION
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def show(ctx: click.Context, comp_path: str | None, as_json: bool) -> None:
    """Every table of the night with its totals, the night's ranking so far, and the next round's seating.

    \b
    Example:
        wiezen night show --json
    """
    from .. import ledger
    from ..ledger.nights import current_night, night_doc

    c = _load(comp_path)
    path = ledger.existing_db_path(_db(ctx))
    n = None
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            n = current_night(led)
            if n is not None:
                doc = night_doc(led, c, n)
    if n is None:
        raise WiezenError(_("no night yet: start one with `wiezen night start --players ...`"))
    if as_json:
        echo_json(doc)
        return
    from ..views.night import night_text

    echo(night_text(doc))


@night.command()
@COMPETITION
@FORCE
@click.pass_context
def end(ctx: click.Context, comp_path: str | None, force: bool) -> None:
    """End the last round (every table sealed) and print the night's ranking.

    \b
    Example:
        wiezen night end --force
    """
    from .. import ledger
    from ..ledger.nights import night_doc, play_round

    c = _load(comp_path)
    with ledger.open_ledger(_db(ctx)) as led:
        night_, current, _why = _round_to_end(led, force)
        first = current[0]
        play_round(led, current, [], 0, first.rules, first.rules_toml, night_.name, night_.date, night_.tag)
        doc = night_doc(led, c, night_)
    from ..views.night import night_text

    echo(night_text(doc))
