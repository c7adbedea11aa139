"""Who pays whom, as text: the settle lines of the evening (`wiezen settle`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ..core.dates import date_text
from ..core.i18n import _, ngettext
from ..core.numbers import fmt, money

if TYPE_CHECKING:
    from ..core.settle import Payment


class Evening(Protocol):
    """The session settled (the ledger's SessionInfo): its number, name and date."""

    @property
    def id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def date(self) -> str: ...


def settle_text(s: Evening, payments: Sequence[Payment], cents: int | None, owed_line: str, width: int | None,
                others: Sequence[Evening] = ()) -> str:
    """The evening's heading, one line per payment (points, and money at ``cents`` a point), the rounds owed.
    ``others``: the evening's other sessions, settled together with ``s`` (`settle --date`, `--session 1,3`)."""
    from .fit import wrap_all
    from .render import table

    rate = (
        ngettext(", at {n} cent a point", ", at {n} cents a point", cents).format(n=cents) if cents is not None else ""
    )
    if others:
        every = [s, *others]
        days = ", ".join(date_text(d) for d in dict.fromkeys(x.date for x in every))
        lines = [_("sessions {ids}, settled together: {dates}{rate}").format(
            ids=", ".join(str(x.id) for x in every), dates=days, rate=rate)]
    else:
        lines = [_("session {id}: {name}{date}{rate}").format(
            id=s.id, name=s.name + ", " if s.name else "", date=date_text(s.date), rate=rate
        )]
    if not payments:
        lines.append(_("all square: nobody pays anything"))
        return wrap_all("\n".join(lines + ([owed_line] if owed_line else [])), width)
    rows = []
    for p in payments:
        pts = fmt(p.amount)
        # "1 point", "7.5 points": the plural unless the amount is exactly one
        row = [p.payer, _("pays"), p.payee,
               ngettext("{points} point", "{points} points", 1 if fmt(p.amount, machine=True) == "1" else 2).format(points=pts)]
        if p.cents is not None:
            row.append(money(p.cents))
        rows.append(row)
    text = table(rows, [], tablefmt="plain", colalign=("left", "left", "left", "right", "right")[: len(rows[0])])
    if width is not None and max(len(x) for x in text.split("\n")) > width:
        text = "\n".join(" ".join(x for x in row if x) for row in rows)  # too wide for a table: one line each
    return wrap_all("\n".join(lines + [text] + ([owed_line] if owed_line else [])), width)
