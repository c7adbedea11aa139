"""The scoresheet and its relatives: sheet, explain, sessions, replay, db."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, NP_, _, ngettext
from ..core.numbers import plain
from ..views.explain import render_explain
from ..views.sheet import render_sheet, sheet_html, sheet_rows
from .common import (
    COUNT,
    DATE_HELP,
    DATE_PICK_HELP,
    ENTRY_NO,
    EVENING_HELP,
    SESSION_HELP,
    Output,
    SafePath,
    SessionRef,
    _db,
    echo,
    echo_json,
    output_options,
    pick_session,
    pick_sessions,
    read_input,
    text_width,
)
from .dutch import argument, command, group

if TYPE_CHECKING:
    from ..core.documents import SheetDoc
    from ..ledger import Ledger
    from ..ledger.sessions import SessionItem

REPLAY_ROWS = 50  # a replayed sheet longer than this prints a summary (replay --full: all of it)
REPLAY_TAIL = 10  # the rows the summary shows


@command()
@output_options(("text", "json", "csv", "html"), default="text", json_help="JSON output (the same as --format json).",
                format_help="text (default), json, csv (one row per entry: each player's points, empty where he "
                "sat out or the entry is voided), or html: one self-contained page with a chart.")
@click.option("--session", "session_id", type=SessionRef(), help=EVENING_HELP)
@click.option("--date", "date_", metavar="DATE", help=DATE_PICK_HELP)
@click.option("--last", type=COUNT, help="Show only the last N rows.")
@click.pass_context
def sheet(ctx: click.Context, session_id: int | str | None, date_: str | None, output: Output, last: int | None) -> None:
    """Show the scoresheet: one row per entry with running totals.

    Each player's column shows his running total and, in brackets, what the entry gave him. A '*' marks
    a doubled deal ('*4', '*8' when doubled again); voided entries stay, marked ~struck~ and not
    counted; (out) marks who sat out.

    \b
    Examples:
        wiezen sheet
        wiezen sheet --session 3 --json
        wiezen sheet --date "last friday"          (what did we play last friday?)
        wiezen sheet --csv --csv-dialect excel-nl > evening.csv
        wiezen sheet --format html > evening.html
    """
    from .. import ledger
    from ..ledger.documents import sheet_doc

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        tables = [] if session_id or date_ or led.chosen_table() is not None else led.open_sessions()
        if len(tables) > 1:  # a club night, no table chosen: each open table's sheet
            _each_table(output, [(s.table, sheet_doc(led, s)) for s in tables], last, led)
            return
        every = pick_sessions(led, session_id, date_)
        if len(every) > 1:  # an evening of several sessions: each one's sheet, and the evening's totals
            _each_session(output, [sheet_doc(led, x) for x in every], last)
            return
        doc = sheet_doc(led, every[0])
    headers, rows = sheet_rows(doc)
    output.emit(headers, rows, doc, text=lambda: render_sheet(doc, last, text_width()), html=lambda: sheet_html(doc))


def _each_table(output: Output, docs: list[tuple[int | str | None, SheetDoc]], last: int | None, led: Ledger) -> None:
    """`sheet` on a club night with no table chosen: each open table's sheet (text), the list of their documents
    (JSON), one CSV of their entries with a column per player of the night (empty where he did not sit)."""
    players = list(dict.fromkeys(p for _t, d in docs for p in d["session"]["players"]))
    csv_rows = []
    for table, d in docs:
        _h, rows = sheet_rows(d)
        own = d["session"]["players"]
        csv_rows += [[table, *r[:7], *(r[7 + own.index(p)] if p in own else None for p in players)] for r in rows]

    def page() -> str:
        raise led.several_open_error(led.open_sessions())  # one page is one table: choose it

    output.emit(["table", "no", "kind", "entry", "reason", "dealer", "multiplier", "voided", *players], csv_rows,
                [{"table": t, **d} for t, d in docs], html=page,
                text=lambda: "\n\n".join(_("table {table}:").format(table=t) + "\n" + render_sheet(d, last, text_width())
                                          for t, d in docs))


def _each_session(output: Output, docs: list[SheetDoc], last: int | None) -> None:
    """`sheet --date DATE` (or `--session 1,3`) of an evening of several sessions: each session's sheet and the
    evening's totals (text), the list of their documents (JSON), one CSV of their entries with a column per
    player of the evening (empty where he did not sit)."""
    from ..core.numbers import exact_points, signed
    from ..core.scoring import Points

    players = list(dict.fromkeys(p for d in docs for p in d["session"]["players"]))
    csv_rows = []
    totals: dict[str, Points] = {}
    for d in docs:
        _h, rows = sheet_rows(d)
        own = d["session"]["players"]
        sid = d["session"]["id"]
        csv_rows += [[sid, *r[:7], *(r[7 + own.index(p)] if p in own else None for p in players)] for r in rows]
        for p, v in d["totals"].items() if "void" not in d["session"] else ():  # (a void session counts nowhere)
            totals[p] = totals.get(p, 0) + exact_points(v)  # (thirds: exact, not floats)

    def page() -> str:
        raise WiezenError(_("one page shows one session: give --session ID (this evening: {ids})").format(
            ids=", ".join(str(d["session"]["id"]) for d in docs)))

    def text() -> str:
        parts = [render_sheet(d, last, text_width()) for d in docs]  # each names its session
        evening = ", ".join(f"{p} {signed(v)}" for p, v in totals.items())
        n = len([d for d in docs if "void" not in d["session"]])
        return "\n\n".join(parts) + "\n\n" + ngettext(
            "the evening ({n} session): {totals}", "the evening ({n} sessions): {totals}", n).format(n=n, totals=evening)

    output.emit(["session", "no", "kind", "entry", "reason", "dealer", "multiplier", "voided", *players], csv_rows,
                docs, html=page, text=text)


@command()
@argument("no", type=ENTRY_NO)
@click.option("--session", "session_id", type=SessionRef(), help=SESSION_HELP)
@click.option("--date", "date_", metavar="DATE", help=DATE_PICK_HELP)
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def explain(ctx: click.Context, no: int, session_id: int | str | None, date_: str | None, as_json: bool) -> None:
    """Explain how entry NO was scored, step by step, under the session's own house rules.

    \b
    Example:
        wiezen explain 4
    """
    from .. import ledger
    from ..core.i18n import english
    from ..ledger.documents import explain_doc

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        s = pick_session(led, session_id, date_)
        if as_json:  # JSON is English in every language
            with english():
                doc = explain_doc(led, s, no)
        else:
            doc = explain_doc(led, s, no)
    if as_json:
        echo_json(doc)
        return
    echo(render_explain(doc))


@command()
@output_options()
@click.option("--since", metavar="DATE", help="First date to include: " + DATE_HELP)
@click.option("--until", metavar="DATE", help="Same forms as --since.")
@click.pass_context
def sessions(ctx: click.Context, since: str | None, until: str | None, output: Output) -> None:
    """List the sessions, newest first: date, name, players, deals, leader, house rules.

    \b
    Examples:
        wiezen sessions
        wiezen sessions --since last-week
        wiezen sessions --csv > sessions.csv
    """
    from .. import ledger
    from ..core import dates
    from ..core.dates import parse_when

    today = dates.today()
    lo = parse_when(since, today).isoformat() if since is not None else None
    hi = parse_when(until, today).isoformat() if until is not None else None
    path = ledger.existing_db_path(_db(ctx))
    items: list[SessionItem] = []
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = led.sessions(lo, hi)
    from ..core.dates import day_text, weekday_name

    empty = _("no sessions in that period") if since is not None or until is not None else _("no sessions yet")
    csv_rows = [[i["id"], i["date"], weekday_name(i["date"]), i["name"], ", ".join(i["players"]), i["deals"],
                 i["leader"], i["rules"], int(i["open"]), i["void"] or ""] for i in items]  # fmt: skip
    csv_headers = ["id", "date", "weekday", "name", "players", "deals", "leader", "rules", "open", "void"]

    def state(i: SessionItem) -> str:
        if i["void"] is not None:
            return _("{rules} (void: {reason})").format(rules=i["rules"], reason=i["void"])
        return _("{rules} (open)").format(rules=i["rules"]) if i["open"] else str(i["rules"])

    rows = [[i["id"], day_text(i["date"]), i["name"], ", ".join(i["players"]), i["deals"],
             i["leader"], state(i)] for i in items]  # fmt: skip
    headers = [N_("id"), N_("date"), N_("name"), N_("players"), NP_("column", "deals"), N_("leader"), N_("rules")]
    output.emit(headers, rows, [{**i, "weekday": weekday_name(i["date"]),
                                 "totals": {p: plain(v) for p, v in i["totals"].items()}} for i in items],
                text=None if items else lambda: empty, csv_headers=csv_headers, csv_rows=csv_rows)


@command()
@argument("files", metavar="FILE...", nargs=-1, required=True, type=SafePath(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print the sheet as JSON (with several files: a list of sheets, in the order given).")
@click.option("--keep-open", is_flag=True, help="Leave the session open, to go on recording with `wiezen deal`.")
@click.option("--full", is_flag=True,
              help=f"Print each whole sheet, however long (without it, a sheet of more than {REPLAY_ROWS} rows is "
                   f"summed up: its last {REPLAY_TAIL} rows and the totals).")
@click.pass_context
def replay(ctx: click.Context, files: tuple[str, ...], as_json: bool, keep_open: bool, full: bool) -> None:
    """Record whole sessions written as text files, and print their sheets.

    All or nothing: a bad line in any FILE records nothing (of any file) and names the file and the
    line. The same file twice is recognised and not recorded twice. `-` reads standard input. A long
    session prints a summary: its last rows and the totals (--full prints the whole sheet; `wiezen sheet`
    shows it later). The file format:

    \b
        # comments and blank lines are skipped
        session "Café De Kroon" 2026-11-27
        rules rupelstreek
        players jan piet mieke lotte          (optional: dealer NAME)
        samen 8 jan+piet 9
        pas
        troel mieke+lotte 8
        penalty jan renonce in troef          (penalty jan round te laat: a round)
        redeal carte blanche
        join kris after piet                  (kris schuift aan na piet; leave piet: piet stopt)
        undo

    \b
    Examples:
        wiezen replay examples/cafe-de-kroon-rupelstreek.txt
        wiezen replay examples/*.txt
        wiezen --db club.db replay avond.txt --json
        wiezen replay --keep-open avond.txt && wiezen deal samen 8 jan+piet 9
        wiezen replay --full seizoen.txt
    """
    from .. import ledger
    from ..core import dates
    from ..ledger.documents import sheet_doc
    from .common import new_ledger_note, progress, rules_from_spec

    if keep_open and len(files) > 1:
        raise WiezenError(_("--keep-open leaves one session open: give one file, not {count}").format(count=len(files)))
    if files.count("-") > 1:
        raise WiezenError(_("standard input ('-') can be read once: give '-' once"))
    texts = []
    for file in files:
        text = read_input(file, N_("session file"))
        name = "" if file == "-" else os.path.splitext(os.path.basename(file))[0]
        texts.append((file, text, name))
    many = len(files) > 1
    total = sum(t.count("\n") + 1 for _f, t, _n in texts)
    results: list[tuple[str, int, bool]] = []
    with ledger.open_ledger(_db(ctx), create=new_ledger_note) as led, progress(total, N_("recording")) as bar:
        with led.write():  # every file, or none
            for file, text, name in texts:
                try:
                    sid, recorded = led.replay(
                        text,
                        lambda spec: rules_from_spec(spec, led.rules_text),
                        dates.today().isoformat(),
                        default_name=name,
                        keep_open=keep_open,
                        progress=bar.update,
                    )
                except WiezenError as e:
                    if many:
                        raise WiezenError(_("{file}: {message}; nothing was recorded").format(
                            file="stdin" if file == "-" else file, message=e)) from None
                    raise
                results.append((file, sid, recorded))
        counts = [0 if as_json or full else led.row_count(led.session(sid)) for _f, sid, _r in results]
        docs = [sheet_doc(led, led.session(sid), REPLAY_TAIL if n > REPLAY_ROWS else None)
                for (_f, sid, _r), n in zip(results, counts, strict=False)]
    if as_json:
        echo_json(docs if many else docs[0])
        return
    for i, ((file, sid, recorded), doc, n) in enumerate(zip(results, docs, counts, strict=False)):
        if i:
            echo()
        if not recorded:
            where = f"{file}: " if many else ""
            echo(_("{where}already recorded as session {id}: not recorded again").format(where=where, id=sid), err=True)
        if n > REPLAY_ROWS:
            echo(render_sheet(doc, last=REPLAY_TAIL, width=text_width()).replace(
                "\n", "\n" + _("({count} earlier rows not shown: `wiezen sheet --session {id}` or `replay --full` "
                                "shows the whole sheet)").format(count=n - REPLAY_TAIL, id=sid) + "\n", 1))
        else:
            echo(render_sheet(doc, width=text_width()))


@group()
def db() -> None:
    """Where the ledger lives, and backups.

    \b
    Examples:
        wiezen db path
        wiezen db backup ~/wiezen-2026-11-30.db
        datasette "$(wiezen db path)"
    """


@db.command()
@click.option("--json", "as_json", is_flag=True, help='{"path": ..., "exists": BOOL, "backups": [FILE, ...]}')
@click.pass_context
def path(ctx: click.Context, as_json: bool) -> None:
    """Print the ledger's path (--db, else $WIEZEN_DB, else the user data folder).

    The backups wiezen made before upgrading the ledger's schema (FILE.before-schema-N-from-M-STAMP.bak,
    next to the ledger) are listed after it on stderr, so that `$(wiezen db path)` stays the path alone.
    To restore one, copy it over the ledger while no wiezen is running.

    To copy the ledger (a USB stick, a mail to the club): `wiezen db backup FILE` makes a whole copy at any
    time, even while a scorer records. While no wiezen command runs, the file itself is the whole ledger
    (every command copies its journal, the FILE-wal beside it, into the file as it writes and ends), so a
    plain copy of that one file is a whole copy too.

    \b
    Examples:
        wiezen db path
        WIEZEN_DB=club.db wiezen db path --json
    """
    from .. import ledger

    p = ledger.resolve_path(_db(ctx))
    backups = ledger.migration_backups(p)
    if as_json:
        echo_json({"path": p, "exists": os.path.exists(p), "backups": backups})
        return
    echo(p)
    echo(_("to copy it: `wiezen db backup FILE` (whole at any time), or copy this one file while no wiezen runs"), err=True)
    if backups:
        echo(_("backups made before schema upgrades:"), err=True)
        for b in backups:
            echo(f"  {b}", err=True)


@db.command()
@argument("file", type=SafePath(dir_okay=False))
@click.option("--force", is_flag=True, help="Replace FILE if it exists (never the ledger in use).")
@click.pass_context
def backup(ctx: click.Context, file: str, force: bool) -> None:
    """Write a consistent copy of the ledger to FILE (SQLite's online backup), even while others write.

    The copy is written under a temporary name beside FILE and renamed when it is complete, so an
    interrupted backup leaves no half file. An existing FILE is kept unless --force; the ledger in use is
    never written over.

    \b
    Example:
        wiezen db backup ~/wiezen-2026-11-30.db
    """
    from .. import ledger

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        led.backup(file, force)
    echo(_("backup written to {file}").format(file=file))


@db.command("datasette-metadata")
@click.pass_context
def datasette_metadata(ctx: click.Context) -> None:
    """Print a Datasette metadata file that labels the ledger's tables, views and columns.

    \b
    Example:
        wiezen db datasette-metadata > metadata.json
        datasette "$(wiezen db path)" --metadata metadata.json
    """
    from .. import ledger
    from .club import datasette_metadata_json

    echo_json(datasette_metadata_json(ledger.resolve_path(_db(ctx))))
