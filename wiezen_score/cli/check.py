"""`wiezen check`: is the ledger whole? Re-scores every entry and checks every sum and link."""

from __future__ import annotations

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, _, ngettext
from .common import _db, echo
from .dutch import command


@command()
@click.option("--json", "as_json", is_flag=True, help="One JSON document: {ok, ledger, sessions, entries, problems}.")
@click.option("--session", "session_id", type=click.IntRange(min=1, max=2**62), metavar="ID",
              help="Report only this session's problems (and those of the whole ledger).")
@click.option("--seal", metavar="CODE",
              help="Prove a session: the ledger must still hold exactly the history this seal vouches for.")
@click.pass_context
def check(ctx: click.Context, as_json: bool, session_id: int | None, seal: str | None) -> None:
    """Check the ledger: re-score every entry that counts from its deal line, under the house rules its
    session was recorded under, and compare with the stored points, dealer and doubling; check that
    every entry sums to 0, that every voided entry points at what voided it, the links between rows,
    and SQLite's own integrity check.

    Every stored fact (entries, voids and corrections with their reasons and times, penalties, sessions
    with their date, seats and house rules, players, precedents, added house rules) has a link in a hash
    chain: a row changed, deleted or added with another program does not fit its link. The caches (totals,
    standings, the search index) are computed again and compared, the triggers by their SQL.

    With --seal CODE (the seal `session end` printed): the session's history is hashed again from the
    rows and must give that seal. Corrections recorded after it are listed; anything else changed,
    missing or forged fails.

    Prints one line per problem and exits with status 1 when anything is off; reads only.

    \b
    Examples:
        wiezen check
        wiezen check --json
        wiezen check --session 12 --seal 7KQ2-M9XD-4TPA
    """
    import os

    from .. import ledger
    from .common import echo_json

    path = ledger.resolve_path(_db(ctx))
    if not os.path.exists(path):
        raise WiezenError(_("no ledger at '{path}' yet: nothing to check").format(path=path))

    sealed = None
    with ledger.open_ledger(path, readonly=True) as led:
        if session_id is not None:
            led.session(session_id)  # an unknown session is an error
        import sqlite3

        from .common import LazyProgress

        try:
            size = led.entry_count()
        except (sqlite3.DatabaseError, UnicodeDecodeError):
            size = 0  # a damaged file: check_ledger says what is wrong with it
        from ..core.i18n import english

        with LazyProgress(N_("checking"), size=size) as bar:
            if as_json:  # JSON is English in every language
                with english():
                    result = led.check_ledger(progress=bar)
            else:
                result = led.check_ledger(progress=bar)
        if seal is not None:
            if as_json:
                with english():
                    sealed = led.check_seal(seal, session_id)
            else:
                sealed = led.check_seal(seal, session_id)
            if not sealed.ok and sealed.message.startswith("'"):
                raise WiezenError(sealed.message)
    problems = [p for p in result.problems if session_id is None or p.session_id in (None, session_id)]
    if sealed is not None and not sealed.ok:
        from ..ledger.check import Problem

        problems.append(Problem("seal", sealed.message, sealed.session_id))
    ok = not problems
    if as_json:
        echo_json({
            "ok": ok, "ledger": path, "sessions": result.sessions, "entries": result.entries,
            "voided": result.voided, "rescored": result.rescored, "problems": [p.as_dict() for p in problems],
            **({"seal": {"ok": sealed.ok, "session": sealed.session_id, "message": sealed.message,
                         "later": list(sealed.later)}} if sealed is not None else {}),
        })
    else:
        for p in problems:
            echo(p.line())
        if sealed is not None and sealed.ok:
            echo(sealed.message)  # "seal 7KQ2-M9XD-4TPA-R vouches for session 3 ...": it names itself
            if sealed.later:
                echo(_("recorded after that seal (corrections): {corrections}").format(corrections="; ".join(sealed.later)))
        if ok:
            echo(_("ok: {sessions}, {entries} ({voided} voided); {rescored} re-scored, every sum 0, the history whole").format(
                sessions=ngettext("{n} session", "{n} sessions", result.sessions).format(n=result.sessions),
                entries=ngettext("{n} entry", "{n} entries", result.entries).format(n=result.entries),
                voided=result.voided, rescored=result.rescored))
        else:
            n = len(problems)
            echo(ngettext("{n} problem in the ledger '{path}'", "{n} problems in the ledger '{path}'", n).format(
                n=n, path=path), err=True)
    if not ok:
        ctx.exit(1)
