"""A fold that remembers the deals it scored: a long replay, import or check scores the same lines often."""

from __future__ import annotations

from typing import Sequence

from ..core.rules import HouseRules
from ..core.session import EntryInput, Fold, Scored, TableState


class MemoFold(Fold):
    """:class:`Fold` that scores each (deal line, table state) once: scoring a deal is a pure function of its
    line, the table state, the house rules and the players, and the last two are fixed for one fold.

    Only deals are remembered (a penalty may name the players of an earlier deal), only at a state of plain
    integers (data read back from a damaged ledger is scored afresh every time, as without the memo), and only
    what scored without an error. The scored entries are shared: nothing changes a :class:`Scored`."""

    def __init__(self, rules: HouseRules, players: Sequence[str], state: TableState | None = None) -> None:
        super().__init__(rules, players, state)
        self._memo: dict[tuple[EntryInput, int, int, int], Scored] = {}

    def score(self, e: EntryInput) -> Scored:
        st = self.state
        if (e.kind != "deal" or e.deal_no is not None or type(st.dealer) is not int or type(st.pending) is not int
                or type(st.queued) is not int):
            return super().score(e)
        key = (e, st.dealer, st.pending, st.queued)
        sc = self._memo.get(key)
        if sc is None:
            sc = self._memo[key] = super().score(e)
        return sc
