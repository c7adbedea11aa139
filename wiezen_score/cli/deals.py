"""`wiezen deals`: every recorded deal of the ledger, across sessions, filtered by player, contract and dates."""

from __future__ import annotations

import click

from ..core.i18n import N_, _
from .common import DATE_HELP, Output, _db, output_options
from .dutch import command


@command()
@output_options()
@click.option("--player", "players", metavar="PLAYER", multiple=True,
              help="Only the deals this player played as a taker (bidder, partner or on miserie); "
              "give it twice for the deals two players played together.")
@click.option("--contract", metavar="CONTRACT",
              help="Only this contract: its name (samen), abbreviation (gm), or one word of it "
              "(miserie: kleine, grote and open miserie).")
@click.option("--since", metavar="DATE", help="First date to include: " + DATE_HELP)
@click.option("--until", metavar="DATE", help="Same forms as --since.")
@click.pass_context
def deals(ctx: click.Context, players: tuple[str, ...], contract: str | None, since: str | None,
          until: str | None, output: Output) -> None:
    """Every recorded deal of the ledger, across sessions, oldest first: the morning after's questions.

    A deal that was undone or corrected is left out (its correction is in); a rondje pas, a redeal and a
    penalty are not deals. Each taker's result is shown (made or lost), then every player's points.

    \b
    Examples:
        wiezen deals --contract miserie --player jan --player piet
        wiezen deals --player mieke --since last-month
        wiezen deals --contract abondance --json
    """
    from .. import ledger
    from ..core import dates
    from ..core.dates import day_text, parse_when
    from ..core.numbers import plain, signed
    from ..ledger.deals import RecordedDeal, recorded_deals

    today = dates.today()
    lo = parse_when(since, today).isoformat() if since is not None else None
    hi = parse_when(until, today).isoformat() if until is not None else None
    path = ledger.existing_db_path(_db(ctx))
    items: list[RecordedDeal] = []
    if path is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            items = recorded_deals(led, players, contract, lo, hi)

    def result(d: RecordedDeal) -> str:
        return ", ".join((_("{player} made") if d["made"][t] else _("{player} lost")).format(player=t) for t in d["takers"])

    def points(d: RecordedDeal) -> str:
        return ", ".join(f"{p} {signed(v)}" for p, v in d["points"].items())

    headers = [N_("date"), N_("session"), "#", N_("deal"), N_("result"), N_("points")]
    rows = [[day_text(d["date"]), d["session"], d["no"], d["text"], result(d), points(d)] for d in items]
    csv_headers = ["date", "session", "no", "text", "contract", "takers", "made", "points"]
    csv_rows = [[d["date"], d["session"], d["no"], d["text"], d["contract"], " ".join(d["takers"]),
                 " ".join(t for t in d["takers"] if d["made"][t]),
                 " ".join(f"{p}={plain(v)}" for p, v in d["points"].items())] for d in items]
    doc = [{**d, "points": {p: plain(v) for p, v in d["points"].items()}} for d in items]
    empty = _("no deals match") if players or contract or since or until else _("no deals recorded yet")
    output.emit(headers, rows, doc, text=None if items else lambda: empty, csv_headers=csv_headers, csv_rows=csv_rows)
