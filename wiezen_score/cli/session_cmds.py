"""Recording an evening: session start|end, deal, pass, redeal, penalty, undo, amend."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, _, ngettext
from ..core.numbers import signed
from ..core.session import EntryInput
from ..views.sheet import recorded_line, status_line
from .common import DATE_HELP, DEAL_ARGS, ENTRY_NO, _db, _report, deal_text, echo
from .completion import complete_deal, complete_player, complete_rules
from .dutch import argument, command, group

if TYPE_CHECKING:
    from ..ledger import Ledger, SessionInfo


@group()
def session() -> None:
    """Start or end the evening's session (or void one started by mistake).

    \b
    Examples:
        wiezen session start --players jan,piet,mieke,lotte --rules rupelstreek --name "Café De Kroon"
        wiezen session start --players an,bert,carla,dirk,eva --dealer carla
        wiezen session end
        wiezen session void 7 --reason "a test"
    """


@session.command()
@click.option("--players", required=True, metavar="P1,P2,P3,P4[,P5[,P6]]",
              help="4 to 6 players in seat order, clockwise.")
@click.option("--rules", "rules_spec", default="whisthub", show_default=True, metavar="NAME|FILE",
              shell_complete=complete_rules,
              help="House rules: a preset, house rules added with `rules add`, or a .toml file.")
@click.option("--dealer", help="Who deals first (default: the first player).")
@click.option("--name", default="", help="A name for the evening, e.g. the café.")
@click.option("--date", "date_", metavar="DATE", help="The evening's date (default: today): " + DATE_HELP)
@click.option("--deals", type=int, metavar="N", help="The evening lasts N deals (a rondje pas or a redeal is not one).")
@click.option("--rounds", type=int, metavar="N", help="The evening lasts N rounds: one deal per player each.")
@click.option("--target", type=int, metavar="N", help="The evening ends when a player's total reaches N points.")
@click.option("--tag", metavar="TAG", help="The competition this session belongs to (a competition file's `tag`).")
@click.option("--round", "round_", type=int, metavar="N", help="A night with several tables: the round (see `wiezen seating`).")
@click.option("--table", "table_label", metavar="T",
              help="The table: its number (1, 2 ...) or a short label (terras); several tables may be open at once.")
@click.pass_context
def start(ctx: click.Context, players: str, rules_spec: str, dealer: str | None, name: str, date_: str | None,
          deals: int | None, rounds: int | None, target: int | None, tag: str | None, round_: int | None,
          table_label: str | None) -> None:
    """Open a session: the players in seat order and the house rules it is played under.

    The session keeps a copy of the house rules as they are now: changing them later never changes
    its scores. At five players the dealer sits out each deal; at six, the dealer and the player
    opposite him.

    \b
    Examples:
        wiezen session start --players jan,piet,mieke,lotte
        wiezen session start --players jan,piet,mieke,lotte --rules rupelstreek --name "Café De Kroon"
        wiezen session start --players an,bert,carla,dirk,eva --dealer carla --date 2026-11-27
        wiezen session start --players jan,piet,mieke,lotte --date yesterday
        wiezen session start --players jan,piet,mieke,lotte --rounds 6      (24 deals)
        wiezen session start --players jan,piet,mieke,lotte --rules ons-cafe.toml
        wiezen session start --players an,bert,carla,dirk --tag gesves-2026 --round 2 --table 1
        wiezen session start --players eva,frans,greet,hans --table terras
    """
    from .. import ledger
    from ..core import dates
    from ..core.dates import parse_when
    from ..core.evening import make_plan
    from .common import new_ledger_note, rules_from_spec

    plan = make_plan(deals, rounds, target)
    from ..core.sessionfile import check_number, check_tag

    names = [p.strip() for p in players.split(",")]
    ledger.session_setup(names, dealer, "")  # bad names or dealer: refused before the ledger opens
    if tag is not None:
        check_tag(tag)
    if round_ is not None:
        check_number(round_, "--round")
    from ..core.tables import parse_table

    table_ = parse_table(table_label) if table_label is not None else None  # a number or a label (terras)
    day = parse_when(date_, dates.today()).isoformat() if date_ else ""
    with ledger.open_ledger(_db(ctx), create=new_ledger_note) as led:
        rules, text = rules_from_spec(rules_spec, led.rules_text)
        s = led.begin(names, rules, text, dealer, name, day, plan=plan.text if plan else None,
                      tag=tag, round=round_, table=table_)
    names, sid, first = list(s.players), s.id, s.first_dealer
    where = "".join(f", {_(k)} {v}" for k, v in ((N_("tag"), tag), (N_("round"), round_), (N_("table"), table_))
                    if v is not None)
    line = _("session {id} started: {players} under {rules}; {dealer} deals first{where}").format(
        id=sid, players=", ".join(names), rules=rules.name, dealer=names[first], where=where)
    if plan:
        line += _("; the evening: {plan}").format(plan=plan.describe(len(names)))
    echo(line)


@session.command()
@click.option("--json", "as_json", is_flag=True, help='JSON: {"session", "totals", "rounds_owed", "seal"}.')
@click.pass_context
def end(ctx: click.Context, as_json: bool) -> None:
    """Close the open session and print its seal (its sheet stays, see `wiezen sheet --session ID`).

    The seal is a short code that vouches for the whole evening: every entry, correction, penalty, reason
    and time, and the house rules. Note it or take a photo: `wiezen check --seal CODE` shows later that
    the ledger still holds exactly that evening.

    \b
    Example:
        wiezen session end && wiezen settle --cents 5
    """
    from .. import ledger
    from ..ledger.documents import evening_progress

    with ledger.open_ledger(_db(ctx)) as led:
        s = led.end_session()
        totals = led.totals(s.id)
        seal = led.seal(s.id)
        owed = led.rounds_owed(s)
        progress = evening_progress(led, s)
    from ..views.sheet import rounds_owed_line

    if as_json:
        from ..core.numbers import plain
        from .common import echo_json

        echo_json({"session": s.id, "totals": {p: plain(v) for p, v in totals.items()}, "rounds_owed": owed,
                   "seal": seal})
        if progress is not None and not progress.over:
            click.echo(_("warning: the session ends before its planned length"), err=True)
        return
    echo(_("session {id} ended. totals: {totals}").format(
        id=s.id, totals=", ".join(f"{p} {signed(v)}" for p, v in totals.items())))
    if rounds_owed_line(owed):
        echo(rounds_owed_line(owed))
    if progress is not None:
        echo(progress.line)
        if not progress.over:
            echo(_("warning: the session ends before its planned length"), err=True)
    echo(_("seal: {seal}  (note it: `wiezen check --session {id} --seal {seal}` proves this evening later)").format(
        seal=seal, id=s.id))


@session.command()
@argument("session_id", metavar="ID", type=click.IntRange(min=1))
@click.option("--reason", required=True, metavar="TEXT", help="Why the session counts nowhere (kept with it).")
@click.option("--force", is_flag=True, help="Void an open session too: it is ended (and sealed) first.")
@click.pass_context
def void(ctx: click.Context, session_id: int, reason: str, force: bool) -> None:
    """Take a session out of every count: standings, competitions, nights and players' figures.

    For a session started by mistake (empty, a test, the wrong players). It stays in the ledger as it
    was, with its entries and its seal (`check --seal` still proves it); `wiezen sessions` shows it as
    void, with the reason. A void cannot be undone.

    \b
    Example:
        wiezen session void 7 --reason "started by mistake, nobody played"
    """
    from .. import ledger
    from ..ledger.voids import void_session

    with ledger.open_ledger(_db(ctx)) as led:
        s, ended = void_session(led, session_id, reason, force)
        seal = led.seal(s.id) if ended else None
    if seal is not None:
        echo(_("session {id} ended. seal: {seal}").format(id=s.id, seal=seal))
    echo(_("session {id} is void: it counts nowhere; its sheet and seal stay").format(id=s.id))


@session.command()
@argument("player", shell_complete=complete_player)
@click.option("--after", "after", metavar="P", default="", shell_complete=complete_player,
              help="Seat him after player P (default: at the end of the seat order).")
@click.option("--reason", default="", help="Why, if it needs saying (kept with the entry).")
@click.pass_context
def join(ctx: click.Context, player: str, after: str, reason: str) -> None:
    """A player sits down at the open table (the table keeps its sheet).

    From the next deal on the table has one player more (at most six), with the sit-out rules of its size:
    at five the dealer sits out, at six also the player opposite him. The player who deals next stays the
    same. The join is an entry of the session: on the sheet, in the chain, under the seal.

    \b
    Examples:
        wiezen session join kris
        wiezen session join kris --after piet
    """
    _record(ctx, EntryInput("join", offender=player, after=after, reason=reason))


@session.command()
@argument("player", shell_complete=complete_player)
@click.option("--reason", default="", help="Why, if it needs saying (kept with the entry).")
@click.pass_context
def leave(ctx: click.Context, player: str, reason: str) -> None:
    """A player gets up from the open table; his points stay on the sheet.

    From the next deal on the table has one player fewer (at least four). When he was to deal next, the
    next player in the seat order deals. The leave is an entry of the session: on the sheet, in the chain,
    under the seal.

    \b
    Example:
        wiezen session leave piet
    """
    _record(ctx, EntryInput("leave", offender=player, reason=reason))


def _record(ctx: click.Context, e: EntryInput) -> None:
    from .. import ledger

    with ledger.open_ledger(_db(ctx)) as led:
        recorded_in: list[SessionInfo] = []  # the session the entry went into, as record() read it (not read twice)
        no, sc = led.record(e, then=lambda s, _no, _sc: recorded_in.append(s))
        _report(ctx, no, sc, led, recorded_in[0])


@command(context_settings=DEAL_ARGS)
@argument("deal", nargs=-1, required=True, shell_complete=complete_deal)
@click.option("--over-troel", is_flag=True, help="Open miserie bid over a troel.")
@click.pass_context
def deal(ctx: click.Context, deal: tuple[str, ...], over_troel: bool) -> None:
    """Record a deal in the open session.

    DEAL: CONTRACT [LEVEL] TAKER[+PARTNER] TRICKS, or CONTRACT PLAYER TRICKS [PLAYER TRICKS ...] for
    miseries. Contracts may be abbreviated (s samen, a alleen, t troel, ab abondance, gm grote-miserie,
    om open-miserie ...) or said as at the table (solo slim, grote miserie, miserie op tafel); players
    may be named by any unambiguous prefix, with or without accents (rene for René). `wiezen deal
    rondje pas` records a rondje pas (as `wiezen pass` does), `wiezen deal carte blanche` a redeal.

    \b
    Examples:
        wiezen deal samen 9 jan+piet 10
        wiezen deal s 8 j+p 9
        wiezen deal miserie op tafel lotte 0
        wiezen deal alleen 5 mieke 4
        wiezen deal troel j+m 8
        wiezen deal grote-miserie jan 0 piet 2
    """
    from ..core.sessionfile import Undo, canonical_line, parse_entry

    text = deal_text(deal)
    # what the table says for a rondje pas or a redeal (rondje pas, passen, carte blanche, herdelen) is recorded
    # as such, as `play` and a session file take it; a penalty or an undo has its own command
    e = parse_entry(canonical_line(text).split())
    command = _("penalty PLAYER") if isinstance(e, EntryInput) and e.kind == "penalty" else "undo" if isinstance(e, Undo) else ""
    if command:
        raise WiezenError(_("'{word}' is not a deal: use `wiezen {command}`").format(word=deal[0], command=command))
    if isinstance(e, EntryInput) and e.kind in ("pass", "redeal"):
        if over_troel:
            raise WiezenError(_("--over-troel is for a miserie bid over a troel, not for '{text}'").format(text=text))
        _record(ctx, e)
        return
    _record(ctx, EntryInput("deal", text=text, over_troel=over_troel))


@command("pass")
@click.pass_context
def pass_(ctx: click.Context) -> None:
    """Record a rondje pas: all four passed, no contract is played.

    Depending on the house rules the same or the next player deals, and the next deal that is played
    counts double (once, or again for every rondje pas).

    \b
    Example:
        wiezen pass && wiezen deal samen 8 jan+piet 9      (the deal counts x2 under rupelstreek)
    """
    _record(ctx, EntryInput("pass"))


@command()
@click.option("--reason", default="", help="e.g. carte blanche, misdeal.")
@click.pass_context
def redeal(ctx: click.Context, reason: str) -> None:
    """Record a redeal (carte blanche, misdeal): the same dealer deals again (the next one under house rules
    with [redeal] dealer = "next"), a pending doubling stays.

    \b
    Example:
        wiezen redeal --reason "carte blanche"
    """
    _record(ctx, EntryInput("redeal", reason=reason))


@command()
@argument("player", shell_complete=complete_player)
@argument("kind", required=False)
@click.option("--reason", default="", help="What happened, e.g. renonce in troef.")
@click.option("--round", "round_", is_flag=True, help="Een rondje geven: the offender buys a round instead of points.")
@click.option("--deal", "deal_no", type=ENTRY_NO, help="Link the penalty to recorded deal N (its players are paid).")
@click.option("--precedent", "as_precedent", is_flag=True,
              help="Also keep this ruling as a precedent (its title is the reason), in the same transaction.")
@click.option("--ruling", help="With --precedent: what was decided (default: what the penalty was).")
@click.pass_context
def penalty(ctx: click.Context, player: str, kind: str | None, reason: str, round_: bool, deal_no: int | None,
            as_precedent: bool, ruling: str | None) -> None:
    """Record strafpunten: PLAYER pays the house rules' penalty to each other player of the deal in play.

    KIND is one of the kinds of penalty of the house rules ([penalties], listed by `wiezen rules show`): PLAYER
    then pays that kind's amount. Without KIND the house rules' one penalty amount applies.

    A penalty is never doubled and leaves a pending doubling for the next deal. With --precedent the
    ruling is also kept in the precedents log (see `wiezen precedent`).

    \b
    Examples:
        wiezen penalty jan --reason "renonce in troef"
        wiezen penalty jan renonce --reason "in troef"
        wiezen penalty piet --round --reason "te laat"
        wiezen penalty jan --reason "renonce in troef" --precedent
    """
    from .precedent import record_penalty

    record_penalty(ctx, EntryInput("penalty", offender=player, round=round_, reason=reason, deal_no=deal_no,
                                   penalty_kind=kind or ""), as_precedent or ruling is not None, ruling)


def _resealed(led: Ledger, s: SessionInfo) -> None:
    """After a correction of an ended session: its new seal (the earlier ones still vouch for what they sealed)."""
    found = led.seals(s.id)
    if s.ended_at is not None and found:
        earlier = found[:-1]
        echo(ngettext("seal: {seal}  (new, after this correction; the earlier seal {earlier} still vouches for what it sealed)",
                      "seal: {seal}  (new, after this correction; the earlier seals {earlier} still vouch for what they sealed)",
                      2 if len(found) > 2 else 1).format(seal=found[-1].code, earlier=", ".join(x.code for x in earlier)))


@command()
@click.option("--reason", default="", help="Why (kept in the history); required for an ended session.")
@click.option("--session", "session_id", type=click.IntRange(min=1, max=2**62), metavar="ID",
              help="Correct this session, also one that has ended (default: the open one).")
@click.pass_context
def undo(ctx: click.Context, reason: str, session_id: int | None) -> None:
    """Void the last entry that still counts. Nothing is deleted: it stays on the sheet, marked voided.

    With --session, also in a session that has ended: a correction after the evening, which needs a
    --reason, shows on the sheet with its date, and gives the session a new seal.

    \b
    Examples:
        wiezen undo --reason "wrong number of tricks"
        wiezen undo --session 12 --reason "the last deal was never played"
    """
    from .. import ledger

    with ledger.open_ledger(_db(ctx)) as led:
        row = led.undo(reason, session_id)
        s = led.require_open() if session_id is None else led.session(session_id)
        state, _steps = led.state(s)
        from ..views.fit import row_words

        echo(_("voided #{number} {text}").format(number=row.no, text=row_words(row)))
        echo(_("totals: {totals}").format(totals=", ".join(f"{p} {signed(v)}" for p, v in led.totals(s.id).items())))
        if s.ended_at is None:
            echo(_("next: {status}").format(status=status_line(s.at_table, state)))
        _resealed(led, s)


@command(context_settings=DEAL_ARGS)
@argument("no", type=ENTRY_NO)
@argument("entry", nargs=-1, required=True, shell_complete=complete_deal)
@click.option("--reason", default="", help="Why (kept in the history); required for an ended session.")
@click.option("--session", "session_id", type=click.IntRange(min=1, max=2**62), metavar="ID",
              help="Correct this session, also one that has ended (default: the open one).")
@click.pass_context
def amend(ctx: click.Context, no: int, entry: tuple[str, ...], reason: str, session_id: int | None) -> None:
    """Correct entry NO: the old version is voided and kept, the correction takes its number.

    ENTRY is a deal line, or `pas`, `redeal`, `penalty PLAYER ...`. Later entries follow from the
    corrected history: their dealers and doublings are re-derived and re-scored where they change.

    With --session, also in a session that has ended: a correction after the evening, which needs a
    --reason, shows on the sheet with its date, and gives the session a new seal (the old seal still
    vouches for the evening as it was sealed).

    \b
    Examples:
        wiezen amend 3 samen 8 jan+piet 8
        wiezen amend 5 pas
        wiezen amend --session 12 4 samen 8 jan+piet 8 --reason "jan counted his tricks again"
    """
    from .. import ledger
    from ..core.sessionfile import Undo, parse_entry

    e = parse_entry(deal_text(entry).split())
    if isinstance(e, Undo):
        raise WiezenError(_("amend takes a deal line, pas, redeal or penalty"))
    with ledger.open_ledger(_db(ctx)) as led:
        sc, rescored = led.amend(no, e, reason, session_id)
        s = led.require_open() if session_id is None else led.session(session_id)
        echo(_("{line} (amended)").format(line=recorded_line(no, sc, s.players)))
        if rescored:
            echo(_("re-scored: {entries}").format(entries=", ".join(f"#{n}" for n in rescored)))
        echo(_("totals: {totals}").format(totals=", ".join(f"{p} {signed(v)}" for p, v in led.totals(s.id).items())))
        _resealed(led, s)
