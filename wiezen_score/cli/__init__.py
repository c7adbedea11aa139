"""The ``wiezen`` command line: a thin click layer over the pure core and the ledger.

Sub-commands are imported lazily (only the one that runs), so that ``wiezen --version`` and
``wiezen deal`` stay close to the cost of importing click.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from .. import __version__
from ..core import i18n
from ..core.errors import WiezenError
from ..core.i18n import N_, _
from .dutch import Group
from .lang import BAD_LANG_ERROR, LANG_HELP, apply, pick

# name -> (module, attribute, one-line help shown by `wiezen --help`)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "calc": ("calc", "calc", N_("Score one deal without recording it.")),
    "rules": ("rules_cmd", "rules", N_("List, show, compare and add house rules.")),
    "session": ("session_cmds", "session", N_("Start or end the evening's session (or void one started by mistake).")),
    "deal": ("session_cmds", "deal", N_("Record a deal in the open session.")),
    "pass": ("session_cmds", "pass_", N_("Record a rondje pas (all four passed).")),
    "redeal": ("session_cmds", "redeal", N_("Record a redeal (carte blanche, misdeal).")),
    "penalty": ("session_cmds", "penalty", N_("Record strafpunten, or a round owed.")),
    "undo": ("session_cmds", "undo", N_("Void the last entry that counts.")),
    "amend": ("session_cmds", "amend", N_("Correct entry N; later entries follow.")),
    "sheet": ("sheet", "sheet", N_("Show the scoresheet with running totals.")),
    "explain": ("sheet", "explain", N_("Explain how entry N was scored.")),
    "sessions": ("sheet", "sessions", N_("List the sessions, newest first.")),
    "deals": ("deals", "deals", N_("Every recorded deal across sessions, by player, contract and dates.")),
    "replay": ("sheet", "replay", N_("Record a whole session file and print its sheet.")),
    "db": ("sheet", "db", N_("Where the ledger lives; backups.")),
    "play": ("play", "play", N_("The scorer at the table: one line per deal, the sheet as it goes.")),
    "precedent": ("precedent", "precedent", N_("Rulings the table made: add, list, search, show, edit.")),
    "check": ("check", "check", N_("Check the ledger: re-score every entry, every sum.")),
    "standings": ("club", "standings", N_("The season's standings per player (table, csv, html ...).")),
    "export": ("club", "export", N_("Write sessions as JSON, to merge into another ledger.")),
    "import": ("club", "import_", N_("Merge an export or another wiezen ledger into this one.")),
    "serve": ("serve", "serve", N_("The live sheet on the players' phones (a page that follows every entry).")),
    "night": ("night", "night", N_("A club night: several tables, seated round after round by the night's standing.")),
    "seating": ("competition", "seating", N_("Seat a round of a night with several tables (drawn, or by standing).")),
    "players": ("players", "players", N_("The players as people: rename, merge the names that are one person.")),
    "settle": ("club", "settle", N_("Who pays whom at the end of the evening, in the fewest payments.")),
}


class WiezenGroup(Group):
    """A group that loads its sub-commands on demand and turns domain errors into one Error: line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        spec = COMMANDS.get(name)
        if spec is None:
            return None
        from .common import TABLE_COMMANDS, add_db_option, add_table_option

        module = importlib.import_module(f"{__name__}.{spec[0]}")
        cmd: click.Command = getattr(module, spec[1])
        if name in TABLE_COMMANDS or isinstance(cmd, click.Group):
            add_table_option(cmd)
        return add_db_option(cmd)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, _(COMMANDS[name][2])) for name in sorted(COMMANDS)]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        _check_utf8(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except WiezenError as e:
            raise click.ClickException(str(e)) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """click's main, in the language chosen (--lang, $WIEZEN_LANG, the locale), with every error message printed
        safely (user text in it shown with visible escapes)."""
        previous = i18n.language()
        lang, bad = pick(sys.argv[1:] if args is None else list(args))
        apply(lang)
        try:
            return self._main(bad, args, prog_name, complete_var, standalone_mode, **extra)
        finally:
            i18n.set_language(previous)

    def _main(self, bad_lang: str | None, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
              standalone_mode: bool, **extra: Any) -> Any:
        def check_lang() -> None:
            if bad_lang is not None:
                raise click.ClickException(_(BAD_LANG_ERROR).format(value=repr(bad_lang)))

        if not standalone_mode:
            check_lang()
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        import errno

        try:
            check_lang()
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:
            import re

            from ..views.safe import safe

            message = e.format_message

            def shown() -> str:
                # click's own wording for extra words; "unexpected" is kept for real bugs
                text = re.sub(r"Got unexpected extra arguments? \((.*)\)", r"too many arguments: '\1' is more than "
                              "the command takes (quote a text with spaces)", message(), flags=re.S)
                return safe(text)

            e.format_message = shown  # type: ignore[method-assign]
            e.show()
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo(_("Aborted!"), err=True)
            sys.exit(1)
        except OSError as e:
            if e.errno == errno.EPIPE:  # the reader went away (wiezen sheet | head): not an error of ours
                sys.exit(1)
            raise
        sys.exit(rv if isinstance(rv, int) else 0)


def _check_utf8(args: list[str]) -> None:
    """Every word of the command line is UTF-8 text: a byte that is not (Python keeps it as a lone surrogate)
    could be neither stored nor printed. The error names the option or the word."""
    from ..core.text import bad_utf8, require_utf8

    for i, a in enumerate(args):
        if bad_utf8(a) is None:
            continue
        if a.startswith("--") and "=" in a:
            name, _eq, value = a.partition("=")
            what = name
        elif i > 0 and args[i - 1].startswith("-") and not args[i - 1][1:].isdigit():
            what, value = args[i - 1], a
        else:
            what, value = _("the word {number} of the command line").format(number=i + 1), a
        try:
            require_utf8(value, what)
        except WiezenError as e:
            raise click.ClickException(str(e)) from None


@click.group(cls=WiezenGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="wiezen", message="%(prog)s %(version)s")
@click.option(
    "--db",
    "db_path",
    metavar="FILE",
    envvar="WIEZEN_DB",
    help="The ledger (SQLite file). Default: $WIEZEN_DB, else wiezen.db in your user data folder "
    "(see `wiezen db path`).",
)
@click.option("--lang", type=click.Choice(i18n.LANGUAGES, case_sensitive=False), expose_value=False, is_eager=True,
              help=LANG_HELP)
@click.pass_context
def cli(ctx: click.Context, db_path: str | None) -> None:
    """Keeps the score of Flemish whist (wiezen, kleurenwiezen) at a real table.

    \b
    Score one deal under the default house rules (whisthub):
        wiezen calc samen 9 A+B 11
    Record an evening:
        wiezen session start --players jan,piet,mieke,lotte --rules rupelstreek
        wiezen deal samen 8 jan+piet 9
        wiezen pass
        wiezen sheet
    """
    ctx.obj = {"db": db_path}


def main() -> None:
    """Console entry point: never a traceback for the user (set WIEZEN_DEBUG=1 to see one)."""
    apply(pick(sys.argv[1:])[0])  # for the lines below; cli.main chooses again (and reports a bad --lang)
    try:
        cli.main(prog_name="wiezen")
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo(_("Error: interrupted"), err=True)
        sys.exit(130)
    except Exception as e:  # a bug: say so in one line, never a traceback
        if os.environ.get("WIEZEN_DEBUG"):
            raise
        from ..views.safe import safe

        click.echo(safe(_("Error: unexpected {kind}: {error} (set WIEZEN_DEBUG=1 for details)").format(
            kind=type(e).__name__, error=e)), err=True)
        sys.exit(1)
