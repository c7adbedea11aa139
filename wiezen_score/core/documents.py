"""The shapes (TypedDicts) of the documents the ledger builds and the views present: sheet, explain, standings.

The ledger builds them (ledger/documents.py, ledger/standings.py), the views read them by key; the keys of a ``total=False`` part are
there only when they apply, as INTERFACE.md describes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

if TYPE_CHECKING:
    from .scoring import Points

#: points as a document carries them: whole, or a half point as a float (core/numbers.py plain)
DocPoints = dict[str, int | float]


class SealRef(TypedDict):
    n: int
    seal: str
    at: str


class _SheetSessionFields(TypedDict):
    id: int
    name: str
    date: str
    rules: str
    players: list[str]
    open: bool
    seal: str | None
    seals: list[SealRef]


class SheetSession(_SheetSessionFields, total=False):
    """The session of a sheet; ``table`` and ``round`` only at a club night's table."""

    table: int | str  # a number or a label (terras)
    round: int
    void: str  # a session taken out of every count (`session void`): why


class Correction(TypedDict):
    at: str
    reason: str


class _SheetEntryFields(TypedDict):
    no: int
    kind: str
    text: str
    dealer: str
    multiplier: int
    points: DocPoints
    voided: bool


class SheetEntry(_SheetEntryFields, total=False):
    """One row of a sheet, voided ones too."""

    reason: str
    penalty_kind: str  # a penalty of a kind of [penalties]
    voided_by: str | None
    precedents: list[int]
    correction: Correction
    voided_after: Correction


class EveningDoc(TypedDict, total=False):
    """The evening's planned length (one of deals, rounds, target) and where it stands."""

    deals: int
    rounds: int
    target: int
    deals_played: int
    progress: str
    over: bool


class _SheetDocFields(TypedDict):
    session: SheetSession
    entries: list[SheetEntry]
    totals: DocPoints
    dealer: str
    sitting_out: list[str]
    pending_multiplier: int
    rounds_owed: dict[str, int]


class SheetDoc(_SheetDocFields, total=False):
    """The `sheet --json` document."""

    evening: EveningDoc
    running_from: DocPoints
    seating: list[str]  # players came and went (`session join`, `session leave`): the seat order now


class ExplainVersion(TypedDict):
    text: str
    voided: bool
    how: str | None
    reason: str
    at: str
    dealer: str
    multiplier: int
    points: DocPoints


class RulingRef(TypedDict):
    id: int
    title: str


class ExplainDoc(TypedDict):
    """The `explain --json` document: how one entry was scored, and its earlier versions."""

    session: int
    no: int
    kind: str
    text: str
    rules: str
    dealer: str
    multiplier: int
    points: DocPoints
    voided: bool
    explanation: list[str]
    totals_before: DocPoints
    totals_after: DocPoints
    history: list[ExplainVersion]
    precedents: list[RulingRef]


class StandingRow(TypedDict):
    """One player of `wiezen standings` (ledger/standings.py): his figures over the period, per date."""

    player: str
    points: int | float
    evenings: int
    sessions: int
    deals: int
    taken: int
    made: int
    success_rate: float | None  # None: he took no contract
    best: int | float
    worst: int | float
    average: int | float


class RankedStanding(StandingRow):
    """One player of the `standings --json` document: his rank (equal points, equal rank) and figures."""

    rank: int


class NightInfo(TypedDict):
    name: str
    date: str
    round: int
    rounds: int | None


class NightTable(TypedDict):
    table: int | str | None  # a number or a label (terras)
    session: int
    round: int | None
    players: list[str]
    totals: DocPoints
    deals: int
    open: bool


class NightRankRow(TypedDict):
    rank: int | None
    player: str
    score: int | float
    points: int | float
    tables: int


class SeatedTable(TypedDict):
    table: int | str
    players: list[str]


class NightDoc(TypedDict):
    """`wiezen night show --json` (ledger/nights.py night_doc)."""

    night: NightInfo
    tables: list[NightTable]
    ranking: list[NightRankRow]
    next: list[SeatedTable] | None  # the next round's seating while the night is open


class RoomTable(TypedDict):
    table: int | str | None
    session: int
    round: int | None
    players: list[str]
    totals: dict[str, Points]
    last: list[str]  # its last deals, as "#NO TEXT"


class RoomDoc(TypedDict):
    """The room of `wiezen serve` (web/room.py): every open table, and the night while one is open."""

    tables: list[RoomTable]
    night: NightDoc | None
