"""Helpers shared by the commands: house rules, sessions and files from options, output options, printing."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, _

# re-exported: the commands' options read house rules and files as the table's `rules` line does
from ..service.rules import looks_like_path as looks_like_path
from ..service.rules import read_input as read_input
from ..service.rules import read_text_file as read_text_file
from ..service.rules import rules_from_spec as rules_from_spec
from .dutch import Path

if TYPE_CHECKING:
    from types import TracebackType
    from typing import TextIO

    from click._termui_impl import ProgressBar

    from ..core.session import Scored
    from ..ledger import Ledger, SessionInfo

#: the date forms every date option takes (core/dates.py parse_when)
DATE_HELP = ("YYYY-MM-DD, DD/MM/YYYY, DD-MM-YYYY, today, yesterday, a weekday (friday = last friday), "
             "last-week, last-month; in Dutch too (vandaag, gisteren, vorige vrijdag, vorige-week ...).")


@contextmanager
def ends_like_ctrl_c(stop: Callable[[int], BaseException] | None = None) -> Iterator[None]:
    """Inside: SIGTERM (a `kill`, a service manager) and SIGHUP (the terminal was closed) end a long-running
    command (`play`, `serve`) the way Ctrl-C or quitting does, not at once: the exception unwinds through every
    ``with``, a write under way is rolled back and the ledger is closed, its journal copied into the file, so that
    the bare ``.db`` file is the whole ledger afterwards. ``stop(signum)`` is the exception raised (default:
    SystemExit with the shell's status 128 + the signal's number). The previous handlers are put back after."""
    import signal

    def handler(signum: int, frame: object) -> None:
        raise (stop(signum) if stop is not None else SystemExit(128 + signum))

    wanted = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    previous = {}
    try:
        for sig in wanted:
            previous[sig] = signal.signal(sig, handler)
    except ValueError:  # not in the main thread (a test's runner): the defaults stay
        pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)


def text_width() -> int | None:
    """How wide text output may be: $COLUMNS, else the terminal's width; None when neither is known (a pipe)."""
    import sys

    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        if sys.stdout.isatty():
            return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        pass
    return None


class Number(click.ParamType):  # type: ignore[type-arg]
    """A session, entry or precedent number: ASCII digits, at most nine of them (one clear error, never an overflow)."""

    name = "integer"

    def __init__(self, what: str = N_("number"), minimum: int = 0) -> None:
        self.what = what
        self.minimum = minimum

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        from ..core.text import MAX_DIGITS, as_count, shorten

        if isinstance(value, int):
            return value
        n = as_count(str(value).strip())
        if n is None or n < self.minimum:
            name = (param.opts[0] if isinstance(param, click.Option) else (param.human_readable_name if param else ""))
            raise WiezenError(
                _("{name}'{value}' is not {what}: give a whole number from {low} to {high}").format(
                    name=name + " " if name else "", value=shorten(str(value)), what=_(self.what), low=self.minimum,
                    high="9" * MAX_DIGITS)
            )
        return n


SESSION_ID = Number(N_("a session number (see `wiezen sessions`)"), 1)
ENTRY_NO = Number(N_("an entry number (see `wiezen sheet`)"), 1)
PRECEDENT_ID = Number(N_("a precedent number (see `wiezen precedent list`)"), 1)
COUNT = Number(N_("a count"), 1)


def new_ledger_note(path: str) -> None:
    """Said on stderr by a command that created a new ledger (and maybe its folder)."""
    from ..views.safe import safe

    click.echo(_("new ledger: {path}").format(path=safe(os.path.abspath(path))), err=True)


class SafePath(Path):
    """A path (named in the current language: cli/dutch.py) that refuses a NUL byte in the name with one line
    (os.stat would raise ValueError)."""

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None, ctx: click.Context | None
                ) -> str | bytes | os.PathLike[str]:
        if isinstance(value, str) and "\x00" in value:
            from ..views.safe import safe

            self.fail(_("'{name}' is not a file name: it holds a NUL byte").format(name=safe(value)), param, ctx)
        return super().convert(value, param, ctx)  # type: ignore[no-any-return]  # (click types it Any)








# Deal lines are arguments: a negative number of tricks ("-1") must reach the deal parser (which explains
# that tricks are 0 to 13) instead of being taken for an unknown option. Real options still work anywhere.
DEAL_ARGS = {"ignore_unknown_options": True}


def deal_text(words: Sequence[str]) -> str:
    """The words of a deal line; a word that looks like a mistyped option (--x, -x) is a usage error."""
    for w in words:
        if w.startswith("-") and not w[1:].isdigit():
            raise click.NoSuchOption(w)
    return " ".join(words)


def echo(text: object = "", err: bool = False, nl: bool = True) -> None:
    """click.echo for every text output: user text in it (names, reasons, rulings, paths) cannot steer the
    terminal; escape and control characters are shown as visible escapes (views/safe.py), lines and tabs kept."""
    from ..views.safe import safe_lines

    click.echo(safe_lines(text), err=err, nl=nl)


def echo_line(text: object = "", err: bool = False) -> None:
    """One line of output: a newline or escape in the user text it holds is shown as a visible escape."""
    from ..views.safe import safe

    click.echo(safe(text), err=err)


def echo_json(doc: object) -> None:
    """A JSON document on stdout: unsafe characters in its strings as \\uXXXX escapes (still the same JSON)."""
    import json

    from ..views.safe import safe_json

    click.echo(safe_json(json.dumps(doc, ensure_ascii=False, indent=2)))


class SessionRef(click.ParamType):  # type: ignore[type-arg]
    """``--session``: a session ID, or a date in any form a date option takes (the evening of that day)."""

    name = "ID|DATE"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str | tuple[int, ...]:
        if isinstance(value, int):
            return value
        if isinstance(value, tuple):  # (given as several IDs already)
            return value
        from ..core.text import is_digits

        v = str(value).strip()
        parts = [x.strip() for x in v.split(",") if x.strip()]
        if "," in v and parts and all(is_digits(x) for x in parts):  # several sessions: 1,3
            return tuple(dict.fromkeys(self._number(x, v) for x in parts))
        if not is_digits(v):
            return v  # a date (or a word parse_when explains)
        return self._number(v, v)

    @staticmethod
    def _number(text: str, value: str) -> int:
        from ..core.text import MAX_DIGITS, as_count

        n = as_count(text)
        if n is None or n < 1:
            raise WiezenError(_("--session {value}: there is no session with that number (1 to {high})").format(
                value=value[:24], high="9" * MAX_DIGITS))
        return n


SESSION_HELP = "Session ID, or a date (the evening of that day); default: the open one, else the newest."
EVENING_HELP = ("Session ID, several IDs (1,3), or a date: every session of that day; default: the open one, "
                "else the newest.")
DATE_PICK_HELP = "The evening of that day (instead of --session): " + DATE_HELP


def pick_sessions(led: Ledger, ref: int | str | tuple[int, ...] | None, date: str | None = None,
                  counting: bool = False) -> list[SessionInfo]:
    """The sessions of an evening: ``--session 1,3``, or every session played on the day ``--date`` (or
    ``--session DATE``) names, oldest first; else the one session :func:`pick_session` picks.

    ``counting`` (settle): a void session (`session void`) counts nowhere: one named is refused, those of a date
    are left out, and a line on stderr says so."""
    from ..core import dates
    from ..core.dates import day_text, parse_when
    from ..ledger.voids import voided

    if ref is not None and date is not None:
        raise WiezenError(_("give --session or --date, not both"))
    if isinstance(ref, str):
        ref, date = None, ref
    void = voided(led) if counting else {}
    if date is None:
        every = [led.session(i) for i in ref] if isinstance(ref, tuple) else [led.session(ref)]
        for s in every:
            if s.id in void:
                raise WiezenError(_("session {id} is void ({reason}): it counts nowhere, so nobody pays for it").format(
                    id=s.id, reason=void[s.id]))
        return every
    day = parse_when(date, dates.today()).isoformat()
    found = [i["id"] for i in reversed(led.sessions(day, day))]
    if not found:
        return [led.session(_no_session_on(led, day_text(day)))]
    left_out = [i for i in found if i in void]
    if left_out:
        echo(_("left out, void: {sessions}").format(sessions=", ".join(f"{i} ({void[i]})" for i in left_out)), err=True)
    kept = [i for i in found if i not in void]
    if not kept:
        raise WiezenError(_("every session on {when} is void: nobody pays for that evening").format(when=day_text(day)))
    return [led.session(i) for i in kept]


def pick_session(led: Ledger, ref: int | str | tuple[int, ...] | None, date: str | None = None) -> SessionInfo:
    """The session ``ref`` (an ID or a date) or ``date`` names; the open, else the newest, when neither does.

    A date picks the session played that day; several that day is an error that lists them.
    """
    from ..core import dates
    from ..core.dates import day_text, parse_when

    if ref is not None and date is not None:
        raise WiezenError(_("give --session or --date, not both"))
    if isinstance(ref, tuple):
        if len(ref) > 1:
            raise WiezenError(_("--session {ids}: this command shows one session; give one ID").format(
                ids=",".join(map(str, ref))))
        ref = ref[0]
    if isinstance(ref, str):
        ref, date = None, ref
    if date is None:
        return led.session(ref)
    day = parse_when(date, dates.today()).isoformat()
    found = led.sessions(day, day)
    when = day_text(day)
    if not found:
        return led.session(_no_session_on(led, when))
    if len(found) > 1:
        listed = "; ".join(f"{i['id']} ({i['name'] or ', '.join(i['players'])})" for i in reversed(found))
        raise WiezenError(_("{count} sessions on {when}: {listed}; give --session ID").format(
            count=len(found), when=when, listed=listed))
    return led.session(found[0]["id"])


def _no_session_on(led: Ledger, when: str) -> int:
    from ..core.dates import day_text

    recent = led.sessions()[:3]
    hint = ", ".join(_("{day} (session {id})").format(day=day_text(i["date"]), id=i["id"])
                     for i in recent)
    if hint:
        raise WiezenError(_("no session on {when}; the latest: {sessions}").format(when=when, sessions=hint))
    raise WiezenError(_("no session on {when}: no sessions yet").format(when=when))
# --------------------------------------------------------------------------------------------- input files




# ----------------------------------------------------------------------------------------- output options

CSV_DIALECT_HELP = (
    "excel (default): ',' between cells and a decimal point; excel-nl: ';' and a decimal comma, as a "
    "spreadsheet set to Dutch, Flemish, French or German reads it. Default: $WIEZEN_CSV_DIALECT, else excel."
)


class Output:
    """How a listing command prints what it lists: the chosen format and CSV dialect."""

    def __init__(self, fmt: str, csv_dialect: str) -> None:
        self.format = fmt
        self.csv_dialect = csv_dialect

    @property
    def json(self) -> bool:
        return self.format == "json"

    def emit(self, headers: Sequence[str], rows: Iterable[Sequence[object]], items: object,
             text: Callable[[], str] | None = None, *, markdown: Callable[[], str] | None = None,
             html: Callable[[], str] | None = None, csv_headers: Sequence[str] | None = None,
             csv_rows: Iterable[Sequence[object]] | None = None, **table_kw: object) -> None:
        """Print the listing in the chosen format, as the registry of formats (views/formats.py) writes it:
        ``items`` as JSON, ``rows`` (or ``csv_rows``) as CSV, ``text()`` or else a table of ``rows`` for a
        person, ``markdown()``, ``html()``."""
        from ..views.formats import Listing, write

        # headers are English msgids (N_()): a person's table shows them translated (views/formats.py column),
        # CSV keeps them as they are
        listing = Listing(headers, rows, items, text, markdown, html, csv_headers, csv_rows, table_kw)
        echo(write(self.format, listing, self.csv_dialect), nl=False)


def output_options(formats: Sequence[str] = ("table", "csv", "json"), default: str = "table",
                   json_help: str = "JSON output (the same as --format json).", format_help: str = "",
                   ) -> Callable[[Callable[..., object]], Callable[..., object]]:
    """The options every listing command shares (as sqlite-utils' output options): ``--format``, ``--json``,
    ``--csv`` and ``--csv-dialect``. The command gets one ``output`` argument, an :class:`Output`.

    ``formats`` are names from the one registry of formats (views/formats.py ``FORMATS``); a name that is not
    there is a programming error, found when the command is defined."""
    import functools

    from ..views.formats import FORMATS
    from ..views.render import CSV_DIALECTS  # each dialect's cell and decimal separators

    unknown = [f for f in (*formats, default) if f not in FORMATS]
    if unknown:
        raise ValueError(f"output_options: no format {', '.join(unknown)} in views/formats.py FORMATS")

    def decorate(f: Callable[..., object]) -> Callable[..., object]:
        @functools.wraps(f)
        def wrapper(*args: object, out_format: str | None, as_json: bool, as_csv: bool, csv_dialect: str | None,
                    **kw: object) -> object:
            given = [(f, label) for f, label, on in (("json", "--json", as_json), ("csv", "--csv", as_csv),
                                                      (out_format, f"--format {out_format}", out_format)) if on]
            if len({f for f, _label in given}) > 1:
                labels = [label for _f, label in given]
                both = functools.reduce(lambda a, b: _("{first} and {second}").format(first=a, second=b), labels)
                raise click.UsageError(_("{options} ask for two outputs: give one").format(options=both))
            fmt: str = (given[0][0] or default) if given else default
            if csv_dialect is not None and fmt != "csv":
                raise click.UsageError(_("--csv-dialect is for CSV output (--csv or --format csv), not {format}").format(format=fmt))
            return f(*args, output=Output(fmt, csv_dialect or "excel"), **kw)

        opts = [
            click.option("--format", "out_format", type=click.Choice(list(formats)), default=None,
                         help=format_help or f"Output format: {', '.join(formats)} (default: {default})."),
            click.option("--json", "as_json", is_flag=True, help=json_help),
            click.option("--csv", "as_csv", is_flag=True, help="CSV output (the same as --format csv)."),
            click.option("--csv-dialect", type=click.Choice(list(CSV_DIALECTS)), envvar="WIEZEN_CSV_DIALECT",
                         show_envvar=False, default=None, help=CSV_DIALECT_HELP),
        ]
        for o in reversed(opts):
            wrapper = o(wrapper)
        return wrapper

    return decorate


# ------------------------------------------------------------------------------------------------ progress


PROGRESS_THRESHOLD = 500  # work items below this finish too fast for a bar to help


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def progress(length: int, label: str, size: int | None = None, file: TextIO | None = None
             ) -> _NoBar | ProgressBar[int]:
    """A progress bar on stderr for long work (``length`` steps), only when stderr is a terminal and the work
    (``size`` items, default ``length``) is at least PROGRESS_THRESHOLD; otherwise an object whose ``update``
    does nothing. Use as a context manager; call ``update(n)``."""
    import sys

    out = file if file is not None else sys.stderr
    isatty = getattr(out, "isatty", None)
    if (length if size is None else size) < PROGRESS_THRESHOLD or not (isatty and isatty()):
        return _NoBar()
    return click.progressbar(length=length, label=_(label), file=out, show_pos=True, show_eta=True)


class LazyProgress:
    """A ``progress(done, total)`` callback for the ledger's long work: the bar opens at the first call, when
    the total is known. Use as a context manager around the work."""

    def __init__(self, label: str, size: int | None = None, file: TextIO | None = None) -> None:
        self.label, self.size, self.file = label, size, file
        self.bar: _NoBar | ProgressBar[int] | None = None
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = progress(total, self.label, self.size, self.file).__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def __enter__(self) -> LazyProgress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.__exit__(exc_type, exc, tb)


# ----------------------------------------------------------------------------- --db after the command name


def _set_db(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None:
        root = ctx.find_root()
        if root.obj is None:
            root.obj = {}
        root.obj["db"] = value
    return value


def add_db_option(cmd: click.Command) -> click.Command:
    """Let ``--db PATH`` and ``--lang`` follow the command name too (``wiezen sessions --db club.db``), on every
    command. (The language itself is chosen before click parses anything: cli/lang.py.)"""
    if not any(p.name == "db_after" for p in cmd.params):
        from ..core.i18n import LANGUAGES
        from .lang import LANG_HELP

        cmd.params.append(click.Option(
            ["--db", "db_after"], type=SafePath(dir_okay=False), expose_value=False, callback=_set_db,
            metavar="PATH", help="The ledger, as `wiezen --db PATH` (may come after the command name).",
        ))
        cmd.params.append(click.Option(
            ["--lang", "lang_after"], type=click.Choice(LANGUAGES, case_sensitive=False), expose_value=False,
            help=LANG_HELP, hidden=True,  # shown once, in `wiezen --help`
        ))
    if isinstance(cmd, click.Group):
        for sub in cmd.commands.values():
            add_db_option(sub)
    return cmd


#: the commands that work on the open session: each takes --table N ($WIEZEN_TABLE) to choose the table on a club
#: night (`session end` among them; `session start` has its own --table, the table it opens)
TABLE_COMMANDS = frozenset({"deal", "pass", "redeal", "penalty", "undo", "amend", "sheet", "explain", "settle", "play",
                            "end", "join", "leave"})


class TableLabel(click.ParamType):  # type: ignore[type-arg]
    """A table: a number 1 to 999 or a short word (``terras``), as core/tables.py reads it."""

    name = "table"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        from ..core.tables import parse_table

        if isinstance(value, (int, str)) and not isinstance(value, bool):
            try:
                return parse_table(str(value))
            except WiezenError as e:
                self.fail(str(e), param, ctx)
        self.fail(repr(value), param, ctx)


def add_table_option(cmd: click.Command) -> click.Command:
    """``--table N`` (and $WIEZEN_TABLE) on the commands that work on the open session: the table they work at."""
    if isinstance(cmd, click.Group):
        for name, sub in cmd.commands.items():
            if name in TABLE_COMMANDS:
                add_table_option(sub)
        return cmd
    if not any(p.name == "table_choice" for p in cmd.params):
        cmd.params.append(click.Option(
            ["--table", "table_choice"], type=TableLabel(), envvar="WIEZEN_TABLE", expose_value=False,
            callback=_set_table, metavar="T", help="The table to work at, when several are open (a club night): its "
            "number or its label (terras); $WIEZEN_TABLE sets it for a terminal."))
    return cmd


def _set_table(ctx: click.Context, param: click.Parameter, value: int | str | None) -> None:
    from ..ledger import CHOSEN_TABLE

    if value is not None:
        token = CHOSEN_TABLE.set(value)
        ctx.call_on_close(lambda: CHOSEN_TABLE.reset(token))


def _db(ctx: click.Context) -> str | None:
    db: str | None = ctx.find_root().obj.get("db")  # (click's obj: the root's dict, cli/__init__.py)
    return db


def _report(ctx: click.Context, no: int, sc: Scored, led: Ledger, s: SessionInfo | None = None) -> None:
    """The lines said after recording entry ``no`` in the open session ``s`` (read again when not given)."""
    from ..core.numbers import signed
    from ..views.sheet import recorded_line, status_line

    if s is None:
        s = led.require_open()
    echo(recorded_line(no, sc, s.players))
    totals = led.totals(s.id)
    echo(_("totals: {totals}").format(totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items())))
    echo(_("next: {status}").format(status=status_line(sc.seating or s.at_table, sc.after)))
    if getattr(s, "plan", None) is None:
        return  # no planned length (and ledger/documents.py not imported)
    from ..ledger.documents import evening_progress

    p = evening_progress(led, s, sc.kind == "deal")
    if p is not None:
        echo(p.line)
        if p.warning:
            echo(_("warning: {message}").format(message=p.warning), err=True)
