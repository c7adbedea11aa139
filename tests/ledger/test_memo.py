"""The memo of a long replay, import or check (ledger/memo.py) must score exactly as the one fold does: the
same Scored, or the same error, entry after entry, whatever the dealer, the doubling and the table's size."""

from __future__ import annotations

from _hypothesis_helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_scoring_properties import has_miserie, miserie_line, trick_line

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import load_preset
from wiezen_score.core.rules import PRESETS
from wiezen_score.core.session import EntryInput, Fold, TableState
from wiezen_score.ledger.memo import MemoFold

PLAYERS6 = ("A", "B", "C", "D", "E", "F")


@st.composite
def evening(draw):
    rules = load_preset(draw(st.sampled_from(PRESETS)))
    n = draw(st.sampled_from([4, 5, 6]))
    # a few distinct lines, repeated: the memo is used (and a line whose player sits out fails at some dealers)
    lines = draw(st.lists(
        st.one_of(trick_line(rules).map(lambda t: t[0]),
                  *([miserie_line(rules).map(lambda t: t[0])] if has_miserie(rules) else [])),
        min_size=1, max_size=4))
    entries = draw(st.lists(st.one_of(
        st.sampled_from(lines).map(lambda t: EntryInput("deal", t)),
        st.just(EntryInput("pass")),
        st.just(EntryInput("redeal")),
    ), min_size=1, max_size=60))
    return rules, PLAYERS6[:n], draw(st.integers(0, n - 1)), entries


def _outcome(fold, e):
    try:
        return fold.score(e)
    except WiezenError as err:
        return str(err)


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(evening())
def test_the_memo_scores_every_entry_as_the_fold_does(ev):
    rules, players, first, entries = ev
    plain, memo = Fold(rules, players, TableState(first, 1)), MemoFold(rules, players, TableState(first, 1))
    for no, e in enumerate(entries, 1):
        want, got = _outcome(plain, e), _outcome(memo, e)
        assert got == want
        if not isinstance(want, str):
            plain.take(no, want)
            memo.take(no, got)  # type: ignore[arg-type]
        assert memo.state == plain.state
