"""A fold that remembers the deals it scored: a long replay, import or check scores the same lines often."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..core.rules import HouseRules
from ..core.session import EntryInput, Fold, Scored, TableState, active_players, after_deal


class MemoFold(Fold):
    """:class:`Fold` that scores each deal line once per table state it needs: scoring a deal is a pure function
    of its line, the players in play, the pending doubling, the house rules and the players (the last two are
    fixed for one fold). The dealer and the queue of doublings only name the dealer and set the state after it
    (:func:`after_deal`), so a line scored at one dealer is given those two afresh at another.

    Only deals are remembered (a penalty may name the players of an earlier deal), only at a state of plain
    integers (data read back from a damaged ledger is scored afresh every time, as without the memo), and only
    what scored without an error. The scored entries are shared: nothing changes a :class:`Scored`."""

    def __init__(self, rules: HouseRules, players: Sequence[str], state: TableState | None = None) -> None:
        super().__init__(rules, players, state)
        self._memo: dict[tuple[EntryInput, tuple[str, ...], int, int, int], Scored] = {}
        self._deals: dict[tuple[EntryInput, tuple[str, ...], int], Scored] = {}

    def score(self, e: EntryInput) -> Scored:
        st = self.state
        if (e.kind != "deal" or e.deal_no is not None or type(st.dealer) is not int or type(st.pending) is not int
                or type(st.queued) is not int):
            return super().score(e)
        key = (e, self.players, st.dealer, st.pending, st.queued)  # (players: they come and go)
        sc = self._memo.get(key)
        if sc is None:
            if not 0 <= st.dealer < len(self.players):
                return super().score(e)
            base = (e, active_players(self.players, st.dealer), st.pending)
            first = self._deals.get(base)
            if first is None:
                sc = self._deals[base] = super().score(e)
            else:  # the same line, players and doubling at another dealer or queue: the same points
                sc = replace(first, dealer=st.dealer, after=after_deal(self.rules, len(self.players), st))
            self._memo[key] = sc
        return sc
