"""`wiezen play`: the scorer at the table types one line per deal and sees the sheet as it goes.

The lines are those of a session file (shared/INTERFACE.md), plus a few commands (sheet, explain, settle,
help, quit). Every line that records something is its own transaction, so a recorded deal stays recorded
whatever happens to the process afterwards.

Two modes, chosen by whether stdin is a terminal:
- interactive: a prompt showing the next entry and dealer, line editing, history and tab completion,
  coloured errors, and a y/N confirmation before undo, amend and end. With prompt_toolkit installed
  (``pip install wiezen[play]``) the prompt has a completion menu while typing and a bottom toolbar with
  the totals and the next dealer; else readline (pyreadline3 on Windows);
- piped (a file or a script): no prompt, no colour, no confirmation; a bad line is reported on stderr as
  ``Error: line N: ...`` and skipped; the exit status is 1 at the end when any line failed.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import click

from .common import echo, COUNT, SafePath

from ..core.errors import WiezenError
from ..core.i18n import N_, _, dutch
from ..core.numbers import fmt, signed
from ..core.sessionfile import DUTCH_HEADS, canonical_line
from ..core.text import as_count
from ..views.fit import row_words
from ..views.sheet import recorded_line, resolved_text
from .common import _db

class _Words:
    """An entry's kind and its resolved text, for :func:`row_words`."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text


COMMAND_WORDS = ("amend", "end", "explain", "help", "pas", "penalty", "precedent", "quit", "redeal", "settle", "sheet",
                 "undo")
HEADER_WORDS = ("players", "rules", "session")
QUIT_WORDS = ("quit", "exit", "q")
#: a yes to a confirmation, in either language (anything else is no: nee, no, n, Enter)
YES_WORDS = ("y", "yes", "j", "ja")

#: the Dutch words offered by tab completion when the language is Dutch
DUTCH_COMMAND_WORDS = ("afrekenen", "blad", "einde", "hulp", "ongedaan", "stop", "straf", "uitleg", "verbeter")
DUTCH_HEADER_WORDS = ("regels", "sessie", "spelers")


HELP = N_("""\
Type one line per deal; players by any unambiguous prefix (j+p for jan+piet).
  samen 8 jan+piet 9            a deal: CONTRACT [LEVEL] TAKER[+PARTNER] TRICKS
  grote-miserie jan 0 piet 2    miseries: PLAYER TRICKS for each player on it
  pas                           rondje pas (everybody passed)
  redeal [REASON]               carte blanche, misdeal: the same dealer deals again
  penalty P [REASON]            strafpunten for P; 'penalty P round [REASON]': P buys a round
  undo [REASON]                 void the last entry that counts (asks y/N)
  amend N LINE                  correct entry N, e.g. 'amend 3 s 8 j+p 8' (asks y/N)
  explain N                     how entry N was scored
  precedent TITLE: RULING       keep a ruling in the precedents log, linked to the last entry
  sheet [N]                     the whole sheet, or its last N rows
  settle [CENTS]                who pays whom now (at CENTS a point)
  end                           close the session (asks y/N)
  help, quit                    this text; stop (the session stays open: 'wiezen play' resumes it)
Without an open session:
  session "Café De Kroon" [YYYY-MM-DD]   rules NAME   deals N | rounds N | target N (the evening's length)
  tag NAME (a competition's sessions)   round N table T (a night with several tables)
  then: players jan piet mieke lotte [dealer NAME]""")


class Stop(Exception):
    """End of the input (quit, or a line after which nothing can go on in piped mode)."""


class Table:
    """The state of one `play` run: the ledger, the settings typed before `players`, how to show things."""

    def __init__(self, led: Any, interactive: bool, last: int, color: bool) -> None:
        self.led = led
        self.interactive = interactive
        self.last = last
        self.color = color
        self.name = ""
        self.date = ""
        self.rules: Any = None  # HouseRules typed with `rules` before `players`
        self.rules_text = ""
        self.plan: Any = None  # the evening's length typed before `players` (core/evening.py)
        self.tag: str | None = None
        self.round: int | None = None
        self.table: int | None = None
        self.ask: Callable[[str], bool] = lambda question: True

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

    def show(self, s: Any, last: int | None = -1) -> None:
        """The last rows of the sheet, the running totals and what comes next."""
        from .common import text_width
        from ..ledger.documents import sheet_doc
        from ..views.sheet import render_sheet

        # the session's heading only on `sheet`
        rows = self.last if last == -1 else last
        self.echo(render_sheet(sheet_doc(self.led, s, rows), rows, text_width(), last != -1))

    # -- the prompt ----------------------------------------------------------------------------------------
    def prompt(self) -> str:
        s = self.led.open_session()
        if s is None:
            return _("[no session] > ")
        state, no = self.led.state(s)
        x = f" x{state.pending}" if state.pending > 1 else ""
        from ..ledger.documents import evening_progress

        p = evening_progress(self.led, s)
        return _("[#{number} {dealer} deals{times}{progress}] > ").format(
            number=no, dealer=s.players[state.dealer], times=x, progress=", " + p.short if p else "")

    def banner(self) -> str:
        s = self.led.open_session()
        if s is None:
            return _("No open session: start one with 'players jan piet mieke lotte' (before it, optionally "
                     "'rules rupelstreek' and 'session \"Café De Kroon\"'). Type help for the commands.")
        from ..views.safe import safe

        where = ", ".join(safe(x) for x in (s.name, s.date) if x)
        return _("Session {id} ({where}; {rules}): {players}. Type help for the commands, quit to stop.").format(
            id=s.id, where=where, rules=s.rules_name, players=", ".join(s.players))

    # -- one line --------------------------------------------------------------------------------------------
    def handle(self, raw: str) -> None:
        """Act on one line. Raises WiezenError for a bad line (nothing recorded), Stop to end."""
        from ..core.abbrev import expand_line
        from ..core.sessionfile import Amend, Header, Undo, parse_line

        line = canonical_line(raw.strip())
        if not line or line.startswith("#"):
            return
        words = line.split()
        head = words[0].lower()
        if head in QUIT_WORDS and len(words) == 1:
            raise Stop()
        if head in ("help", "?"):
            self.echo(self.help_text())
            return
        if head in ("sheet", "explain", "settle", "end"):
            getattr(self, f"cmd_{head}")(words[1:])
            return
        if head == "precedent":
            self.cmd_precedent(line[len(words[0]):].strip())
            return
        if head in ("deals", "rounds", "target"):
            self.cmd_length(head, words[1:])
            return
        s = self.led.open_session()
        rules = s.rules if s is not None else self.rules
        item = parse_line(expand_line(line, rules) if rules is not None else line)
        if item is None:
            return
        if isinstance(item, Header):
            self.header(item, s)
            return
        if s is None:
            raise WiezenError(_("no open session: start one with 'players jan piet mieke lotte' (see help)"))
        if isinstance(item, Undo):
            self.undo(s, item)
        elif isinstance(item, Amend):
            self.amend(s, item, line)
        else:
            no, sc = self.led.record(item)
            self.show(s)
            from ..ledger.documents import evening_progress

            p = evening_progress(self.led, s, sc.kind == "deal")
            if p is not None and p.warning:
                self.echo(_("warning: {message}").format(message=p.warning))
            if self.interactive and item.kind == "penalty" and item.reason.strip():
                # a penalty with a reason offers to become a precedent, without leaving the prompt
                self.echo(_("hint: to keep this ruling for next time, type: precedent {title}: WHAT WAS DECIDED").format(
                    title=item.reason.strip()))

    def header(self, item: Any, s: Any) -> None:
        from ..core import dates
        from ..core.dates import parse_when
        from .common import rules_from_spec

        if s is not None:
            msg = _("session {id} is open ({players}): '{key}' lines come before a session starts; type 'end' to close "
                    "this one first").format(id=s.id, players=", ".join(s.players), key=item.key)
            if self.interactive:
                raise WiezenError(msg)
            # piped: the lines that follow belong to another session; recording them here would be wrong
            raise Stop(_("{message}; stopped reading, so that the lines after it are not recorded in this session").format(
                message=msg))
        if item.key == "session":
            self.name = item.name or self.name

            self.date = parse_when(item.date, dates.today()).isoformat() if item.date else self.date
            self.echo(_("the next session: {what}").format(what=", ".join(x for x in (self.name, self.date) if x) or _("no name")))
            return
        if item.key == "tag":
            self.tag = item.tag
            self.echo(_("the next session belongs to '{tag}'").format(tag=item.tag))
            return
        if item.key == "round":
            self.round, self.table = item.round or self.round, item.table or self.table
            self.echo(_("the next session: {what}").format(
                what=", ".join(f"{_(k)} {v}" for k, v in ((N_("round"), self.round), (N_("table"), self.table)) if v)))
            return
        if item.key == "rules":
            self.rules, self.rules_text = rules_from_spec(item.rules, self.led.rules_text)
            self.echo(_("house rules for the next session: {rules}").format(rules=self.rules.name))
            return
        if self.rules is None:
            self.rules, self.rules_text = rules_from_spec("whisthub", self.led.rules_text)
        s = self.led.begin(item.players, self.rules, self.rules_text, item.dealer, self.name, self.date,
                           plan=self.plan.text if self.plan else None, tag=self.tag, round=self.round, table=self.table)
        sid, names, first = s.id, s.players, s.first_dealer
        plan = self.plan
        self.name, self.date, self.rules, self.rules_text, self.plan = "", "", None, "", None
        self.tag = self.round = self.table = None
        self.echo(_("session {id} started: {players} under the house rules {rules}; {dealer} deals first").format(
            id=sid, players=", ".join(names), rules=s.rules_name, dealer=names[first])
            + (_("; the evening: {plan}").format(plan=plan.describe(len(names))) if plan else ""))
        self.show(s)

    def undo(self, s: Any, item: Any) -> None:
        counting = [r for r in self.led.entries(s) if not r.voided]
        if not counting:
            raise WiezenError(_("nothing to undo: the session has no entries that count"))
        last = counting[-1]
        if not self.ask(_("undo #{number} {text}?").format(number=last.no, text=row_words(last) + (" - " + last.reason if last.reason else ""))):
            self.echo(_("not undone"))
            return
        row = self.led.undo(item.reason, expect=last.id)  # exactly the entry asked about, or nothing
        self.echo(_("voided #{number} {text}").format(number=row.no, text=row_words(row)))
        self.show(s)

    def amend(self, s: Any, item: Any, line: str) -> None:
        old = [r for r in self.led.entries(s) if r.no == item.no and not r.voided]
        if not old:
            if any(r.no == item.no for r in self.led.entries(s)):
                raise WiezenError(_("entry {number} is voided: amend an entry that counts").format(number=item.no))
            raise WiezenError(_("no entry {number} in this session").format(number=item.no))
        new_text = row_words(_Words(item.entry.kind, resolved_text(item.entry, s.rules, s.players)))
        if not self.ask(_("amend #{number} {old} -> {new}?").format(number=item.no, old=row_words(old[0]), new=new_text)):
            self.echo(_("not amended"))
            return
        sc, rescored = self.led.amend(item.no, item.entry, item.reason, expect=old[0].id)
        self.echo(_("{line} (amended)").format(line=recorded_line(item.no, sc, s.players)))
        if rescored:
            self.echo(_("re-scored: {entries}").format(entries=", ".join(f"#{n}" for n in rescored)))
        self.show(s)

    # -- commands -----------------------------------------------------------------------------------------
    def _open(self) -> Any:
        s = self.led.open_session()
        if s is None:
            raise WiezenError(_("no open session: start one with 'players jan piet mieke lotte' (see help)"))
        return s

    def cmd_sheet(self, args: list[str]) -> None:
        rows = as_count(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and not rows):
            raise WiezenError(_("sheet takes nothing, or how many rows to show: 'sheet 10'"))
        self.show(self._open(), rows)

    def cmd_explain(self, args: list[str]) -> None:
        from ..ledger.documents import explain_doc
        from ..views.explain import render_explain

        no = as_count(args[0]) if len(args) == 1 else None
        if no is None:
            raise WiezenError(_("explain takes an entry number: 'explain 4'"))
        self.echo(render_explain(explain_doc(self.led, self._open(), no)))

    def cmd_settle(self, args: list[str]) -> None:
        from ..core.numbers import money
        from ..core.settle import settle

        cents = as_count(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and cents is None):
            raise WiezenError(_("settle takes nothing, or the cents a point is worth: 'settle 10'"))
        s = self._open()
        totals = self.led.totals(s.id)
        self.echo(_("totals: {totals}").format(totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items())))
        payments = settle(totals, cents)
        if not payments:
            self.echo(_("everybody is square: nobody pays"))
        for p in payments:
            cash = f" ({money(p.cents)})" if p.cents is not None else ""
            self.echo(_("  {payer} pays {payee} {points}{money}").format(payer=p.payer, payee=p.payee, points=fmt(p.amount),
                                                                         money=cash))
        self._rounds_owed(s)

    def _rounds_owed(self, s: Any) -> None:
        from ..views.sheet import rounds_owed_line

        line = rounds_owed_line(self.led.rounds_owed(s))
        if line:
            self.echo(line)

    def cmd_length(self, kind: str, args: list[str]) -> None:
        """`deals N`, `rounds N`, `target N` before `players`: how long the next session is meant to last."""
        from ..core.evening import Plan

        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            raise WiezenError(_("{kind} takes a number: '{kind} 24'").format(kind=kind))
        s = self.led.open_session()
        if s is not None:
            raise WiezenError(_("session {id} is open: an evening's length is given before it starts ('{kind} N', "
                                "then 'players ...')").format(id=s.id, kind=kind))
        self.plan = Plan(kind, int(args[0]))
        how = {"deals": _("{n} deals"), "rounds": _("{n} rounds (one deal per player each)"),
               "target": _("until a player reaches {n} points")}[kind].format(n=args[0])
        self.echo(_("the next session lasts {how}").format(how=how))

    def cmd_precedent(self, rest: str) -> None:
        """`precedent TITLE: RULING`: the ruling kept in the precedents log, linked to the last entry."""
        from ..ledger import precedents as P

        title, sep, ruling = rest.partition(":")
        if not sep or not title.strip() or not ruling.strip():
            raise WiezenError(_("precedent takes a title and the ruling after a colon: "
                                "'precedent renonce in troef: the offender pays, the deal counts'"))
        s = self._open()
        counting = [r for r in self.led.entries(s) if not r.voided]
        no = counting[-1].no if counting else None
        pid = P.add(self.led, P.clean_title(title), P.clean_ruling(ruling), date=s.date, session_id=s.id, entry_no=no)
        where = _(", linked to #{number} {text}").format(number=no, text=row_words(counting[-1])) if counting else ""
        self.echo(_("recorded precedent {id}: {title}").format(id=pid, title=title.strip()) + where)

    def cmd_end(self, args: list[str]) -> None:
        if args:
            raise WiezenError(_("end takes nothing after it"))
        s = self._open()
        if not self.ask(_("end session {id} ({players})? It cannot be reopened").format(id=s.id, players=", ".join(s.players))):
            self.echo(_("still open"))
            return
        self.led.end_session()
        totals = self.led.totals(s.id)
        self.echo(_("session {id} ended. totals: {totals}").format(
            id=s.id, totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items())))
        seal = self.led.seal(s.id)
        self.echo(_("seal: {seal}  (note it: `wiezen check --session {id} --seal {seal}` proves this evening later)").format(
            seal=seal, id=s.id))
        self._rounds_owed(s)

    def help_text(self) -> str:
        from ..core.abbrev import ABBREVIATIONS, abbreviations

        s = self.led.open_session()
        rules = s.rules if s is not None else self.rules
        if rules is not None:
            pairs = abbreviations(rules)
            head = _("Contract abbreviations (house rules {rules}): ").format(rules=rules.name)
        else:
            pairs = list(ABBREVIATIONS.items())
            head = _("Contract abbreviations (those the session's house rules have): ")
        return _(HELP) + "\n" + head + ", ".join(f"{a}={c}" for a, c in pairs)

    # -- completion ------------------------------------------------------------------------------------------
    def candidates(self, before: str, text: str) -> list[str]:
        """What may complete ``text``, the word being typed after ``before`` (the line up to that word)."""
        from ..core.rules import PRESETS
        from ..core.session import active_players

        words = before.split()
        s = self.led.open_session()
        low = text.casefold()
        if s is None:
            if not words:
                pool = [*HEADER_WORDS, "help", "quit", *((*DUTCH_HEADER_WORDS, "hulp") if dutch() else ())]
            elif DUTCH_HEADS.get(words[0].lower(), words[0].lower()) == "rules" and len(words) == 1:
                pool = [*PRESETS, *(n for n, _ in self.led.added_rules())]
            else:
                pool = []
            return sorted(w + " " for w in pool if w.casefold().startswith(low))
        rules = s.rules
        contracts = [w for c in rules.contracts for w in (c.name, *c.aliases)]
        entry_words = [*contracts, "pas", "redeal", "penalty"]
        if not words:
            pool = sorted({*COMMAND_WORDS, *contracts, *(DUTCH_COMMAND_WORDS if dutch() else ())})
            return [w + " " for w in pool if w.startswith(low)]
        head = DUTCH_HEADS.get(words[0].lower(), words[0].lower())
        players = list(s.players)
        if head in ("sheet", "explain", "settle", "end", "undo", "redeal", "pas", "help", "quit", "precedent"):
            return []
        if head == "amend":
            if len(words) == 1:
                return []
            if len(words) == 2:
                return [w + " " for w in entry_words if w.startswith(low)]
        elif head == "penalty":
            if len(words) == 2:
                word = "rondje" if dutch() else "round"
                return [word + " "] if word.startswith(low) and low else []
            if len(words) > 2:
                return []
        else:
            state, _number = self.led.state(s)
            players = list(active_players(s.players, state.dealer))
        return [p + self._after_player(words, before, rules) for p in players if p.casefold().startswith(low)]

    @staticmethod
    def _after_player(words: list[str], before: str, rules: Any) -> str:
        """'+' after the first taker of a team contract (s 8 j<TAB> gives 'jan+'), else a space."""
        from ..core.abbrev import expand_word
        from ..core.rules import TrickContract

        if words[0].lower() == "amend":
            words = words[2:]
        if not words or not before or not before[-1].isspace():
            return " "  # right after a '+': the partner
        contract = rules.find(expand_word(words[0], rules) or words[0])
        typed = [w for w in words[1:] if not w.isdigit()]
        if isinstance(contract, TrickContract) and contract.team and not typed:
            return "+"
        return " "


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
    try:
        readline.read_history_file(history)
    except OSError:
        pass
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
        totals=totals, number=no, dealer=s.players[state.dealer], times=x)


def _setup_prompt_toolkit(table: Table, history: str | None) -> Callable[[str], str] | None:
    """prompt_toolkit's prompt (the optional extra ``wiezen[play]``): a completion menu while typing and a
    bottom toolbar with the totals and the next dealer. None when it is not installed or the terminal cannot
    show it (TERM=dumb), or WIEZEN_PROMPT=readline asks for readline."""
    if os.environ.get("WIEZEN_PROMPT", "").lower() == "readline" or os.environ.get("TERM") == "dumb":
        return None
    try:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.completion import Completer, Completion
        from prompt_toolkit.history import FileHistory, InMemoryHistory
    except ImportError:
        return None

    class LineCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            before = document.text_before_cursor
            start = max(before.rfind(c) for c in " \t+") + 1
            word = before[start:]
            try:
                found = table.candidates(before[:start], word)
            except Exception:  # completion must never break the prompt
                found = []
            for c in found:
                yield Completion(c, start_position=-len(word), display=c.strip())

    hist: Any = InMemoryHistory()
    if history:
        try:
            os.makedirs(os.path.dirname(os.path.abspath(history)), exist_ok=True)
            hist = FileHistory(history)
        except OSError:
            pass  # not writable: the evening goes on without history
    status = {"text": ""}
    session: Any = PromptSession(history=hist, completer=LineCompleter(), complete_while_typing=True,
                                 bottom_toolbar=lambda: status["text"])

    def read(prompt: str) -> str:
        status["text"] = toolbar_text(table)  # once per line: a redraw must not query the ledger
        return str(session.prompt(prompt))

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


@click.command()
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
    import sqlite3

    from .. import ledger

    from ..core.text import decode_utf8

    interactive = sys.stdin.isatty()
    stdin = getattr(sys.stdin, "buffer", None) or sys.stdin  # bytes: a line that is not UTF-8 is one bad line
    color = interactive and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    failed = 0
    from .common import new_ledger_note

    from .common import ends_like_ctrl_c

    # SIGTERM or a closed terminal (SIGHUP) ends the evening's prompt as `quit` does: the ledger is closed and whole
    with ends_like_ctrl_c(), ledger.open_ledger(_db(ctx), create=new_ledger_note) as led:
        table = Table(led, interactive, last, color)
        def finish() -> None:
            pass

        read_line: Callable[[str], str] = input
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
                table.show(s)
        lineno = 0
        try:
            while True:
                if interactive:
                    try:
                        raw = read_line(table.prompt())
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
                    table.handle(raw)
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
