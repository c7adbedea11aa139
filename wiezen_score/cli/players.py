"""`wiezen players [rename|merge|split]`: the ledger's players as people, and the names that are one person."""

from __future__ import annotations

import click

from ..core.i18n import N_, _
from .common import Output, _db, echo, output_options
from .dutch import argument, group


@group(invoke_without_command=True, subcommand_metavar="[COMMAND] [ARGS]...")  # (the same in every click)
@output_options()
@click.pass_context
def players(ctx: click.Context, output: Output) -> None:
    """Every player of the ledger, as a person: his evenings, tables, deals, points, first and last evening,
    and the other names that are his.

    The names recorded at the tables never change (the sheets and seals keep them); `players merge` makes
    several names one person, whom the standings, competitions, seating and nights count once.

    \b
    Examples:
        wiezen players
        wiezen players merge Rene rené           (rené is Rene: counted once, as Rene)
        wiezen players rename jan Johan
        wiezen players split Rene rené           (undoes that merge)
    """
    if ctx.invoked_subcommand is not None:
        return
    from .. import ledger
    from ..core.dates import day_text
    from ..core.numbers import signed

    path = ledger.existing_db_path(_db(ctx))
    docs = []
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            docs = led.players_docs()
    headers = [N_("player"), N_("evenings"), N_("tables"), N_("deals"), N_("points"), N_("first"), N_("last"),
               N_("also known as")]
    rows = [[d["player"], d["evenings"], d["sessions"], d["deals"], signed(d["points"]),
             day_text(d["first"]) if d["first"] else "", day_text(d["last"]) if d["last"] else "", ", ".join(d["names"])]
            for d in docs]
    csv_headers = ["player", "evenings", "sessions", "deals", "points", "first", "last", "names"]
    csv_rows = [[d["player"], d["evenings"], d["sessions"], d["deals"], d["points"], d["first"] or "", d["last"] or "",
                 " ".join(d["names"])] for d in docs]
    output.emit(headers, rows, docs, text=None if docs else lambda: _("no players recorded yet"),
                csv_headers=csv_headers, csv_rows=csv_rows)


def _fact(ctx: click.Context, action: str, name: str, others: tuple[str, ...]) -> None:
    from .. import ledger
    from ..core import dates

    with ledger.open_ledger(_db(ctx)) as led:
        done = led.player_fact(action, name, others, dates.today().isoformat())
    for line in done:
        echo(line)


@players.command()
@argument("old")
@argument("new")
@click.pass_context
def rename(ctx: click.Context, old: str, new: str) -> None:
    """Give player OLD the name NEW from now on: the standings and rankings say NEW, a table that types NEW
    records him, and his past sheets keep the name they were recorded with.

    \b
    Example:
        wiezen players rename jan Johan
    """
    _fact(ctx, "rename", old, (new,))


@players.command()
@argument("name")
@argument("others", nargs=-1, required=True)
@click.pass_context
def merge(ctx: click.Context, name: str, others: tuple[str, ...]) -> None:
    """The OTHERS are the same person as NAME, and go by NAME: standings, competitions, seating and nights
    count him once. Refused when two of them sat at the same table on one evening (two people, then).
    Nothing recorded changes: `players split` undoes it.

    \b
    Example:
        wiezen players merge Rene rené "Rene V"
    """
    _fact(ctx, "merge", name, others)


@players.command()
@argument("name")
@argument("other")
@click.pass_context
def split(ctx: click.Context, name: str, other: str) -> None:
    """Undo a merge: OTHER is a player of his own again, apart from NAME.

    \b
    Example:
        wiezen players split Rene rené
    """
    _fact(ctx, "split", name, (other,))
