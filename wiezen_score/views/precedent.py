"""The precedents log as text: search-hit highlighting, the list's CSV rows, an entry's line, a penalty's ruling."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ..core.i18n import _
from ..core.safe import HL_END, HL_START

if TYPE_CHECKING:
    from ..core.rules import HouseRules
    from ..core.scoring import Points
    from ..core.session import Scored


class Ruled(Protocol):
    """A precedent as the log holds it (ledger/precedents.py Precedent): where it came from, and its text."""

    @property
    def id(self) -> int: ...
    @property
    def date(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def ruling(self) -> str: ...
    @property
    def tags(self) -> tuple[str, ...]: ...
    @property
    def session_id(self) -> int | None: ...
    @property
    def entry_no(self) -> int | None: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def origin(self) -> str: ...


class Recorded(Protocol):
    """An entry as recorded (ledger/rows.py EntryRow): what an entry's line shows of it."""

    @property
    def no(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def dealer(self) -> int: ...
    @property
    def multiplier(self) -> int: ...
    @property
    def points(self) -> Mapping[str, Points]: ...


class RuledSession(Protocol):
    """The session a penalty is recorded in: its house rules and their name."""

    @property
    def rules(self) -> HouseRules: ...
    @property
    def rules_name(self) -> str: ...

_BOLD = "\x1b[1;33m"
_RESET = "\x1b[0m"


def highlight(text: str, colour: bool) -> str:
    """FTS5 highlight markers as bold yellow in a terminal, else dropped."""
    from .safe import safe

    # the text itself shown safely (visible escapes), the markers then turned into colour
    text = HL_START.join(HL_END.join(safe(x) for x in part.split(HL_END)) for part in text.split(HL_START))
    if colour:
        return text.replace(HL_START, _BOLD).replace(HL_END, _RESET)
    return text.replace(HL_START, "").replace(HL_END, "")


def _source(p: Ruled) -> str:
    if p.session_id is None:
        return _("house rules") if p.origin == "house-rules" else ""
    return _("session {id}").format(id=p.session_id) + (f" #{p.entry_no}" if p.entry_no is not None else "")


_CSV_HEADERS = ["id", "date", "title", "ruling", "tags", "session", "deal", "players", "origin"]


def _csv_rows(items: Sequence[Ruled]) -> list[list[object]]:
    return [[p.id, p.date, p.title, p.ruling, ", ".join(p.tags), p.session_id, p.entry_no, ", ".join(p.players),
             p.origin] for p in items]  # fmt: skip


def _entry_line(r: Recorded, players: tuple[str, ...]) -> str:
    from ..core.numbers import signed

    mult = f" (x{r.multiplier})" if r.multiplier > 1 else ""
    pts = ", ".join(f"{p} {signed(v)}" for p, v in r.points.items())
    reason = f" - {r.reason}" if r.reason else ""
    return f"#{r.no} {r.text}{reason}{mult}, " + _("dealer {player}").format(player=players[r.dealer]) + (f": {pts}" if pts else "")


def _penalty_ruling(s: RuledSession, sc: Scored) -> str:
    from ..core.numbers import fmt

    off = sc.offender
    if sc.round:
        return f"{off} buys a round (een rondje geven) instead of paying points."
    others = [p for p in sc.points if p != off]
    each = s.rules.penalty
    return (f"{off} pays the penalty ({each} to each other player of the deal in play: "
            f"{', '.join(others)}; {fmt(-sc.points.get(off, 0))} in all) under {s.rules_name}.")
