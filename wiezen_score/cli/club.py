"""The club commands: standings, export, import, settle; the Datasette metadata of the ledger."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, _, ngettext
from ..views.formats import FORMATS as FORMATS_REGISTRY
from ..views.standings import HEADERS, _period, standings_html, standings_json, standings_rows, standings_text
from .common import (
    DATE_HELP,
    DATE_PICK_HELP,
    EVENING_HELP,
    SESSION_ID,
    Output,
    SafePath,
    SessionRef,
    _db,
    echo,
    output_options,
    pick_sessions,
)
from .dutch import argument, command

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from ..core.documents import StandingRow
    from ..core.scoring import Points
    from ..ledger.exchange import ImportReport

FORMATS = ("table", "csv", "json", "markdown", "html")


def _range(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    from ..core import dates
    from ..core.dates import parse_when

    today = dates.today()
    lo = parse_when(since, today).isoformat() if since else None
    hi = parse_when(until, today).isoformat() if until else None
    if lo and hi and lo > hi:
        raise WiezenError(_("--since {since} is after --until {until}: nothing can lie in between").format(since=lo, until=hi))
    return lo, hi


# ------------------------------------------------------------------------------------------------ standings


@command()
@output_options(FORMATS, default="table",
                format_help="table (default, with a trend sparkline), csv (safe for spreadsheets), json, markdown, "
                "or html (one self-contained page with a chart).")
@click.option("--since", metavar="DATE", help="First date to include: " + DATE_HELP)
@click.option("--until", metavar="DATE", help="Last date to include (same forms as --since).")
@click.option("--title", help="Title of the html page (default: 'Standings' and the period).")
@click.option("--competition", "competition", metavar="FILE", type=SafePath(dir_okay=False, allow_dash=True),
              help="Rank as this competition file says (which sessions, best N evenings, minimums, points or "
              "placement, tie-breaks); see docs/competitions.md.")
@click.option("--night", metavar="DATE", help="With --competition: one night's ranking across its tables and rounds.")
@click.option("--honours", is_flag=True, help="With --competition: champion, rode lantaarn, miserie king, most "
              "contracts made, each player's favourite partner and nemesis, the prize band, each night's winner "
              "and each period's champion.")
@click.option("--after-night", "after_night", type=click.IntRange(1, 10_000), metavar="N",
              help="With --competition: the ranking as it stood after its first N nights (--until DATE: after a date).")
@click.option("--period", metavar="NAME", help="With --competition: rank one of its [[period]]s (a month ...).")
@click.option("--nights", "grid", is_flag=True, help="With --competition: a grid, one row a player and one column "
              "a night, his score that night (a night that does not count in brackets).")
@click.option("--teams", is_flag=True, help="With --competition: rank its [teams] by their members' scores.")
@click.pass_context
def standings(ctx: click.Context, since: str | None, until: str | None, output: Output, title: str | None,
              competition: str | None, night: str | None, honours: bool, after_night: int | None,
              period: str | None, grid: bool, teams: bool) -> None:
    """The season's standings: per player over the sessions in range, best first.

    Points, evenings played, deals played (a player who sat out a deal did not play it), contracts taken
    and made as taker (bidder, partner or on miserie) with the success rate, best and worst evening, and
    the average per evening. Computed from the stored points of the entries that count.

    \b
    Examples:
        wiezen standings
        wiezen standings --since 2026-09-01 --until 2027-06-30
        wiezen standings --format csv > standings.csv
        wiezen standings --csv --csv-dialect excel-nl > klassement.csv
        wiezen standings --json
        wiezen standings --format html --title "Café De Kroon, season 2026-27" > standings.html
        wiezen standings --competition kampioenschap.toml --honours
        wiezen standings --competition gesves.toml --night 2026-11-27 --format html > night.html
        wiezen standings --competition kampioenschap.toml --nights
        wiezen standings --competition kampioenschap.toml --period november --until 2026-11-27
    """
    from ..core import dates
    if competition is None:
        given = [o for o, on in (("--night", night), ("--honours", honours), ("--after-night", after_night),
                                 ("--period", period), ("--nights", grid), ("--teams", teams)) if on]
        if given:
            raise WiezenError(_("{option} goes with --competition FILE").format(option=given[0]))
    if competition is not None:
        if since:
            raise WiezenError(_("--since does not go with --competition: the competition file says which sessions "
                                "count (since, until, tag, [[period]]); --until DATE or --after-night N shows the "
                                "ranking as it stood then, --night DATE ranks one night"))
        if until and after_night:
            raise WiezenError(_("give --until or --after-night, not both"))
        from .competition import competition_standings

        competition_standings(ctx, competition, output, title, night, honours, until, after_night, period, grid, teams)
        return
    from .. import ledger

    out_format = output.format
    lo, hi = _range(since, until)
    path = ledger.existing_db_path(_db(ctx))
    items: list[StandingRow] = []
    series: dict[str, list[tuple[str, int | float]]] = {}
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = led.standings(lo, hi)
            if not FORMATS_REGISTRY[out_format].machine:  # the trend and the chart
                by_player = led.season_series(lo, hi)
                series = {d["player"]: by_player[d["player"]] for d in items if d["player"] in by_player}
    period = _period(lo, hi)
    empty = _("no sessions in that period") if lo or hi else _("no sessions yet")
    output.emit(HEADERS, standings_rows(items), standings_json(items),
                text=lambda: standings_text(items, series, period) if items else empty,
                markdown=lambda: standings_text(items, series, period, markdown=True) if items else empty,
                html=lambda: standings_html(items, series, period, title, dates.today().isoformat()))


# ---------------------------------------------------------------------------------------------- export/import


@command()
@click.option("--since", metavar="DATE", help="First date to include: " + DATE_HELP)
@click.option("--until", metavar="DATE", help="Last date to include (same forms as --since).")
@click.option("--session", "session_id", type=SESSION_ID, help="Export only this session.")
@click.option("-o", "--output", type=SafePath(dir_okay=False, allow_dash=True), default="-",
              help="Write to this file instead of stdout (never over the ledger, nor over an SQLite file).")
@click.option("--force", is_flag=True, help="With -o: replace an existing SQLite file (never the ledger in use).")
@click.pass_context
def export(ctx: click.Context, since: str | None, until: str | None, session_id: int | None, output: str,
           force: bool) -> None:
    """Write the sessions (all, a period, or one) as one JSON document.

    Every session with its house-rules snapshot, players in seat order and every entry, voided ones too
    (with their undo or amendment), plus the precedents log. Sessions and entries carry stable ids:
    `wiezen import` of the file into another ledger merges it there, and importing it twice adds nothing.

    \b
    Examples:
        wiezen export > club.json
        wiezen export --since 2026-09-01 -o season.json
        wiezen export --session 12 > evening12.json
    """
    import json

    from .. import __version__, ledger
    from ..ledger import exchange

    lo, hi = _range(since, until)
    generator = f"wiezen {__version__}"
    path = ledger.existing_db_path(_db(ctx))
    if path is None and session_id is not None:
        raise WiezenError(_("no session {id}: there is no ledger yet").format(id=session_id))

    def write(out: SupportsWrite[str]) -> int:
        if path is None:
            doc = {"format": exchange.EXPORT_FORMAT, "version": exchange.EXPORT_VERSION, "generator": generator,
                   "selection": {"since": lo, "until": hi, "session": None}, "sessions": []}  # fmt: skip
            from ..views.safe import safe_json

            out.write(safe_json(json.dumps(doc, ensure_ascii=False, indent=1)) + "\n")
            return 0
        from .common import LazyProgress

        with ledger.open_ledger(path, readonly=True) as led, LazyProgress(N_("exporting")) as bar:
            return led.write_export(out, lo, hi, session_id, generator=generator, progress=bar)

    if output == "-":
        class Echo:
            def write(self, text: str) -> None:
                echo(text, nl=False)

        write(Echo())
        return
    from ..ledger.files import atomic_file, refuse_target

    refuse_target(output, ledger.resolve_path(_db(ctx)), force, "export")
    with atomic_file(output, "export") as tmp:
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                n = write(f)
        except OSError as e:
            raise WiezenError(_("cannot write '{file}': {reason}").format(file=output, reason=e.strerror)) from None
    echo(ngettext("exported {n} session to {file}", "exported {n} sessions to {file}", n).format(n=n, file=output), err=True)


@command("import")
@argument("file", type=SafePath(dir_okay=False, allow_dash=True))
@click.option("--dry-run", is_flag=True, help="Check and report what would be added; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Report as JSON.")
@click.option("--same", "same", multiple=True, metavar="A=B",
              help="A (a player in FILE) is B (one here): one person, who goes by B. May be given again.")
@click.pass_context
def import_(ctx: click.Context, file: str, dry_run: bool, as_json: bool, same: tuple[str, ...]) -> None:
    """Merge FILE into this ledger: a `wiezen export` file (`-` for stdin), or another wiezen ledger.

    Sessions, entries, undo/amend history and precedents keep their ids, so importing the same data twice
    adds nothing, and the ledgers of several tables merge into the club's. Players are matched by name
    (case does not matter). All or nothing: if anything in FILE has an id known here with other content,
    the import is refused, the conflicts are listed, and nothing is written.

    The import lists the players it adds, and warns of each that looks like a player already here (the same
    letters but for case, accents and spaces: Rene and rené); --same rené=Rene makes them one person on the
    way in (as `wiezen players merge Rene rené` does).

    \b
    Examples:
        wiezen --db club.db import tafel1.json
        wiezen --db club.db import /media/usb/tafel2/wiezen.db
        wiezen --db club.db import tafel3.json --same rené=Rene
    """
    import sys

    from .. import ledger
    from ..core import dates
    from ..ledger import exchange
    from .common import LazyProgress, new_ledger_note

    pairs = []
    for item in same:
        a, eq, b = item.partition("=")
        if not eq or not a.strip() or not b.strip():
            raise click.BadParameter(_("'{value}' is not A=B (a player of the file = a player here, e.g. rené=Rene)").format(
                value=item), param_hint="'--same'")
        pairs.append((a.strip(), b.strip()))
    day = dates.today().isoformat() if pairs else ""  # (the clock is read only when a merge is recorded)

    target = ledger.resolve_path(_db(ctx))
    new_ledger = not ledger.check_ledger_path(target)
    announce = (lambda path: None) if dry_run else new_ledger_note
    bar = LazyProgress(N_("importing"))
    try:
        if file == "-":
            from ..core.text import decode_utf8, parse_json

            stdin = getattr(sys.stdin, "buffer", None)
            data = decode_utf8(stdin.read(), "stdin") if stdin is not None else sys.stdin.read()
            doc = parse_json(data, "stdin")
            with ledger.open_ledger(target, create=announce) as led:
                report = exchange.import_doc(led, doc, dry_run=dry_run, progress=bar, same=pairs, day=day)
            kind = "file"
        elif not new_ledger and os.path.exists(file) and os.path.samefile(file, target):
            raise WiezenError(_("'{file}' is this ledger itself: nothing to import").format(file=file))
        else:
            with exchange.import_source(file) as (doc, kind), ledger.open_ledger(target, create=announce) as led:
                report = exchange.import_doc(led, doc, dry_run=dry_run, progress=bar, same=pairs, day=day)
    except BaseException:
        if new_ledger:  # "nothing was written" holds for the file system too: no empty ledger left behind
            ledger.remove_ledger_files(target)
        raise
    finally:
        bar.__exit__(None, None, None)
    if dry_run and new_ledger:
        ledger.remove_ledger_files(target)
    if as_json:
        from .common import echo_json

        echo_json({**report.as_dict(), "dry_run": dry_run, "source": kind})
        return
    src = _("the ledger {file}").format(file=file) if kind == "ledger" else file
    _say_players(report, dry_run)
    if report.precedents_skipped:
        echo(_("warning: the file has precedents, but this ledger has no precedents log: they were left out"), err=True)
    if not report.added_anything:
        n = report.unchanged
        if n:
            echo(ngettext("nothing new in {source}: all {n} of its sessions are here already",
                          "nothing new in {source}: all {n} of its sessions are here already", n).format(source=src, n=n))
        else:
            echo(_("nothing new in {source}: it holds no sessions").format(source=src))
        return
    parts = []
    r = report
    for n, words in ((r.sessions, ngettext("{n} session", "{n} sessions", r.sessions)),
                     (r.entries, ngettext("{n} entry", "{n} entries", r.entries)),
                     (r.voids, ngettext("{n} undo/amend", "{n} undo/amends", r.voids)),
                     (r.ended, ngettext("{n} session end", "{n} session ends", r.ended)),
                     (r.sessions_voided, ngettext("{n} void session", "{n} void sessions", r.sessions_voided)),
                     (r.precedents, ngettext("{n} precedent", "{n} precedents", r.precedents))):  # fmt: skip
        if n:
            parts.append(words.format(n=n))
    if dry_run:
        echo(_("would import from {source}: {parts} (dry run: nothing written)").format(source=src, parts=", ".join(parts)))
    else:
        echo(_("imported from {source}: {parts}").format(source=src, parts=", ".join(parts)))


def _say_players(report: ImportReport, dry_run: bool) -> None:
    """The players an import adds, and a warning for each that looks like a player already here."""
    if report.players:
        echo((_("would add players: {players}") if dry_run else _("new players: {players}")).format(
            players=", ".join(report.players)))
    for a, b in report.look_alikes:
        echo(_("warning: '{new}' looks like '{known}', a player already here: if they are one person, "
               "`wiezen players merge {known} {new}` (or import with --same {new}={known})").format(new=a, known=b), err=True)
    if report.player_facts:
        echo(ngettext("{n} rename or merge of players", "{n} renames or merges of players", report.player_facts).format(
            n=report.player_facts))


# ---------------------------------------------------------------------------------------------------- settle


@command()
@click.option("--session", "session_id", type=SessionRef(), help=EVENING_HELP)
@click.option("--date", "date_", metavar="DATE", help=DATE_PICK_HELP)
@click.option("--cents", type=click.IntRange(min=0), metavar="N",
              help="Play for money: N cents a point (default: points only).")
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def settle(ctx: click.Context, session_id: int | str | None, date_: str | None, cents: int | None, as_json: bool) -> None:
    """Who pays whom at the end of the evening, in the fewest payments.

    With --cents N every point is worth N eurocents (an old tradition); amounts are rounded to the cent,
    half up. An evening of several sessions (a player joined, the table was started again) is settled as
    one: --date DATE takes every session of that day, --session 1,3 the sessions named.

    \b
    Examples:
        wiezen settle
        wiezen settle --session 3 --cents 5
        wiezen settle --date today --cents 10
        wiezen settle --session 1,3
    """
    from .. import ledger
    from ..core.numbers import plain
    from ..core.settle import settle as fewest

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        every = pick_sessions(led, session_id, date_, counting=True)
        totals: dict[str, Points] = {}
        owed: dict[str, int] = {}
        for s in every:  # an evening of several sessions nets as one
            for p, v in led.totals(s.id).items():
                totals[p] = totals.get(p, 0) + v
            for p, n in led.rounds_owed(s).items():
                owed[p] = owed.get(p, 0) + n
    s = every[0]
    payments = fewest(totals, cents)
    if as_json:
        from .common import echo_json

        echo_json({
            "session": s.id if len(every) == 1 else None, "sessions": [x.id for x in every],
            "cents": cents, "totals": {p: plain(v) for p, v in totals.items()},
            "payments": [
                {"from": p.payer, "to": p.payee, "points": plain(p.amount),
                 **({"cents": p.cents} if p.cents is not None else {})}
                for p in payments
            ],
            "rounds_owed": owed,
        })  # fmt: skip
        return
    from ..views.settle import settle_text
    from ..views.sheet import rounds_owed_line
    from .common import text_width

    echo(settle_text(s, payments, cents, rounds_owed_line(owed), text_width(), every[1:]))


# ------------------------------------------------------------------------------------------------ datasette


def datasette_metadata_json(db_path: str) -> dict[str, object]:
    from ..ledger.datasette import datasette_metadata

    return datasette_metadata(os.path.splitext(os.path.basename(db_path))[0])
