"""`wiezen precedent add|list|search|show|edit`: the table's memory of its rulings."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import click

from ..core.errors import WiezenError
from ..core.i18n import N_, _
from ..views.precedent import _CSV_HEADERS, _csv_rows, _entry_line, _penalty_ruling, _source, highlight
from .common import COUNT, DATE_HELP, ENTRY_NO, PRECEDENT_ID, SESSION_ID, Output, _db, echo, echo_json, echo_line, output_options
from .completion import complete_player
from .dutch import argument, group

if TYPE_CHECKING:
    from ..core.session import EntryInput, Scored
    from ..ledger import SessionInfo


def _colour() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _interactive() -> bool:
    """A person at a terminal (stdin and stdout): only then does `penalty` print its hint."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _when(text: str | None) -> str | None:

    from ..core import dates
    from ..core.dates import parse_when

    return parse_when(text, dates.today()).isoformat() if text is not None else None


@group()
def precedent() -> None:
    """The precedents log: rulings the table made, to settle next week's argument with last week's.

    \b
    Examples:
        wiezen precedent add "Renonce in troef" --ruling "Pays the penalty to each player" --deal 5 --tag renonce
        wiezen precedent search renonce
        wiezen precedent list --since last-month
        wiezen precedent show 3
        wiezen precedent edit 3 --ruling "Pays double the penalty" --reason "club meeting"
    """


@precedent.command()
@argument("title", nargs=-1)
@click.option("--ruling", help="What was decided (required).")
@click.option("--session", "session_id", type=SESSION_ID, help="The session it arose from.")
@click.option("--deal", "entry_no", type=ENTRY_NO, metavar="N",
              help="Entry N of the sheet it arose from (in --session, else the open or newest session).")
@click.option("--tag", "tags", multiple=True, help="A tag (repeat, or separate with commas).")
@click.option("--player", "players", multiple=True, shell_complete=complete_player, help="A player involved (repeat, or separate with commas).")
@click.option("--date", "date_", metavar="DATE",
              help="The day of the ruling (default: the session's date, else today): " + DATE_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print the recorded precedent as JSON.")
@click.pass_context
def add(ctx: click.Context, title: tuple[str, ...], ruling: str | None, session_id: int | None, entry_no: int | None,
        tags: tuple[str, ...], players: tuple[str, ...], date_: str | None, as_json: bool) -> None:
    """Record a ruling as a precedent. TITLE is a few words; quotes are optional.

    \b
    Examples:
        wiezen precedent add "Troel met vier azen" --ruling "The fourth ace leads" --tag troel
        wiezen precedent add Renonce in troef --ruling "Penalty, the deal counts" --deal 3 --player jan
    """
    from .. import ledger
    from ..core import dates
    from ..ledger import precedents as P

    text = P.clean_title(" ".join(title))
    rul = P.clean_ruling(ruling)
    day = _when(date_)
    from .common import new_ledger_note

    with ledger.open_ledger(_db(ctx), create=new_ledger_note) as led:
        if day is None:
            day = led.session(session_id).date if session_id is not None or entry_no is not None else dates.today().isoformat()
        pid = P.add(led, text, rul, date=day, tags=tags, session_id=session_id, entry_no=entry_no, players=players)
        p = P.get(led, pid)
    if as_json:
        echo_json(p.item())
        return
    src = _source(p)
    echo(_("recorded precedent {id}: {title}").format(id=pid, title=p.title) + (f" ({src})" if src else ""))


_ITEM_JSON = "JSON: a list of {id, date, title, ruling, tags, session, deal, players, origin}."


@precedent.command("list")
@output_options(json_help=_ITEM_JSON)
@click.option("--since", metavar="DATE", help="First date to include: " + DATE_HELP)
@click.option("--until", metavar="DATE", help="Same forms as --since.")
@click.option("--tag", help="Only precedents with this tag.")
@click.option("--player", help="Only precedents involving this player.", shell_complete=complete_player)
@click.option("--session", "session_id", type=SESSION_ID, help="Only precedents that arose from this session.")
@click.pass_context
def list_(ctx: click.Context, since: str | None, until: str | None, tag: str | None, player: str | None,
          session_id: int | None, output: Output) -> None:
    """List the precedents, newest first.

    \b
    Examples:
        wiezen precedent list --since last-week
        wiezen precedent list --tag troel --json
        wiezen precedent list --csv > precedents.csv
    """
    from .. import ledger
    from ..core.dates import date_text
    from ..ledger import precedents as P

    lo, hi = _when(since), _when(until)
    items: list[P.Precedent] = []
    path = ledger.existing_db_path(_db(ctx))
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = P.list_(led, lo, hi, tag, player, session_id)
    filtered = any(v is not None for v in (since, until, tag, player, session_id))
    empty = _("no precedents match") if filtered else _("no precedents yet")
    output.emit(
        [N_("id"), N_("date"), N_("title"), N_("tags"), N_("from"), N_("players")],
        [[p.id, date_text(p.date), p.title, ", ".join(p.tags), _source(p), ", ".join(p.players)] for p in items],
        [p.item() for p in items],
        text=None if items else lambda: empty, csv_headers=_CSV_HEADERS, csv_rows=_csv_rows(items),
    )


@precedent.command(context_settings={"ignore_unknown_options": True})
@argument("query", nargs=-1)
@output_options(formats=("text", "csv", "json"), default="text", json_help=_ITEM_JSON)
@click.option("--limit", type=COUNT, default=20, show_default=True, help="At most N results.")
@click.pass_context
def search(ctx: click.Context, query: tuple[str, ...], limit: int, output: Output) -> None:
    """Full-text search over titles, rulings and tags, best match first.

    Any text is a valid query: every word must occur (accents do not matter: 'een' finds 'één');
    "two words" in double quotes is a phrase; renon* finds words starting with 'renon'. When no precedent
    has all the words, those with any of them are shown.

    \b
    Examples:
        wiezen precedent search renonce troef
        wiezen precedent search "'t spel" rondje-pas
    """
    from .. import ledger
    from ..ledger import precedents as P

    text = " ".join(query)
    hits: list[P.Hit] = []
    all_words = True
    path = ledger.existing_db_path(_db(ctx))
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            hits, all_words = P.search(led, text, limit)
    if output.format != "text":
        output.emit(_CSV_HEADERS, _csv_rows([h.precedent for h in hits]), [h.precedent.item() for h in hits])
        return
    if not hits:
        echo(_("no precedents match") if P.fts_terms(text) else _("nothing to search for: give a word"))
        return
    if not all_words:
        echo(_("(no precedent has all the words; these have some of them)"))
    from ..core.dates import date_text

    colour = _colour()
    for h in hits:
        p = h.precedent
        src = _source(p)
        head = f"{p.id}  {date_text(p.date)}  {highlight(h.title, colour)}"
        if p.tags:
            head += f"  [{highlight(h.tags, colour)}]"
        if src:
            head += f"  ({src})"
        click.echo(head, color=colour)
        for line in h.ruling.split("\n"):
            click.echo(f"    {highlight(line, colour)}", color=colour)


@precedent.command()
@argument("pid", metavar="ID", type=PRECEDENT_ID)
@click.option("--json", "as_json", is_flag=True, help="JSON: the item plus players, history and the entry.")
@click.pass_context
def show(ctx: click.Context, pid: int, as_json: bool) -> None:
    """Show precedent ID: the ruling, its earlier versions, and the entry it arose from as it was scored.

    \b
    Examples:
        wiezen precedent show 3
        wiezen precedent show 3 --json
    """
    from .. import ledger
    from ..core.dates import date_text
    from ..core.numbers import plain
    from ..core.rules import summary
    from ..ledger import precedents as P

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        p = P.get(led, pid)
        s, then, now_ = P.linked_entry(led, p)
    entry_doc = None
    if then is not None and s is not None:
        entry_doc = {
            "no": then.no, "kind": then.kind, "text": then.text, "dealer": s.players[then.dealer],
            "multiplier": then.multiplier, "points": {k: plain(v) for k, v in then.points.items()},
            "voided": then.voided, **({"reason": then.reason} if then.reason else {}),
        }
    if as_json:
        echo_json({
            **p.item(), "players": list(p.players), "origin": p.origin,
            "session_info": None if s is None else {"id": s.id, "name": s.name, "date": s.date, "rules": s.rules_name},
            "entry": entry_doc,
            "history": [
                {"version": v.version, "title": v.title, "ruling": v.ruling, "tags": list(v.tags), "note": v.note,
                 "at": v.edited_at}
                for v in p.history
            ],
        })
        return
    echo_line(_("precedent {id}: {title}").format(id=p.id, title=p.title))
    if p.origin == "house-rules":
        echo_line(_("  date: {date} (recorded when house rules changed)").format(date=date_text(p.date)))
    else:
        echo_line(_("  date: {date}").format(date=date_text(p.date)))
    if p.tags:
        echo_line(_("  tags: {tags}").format(tags=", ".join(p.tags)))
    if p.players:
        echo_line(_("  players: {players}").format(players=", ".join(p.players)))
    echo_line(_("  ruling:"))
    for line in p.ruling.split("\n"):
        echo_line(f"    {line}")
    if s is not None:
        echo_line(_("  arose from session {id}: {name}{date}").format(id=s.id, name=s.name + ", " if s.name else "",
                                                                      date=date_text(s.date)))
        echo_line(_("  house rules of that session: {rules} ({summary}; penalty {penalty})").format(
            rules=s.rules_name, summary=summary(s.rules), penalty=s.rules.penalty))
        if then is not None:
            echo_line(_("  entry as scored: {entry}").format(entry=_entry_line(then, s.players)))
            if then.voided:
                how = _("since amended") if then.void_action == "amend" else _("since undone")
                later = _("; now: {entry}").format(entry=_entry_line(now_, s.players)) if now_ is not None and now_.id != then.id else ""
                echo_line(f"  {how}{': ' + then.void_reason if then.void_reason else ''}{later}")
    if len(p.history) > 1:
        echo_line(_("  earlier versions:"))
        for v in p.history[:-1]:
            tags = f" [{', '.join(v.tags)}]" if v.tags else ""
            why = _(" (edited because: {reason})").format(reason=v.note) if v.note and v.version > 1 else ""
            echo_line(f"    v{v.version} ({v.edited_at}): {v.title}: {v.ruling}{tags}{why}")
        last = p.history[-1]
        note = _(", edited because: {reason}").format(reason=last.note) if last.note else ""
        echo_line(_("  current: v{version} ({at}){note}").format(version=last.version, at=last.edited_at, note=note))


@precedent.command()
@argument("pid", metavar="ID", type=PRECEDENT_ID)
@click.option("--title", help="The new title.")
@click.option("--ruling", help="The new ruling.")
@click.option("--tag", "tags", multiple=True, help="The new tags (replace the old ones; repeat or use commas).")
@click.option("--no-tags", is_flag=True, help="Remove all tags.")
@click.option("--reason", default="", help="Why it changed (kept in the history).")
@click.pass_context
def edit(ctx: click.Context, pid: int, title: str | None, ruling: str | None, tags: tuple[str, ...], no_tags: bool,
         reason: str) -> None:
    """Change precedent ID's text. The earlier text is kept: `precedent show ID` shows every version.

    \b
    Example:
        wiezen precedent edit 3 --ruling "Pays double the penalty" --reason "decided at the club meeting"
    """
    from .. import ledger
    from ..ledger import precedents as P

    if title is None and ruling is None and not tags and not no_tags:
        raise WiezenError(_("give --title, --ruling, --tag or --no-tags: what should change?"))
    if tags and no_tags:
        raise WiezenError(_("give --tag or --no-tags, not both"))
    new_tags = () if no_tags else (tags or None)
    with ledger.open_ledger(_db(ctx)) as led:
        _item, version = P.edit(led, pid, title, ruling, new_tags, reason)
    echo(_("precedent {id} edited: now version {version}; the earlier text is kept (`wiezen precedent show {id}`)").format(
        id=pid, version=version))


# ---------------------------------------------------------------------------
# `wiezen penalty ... --precedent` (the command lives in session_cmds)


def record_penalty(ctx: click.Context, e: EntryInput, as_precedent: bool, ruling: str | None) -> None:
    """Record a penalty; with ``as_precedent`` also a precedent, in the same transaction (all or nothing)."""
    import shlex

    from .. import ledger
    from ..ledger import precedents as P
    from .common import _report

    title = ""
    if as_precedent:
        if not e.reason.strip():
            raise WiezenError(_("--precedent needs --reason: the reason becomes the precedent's title"))
        title = P.clean_title(e.reason)
        if ruling is not None:
            ruling = P.clean_ruling(ruling)
    made: list[int] = []
    with ledger.open_ledger(_db(ctx)) as led:

        def then(s: SessionInfo, no: int, sc: Scored) -> None:
            text = ruling if ruling is not None else _penalty_ruling(s, sc)
            made.append(P.add(led, title, text, date=s.date, tags=["penalty"], session_id=s.id, entry_no=no,
                              players=[sc.offender], origin="penalty", in_tx=True))

        no, sc = led.record(e, then=then if as_precedent else None)
        _report(ctx, no, sc, led)
        sid = led.require_open().id
    if made:
        echo(_("kept as precedent {id} (`wiezen precedent show {id}`)").format(id=made[0]))
    elif e.reason.strip() and _interactive():
        echo(_("hint: to keep this ruling for next time: wiezen precedent add {title} --session {session} --deal {deal} "
               "--ruling \"WHAT WAS DECIDED\"").format(title=shlex.quote(e.reason.strip()), session=sid, deal=no))
