"""The scoresheet and its relatives: sheet, explain, sessions, replay, db."""

from __future__ import annotations

import os
from typing import Any

import click

from ..errors import WiezenError
from ..scoring import fmt, plain, signed
from ..session import TableState, sitting_out
from .common import echo_json, read_text_file, table
from .session_cmds import _db, status_line


def sheet_doc(led: Any, s: Any) -> dict[str, Any]:
    """The sheet as INTERFACE.md's JSON document."""
    rows = led.entries(s)
    state, _ = led.state(s)
    return {
        "session": {"id": s.id, "name": s.name, "date": s.date, "rules": s.rules_name, "players": list(s.players),
                    "open": s.ended_at is None},
        "entries": [
            {
                "no": r.no, "kind": r.kind, "text": r.text, "dealer": s.players[r.dealer], "multiplier": r.multiplier,
                "points": {p: plain(v) for p, v in r.points.items()}, "voided": r.voided,
                **({"reason": r.reason} if r.reason else {}),
                **({"voided_by": r.void_action} if r.voided else {}),
            }
            for r in rows
        ],
        "totals": {p: plain(v) for p, v in led.totals(s.id).items()},
        "dealer": s.players[state.dealer],
        "sitting_out": list(sitting_out(s.players, state.dealer)),
        "pending_multiplier": state.pending,
        "rounds_owed": led.rounds_owed(s),
    }


def render_sheet(doc: dict[str, Any], last: int | None = None) -> str:
    """The paper sheet: one row per entry with the running totals; '*' on doubled deals."""
    players = doc["session"]["players"]
    running = {p: 0.0 for p in players}
    rows = []
    for e in doc["entries"]:
        mark = "*" if e["multiplier"] > 1 else ""
        if e["voided"]:
            cells = [("(" + signed(e["points"][p]) + ")") if p in e["points"] else "" for p in players]
            rows.append([str(e["no"]), e["dealer"], f"~{e['text']}~ voided", mark] + cells)
            continue
        for p, v in e["points"].items():
            running[p] += v
        cells = []
        for p in players:
            if p not in e["points"]:
                cells.append(f"{fmt(plain(running[p]))}  (out)" if e["kind"] != "penalty" else fmt(plain(running[p])))
            elif e["kind"] in ("pass", "redeal") or (e["kind"] == "penalty" and e["points"][p] == 0):
                cells.append(fmt(plain(running[p])))
            else:
                cells.append(f"{fmt(plain(running[p]))}  ({signed(e['points'][p])})")
        text = e["text"] + (f" - {e['reason']}" if e.get("reason") else "")
        rows.append([str(e["no"]), e["dealer"], text, mark] + cells)
    if last is not None:
        rows = rows[-last:]
    s = doc["session"]
    head = f"session {s['id']}: {s['name'] + ', ' if s['name'] else ''}{s['date']} ({s['rules']}{'' if s['open'] else ', ended'})"
    out = [head]
    if rows:
        colalign = ("right", "left", "left", "left") + ("right",) * len(players)
        out.append(table(rows, ["#", "dealer", "entry", "x"] + players, colalign=colalign))
    else:
        out.append("(no entries yet)")
    out.append("totals: " + ", ".join(f"{p} {signed(v)}" for p, v in doc["totals"].items()))
    if s["open"]:
        st = TableState(players.index(doc["dealer"]), doc["pending_multiplier"])
        out.append("next: " + status_line(tuple(players), st))
    owed = {p: n for p, n in doc["rounds_owed"].items() if n}
    if owed:
        out.append("rounds owed: " + ", ".join(f"{p} {n}" for p, n in owed.items()))
    return "\n".join(out)


@click.command()
@click.option("--session", "session_id", type=int, help="Session ID (default: the open one, else the newest).")
@click.option("--json", "as_json", is_flag=True, help="JSON output (shape in the README).")
@click.option("--last", type=click.IntRange(min=1), help="Show only the last N rows.")
@click.pass_context
def sheet(ctx: click.Context, session_id: int | None, as_json: bool, last: int | None) -> None:
    """Show the scoresheet: one row per entry with running totals.

    Each player's column shows his running total and, in brackets, what the entry gave him. A '*' marks
    a doubled deal; voided entries stay, marked ~struck~ and not counted; (out) marks who sat out.

    \b
    Examples:
        wiezen sheet
        wiezen sheet --session 3 --json
    """
    from .. import ledger

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        s = led.session(session_id)
        doc = sheet_doc(led, s)
    if as_json:
        echo_json(doc)
    else:
        click.echo(render_sheet(doc, last))


@click.command()
@click.argument("no", type=int)
@click.option("--session", "session_id", type=int, help="Session ID (default: the open one, else the newest).")
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def explain(ctx: click.Context, no: int, session_id: int | None, as_json: bool) -> None:
    """Explain how entry NO was scored, step by step, under the session's own house rules.

    \b
    Example:
        wiezen explain 4
    """
    from .. import ledger
    from ..session import fold

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        s = led.session(session_id)
        rows = led.entries(s)
    versions = [r for r in rows if r.no == no]
    if not versions:
        raise WiezenError(f"no entry {no} in session {s.id}")
    current = [r for r in rows if not r.voided]
    result = fold([(r.no, r.as_input()) for r in current], s.rules, s.players, s.first_dealer)
    steps: list[str] = []
    for r, sc in zip(current, result.scored):
        if r.no == no:
            steps = list(sc.explanation)
    target = next((r for r in versions if not r.voided), versions[-1])
    doc = {
        "session": s.id, "no": no, "kind": target.kind, "text": target.text, "rules": s.rules_name,
        "dealer": s.players[target.dealer], "multiplier": target.multiplier,
        "points": {p: plain(v) for p, v in target.points.items()}, "voided": target.voided,
        "explanation": steps,
        "history": [
            {"text": r.text, "voided": r.voided, "how": r.void_action, "reason": r.void_reason, "at": r.created_at}
            for r in versions
        ],
    }
    if as_json:
        echo_json(doc)
        return
    click.echo(f"#{no} {target.text} (session {s.id}, {s.rules_name}; dealer {s.players[target.dealer]})")
    if target.voided:
        click.echo(f"  voided by {target.void_action}{': ' + target.void_reason if target.void_reason else ''}")
        return
    for step in steps:
        click.echo(f"  {step}")
    if len(versions) > 1:
        click.echo("  earlier versions: " + "; ".join(f"{r.text} ({r.void_action})" for r in versions if r.voided))


@click.command()
@click.option("--since", metavar="DATE", help="YYYY-MM-DD, today, yesterday, last-week or last-month.")
@click.option("--until", metavar="DATE", help="Same forms as --since.")
@click.option("--json", "as_json", is_flag=True, help="JSON output.")
@click.pass_context
def sessions(ctx: click.Context, since: str | None, until: str | None, as_json: bool) -> None:
    """List the sessions, newest first: date, name, players, deals, leader, house rules.

    \b
    Examples:
        wiezen sessions
        wiezen sessions --since last-week
    """
    import datetime

    from .. import ledger
    from ..dates import parse_when

    today = datetime.date.today()
    lo = parse_when(since, today).isoformat() if since else None
    hi = parse_when(until, today).isoformat() if until else None
    path = ledger.existing_db_path(_db(ctx))
    items: list[dict[str, Any]] = []
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = led.sessions(lo, hi)
    if as_json:
        echo_json([{**i, "totals": {p: plain(v) for p, v in i["totals"].items()}} for i in items])
        return
    if not items:
        click.echo("no sessions" + (" in that period" if since or until else " yet"))
        return
    click.echo(table(
        [[i["id"], i["date"], i["name"], ", ".join(i["players"]), i["deals"], i["leader"], i["rules"] + (" (open)" if i["open"] else "")]
         for i in items],
        ["id", "date", "name", "players", "deals", "leader", "rules"],
    ))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON.")
@click.option("--keep-open", is_flag=True, help="Leave the session open, to go on recording with `wiezen deal`.")
@click.pass_context
def replay(ctx: click.Context, file: str, as_json: bool, keep_open: bool) -> None:
    """Record a whole session written as a text file, and print its sheet.

    All or nothing: a bad line records nothing and names the line. The same file twice is recognised
    and not recorded twice. The file format:

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
        undo
    """
    import datetime
    import sys

    from .. import ledger
    from .common import rules_from_spec

    if file == "-":
        text = sys.stdin.read()
        default_name = ""
    else:
        text = read_text_file(file, "session file")
        default_name = os.path.splitext(os.path.basename(file))[0]
    with ledger.open_ledger(_db(ctx)) as led:
        sid, recorded = led.replay(
            text,
            lambda spec: rules_from_spec(spec, led.rules_text),
            datetime.date.today().isoformat(),
            default_name=default_name,
            keep_open=keep_open,
        )
        s = led.session(sid)
        doc = sheet_doc(led, s)
    if as_json:
        echo_json(doc)
        return
    if not recorded:
        click.echo(f"already recorded as session {sid}: not recorded again", err=True)
    click.echo(render_sheet(doc))


@click.group()
def db() -> None:
    """Where the ledger lives, and backups."""


@db.command()
@click.pass_context
def path(ctx: click.Context) -> None:
    """Print the ledger's path (--db, else $WIEZEN_DB, else the user data folder)."""
    from .. import ledger

    p = ledger.resolve_path(_db(ctx))
    click.echo(p)


@db.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.pass_context
def backup(ctx: click.Context, file: str) -> None:
    """Write a consistent copy of the ledger to FILE (SQLite's online backup), even while others write."""
    from .. import ledger

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        led.backup(file)
    click.echo(f"backup written to {file}")
