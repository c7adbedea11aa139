"""A table's state machine: one line as the scorer types it (at `play`'s prompt or on the phone), and the answer.

The lines are those of a session file (shared/INTERFACE.md), in English or Dutch words, plus the table's
commands (sheet, explain, settle, precedent, end, help, quit). Every line that records something is its own
transaction, so a recorded deal stays recorded whatever happens to the process afterwards.

:meth:`Table.handle` takes a line and gives an :class:`Answer`: the texts to say and the sheet to show, in order
(the prompt prints them, the phone shows them), or a :class:`Question` that needs a yes first (undo, amend,
end): the same line again with ``confirm=True`` and the question's ``expect`` does it, and only to the entry
(or session) asked about. A bad line raises :class:`~wiezen_score.core.errors.WiezenError` and records nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..core.errors import WiezenError
from ..core.i18n import N_, NP_, _, pgettext
from ..core.numbers import fmt, signed
from ..core.sessionfile import Amend, Header, Undo, canonical_line, parse_line
from ..core.text import as_count
from ..views.fit import row_words
from ..views.sheet import recorded_line, resolved_text

if TYPE_CHECKING:
    from ..core.documents import SheetDoc
    from ..core.evening import Plan
    from ..core.rules import HouseRules
    from ..core.scoring import Points
    from ..core.session import EntryInput
    from ..ledger import Ledger, SessionInfo

__all__ = [
    "HELP", "QUIT_WORDS", "YES_WORDS",
    "Answer", "Ended", "NextSession", "Note", "Preview", "Question", "SessionIsOpen", "SheetView", "Table",
]

QUIT_WORDS = ("quit", "exit", "q")
#: a yes to a confirmation, in either language (anything else is no: nee, no, n, Enter)
YES_WORDS = ("y", "yes", "j", "ja")


HELP = N_("""\
Type one line per deal; players by any unambiguous prefix (j+p for jan+piet).
  samen 8 jan+piet 9            a deal: CONTRACT [LEVEL] TAKER[+PARTNER] TRICKS
  grote-miserie jan 0 piet 2    miseries: PLAYER TRICKS for each player on it
  pas                           rondje pas (everybody passed)
  redeal [REASON]               carte blanche, misdeal: deal again (who deals: the house rules)
  penalty P [KIND] [REASON]     strafpunten for P (a kind of the house rules' [penalties]);
                                'penalty P round [REASON]': P buys a round
  join P [after Q], leave P     a player sits down (after Q) or gets up; the table keeps its sheet
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


#: the first word of a header line as the scorer types it in the language spoken (both are taken: sessionfile.py)
_HEADER_WORDS = {"players": NP_("line", "players"), "rules": NP_("line", "rules"), "session": NP_("line", "session"),
                 "tag": NP_("line", "tag"), "round": NP_("line", "round")}


def _seat_hint(s: SessionInfo, typed: Sequence[str]) -> None:
    """A `players` line while a session is open that names the players at the table and more (or fewer): say how
    to seat or unseat them at this table (`kris schuift aan`, `piet stopt`) instead of ending the evening."""
    from ..core.names import name_key

    here = {name_key(p): p for p in s.at_table}
    wanted = {name_key(p): p for p in typed}
    new = [p for k, p in wanted.items() if k not in here]
    gone = [p for k, p in here.items() if k not in wanted]
    if (new or gone) and len(new) + len(gone) < len(here):  # the same table, give or take a few
        how = [_("'{player} schuift aan' (join {player})").format(player=p) for p in new]
        how += [_("'{player} stopt' (leave {player})").format(player=p) for p in gone]
        raise WiezenError(_("session {id} is open ({players}): to change who sits at this table, type {how}; "
                            "the sheet goes on").format(id=s.id, players=", ".join(s.at_table), how=_(" and ").join(how)))

class SessionIsOpen(WiezenError):
    """A header line (players, rules, session ...) while a session is open: it belongs to the next session."""


# -- the answers -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Note:
    """A text to say. A hint (``kind="hint"``) is advice for a person typing; a script reading a pipe has no use
    for it."""

    text: str
    kind: Literal["say", "hint"] = "say"


@dataclass(frozen=True)
class SheetView:
    """The sheet to show: the `sheet --json` document (``ledger/documents.py`` sheet_doc) of its last ``rows``
    rows (None: all of them), with the session's heading or without."""

    doc: SheetDoc
    rows: int | None
    heading: bool


Part = Note | SheetView


@dataclass(frozen=True)
class Question:
    """A y/N question before undo, amend or end. ``expect`` is the entry row (undo, amend) or the session (end)
    it is about: given back with the yes, the line acts on that one or refuses."""

    text: str
    declined: str  # what is said when the answer is no
    expect: int


@dataclass(frozen=True)
class Answer:
    """What one line did: the parts to show in order, the recorded entry's line, or a question, or stop."""

    parts: tuple[Part, ...] = ()
    recorded: str = ""  # '#4 alleen 5 piet 6: ...' when the line recorded an entry (the prompt shows the sheet)
    question: Question | None = None
    stop: bool = False  # quit: the prompt stops reading
    entry: int | None = None  # the row id of the entry the line recorded (a rondje pas taken back at once: its undo)
    kind: str = ""  # and its kind: deal, pass, redeal, penalty
    ended: Ended | None = None  # `end`: the session, its seal and totals

    @property
    def notes(self) -> list[Note]:
        return [p for p in self.parts if isinstance(p, Note)]

    @property
    def message(self) -> str:
        """The answer as one text (the phone's): the recorded line, then every note but the sheet."""
        if self.question is not None:
            return self.question.text
        return "\n".join([self.recorded] * bool(self.recorded) + [n.text for n in self.notes])


@dataclass(frozen=True)
class Ended:
    """A session that `end` closed: the phone shows its seal large, and the payments."""

    session: int
    seal: str
    totals: dict[str, Points]


@dataclass
class NextSession:
    """The settings typed before `players`: they make the next session, then start afresh."""

    name: str = ""
    date: str = ""
    rules: HouseRules | None = None
    rules_text: str = ""
    plan: Plan | None = None  # the evening's length (core/evening.py)
    tag: str | None = None
    round: int | None = None
    table: int | None = None


def _say(*texts: str) -> tuple[Part, ...]:
    return tuple(Note(t) for t in texts if t)


class _Words:
    """An entry's kind and its resolved text, for :func:`row_words`."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text


# -- the table ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Preview:
    """A line's points before they are written (`/s/TOKEN/preview`)."""

    no: int  # the entry number it would get
    text: str  # its canonical line
    points: dict[str, Points]
    multiplier: int
    explanation: tuple[str, ...]


@dataclass
class Table:
    """One table: the ledger it records in, the settings for the next session, how many rows a sheet shows.

    A long-lived front end (the server) keeps ``upcoming`` between lines and makes a Table per line with the
    ledger connection of that moment; the prompt keeps one Table for the whole run."""

    led: Ledger
    last: int = 6
    upcoming: NextSession = field(default_factory=NextSession)
    files: bool = True  # a `rules` line may name a TOML file (not from the phone: see service/rules.py)
    again: bool = False  # the same deal as the one before asks "again?" first (the phone: a double tap's risk)
    uid: str | None = None  # the phone's form: the uid of the entry it records (from its nonce; the same form sent
    # again, even after a restart of the server, finds it recorded and records nothing)

    # -- one line -----------------------------------------------------------------------------------------
    def handle(self, raw: str, confirm: bool = False, expect: int | None = None) -> Answer:
        """Act on one line. ``confirm``: the yes to the line's question (with its ``expect``). Raises WiezenError
        for a bad line (nothing recorded), SessionIsOpen for a header line while a session is open."""
        from ..core.abbrev import expand_line

        line = canonical_line(raw.strip())
        if not line or line.startswith("#"):
            return Answer()
        words = line.split()
        head = words[0].lower()
        if head in QUIT_WORDS and len(words) == 1:
            return Answer(stop=True)
        if head in ("help", "?"):
            return Answer(_say(self.help_text()))
        if head == "sheet":
            return self.sheet(words[1:])
        if head == "explain":
            return self.explain(words[1:])
        if head == "settle":
            return self.settle(words[1:])
        if head == "end":
            return self.end(words[1:], confirm, expect)
        if head == "precedent":
            return self.precedent(line[len(words[0]):].strip())
        if head in ("deals", "rounds", "target"):
            return self.length(head, words[1:])
        s = self.led.open_session()
        rules = s.rules if s is not None else self.upcoming.rules
        item = parse_line(expand_line(line, rules) if rules is not None else line)
        if item is None:
            return Answer()
        if isinstance(item, Header):
            return self.header(item, s)
        if s is None:
            raise WiezenError(_("no open session: start one with 'players jan piet mieke lotte' (see help)"))
        if isinstance(item, Undo):
            return self.undo(s, item, confirm, expect)
        if isinstance(item, Amend):
            return self.amend(s, item, confirm, expect)
        from ..ledger.documents import evening_progress

        if self.uid is not None:
            known = self.led.entry_of_uid(self.uid)
            if known is not None:
                return Answer(_say(_("already recorded: #{number} {text} (the phone sent it again; nothing recorded "
                                     "twice)").format(number=known[1], text=row_words(_Words(item.kind, known[2])))))
        if self.again and item.kind == "deal":
            asked = self._again(s, item, confirm, expect)
            if asked is not None:
                return asked
        no, sc = self.led.record(item, uid=self.uid)
        if sc.seating:  # a player came or went: the table as it is now
            s = self.led.session(s.id)
        parts: list[Part] = [self.view(s)]
        p = evening_progress(self.led, s, sc.kind == "deal")
        if p is not None and p.warning:
            parts.append(Note(_("warning: {message}").format(message=p.warning)))
        if item.kind == "penalty" and item.reason.strip():
            # a penalty with a reason offers to become a precedent, without leaving the prompt
            parts.append(Note(_("hint: to keep this ruling for next time, type: precedent {title}: WHAT WAS DECIDED").format(
                title=item.reason.strip()), "hint"))
        rows = self.led.entries(s, since_no=no)
        return Answer(tuple(parts), recorded=recorded_line(no, sc, s.players), entry=rows[-1].id if rows else None,
                      kind=sc.kind)

    def _again(self, s: SessionInfo, item: EntryInput, confirm: bool, expect: int | None) -> Answer | None:
        """The question before a deal that is the same as the last entry that counts (None: not the same, or the
        yes to the question about that entry); a yes given about another entry records nothing."""
        counting = [r for r in self.led.entries(s) if not r.voided]
        last = counting[-1] if counting else None
        if confirm and expect is not None:
            if last is None or expect != last.id:
                raise WiezenError(_("nothing recorded: the sheet changed since the question; look at it and try again"))
            return None
        if last is None or last.kind != "deal" or self.led.preview(item)[1].text != last.text:
            return None
        return Answer(question=Question(_("#{number} was the same deal: {text}. Record it again?").format(
            number=last.no, text=row_words(last)), _("not recorded"), last.id))

    def preview(self, raw: str) -> Preview:
        """What the line would record (a deal, a rondje pas, a redeal, a penalty), scored, without writing: the
        phone shows it while the line is being built. A WiezenError for a line that would be refused."""
        from ..core.abbrev import expand_line

        line = canonical_line(raw.strip())
        s = self.open()
        item = parse_line(expand_line(line, s.rules)) if line else None
        if item is None or isinstance(item, (Header, Undo, Amend)):
            raise WiezenError(_("nothing to preview: type a deal line, e.g. 'samen 8 jan+piet 9'"))
        no, sc = self.led.preview(item)
        return Preview(no, sc.text, dict(sc.points), sc.multiplier, tuple(sc.explanation))

    def view(self, s: SessionInfo, rows: int | None = -1) -> SheetView:
        """The last rows of the sheet (``-1``: the table's ``last``), with the heading only when asked for."""
        from ..ledger.documents import sheet_doc

        shown = self.last if rows == -1 else rows
        return SheetView(sheet_doc(self.led, s, shown), shown, rows != -1)

    def open(self) -> SessionInfo:
        s = self.led.open_session()
        if s is None:
            raise WiezenError(_("no open session: start one with 'players jan piet mieke lotte' (see help)"))
        return s

    # -- before a session -------------------------------------------------------------------------------------
    def header(self, item: Header, s: SessionInfo | None) -> Answer:
        from ..core import dates
        from ..core.dates import parse_when
        from .rules import rules_from_spec

        nxt = self.upcoming
        if s is not None and item.key == "players":
            _seat_hint(s, item.players)  # a fifth player came: he joins this table, the evening goes on
        if s is not None:
            key = pgettext("line", _HEADER_WORDS[item.key]) if item.key in _HEADER_WORDS else item.key
            raise SessionIsOpen(_("session {id} is open ({players}): '{key}' lines come before a session starts; type "
                                  "'end' to close this one first").format(id=s.id, players=", ".join(s.players), key=key))
        if item.key == "session":
            nxt.name = item.name or nxt.name
            nxt.date = parse_when(item.date, dates.today()).isoformat() if item.date else nxt.date
            return Answer(_say(_("the next session: {what}").format(
                what=", ".join(x for x in (nxt.name, nxt.date) if x) or _("no name"))))
        if item.key == "tag":
            nxt.tag = item.tag
            return Answer(_say(_("the next session belongs to '{tag}'").format(tag=item.tag)))
        if item.key == "round":
            nxt.round, nxt.table = item.round or nxt.round, item.table or nxt.table
            return Answer(_say(_("the next session: {what}").format(
                what=", ".join(f"{_(k)} {v}" for k, v in ((N_("round"), nxt.round), (N_("table"), nxt.table)) if v))))
        if item.key == "rules":
            nxt.rules, nxt.rules_text = rules_from_spec(item.rules, self.led.rules_text, files=self.files)
            return Answer(_say(_("house rules for the next session: {rules}").format(rules=nxt.rules.name)))
        if nxt.rules is None:
            nxt.rules, nxt.rules_text = rules_from_spec("whisthub", self.led.rules_text)
        s = self.led.begin(item.players, nxt.rules, nxt.rules_text, item.dealer, nxt.name, nxt.date,
                           plan=nxt.plan.text if nxt.plan else None, tag=nxt.tag, round=nxt.round,
                           table=nxt.table if nxt.table is not None else self.led.chosen_table())  # (play --table T)
        plan = nxt.plan
        self.upcoming = NextSession()
        names = s.players
        said = _("session {id} started: {players} under the house rules {rules}; {dealer} deals first").format(
            id=s.id, players=", ".join(names), rules=s.rules_name, dealer=names[s.first_dealer]) + (
            _("; the evening: {plan}").format(plan=plan.describe(len(names))) if plan else "")
        return Answer((Note(said), self.view(s)))

    def length(self, kind: str, args: list[str]) -> Answer:
        """`deals N`, `rounds N`, `target N` before `players`: how long the next session is meant to last."""
        from ..core.evening import Plan

        if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
            raise WiezenError(_("{kind} takes a number: '{kind} 24'").format(kind=kind))
        s = self.led.open_session()
        if s is not None:
            raise WiezenError(_("session {id} is open: an evening's length is given before it starts ('{kind} N', "
                                "then 'players ...')").format(id=s.id, kind=kind))
        self.upcoming.plan = Plan(kind, int(args[0]))
        how = {"deals": _("{n} deals"), "rounds": _("{n} rounds (one deal per player each)"),
               "target": _("until a player reaches {n} points")}[kind].format(n=args[0])
        return Answer(_say(_("the next session lasts {how}").format(how=how)))

    # -- corrections (asked first) -------------------------------------------------------------------------------
    def undo(self, s: SessionInfo, item: Undo, confirm: bool, expect: int | None) -> Answer:
        counting = [r for r in self.led.entries(s) if not r.voided]
        if not counting:
            raise WiezenError(_("nothing to undo: the session has no entries that count"))
        last = counting[-1]
        if not confirm:
            return Answer(question=Question(_("undo #{number} {text}?").format(
                number=last.no, text=row_words(last) + (" - " + last.reason if last.reason else "")),
                _("not undone"), last.id))
        row = self.led.undo(item.reason, expect=last.id if expect is None else expect)  # the one asked about, or none
        s = self.led.session(s.id)  # (an undone join or leave: the table as it is now)
        return Answer((Note(_("voided #{number} {text}").format(number=row.no, text=row_words(row))), self.view(s)))

    def amend(self, s: SessionInfo, item: Amend, confirm: bool, expect: int | None) -> Answer:
        old = [r for r in self.led.entries(s) if r.no == item.no and not r.voided]
        if not old:
            if any(r.no == item.no for r in self.led.entries(s)):
                raise WiezenError(_("entry {number} is voided: amend an entry that counts").format(number=item.no))
            raise WiezenError(_("no entry {number} in this session").format(number=item.no))
        if not confirm:
            new_text = row_words(_Words(item.entry.kind, resolved_text(item.entry, s.rules, s.players)))
            return Answer(question=Question(_("amend #{number} {old} -> {new}?").format(
                number=item.no, old=row_words(old[0]), new=new_text), _("not amended"), old[0].id))
        sc, rescored = self.led.amend(item.no, item.entry, item.reason, expect=old[0].id if expect is None else expect)
        parts: list[Part] = [Note(_("{line} (amended)").format(line=recorded_line(item.no, sc, s.players)))]
        if rescored:
            parts.append(Note(_("re-scored: {entries}").format(entries=", ".join(f"#{n}" for n in rescored))))
        return Answer((*parts, self.view(s)))

    def end(self, args: list[str], confirm: bool, expect: int | None) -> Answer:
        if args:
            raise WiezenError(_("end takes nothing after it"))
        s = self.open()
        if not confirm:
            return Answer(question=Question(_("end session {id} ({players})? It cannot be reopened").format(
                id=s.id, players=", ".join(s.at_table)), _("still open"), s.id))
        if expect is not None and expect != s.id:
            raise WiezenError(_("nothing ended: session {id} is open now, not session {asked}").format(id=s.id, asked=expect))
        self.led.end_session()
        totals = self.led.totals(s.id)
        seal = self.led.seal(s.id) or ""
        # the next session of the evening is played under the same house rules and name unless the lines say otherwise
        self.upcoming = NextSession(name=s.name, rules=s.rules, rules_text=s.rules_toml, tag=s.tag)
        kept = (_("the next session keeps the house rules {rules} and the name '{name}' (type 'rules NAME' or 'session "
                  "NAME' to change them)") if s.name else
                _("the next session keeps the house rules {rules} (type 'rules NAME' to change them)")).format(
            rules=s.rules_name, name=s.name)
        return Answer(_say(
            _("session {id} ended. totals: {totals}").format(
                id=s.id, totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items())),
            _("seal: {seal}  (note it: `wiezen check --session {id} --seal {seal}` proves this evening later)").format(
                seal=seal, id=s.id),
            self._rounds_owed(s), kept), ended=Ended(s.id, seal, dict(totals)))

    # -- what is asked about --------------------------------------------------------------------------------------
    def sheet(self, args: list[str]) -> Answer:
        rows = as_count(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and not rows):
            raise WiezenError(_("sheet takes nothing, or how many rows to show: 'sheet 10'"))
        return Answer((self.view(self.open(), rows),))

    def explain(self, args: list[str]) -> Answer:
        from ..ledger.documents import explain_doc
        from ..views.explain import render_explain

        no = as_count(args[0]) if len(args) == 1 else None
        if no is None:
            raise WiezenError(_("explain takes an entry number: 'explain 4'"))
        return Answer(_say(render_explain(explain_doc(self.led, self.open(), no))))

    def settle(self, args: list[str]) -> Answer:
        from ..core.numbers import money
        from ..core.settle import settle

        cents = as_count(args[0]) if len(args) == 1 else None
        if len(args) > 1 or (args and cents is None):
            raise WiezenError(_("settle takes nothing, or the cents a point is worth: 'settle 10'"))
        s = self.open()
        totals = self.led.totals(s.id)
        said = [_("totals: {totals}").format(totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items()))]
        payments = settle(totals, cents)
        if not payments:
            said.append(_("everybody is square: nobody pays"))
        for p in payments:
            cash = f" ({money(p.cents)})" if p.cents is not None else ""
            said.append(_("  {payer} pays {payee} {points}{money}").format(
                payer=p.payer, payee=p.payee, points=fmt(p.amount), money=cash))
        return Answer(_say(*said, self._rounds_owed(s)))

    def _rounds_owed(self, s: SessionInfo) -> str:
        from ..views.sheet import rounds_owed_line

        return rounds_owed_line(self.led.rounds_owed(s))

    def precedent(self, rest: str) -> Answer:
        """`precedent TITLE: RULING`: the ruling kept in the precedents log, linked to the last entry."""
        from ..ledger import precedents as P

        title, sep, ruling = rest.partition(":")
        if not sep or not title.strip() or not ruling.strip():
            raise WiezenError(_("precedent takes a title and the ruling after a colon: "
                                "'precedent renonce in troef: the offender pays, the deal counts'"))
        s = self.open()
        counting = [r for r in self.led.entries(s) if not r.voided]
        no = counting[-1].no if counting else None
        pid = P.add(self.led, P.clean_title(title), P.clean_ruling(ruling), date=s.date, session_id=s.id, entry_no=no)
        where = _(", linked to #{number} {text}").format(number=no, text=row_words(counting[-1])) if counting else ""
        return Answer(_say(_("recorded precedent {id}: {title}").format(id=pid, title=title.strip()) + where))

    def help_text(self) -> str:
        from ..core.abbrev import ABBREVIATIONS, abbreviations

        s = self.led.open_session()
        rules = s.rules if s is not None else self.upcoming.rules
        if rules is not None:
            pairs = abbreviations(rules)
            head = _("Contract abbreviations (house rules {rules}): ").format(rules=rules.name)
        else:
            pairs = list(ABBREVIATIONS.items())
            head = _("Contract abbreviations (those the session's house rules have): ")
        return _(HELP) + "\n" + head + ", ".join(f"{a}={c}" for a, c in pairs)

    def candidates(self, before: str, text: str) -> list[str]:
        """What may complete ``text``, the word being typed after ``before`` (the line up to that word)."""
        from .completion import candidates

        return candidates(self.led, before, text)
