"""The scoresheet and its relatives: sheet, explain, sessions, replay, db."""

from __future__ import annotations

import os
from typing import Any

import click

from .common import echo, ENTRY_NO, COUNT, SafePath

from ..core.errors import WiezenError
from ..core.scoring import fmt, plain, signed
from ..core.session import TableState, sitting_out
from .common import DATE_HELP, DATE_PICK_HELP, SESSION_HELP, Output, SessionRef, echo_json, output_options, pick_session, read_input, table, text_width
from .session_cmds import _db, status_line


REPLAY_ROWS = 50  # a replayed sheet longer than this prints a summary (replay --full: all of it)
REPLAY_TAIL = 10  # the rows the summary shows


def sheet_doc(led: Any, s: Any, last: int | None = None) -> dict[str, Any]:
    """The sheet as INTERFACE.md's JSON document.

    With ``last``: only (about) the last rows, read from the ledger with the running totals before them
    (``running_from``), so that showing the end of a long sheet costs the same as of a short one.
    """
    start = led.window_start(s, last) if last is not None else 0
    rows = led.entries(s, since_no=start)
    state, _ = led.state(s)
    rulings = _rulings(led, s, rows)
    seals = led.seals(s.id)
    late = led.corrections(s.id) if seals else {}
    by_id = {r.id: r for r in rows}

    def correction(r: Any) -> dict[str, Any]:
        """An entry recorded after the evening ended: when, and why (the reason of what it replaced)."""
        if ("entry", r.id) not in late:
            return {}
        old = by_id.get(r.replaces) if r.replaces is not None else None
        return {"correction": {"at": late[("entry", r.id)], "reason": old.void_reason if old else r.reason}}

    def voided_after(r: Any) -> dict[str, Any]:
        if ("void", r.id) not in late:
            return {}
        return {"voided_after": {"at": late[("void", r.id)], "reason": r.void_reason}}

    return {
        "session": {"id": s.id, "name": s.name, "date": s.date, "rules": s.rules_name, "players": list(s.players),
                    "open": s.ended_at is None, "seal": seals[-1].code if seals else None,
                    "seals": [{"n": x.n, "seal": x.code, "at": x.sealed_at} for x in seals]},
        "entries": [
            {
                "no": r.no, "kind": r.kind, "text": r.text, "dealer": s.players[r.dealer], "multiplier": r.multiplier,
                "points": {p: plain(v) for p, v in r.points.items()}, "voided": r.voided,
                **({"reason": r.reason} if r.reason else {}),
                **({"voided_by": r.void_action} if r.voided else {}),
                **({"precedents": [pid for pid, _ in rulings[r.id]]} if r.id in rulings else {}),
                **correction(r), **voided_after(r),
            }
            for r in rows
        ],
        "totals": {p: plain(v) for p, v in led.totals(s.id).items()},
        "dealer": s.players[state.dealer],
        "sitting_out": list(sitting_out(s.players, state.dealer)),
        "pending_multiplier": state.pending,
        "rounds_owed": led.rounds_owed(s),
        **_evening(led, s),
        **({"running_from": _running_from(led, s, rows)} if start > 1 else {}),
    }


def _running_from(led: Any, s: Any, rows: list[Any]) -> dict[str, Any]:
    """Each player's running total before ``rows``, the end of the sheet: the totals less what those rows gave."""
    out = dict(led.totals(s.id))
    for r in rows:
        if not r.voided:
            for p, v in r.points.items():
                out[p] -= v
    return {p: plain(v) for p, v in out.items()}


def _evening(led: Any, s: Any) -> dict[str, Any]:
    """The evening's planned length and where it stands (only when one was given at the start)."""
    from .session_cmds import evening_progress

    p = evening_progress(led, s)
    if p is None:
        return {}
    kind, n = s.plan.split()
    return {"evening": {kind: int(n), "deals_played": led.deals_played(s), "progress": p.line, "over": p.over}}


def _rulings(led: Any, s: Any, rows: list[Any]) -> dict[int, list[tuple[int, str]]]:
    """Entry row id -> [(precedent id, title)] of the rulings attached to its number: on the row that
    counts, or on the last version when every version is voided."""
    from ..ledger.precedents import for_session

    by_no = for_session(led, s.id)
    out: dict[int, list[tuple[int, str]]] = {}
    for no, found in by_no.items():
        versions = [r for r in rows if r.no == no]
        if versions:
            out[next((r for r in versions if not r.voided), versions[-1]).id] = found
    return out


def _ruling_mark(ids: list[int]) -> str:
    return f" [precedent{'s' if len(ids) > 1 else ''} {', '.join(map(str, ids))}]"


def render_sheet(doc: dict[str, Any], last: int | None = None, width: int | None = None, heading: bool = True) -> str:
    """The paper sheet: one row per entry with the running totals; '*' on doubled deals; the seal last.

    With ``width`` no line is wider: the table falls back to the compact layout (views/fit.py) and the
    other lines are wrapped.
    """
    from ..views.fit import compact_sheet, entry_lines, wrap
    from ..views.safe import safe_tree
    from .club import correction_note, seal_footer

    doc = safe_tree(doc)  # type: ignore[assignment]  # user text shown, never obeyed: one line per field
    players = doc["session"]["players"]
    running = {p: float(doc.get("running_from", {}).get(p, 0)) for p in players}
    rows = []
    for e in doc["entries"]:
        mark = "" if e["multiplier"] == 1 else "*" if e["multiplier"] == 2 else f"*{e['multiplier']}"
        if e["voided"]:
            cells = [("(" + signed(e["points"][p]) + ")") if p in e["points"] else "" for p in players]
            text = f"~{e['text']}~ voided" + (_ruling_mark(e["precedents"]) if e.get("precedents") else "")
            if e.get("voided_after"):
                text += f" ({correction_note(e['voided_after'])})"
            rows.append([str(e["no"]), e["dealer"], text, mark] + cells)
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
        if e.get("precedents"):
            text += _ruling_mark(e["precedents"])
        if e.get("correction"):
            text += f" ({correction_note(e['correction'])})"
        rows.append([str(e["no"]), e["dealer"], text, mark] + cells)
    shown = doc["entries"]
    if last is not None:
        rows, shown = rows[-last:], shown[-last:]
    s = doc["session"]
    head = f"session {s['id']}: {s['name'] + ', ' if s['name'] else ''}{s['date']} ({s['rules']}{'' if s['open'] else ', ended'})"
    out = [head] if heading else []
    if rows:
        colalign = ("right", "left", "left", "left") + ("right",) * len(players)
        full = table(rows, ["#", "dealer", "entry", "x"] + players, colalign=colalign).split("\n")
        if width is None or max(len(x) for x in full) <= width:
            out += full
        else:
            out += compact_sheet(doc, shown, width, signed) or entry_lines(doc, shown, width, signed)
    else:
        out.append("(no entries yet)")
    out.append("totals: " + ", ".join(f"{p} {signed(v)}" for p, v in doc["totals"].items()))
    if s["open"]:
        st = TableState(players.index(doc["dealer"]), doc["pending_multiplier"])
        out.append("next: " + status_line(tuple(players), st))
    owed = {p: n for p, n in doc["rounds_owed"].items() if n}
    if owed:
        out.append("rounds owed: " + ", ".join(f"{p} {n}" for p, n in owed.items()))
    if doc.get("evening"):
        out.append(doc["evening"]["progress"])
    footer = seal_footer(s)
    if footer and not s["open"]:
        out.append(footer)
    return "\n".join(piece for line in out for piece in wrap(line, width))


@click.command()
@output_options(("text", "json", "csv", "html"), default="text", json_help="JSON output (the same as --format json).",
                format_help="text (default), json, csv (one row per entry: each player's points, empty where he "
                "sat out or the entry is voided), or html: one self-contained page with a chart.")
@click.option("--session", "session_id", type=SessionRef(), help=SESSION_HELP)
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

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        s = pick_session(led, session_id, date_)
        doc = sheet_doc(led, s)
    if output.format == "html":
        from .club import sheet_html

        echo(sheet_html(doc), nl=False)
        return
    headers, rows = sheet_rows(doc)
    output.emit(headers, rows, doc, text=lambda: render_sheet(doc, last, text_width()))


def sheet_rows(doc: dict[str, Any]) -> tuple[list[str], list[list[Any]]]:
    """The sheet as CSV rows: one per entry, each player's points of that entry (empty where he sat out or
    the entry is voided), so that a spreadsheet's SUM of a column is the player's total."""
    players = doc["session"]["players"]
    headers = ["no", "kind", "entry", "reason", "dealer", "multiplier", "voided", *players]
    rows = [
        [e["no"], e["kind"], e["text"], e.get("reason", ""), e["dealer"], e["multiplier"], int(e["voided"])]
        + [None if e["voided"] else e["points"].get(p) for p in players]
        for e in doc["entries"]
    ]
    return headers, rows


@click.command()
@click.argument("no", type=ENTRY_NO)
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

    with ledger.open_ledger(_db(ctx), readonly=True) as led:
        s = pick_session(led, session_id, date_)
        doc = explain_doc(led, s, no)
    if as_json:
        echo_json(doc)
        return
    echo(render_explain(doc))


def explain_doc(led: Any, s: Any, no: int) -> dict[str, Any]:
    """How entry ``no`` of session ``s`` was scored (the `explain --json` document); also used by `play`."""
    from ..core.session import fold

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
    rulings = _rulings(led, s, rows).get(target.id, [])
    return {
        "session": s.id, "no": no, "kind": target.kind, "text": target.text, "rules": s.rules_name,
        "dealer": s.players[target.dealer], "multiplier": target.multiplier,
        "points": {p: plain(v) for p, v in target.points.items()}, "voided": target.voided,
        "explanation": steps,
        "history": [
            {"text": r.text, "voided": r.voided, "how": r.void_action, "reason": r.void_reason, "at": r.created_at,
             "dealer": s.players[r.dealer], "multiplier": r.multiplier, "points": {p: plain(v) for p, v in r.points.items()}}
            for r in versions
        ],
        "precedents": [{"id": pid, "title": title} for pid, title in rulings],
    }


def render_explain(doc: dict[str, Any]) -> str:
    """The text of `explain`: the steps, or how the entry was voided; earlier versions last."""
    from ..views.safe import safe_tree

    doc = safe_tree(doc)  # type: ignore[assignment]
    out = [f"#{doc['no']} {doc['text']} (session {doc['session']}, {doc['rules']}; dealer {doc['dealer']})"]
    rulings = [
        f"  ruling attached: precedent {p['id']} \"{p['title']}\" (`wiezen precedent show {p['id']}`)"
        for p in doc.get("precedents", [])
    ]
    if doc["voided"]:
        last = doc["history"][-1]
        out.append(f"  voided by {last['how']}{': ' + last['reason'] if last['reason'] else ''}")
        return "\n".join(out + rulings)
    out += [f"  {step}" for step in doc["explanation"]]
    earlier = [h for h in doc["history"] if h["voided"]]
    if earlier:
        out.append("  earlier versions: " + "; ".join(_version(h, doc) for h in earlier))
    return "\n".join(out + rulings)


def _version(h: dict[str, Any], doc: dict[str, Any]) -> str:
    """An earlier version of an entry, with what made it differ when its line is the same as now's."""
    why = h["how"] or ""
    if h.get("reason") and h["reason"].startswith("re-scored"):
        why = h["reason"]
    if h["text"] != doc["text"] or "dealer" not in h:
        return f"{h['text']} ({why})"
    diffs = []
    if h["dealer"] != doc["dealer"]:
        diffs.append(f"dealt by {h['dealer']}")
    if h["multiplier"] != doc["multiplier"]:
        diffs.append(f"x{h['multiplier']}")
    if h["points"] != doc["points"]:
        diffs.append(", ".join(f"{p} {signed(v)}" for p, v in h["points"].items()))
    return f"{h['text']}{' (' + '; '.join(diffs) + ')' if diffs else ''} ({why})"


@click.command()
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
    import datetime

    from .. import ledger
    from ..core.dates import parse_when

    today = datetime.date.today()
    lo = parse_when(since, today).isoformat() if since is not None else None
    hi = parse_when(until, today).isoformat() if until is not None else None
    path = ledger.existing_db_path(_db(ctx))
    items: list[dict[str, Any]] = []
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = led.sessions(lo, hi)
    from ..core.dates import weekday_name

    if output.format == "table" and not items:
        echo("no sessions" + (" in that period" if since is not None or until is not None else " yet"))
        return
    if output.format == "csv":
        rows = [[i["id"], i["date"], weekday_name(i["date"]), i["name"], ", ".join(i["players"]), i["deals"],
                 i["leader"], i["rules"], int(i["open"])] for i in items]  # fmt: skip
        headers = ["id", "date", "weekday", "name", "players", "deals", "leader", "rules", "open"]
    else:
        rows = [[i["id"], f"{weekday_name(i['date'])} {i['date']}", i["name"], ", ".join(i["players"]), i["deals"],
                 i["leader"], i["rules"] + (" (open)" if i["open"] else "")] for i in items]  # fmt: skip
        headers = ["id", "date", "name", "players", "deals", "leader", "rules"]
    output.emit(headers, rows, [{**i, "weekday": weekday_name(i["date"]),
                                 "totals": {p: plain(v) for p, v in i["totals"].items()}} for i in items])


@click.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True, type=SafePath(dir_okay=False, allow_dash=True))
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
        undo

    \b
    Examples:
        wiezen replay examples/cafe-de-kroon-rupelstreek.txt
        wiezen replay examples/*.txt
        wiezen --db club.db replay avond.txt --json
        wiezen replay --keep-open avond.txt && wiezen deal samen 8 jan+piet 9
        wiezen replay --full seizoen.txt
    """
    import datetime

    from .. import ledger
    from .common import new_ledger_note, progress, rules_from_spec

    if keep_open and len(files) > 1:
        raise WiezenError(f"--keep-open leaves one session open: give one file, not {len(files)}")
    if files.count("-") > 1:
        raise WiezenError("standard input ('-') can be read once: give '-' once")
    texts = []
    for file in files:
        text = read_input(file, "session file")
        name = "" if file == "-" else os.path.splitext(os.path.basename(file))[0]
        texts.append((file, text, name))
    many = len(files) > 1
    total = sum(t.count("\n") + 1 for _, t, _ in texts)
    results: list[tuple[str, int, bool]] = []
    with ledger.open_ledger(_db(ctx), create=new_ledger_note) as led, progress(total, "recording") as bar:
        with led.write():  # every file, or none
            for file, text, name in texts:
                try:
                    sid, recorded = led.replay(
                        text,
                        lambda spec: rules_from_spec(spec, led.rules_text),
                        datetime.date.today().isoformat(),
                        default_name=name,
                        keep_open=keep_open,
                        progress=bar.update,
                    )
                except WiezenError as e:
                    if many:
                        raise WiezenError(f"{'stdin' if file == '-' else file}: {e}; nothing was recorded") from None
                    raise
                results.append((file, sid, recorded))
        counts = [0 if as_json or full else led.row_count(led.session(sid)) for _, sid, _ in results]
        docs = [sheet_doc(led, led.session(sid), REPLAY_TAIL if n > REPLAY_ROWS else None)
                for (_, sid, _), n in zip(results, counts)]
    if as_json:
        echo_json(docs if many else docs[0])
        return
    for i, ((file, sid, recorded), doc, n) in enumerate(zip(results, docs, counts)):
        if i:
            echo()
        if not recorded:
            where = f"{file}: " if many else ""
            echo(f"{where}already recorded as session {sid}: not recorded again", err=True)
        if n > REPLAY_ROWS:
            echo(render_sheet(doc, last=REPLAY_TAIL, width=text_width()).replace(
                "\n", f"\n({n - REPLAY_TAIL} earlier rows not shown: `wiezen sheet --session {sid}` or `replay --full` "
                "shows the whole sheet)\n", 1))
        else:
            echo(render_sheet(doc, width=text_width()))


@click.group()
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
    if backups:
        echo("backups made before schema upgrades:", err=True)
        for b in backups:
            echo(f"  {b}", err=True)


@db.command()
@click.argument("file", type=SafePath(dir_okay=False))
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
    echo(f"backup written to {file}")


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
