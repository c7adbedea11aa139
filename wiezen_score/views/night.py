"""A club night as text: each table's totals, the night's ranking so far, the next round's seating."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.dates import date_text
from ..core.i18n import _, ngettext
from ..core.numbers import decimal, signed

if TYPE_CHECKING:
    from ..core.documents import NightDoc


def night_text(doc: NightDoc) -> str:
    """The text of `night show` and `night end` (the `night show --json` document)."""
    from .render import table

    n = doc["night"]
    if n.get("rounds"):
        out = [_("{name} {date}, round {round} of {rounds}").format(
            name=n["name"] or _("the night"), date=date_text(n["date"]), round=n["round"], rounds=n["rounds"]).strip()]
    else:
        out = [_("{name} {date}, round {round}").format(name=n["name"] or _("the night"), date=date_text(n["date"]),
                                                         round=n["round"]).strip()]
    for t in doc["tables"]:
        state = _("playing") if t["open"] else _("ended")
        totals = ", ".join(f"{p} {signed(v)}" for p, v in t["totals"].items())
        deals = ngettext("{n} deal", "{n} deals", t["deals"]).format(n=t["deals"])
        out.append(_("  round {round}, table {table} ({state}, {deals}): {totals}").format(
            round=t["round"], table=t["table"], state=state, deals=deals, totals=totals))
    if doc["ranking"]:
        out.append("\n" + _("the night's ranking:"))
        out.append(table([[d["rank"] if d["rank"] is not None else "", d["player"], decimal(d["score"]),
                           decimal(d["points"]), d["tables"]] for d in doc["ranking"]],
                         ["#", _("player"), _("score"), _("points"), _("tables")]))
    if doc["next"]:
        out.append("\n" + _("the next round by this standing:"))
        out += [_("  table {table}: {players}").format(table=t["table"], players=", ".join(t["players"]))
                for t in doc["next"]]
    return "\n".join(out)
