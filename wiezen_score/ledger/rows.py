"""The row types read from a ledger (a session, an entry) and the small values every write needs."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Mapping

from ..core.rules import HouseRules, parse_rules
from ..core.scoring import Points
from ..core.session import EntryInput

def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_uid() -> str:
    """128 random bits as 32 hex digits (like uuid4().hex, without importing uuid on the start-up path)."""
    return os.urandom(16).hex()


@dataclass(frozen=True)
class SessionInfo:
    id: int
    uid: str
    name: str
    date: str
    rules_name: str
    rules_toml: str
    players: tuple[str, ...]
    player_ids: tuple[int, ...]
    first_dealer: int
    started_at: str
    ended_at: str | None
    plan: str | None = None  # the evening's length: "deals 24", "rounds 6", "target 100" (core/evening.py)

    @property
    def rules(self) -> HouseRules:
        return _rules_cache(self.rules_toml, self.rules_name)


_RULES_CACHE: dict[str, HouseRules] = {}


def _rules_cache(text: str, name: str) -> HouseRules:
    r = _RULES_CACHE.get(text)
    if r is None:
        r = _RULES_CACHE[text] = parse_rules(text, f"house rules '{name}'")
    return r


@dataclass(frozen=True)
class EntryRow:
    id: int
    uid: str
    no: int
    kind: str
    text: str
    contract: str | None
    dealer: int
    multiplier: int
    offender: str
    round: bool
    deal_no: int | None
    reason: str
    next_dealer: int
    next_multiplier: int
    replaces: int | None
    created_at: str
    points: Mapping[str, float]
    takers: Mapping[str, bool]
    voided: bool
    void_action: str | None
    voided_by: int | None
    void_reason: str

    def as_input(self) -> EntryInput:
        return stored_input(self.kind, self.text, self.offender, self.round, self.reason, self.deal_no)


def stored_input(kind: str, text: str, offender: str, round_: bool, reason: str, deal_no: int | None) -> EntryInput:
    """A stored entry as the input that re-scores it (amend, explain and check all re-score this way)."""
    return EntryInput(
        kind, text if kind == "deal" else "", offender, round_, reason, deal_no, text.endswith(" over-troel"),
    )


def _num(v: float) -> Points:
    if float(v).is_integer():
        return int(v)
    from fractions import Fraction

    return Fraction(v)
