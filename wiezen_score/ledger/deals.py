"""Every recorded deal of the ledger, across sessions: `wiezen deals`, for the morning after's questions.

"When did two of us play miserie, and one lost?" Only deals that count: a voided entry (undone, or replaced by its
amendment) is left out, its amendment is in; a rondje pas, a redeal and a penalty are not deals."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, TypedDict

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.scoring import Points

if TYPE_CHECKING:
    from .store import Ledger


class RecordedDeal(TypedDict):
    session: int
    date: str
    no: int
    text: str
    contract: str
    takers: list[str]
    made: dict[str, bool]  # each taker: made his contract (True) or lost it
    points: dict[str, Points]  # every player in the deal, in seat order (not who sat out)


_SQL = """
SELECT e.id, e.session_id, s.date, e.no, e.text, e.contract, p.name, ep.sixth, ep.taker, ep.made
FROM entries e
JOIN sessions s ON s.id = e.session_id
JOIN entry_points ep ON ep.entry_id = e.id
JOIN players p ON p.id = ep.player_id
LEFT JOIN seats st ON st.session_id = e.session_id AND st.player_id = ep.player_id
WHERE e.kind = 'deal' AND e.id NOT IN (SELECT entry_id FROM voids)
  AND (:since IS NULL OR s.date >= :since) AND (:until IS NULL OR s.date <= :until)
ORDER BY s.date, e.session_id, e.no, st.seat
"""


def contract_matches(word: str, known: Sequence[str]) -> list[str]:
    """The contracts of ``known`` that ``word`` names: a contract's name (``samen``), its abbreviation (``gm``), its
    words as said at the table (``grote miserie``), or one word of a name (``miserie``: kleine-, grote- and
    open-miserie; ``solo``: solo and solo-slim). A word that names none is refused with the contracts there are."""
    from ..core.abbrev import ABBREVIATIONS

    w = "-".join(word.lower().split())
    w = ABBREVIATIONS.get(w, w)
    found = [c for c in known if c == w or w in c.split("-")]
    if not found:
        raise WiezenError(
            _("no deal of a contract '{word}' in this ledger (its deals: {contracts})").format(
                word=word, contracts=", ".join(known) or "-")
        )
    return found


def recorded_deals(led: Ledger, players: Sequence[str] = (), contract: str | None = None, since: str | None = None,
                   until: str | None = None) -> list[RecordedDeal]:
    """The deals that count, oldest first; with ``players``, only those each of them played as a taker (bidder,
    partner, or on miserie); with ``contract``, only those of a contract it names (``contract_matches``)."""
    from ..core.deal import resolve_player

    conn = led.conn
    names = [str(r[0]) for r in conn.execute("SELECT name FROM players ORDER BY id")]
    wanted: list[str] = []
    for word in players:
        try:
            wanted.append(resolve_player(word, names))
        except WiezenError:
            raise WiezenError(_("no player '{word}' in this ledger (players: {players})").format(
                word=word, players=", ".join(names) or "-")) from None
    contracts: set[str] | None = None
    if contract is not None:
        known = [str(r[0]) for r in conn.execute(
            "SELECT DISTINCT contract FROM entries WHERE kind = 'deal' ORDER BY contract")]
        contracts = set(contract_matches(contract, known))
    out: list[RecordedDeal] = []
    current: int | None = None
    for eid, sid, date, no, text, name, player, six, taker, made in conn.execute(
            _SQL, {"since": since, "until": until}):
        if eid != current:
            current = eid
            out.append({"session": sid, "date": date, "no": no, "text": text, "contract": name, "takers": [],
                        "made": {}, "points": {}})
        d = out[-1]
        d["points"][player] = six // 6 if six % 6 == 0 else Fraction(six, 6)  # exact: whole, half or third points
        if taker:
            d["takers"].append(player)
            d["made"][player] = bool(made)
    return [d for d in out
            if (contracts is None or d["contract"] in contracts) and all(p in d["takers"] for p in wanted)]
