from fractions import Fraction

import pytest
from _hypothesis_helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.numbers import money as format_money
from wiezen_score.core.settle import EXACT_LIMIT, Payment, settle


def net(payments):
    out = {}
    for p in payments:
        out[p.payer] = out.get(p.payer, 0) - Fraction(p.amount)
        out[p.payee] = out.get(p.payee, 0) + Fraction(p.amount)
    return out


def check_settles(totals, payments):
    got = net(payments)
    for name, total in totals.items():
        expected = Fraction(str(total)) if isinstance(total, float) else Fraction(total)
        assert got.get(name, 0) == expected
    assert set(got) <= set(totals)
    for p in payments:
        assert p.amount > 0
        assert p.payer != p.payee
    nonzero = sum(1 for v in totals.values() if v != 0)
    assert len(payments) <= max(0, nonzero - 1)
    keys = [(p.payer, p.payee) for p in payments]
    assert keys == sorted(keys)
    assert len(set(keys)) == len(keys)


def set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in set_partitions(rest):
        yield [[first], *part]
        for i in range(len(part)):
            yield [*part[:i], [first, *part[i]], *part[i + 1 :]]


def brute_force_minimum(totals):
    vals = [Fraction(v) for v in totals.values() if v != 0]
    best = 0
    for part in set_partitions(vals):
        if all(sum(g) == 0 for g in part):
            best = max(best, len(part))
    return len(vals) - best


def zero_sum(values, names=None):
    values = list(values)
    values.append(-sum(values, Fraction(0)))
    names = names or [f"p{i}" for i in range(len(values))]
    return {n: (int(v) if Fraction(v).denominator == 1 else v) for n, v in zip(names, values, strict=False)}


halves = st.integers(-40, 40).map(lambda k: Fraction(k, 2))
ints = st.integers(-30, 30).map(Fraction)
small_vals = st.lists(st.one_of(ints, halves, st.sampled_from([Fraction(5), Fraction(-5), Fraction(0)])), max_size=6)


def test_simple_cases():
    assert settle({}) == []
    assert settle({"jan": 0, "piet": 0}) == []
    assert settle({"jan": 10, "piet": -10}) == [Payment("piet", "jan", 10)]
    assert settle({"jan": 10, "piet": -4, "mieke": -6, "lotte": 0}) == [
        Payment("mieke", "jan", 6),
        Payment("piet", "jan", 4),
    ]


def test_two_groups_beat_greedy():
    # {a,b,c} and {d,e,f} are zero-sum groups: 6 players - 2 groups = 4 payments
    totals = {"a": 7, "b": -3, "c": -4, "d": 5, "e": -2, "f": -3}
    pays = settle(totals)
    check_settles(totals, pays)
    assert len(pays) == 4 == brute_force_minimum(totals)
    totals = {"a": 6, "b": 4, "c": -5, "d": -5, "e": 3, "f": -3}
    pays = settle(totals)
    check_settles(totals, pays)
    assert len(pays) == brute_force_minimum(totals) == 4


def test_greedy_alone_is_not_optimal_here():
    # largest debtor (f -7) pays largest creditor (a 5) first and takes 5 payments; {a,c,f} and {b,d,e} take 4
    totals = {"a": 5, "b": 3, "c": 1, "d": 4, "e": -6, "f": -7}
    pays = settle(totals)
    check_settles(totals, pays)
    assert len(pays) == brute_force_minimum(totals) == 4


def test_halves_and_cents():
    totals = {"jan": Fraction(15, 2), "piet": Fraction(-5, 2), "mieke": -5, "lotte": 0}
    pays = settle(totals, cents=5)
    assert pays == [Payment("mieke", "jan", 5, 25), Payment("piet", "jan", Fraction(5, 2), 13)]
    assert isinstance(pays[0].amount, int)


def test_floats_are_read_exactly():
    totals = {"a": 0.1, "b": 0.2, "c": -0.3}
    pays = settle(totals, cents=100)
    check_settles(totals, pays)
    assert sum(p.cents for p in pays) == 30


def test_without_rate_cents_is_none():
    assert all(p.cents is None for p in settle({"a": 3, "b": -3}))


@pytest.mark.parametrize("totals", [{"a": 1, "b": 0}, {"a": Fraction(1, 2), "b": 0}, {"a": 5, "b": -4, "c": 0}])
def test_not_zero_sum_is_a_user_error(totals):
    with pytest.raises(WiezenError, match="add up to 0"):
        settle(totals)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "5", None])
def test_non_numbers_rejected(bad):
    with pytest.raises(WiezenError):
        settle({"a": bad, "b": 0})


@pytest.mark.parametrize("rate", [-1, 1.5, True])
def test_bad_rate(rate):
    with pytest.raises(WiezenError):
        settle({"a": 1, "b": -1}, cents=rate)


def test_order_independent_of_mapping_order():
    a = {"x": 5, "y": -3, "z": -2, "w": 4, "v": -4}
    b = dict(reversed(list(a.items())))
    assert settle(a) == settle(b)


@settings(max_examples=examples(150), deadline=None)
@given(small_vals)
def test_small_random_cases_are_optimal(values):
    totals = zero_sum(values)
    pays = settle(totals)
    check_settles(totals, pays)
    assert len(pays) == brute_force_minimum(totals)


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.one_of(ints, halves), min_size=EXACT_LIMIT - 4, max_size=EXACT_LIMIT + 8), st.integers(0, 50))
def test_larger_random_cases_settle(values, rate):
    totals = zero_sum(values)
    pays = settle(totals, cents=rate)
    check_settles(totals, pays)
    for p in pays:
        assert p.cents is not None and p.cents >= 0
        assert abs(p.cents - Fraction(p.amount) * rate) <= Fraction(1, 2)


def test_sixteen_players_exact():
    """The largest table settled exactly (its time: benchmarks/settle.py, not a timed assertion here)."""
    values = [Fraction(3**i % 997 + 1) for i in range(EXACT_LIMIT - 1)]
    totals = zero_sum(values)
    pays = settle(totals)
    check_settles(totals, pays)


def test_many_players_fall_back_to_greedy():
    totals = zero_sum([Fraction(i % 7 - 3) for i in range(60)])
    pays = settle(totals)
    check_settles(totals, pays)


@pytest.mark.parametrize(
    "cents, text", [(0, "€0.00"), (125, "€1.25"), (5, "€0.05"), (-50, "-€0.50"), (123456, "€1234.56")]
)
def test_format_money(cents, text):
    assert format_money(cents) == text
