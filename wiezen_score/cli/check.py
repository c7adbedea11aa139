"""`wiezen check`: is the ledger whole? Re-scores every entry and checks every sum and link."""

from __future__ import annotations

import click

from ..core.errors import WiezenError
from .session_cmds import _db


@click.command()
@click.option("--json", "as_json", is_flag=True, help="One JSON document: {ok, ledger, sessions, entries, problems}.")
@click.pass_context
def check(ctx: click.Context, as_json: bool) -> None:
    """Check the ledger: re-score every entry that counts from its deal line, under the house rules its
    session was recorded under, and compare with the stored points, dealer and doubling; check that
    every entry sums to 0, that every voided entry points at what voided it, the links between rows,
    and SQLite's own integrity check.

    Prints one line per problem and exits with status 1 when anything is off; reads only.

    \b
    Examples:
        wiezen check
        wiezen check --json
    """
    import os

    from .. import ledger
    from ..ledger.check import check_ledger
    from .common import echo_json

    path = ledger.resolve_path(_db(ctx))
    if not os.path.exists(path):
        raise WiezenError(f"no ledger at '{path}' yet: nothing to check")
    with ledger.open_ledger(path, readonly=True) as led:
        result = check_ledger(led.conn)
    if as_json:
        echo_json({
            "ok": result.ok, "ledger": path, "sessions": result.sessions, "entries": result.entries,
            "voided": result.voided, "rescored": result.rescored, "problems": [p.as_dict() for p in result.problems],
        })
    else:
        for p in result.problems:
            click.echo(p.line())
        if result.ok:
            click.echo(
                f"ok: {result.sessions} session{'s' * (result.sessions != 1)}, {result.entries} "
                f"entr{'ies' if result.entries != 1 else 'y'} ({result.voided} voided); "
                f"{result.rescored} re-scored, every sum 0, the history whole"
            )
        else:
            n = len(result.problems)
            click.echo(f"{n} problem{'s' * (n != 1)} in the ledger '{path}'", err=True)
    if not result.ok:
        ctx.exit(1)
