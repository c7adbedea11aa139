"""`wiezen play`: the scorer at the table types one line per deal and sees the sheet as it goes.

The lines are those of a session file (shared/INTERFACE.md), plus a few commands (sheet, explain, settle,
help, quit). What a line does is the table's service (service/table.py), which the scorer's phone (`wiezen
serve`) drives too; this module is the prompt around it: it reads lines, prints the answers, asks the y/N
questions and reports the errors.

Two modes, chosen by whether stdin is a terminal:
- interactive: a prompt showing the next entry and dealer, line editing, history and tab completion,
  coloured errors, and a y/N confirmation before undo, amend and end. With prompt_toolkit installed
  (``pip install wiezen[play]``) the prompt has a completion menu while typing and a bottom toolbar with
  the totals and the next dealer; else readline (pyreadline3 on Windows). What another device records at
  the table (the scorer's phone, a second prompt) is shown above the prompt: with prompt_toolkit while a line
  is typed, with readline at the next line;
- piped (a file or a script): no prompt, no colour, no confirmation; a bad line is reported on stderr as
  ``Error: line N: ...`` and skipped; the exit status is 1 at the end when any line failed.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.numbers import signed
from ..core.sessionfile import canonical_line  # noqa: F401 (the prompt's words: tests/cli/test_dutch_words.py)
from ..service.table import YES_WORDS, Answer, SessionIsOpen, SheetView
from ..service.table import Table as ServiceTable
from .common import COUNT, SafePath, _db, echo
from .dutch import command

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document

    from ..ledger import Ledger


class Stop(Exception):
    """End of the input (quit, or a line after which nothing can go on in piped mode)."""


class Table:
    """The prompt of one `play` run over the table's service (service/table.py): it prints the answers, asks the
    questions, and reports the errors."""

    def __init__(self, led: Ledger, interactive: bool, last: int, color: bool) -> None:
        self.led = led
        self.service = ServiceTable(led, last)
        self.interactive = interactive
        self.color = color
        self.ask: Callable[[str], bool] = lambda question: True
        self.version: int | None = None  # the ledger's data_version when this prompt last looked
        self.seen: tuple[object, ...] = ()  # what the scorer saw then (:meth:`mark`)

    # -- output ------------------------------------------------------------------------------------------
    def echo(self, text: str = "") -> None:
        from ..views.fit import wrap_all
        from .common import text_width

        echo(wrap_all(text, text_width()))

    def error(self, message: str, lineno: int | None = None) -> None:
        from ..views.safe import safe

        message = safe(message)
        if lineno is not None and not self.interactive:
            text = _("Error: line {number}: {message}").format(number=lineno, message=message)
        else:
            text = _("Error: {message}").format(message=message)
        click.echo(click.style(text, fg="red") if self.color else text, err=True, color=self.color)

    def show(self, view: SheetView) -> None:
        """The last rows of the sheet, the running totals and what comes next."""
        from ..views.sheet import render_sheet
        from .common import text_width

        self.echo(render_sheet(view.doc, view.rows, text_width(), view.heading))

    def say(self, answer: Answer) -> None:
        for part in answer.parts:
            if isinstance(part, SheetView):
                self.show(part)
            elif part.kind != "hint" or self.interactive:  # a hint is for a person at the prompt
                self.echo(part.text)

    # -- the prompt ----------------------------------------------------------------------------------------
    def prompt(self) -> str:
        s = self.led.open_session()
        if s is None:
            return _("[no session] > ")
        state, no = self.led.state(s)
        x = f" x{state.pending}" if state.pending > 1 else ""
        from ..core.session import sitting_out
        from ..ledger.documents import evening_progress

        p = evening_progress(self.led, s)
        out = sitting_out(s.at_table, state.dealer)  # a table of five or six: who does not play this deal
        sits = _(", {players} sit out").format(players=" + ".join(out)) if len(out) > 1 else (
            _(", {player} sits out").format(player=out[0]) if out else "")
        return _("[#{number} {dealer} deals{times}{sits}{progress}] > ").format(
            number=no, dealer=s.at_table[state.dealer], times=x, sits=sits, progress=", " + p.short if p else "")

    def banner(self) -> str:
        s = self.led.open_session()
        if s is None:
            return _("No open session: start one with 'players jan piet mieke lotte' (before it, optionally "
                     "'rules rupelstreek' and 'session \"Café De Kroon\"'). Type help for the commands.")
        from ..core.dates import date_text
        from ..views.safe import safe

        at = ([_("table {table}").format(table=s.table)] if s.table is not None else []) + (
            [_("round {round}").format(round=s.round)] if s.round is not None else [])  # a club night's table
        where = ", ".join([*at, *(safe(x) for x in (s.name, date_text(s.date) if s.date else "") if x)])
        return _("Session {id} ({where}; {rules}): {players}. Type help for the commands, quit to stop.").format(
            id=s.id, where=where, rules=s.rules_name, players=", ".join(s.at_table))

    # -- what another device recorded -----------------------------------------------------------------------
    def mark(self) -> tuple[object, ...]:
        """What the scorer sees of the table: the open session, the next entry, its dealer and doubling, the
        totals (empty without an open session)."""
        s = self.led.open_session()
        if s is None:
            return ()
        state, no = self.led.state(s)
        return (s.id, no, state.dealer, state.pending, tuple(self.led.totals(s.id).items()))

    def looked(self) -> None:
        """Remember what the scorer sees now (after the prompt's own line: nothing of it is news)."""
        self.version, self.seen = self.led.data_version(), self.mark()

    def news(self) -> Callable[[], None] | None:
        """What another device (the scorer's phone, another prompt) changed at this table since the prompt last
        looked, as what to print; None when nothing. Cheap when nothing was committed elsewhere (PRAGMA
        data_version), so that the prompt may ask a few times a second; another table's deals are no news."""
        version = self.led.data_version()
        if version == self.version:
            return None
        before = self.seen
        self.looked()
        if self.seen == before:
            return None
        s = self.led.open_session()
        if s is None:
            return lambda: self.echo(_("session {id} was ended elsewhere (on the scorer's phone or another "
                                       "prompt)").format(id=before[0]))
        if not before or before[0] != s.id:
            return lambda: self.echo(self.banner())
        view = self.service.view(s)

        def show() -> None:
            self.echo(_("recorded elsewhere (on the scorer's phone or another prompt):"))
            self.show(view)

        return show

    def catch_up(self) -> None:
        """Print :meth:`news`, if any; a ledger that cannot be read for a moment is no reason to stop."""
        try:
            news = self.news()
        except (WiezenError, sqlite3.Error):
            return
        if news is not None:
            news()

    # -- one line --------------------------------------------------------------------------------------------
    def handle(self, raw: str) -> None:
        """Act on one line. Raises WiezenError for a bad line (nothing recorded), Stop to end."""
        try:
            answer = self.service.handle(raw)
            if answer.question is not None:
                q = answer.question
                if not self.ask(q.text):
                    self.echo(q.declined)
                    return
                answer = self.service.handle(raw, confirm=True, expect=q.expect)
        except SessionIsOpen as e:
            if self.interactive:
                raise
            # piped: the lines that follow belong to another session; recording them here would be wrong
            raise Stop(_("{message}; stopped reading, so that the lines after it are not recorded in this session").format(
                message=e)) from None
        if answer.stop:
            raise Stop()
        self.say(answer)

    def candidates(self, before: str, text: str) -> list[str]:
        """What may complete ``text``, the word being typed after ``before`` (the line up to that word)."""
        return self.service.candidates(before, text)


def _setup_readline(table: Table, history: str | None) -> Callable[[], None]:
    """Line editing, history and tab completion; returns what to run at the end (saving the history)."""
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input() still works
        return lambda: None
    matches: list[str] = []

    def complete(text: str, state: int) -> str | None:
        nonlocal matches
        if state == 0:
            try:
                buf = readline.get_line_buffer()
                matches = table.candidates(buf[: readline.get_begidx()], text)
            except Exception:  # completion must never break the prompt
                matches = []
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.set_completer_delims(" \t+")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    if not history:
        return lambda: None
    with contextlib.suppress(OSError):
        readline.read_history_file(history)
    readline.set_history_length(1000)

    def save() -> None:
        try:
            os.makedirs(os.path.dirname(os.path.abspath(history)), exist_ok=True)
            readline.write_history_file(history)
        except OSError:
            pass  # not writable: the evening goes on without history

    return save


def toolbar_text(table: Table) -> str:
    """The bottom toolbar of the prompt_toolkit prompt: the totals and who deals next."""
    s = table.led.open_session()
    if s is None:
        return _(" no session: type 'players jan piet mieke lotte' to start one; help lists the commands")
    state, no = table.led.state(s)
    totals = ", ".join(f"{p} {signed(v)}" for p, v in table.led.totals(s.id).items())
    x = _(", counts x{multiplier}").format(multiplier=state.pending) if state.pending > 1 else ""
    return _(" totals: {totals}  |  next: #{number}, {dealer} deals{times}").format(
        totals=totals, number=no, dealer=s.at_table[state.dealer], times=x)


#: how often the prompt looks whether another device recorded something (PRAGMA data_version: microseconds)
POLL_SECONDS = 0.5


def _setup_prompt_toolkit(table: Table, history: str | None) -> Callable[[], str] | None:
    """prompt_toolkit's prompt (the optional extra ``wiezen[play]``): a completion menu while typing and a
    bottom toolbar with the totals and the next dealer; while it waits for a line, what the scorer's phone (or
    another prompt) records is shown above it and the prompt and toolbar follow. None when it is not installed
    or the terminal cannot show it (TERM=dumb), or WIEZEN_PROMPT=readline asks for readline."""
    if os.environ.get("WIEZEN_PROMPT", "").lower() == "readline" or os.environ.get("TERM") == "dumb":
        return None
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.application import get_app, run_in_terminal
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import FileHistory, History, InMemoryHistory
    except ImportError:
        return None

    class LineCompleter(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
            before = document.text_before_cursor
            start = max(before.rfind(c) for c in " \t+") + 1
            word = before[start:]
            try:
                found = table.candidates(before[:start], word)
            except Exception:  # completion must never break the prompt
                found = []
            for c in found:
                yield Completion(c, start_position=-len(word), display=c.strip())

    hist: History = InMemoryHistory()
    if history:
        try:
            os.makedirs(os.path.dirname(os.path.abspath(history)), exist_ok=True)
            hist = FileHistory(history)
        except OSError:
            pass  # not writable: the evening goes on without history
    shown = {"prompt": "", "status": ""}  # what a redraw shows: a redraw must not query the ledger
    session: PromptSession[str] = PromptSession(history=hist, completer=LineCompleter(), complete_while_typing=True,
                                                bottom_toolbar=lambda: shown["status"])

    def refresh() -> None:
        shown["prompt"], shown["status"] = table.prompt(), toolbar_text(table)

    async def follow() -> None:
        """While the line is typed: show what another device records, and the prompt and toolbar after it."""
        import asyncio

        while True:
            await asyncio.sleep(POLL_SECONDS)
            try:
                news = table.news()
                if news is None:
                    continue
                await run_in_terminal(news)
                refresh()
            except asyncio.CancelledError:
                raise
            except Exception:  # the ledger busy or gone for a moment: the line being typed matters more
                continue
            get_app().invalidate()

    def start_following() -> None:
        get_app().create_background_task(follow())  # cancelled when the line is taken

    def read() -> str:
        refresh()
        return str(session.prompt(lambda: shown["prompt"], pre_run=start_following))

    return read


def _forget_last_input() -> None:
    """Keep the y/N answers of confirmations out of the history."""
    try:
        import readline
    except ImportError:
        return
    n = readline.get_current_history_length()
    if n:
        readline.remove_history_item(n - 1)


def default_history() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("wiezen", appauthor=False), "play_history")


@command()
@click.option("--last", default=6, show_default=True, type=COUNT,
              help="How many rows of the sheet to show after each entry.")
@click.option("--history", "history", type=SafePath(dir_okay=False), metavar="FILE",
              help="The prompt's history file (default: play_history in the user data folder).")
@click.option("--no-history", is_flag=True, help="Keep no history of the lines typed.")
@click.pass_context
def play(ctx: click.Context, last: int, history: str | None, no_history: bool) -> None:
    """The scorer at the table: type one line per deal and see the sheet as it goes.

    Resumes the open session, or starts one with a 'players' line. The lines are those of a session
    file (see `wiezen replay --help`); players may be named by any unambiguous prefix, contracts by
    their abbreviations (s samen, a alleen, t troel, ab abondance, so solo, ss solo-slim, km kleine-miserie,
    gm grote-miserie, om open-miserie, pc piccolo); `help` at the prompt lists everything.

    With prompt_toolkit installed (pip install "wiezen[play]") the prompt shows a completion menu as you
    type and a toolbar with the totals and the next dealer; otherwise readline (WIEZEN_PROMPT=readline
    asks for readline anyway).

    With stdin from a pipe or a file there is no prompt and no confirmation: each bad line is
    reported on stderr with its line number and skipped, and the exit status is 1 if any line failed.

    \b
    Example:
        $ wiezen play
        [no session] > rules rupelstreek
        [no session] > players jan piet mieke lotte
        [#1 jan deals] > s 8 j+p 9
        [#2 piet deals] > pas
    """

    from .. import ledger
    from ..core.text import decode_utf8

    interactive = sys.stdin.isatty()
    stdin = getattr(sys.stdin, "buffer", None) or sys.stdin  # bytes: a line that is not UTF-8 is one bad line
    color = interactive and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    failed = 0
    from .common import ends_like_ctrl_c, new_ledger_note

    # SIGTERM or a closed terminal (SIGHUP) ends the evening's prompt as `quit` does: the ledger is closed and whole
    with ends_like_ctrl_c(), ledger.open_ledger(_db(ctx), create=new_ledger_note) as led:
        table = Table(led, interactive, last, color)
        def finish() -> None:
            pass

        def plain_read() -> str:
            return input(table.prompt())

        read_line: Callable[[], str] = plain_read
        if interactive:
            hist_file = None if no_history else (history or default_history())
            toolkit = _setup_prompt_toolkit(table, hist_file)
            if toolkit is not None:
                read_line = toolkit
            else:
                finish = _setup_readline(table, hist_file)

            def ask(question: str) -> bool:
                try:
                    answer = input(_("{question} [y/N] ").format(question=question))
                except (EOFError, KeyboardInterrupt):
                    echo()
                    return False
                if answer.strip():
                    _forget_last_input()
                return answer.strip().lower() in YES_WORDS

            table.ask = ask
            table.echo(table.banner())
            s = led.open_session()
            if s is not None and led.state(s)[1] > 1:
                table.show(table.service.view(s))
            table.looked()
        lineno = 0
        try:
            while True:
                if interactive:
                    table.catch_up()  # what was recorded elsewhere since the last line (readline shows it only now)
                    try:
                        raw = read_line()
                    except EOFError:
                        echo()
                        break
                    except KeyboardInterrupt:  # Ctrl-C drops the line being typed, like a shell
                        echo()
                        continue
                    except UnicodeDecodeError:
                        table.error(_("that line was not UTF-8 text: type it again"))
                        continue
                else:
                    data = stdin.readline()
                    if not data:
                        break
                lineno += 1
                try:
                    if not interactive:
                        # a byte-order mark some editors write is dropped (utf-8-sig)
                        raw = data if isinstance(data, str) else decode_utf8(data, _("this line"), one_line=True)
                    if interactive:
                        table.catch_up()  # before the line's own answer: what it was typed against
                    table.handle(raw)
                    if interactive:
                        table.looked()
                except Stop as e:
                    if e.args:
                        table.error(str(e.args[0]), lineno)
                        failed += 1
                    break
                except WiezenError as e:
                    table.error(str(e), lineno)
                    failed += 1
                except sqlite3.Error as e:
                    table.error(str(ledger.db_error(e, led.path)), lineno)
                    failed += 1
                except Exception as e:  # a bug must not end the evening: say so and go on
                    if os.environ.get("WIEZEN_DEBUG"):
                        raise
                    table.error(_("unexpected {kind}: {error} (set WIEZEN_DEBUG=1 for details)").format(
                        kind=type(e).__name__, error=e), lineno)
                    failed += 1
        finally:
            finish()
        if failed and not interactive:
            ctx.exit(1)  # inside: a ledger this run created and left empty is removed again
