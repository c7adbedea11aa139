"""Players coming and going never break the fold: whatever order of joins, leaves, deals and rondjes pas, the
table keeps 4 to 6 players, the dealer is one of them, every deal is played by four of them and sums to zero,
and the totals of everyone who ever sat sum to zero (core/session.py, no ledger)."""

from __future__ import annotations

from _hypothesis_helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset
from wiezen_score.core.session import EntryInput, Fold, TableState, active_players

NAMES = ["an", "bo", "cas", "dirk", "eva", "fien", "gust", "hilde"]

ops = st.lists(st.one_of(
    st.tuples(st.just("join"), st.sampled_from(NAMES), st.integers(0, 5)),
    st.tuples(st.just("leave"), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("deal"), st.integers(0, 3), st.integers(5, 13)),
    st.tuples(st.just("pass"), st.just(0), st.just(0)),
), max_size=30)


@settings(max_examples=examples(200), deadline=None)
@given(ops, st.sampled_from(["whisthub", "rupelstreek", "wikibooks-wiezen"]))
def test_joins_and_leaves_keep_the_table_whole(steps, preset):
    rules = load_preset(preset)
    f = Fold(rules, NAMES[:4], TableState(0, 1))
    no = 0
    for kind, a, b in steps:
        table = f.players
        if kind == "join":
            e = EntryInput("join", offender=a, after=table[b % len(table)])
        elif kind == "leave":
            e = EntryInput("leave", offender=table[a % len(table)])
        elif kind == "deal":
            act = active_players(table, f.state.dealer)
            e = EntryInput("deal", text=f"alleen 5 {act[a]} {b}")
        else:
            e = EntryInput("pass")
        no += 1
        try:
            sc = f.step(no, e)
        except WiezenError:
            continue  # refused (a seventh player, a third leaving, a name seated already): nothing changes
        assert 4 <= len(f.players) <= 6 and len(set(f.players)) == len(f.players)
        assert 0 <= f.state.dealer < len(f.players)
        if sc.kind == "deal":
            assert len(sc.points) == 4 and set(sc.points) <= set(table) and sum(sc.points.values()) == 0
        assert sum(f.totals.values()) == 0
