"""Properties of the scoring core that hold for every deal under every preset (shared/SCORING.md), and
round trips of the house-rules file format.
"""

from dataclasses import replace
from fractions import Fraction

import pytest
from _hypothesis_helpers import examples
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

from wiezen_score.cli import cli
from wiezen_score.core.deal import MiserieDeal, TrickDeal, parse_deal
from wiezen_score.core.presets import load_preset
from wiezen_score.core.rules import PRESETS, MiserieContract, TrickContract, parse_rules, rules_from_dict, to_toml
from wiezen_score.core.scoring import score

PLAYERS = ["A", "B", "C", "D"]
FAST = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# Strategies: valid deal lines for a preset


@st.composite
def trick_line(draw, rules):
    c = draw(st.sampled_from([c for c in rules.contracts if isinstance(c, TrickContract)]))
    word = draw(st.sampled_from((c.name, *c.aliases)))
    word = draw(st.sampled_from([word, word.upper()]))
    level = draw(st.sampled_from(c.levels))
    show_level = level != c.levels[0] or draw(st.booleans())
    n = 2 if c.team else 1
    takers = draw(st.permutations(PLAYERS))[:n]
    tricks = draw(st.integers(0, 13))
    line = f"{word} {str(level) + ' ' if show_level else ''}{'+'.join(takers)} {tricks}"
    return line, c, level, tuple(takers), tricks


@st.composite
def miserie_line(draw, rules, max_players=4):
    c = draw(st.sampled_from([c for c in rules.contracts if isinstance(c, MiserieContract)]))
    word = draw(st.sampled_from((c.name, *c.aliases)))
    k = draw(st.integers(1, max_players))
    who = draw(st.permutations(PLAYERS))[:k]
    plays = []
    left = 13
    for i, p in enumerate(who):
        # all four on miserie: their tricks add up to 13 (the parser refuses any other line)
        t = left if k == 4 and i == 3 else draw(st.integers(0, min(left, 13)))
        left -= t
        plays.append((p, t))
    line = f"{word} " + " ".join(f"{p} {t}" for p, t in plays)
    return line, c, tuple(plays)


def has_miserie(rules):
    return any(isinstance(c, MiserieContract) for c in rules.contracts)


@st.composite
def any_deal(draw):
    name = draw(st.sampled_from(PRESETS))
    rules = load_preset(name)
    line = draw(miserie_line(rules))[0] if has_miserie(rules) and draw(st.booleans()) else draw(trick_line(rules))[0]
    return rules, line, draw(st.integers(1, 16)), draw(st.booleans())


presets = st.sampled_from(PRESETS).map(load_preset)


def run(rules, line, multiplier=1, over_troel=False):
    if over_troel and not rules.contract(line.split()[0]).is_miserie:
        over_troel = False  # only a miserie can be bid over a troel (the parser refuses it elsewhere)
    d = parse_deal(line, rules, PLAYERS, over_troel=over_troel)
    return d, score(d, rules, PLAYERS, multiplier)


# ---------------------------------------------------------------------------
# The amount x by the formula of SCORING.md (written from the text, not from the code)


def expected_x(c: TrickContract, level: int, tricks: int) -> tuple[int, bool]:
    """x before any doubling, and whether the contract is made."""
    made_amt, lost_amt = c.made[c.levels.index(level)], c.lost[c.levels.index(level)]
    if tricks < level:
        return lost_amt + c.undertrick * (level - tricks - 1), False
    if tricks == 13 and c.all_tricks is not None:
        return c.all_tricks, True
    if c.promote:
        x = c.made[max(i for i, lv in enumerate(c.levels) if lv <= tricks)]
    else:
        cap = 13 if c.overtrick_cap is None else c.overtrick_cap
        x = made_amt + c.overtrick * max(min(tricks, cap) - level, 0)  # tricks above the cap never add
    return x, True


def expected_amount(rules, c: TrickContract, level: int, tricks: int, m: int = 1) -> int:
    """x with every doubling (SCORING.md "Variants found in the wild"): the contract's own doublings, all 13
    tricks with all_tricks_times (onder tafel), and m = the rondje-pas multiplier (2 ** doublings). multiply:
    x2 for each (all_tricks_times for onder tafel); add: x (1 + the number of doublings)."""
    x, made = expected_x(c, level, tricks)
    onder_tafel = made and tricks == 13 and c.all_tricks is None and c.all_tricks_times not in (None, 1)
    if rules.doubling == "add":
        k = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[m]
        return x * (1 + c.doublings + (1 if onder_tafel else 0) + k)
    return x * 2 ** c.doublings * (c.all_tricks_times if onder_tafel else 1) * m


# ---------------------------------------------------------------------------
# Deal properties


@FAST
@given(any_deal())
def test_zero_sum_every_deal(args):
    rules, line, m, ot = args
    d, s = run(rules, line, m, ot)
    assert list(s.points) == PLAYERS
    assert sum(Fraction(v) for v in s.points.values()) == 0
    # whole numbers except a split miserie share, which is at most a half
    for v in s.points.values():
        assert Fraction(v).denominator in (1, 2)
        if Fraction(v).denominator == 2:
            assert isinstance(d, MiserieDeal) and rules.multi_miserie == "split"


@FAST
@given(presets.flatmap(lambda r: st.tuples(st.just(r), trick_line(r), st.integers(1, 16))))
def test_trick_contract_takers_gain_when_made_and_pay_when_lost(args):
    rules, (line, c, level, takers, tricks), m = args
    d, s = run(rules, line, m)
    assert isinstance(d, TrickDeal) and d.contract == c and d.level == level and d.takers == takers
    made = tricks >= level
    defenders = [p for p in PLAYERS if p not in takers]
    for p in takers:
        assert (s.points[p] > 0) if made else (s.points[p] < 0)
    for p in defenders:
        assert (s.points[p] < 0) if made else (s.points[p] > 0)
    assert s.made is made
    x = expected_amount(rules, c, level, tricks, m)
    sign = 1 if made else -1
    want = {p: sign * (x if c.team else 3 * x) if p in takers else -sign * x for p in PLAYERS}
    assert dict(s.points) == want


@FAST
@given(presets.filter(has_miserie).flatmap(lambda r: st.tuples(st.just(r), miserie_line(r, 1), st.integers(1, 16),
                                                               st.booleans())))
def test_single_miserie_gains_when_made_and_pays_when_lost(args):
    rules, (line, c, plays), m, ot = args
    d, s = run(rules, line, m, ot)
    (p, t), = plays
    made = t == c.tricks
    x = c.over_troel if ot and c.over_troel is not None else c.points
    assert (s.points[p] > 0) if made else (s.points[p] < 0)
    assert s.points[p] == (1 if made else -1) * 3 * x * m
    for q in PLAYERS:
        if q != p:
            assert s.points[q] == -s.points[p] / 3


@FAST
@given(presets.filter(has_miserie).flatmap(lambda r: st.tuples(st.just(r), miserie_line(r), st.booleans())))
def test_several_miseries_follow_the_house_policy(args):
    rules, (line, c, plays), ot = args
    _, s = run(rules, line, 1, ot)
    x = c.over_troel if ot and c.over_troel is not None else c.points
    ok = {p: t == c.tricks for p, t in plays}
    if rules.multi_miserie == "alone":
        want = {p: 0 for p in PLAYERS}
        for p, made in ok.items():
            for q in PLAYERS:
                want[q] += (3 * x if q == p else -x) * (1 if made else -1)
    else:
        others = [p for p in PLAYERS if p not in ok]
        if len(set(ok.values())) == 1:  # all made or all lost
            sign = 1 if next(iter(ok.values())) else -1
            if others:
                want = {p: sign * 3 * x for p in ok}
                want.update({p: Fraction(-sign * 3 * x * len(ok), len(others)) for p in others})
            else:
                want = {p: 0 for p in PLAYERS}
        else:
            winners = [p for p, v in ok.items() if v]
            losers = [p for p, v in ok.items() if not v]
            want = {p: 0 for p in others}
            want.update({p: 3 * x for p in winners})
            want.update({p: Fraction(-3 * x * len(winners), len(losers)) for p in losers})
    assert {p: Fraction(v) for p, v in s.points.items()} == want


@FAST
@given(presets.flatmap(lambda r: st.tuples(st.just(r), trick_line(r))))
def test_made_contract_never_scores_less_with_more_tricks(args):
    rules, (_, c, level, takers, _t) = args
    word = c.name
    taker = takers[0]
    prev = None
    for tricks in range(level, 14):
        _, s = run(rules, f"{word} {level} {'+'.join(takers)} {tricks}")
        assert s.points[taker] > 0
        if prev is not None:
            assert s.points[taker] >= prev, f"{c.name} {level}: {tricks} tricks scores less than {tricks - 1}"
        prev = s.points[taker]


@FAST
@given(any_deal())
def test_multiplier_scales_linearly(args):
    rules, line, m, ot = args
    _, s1 = run(rules, line, 1, ot)
    _, sm = run(rules, line, m, ot)
    assert sm.multiplier == m
    assert {p: Fraction(v) for p, v in sm.points.items()} == {p: m * Fraction(v) for p, v in s1.points.items()}


# ---------------------------------------------------------------------------
# House-rules file round trips


@pytest.mark.parametrize("name", PRESETS)
def test_rules_show_parses_back_to_the_preset(name, tmp_path):
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "none.db"), "rules", "show", name])
    assert r.exit_code == 0, r.output
    assert parse_rules(r.stdout) == load_preset(name)


@pytest.mark.parametrize("name", PRESETS)
def test_to_toml_round_trip_presets(name):
    rules = load_preset(name)
    assert parse_rules(to_toml(rules)) == rules


WORD = st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True)
AMOUNT = st.integers(0, 200)


@st.composite
def trick_spec(draw):
    levels = sorted(draw(st.sets(st.integers(1, 13), min_size=1, max_size=6)))
    n = len(levels)
    spec = {
        "levels": levels,
        "made": draw(st.lists(AMOUNT, min_size=n, max_size=n)),
        "lost": draw(st.lists(AMOUNT, min_size=n, max_size=n)),
    }
    opt = draw(st.fixed_dictionaries({}, optional={
        "team": st.booleans(),
        "overtrick": st.integers(0, 10),
        "undertrick": st.integers(0, 10),
        "overtrick_cap": st.integers(levels[0], 13),
        "promote": st.booleans(),
        "all_tricks": AMOUNT,
        "all_tricks_times": st.integers(1, 4),
        "doublings": st.integers(0, 4),
    }))
    if opt.get("promote") and opt.get("overtrick"):
        del opt["overtrick"]
    if "all_tricks" in opt and "all_tricks_times" in opt:
        del opt["all_tricks_times"]
    spec.update(opt)
    return spec


miserie_spec = st.fixed_dictionaries(
    {"miserie": st.integers(0, 13), "points": AMOUNT}, optional={"over_troel": AMOUNT}
)

DESCRIPTION = st.text(max_size=40)


@st.composite
def rules_dict(draw):
    words = draw(st.lists(WORD, min_size=1, max_size=10, unique=True))
    n = draw(st.integers(1, len(words)))
    contracts = {w: draw(trick_spec() | miserie_spec) for w in words[:n]}
    for alias in words[n:]:
        owner = words[draw(st.integers(0, n - 1))]
        contracts[owner].setdefault("aliases", []).append(alias)
    d = draw(st.fixed_dictionaries({"name": WORD}, optional={
        "description": DESCRIPTION,
        "penalty": AMOUNT,
        "multi_miserie": st.sampled_from(["alone", "split"]),
        "doubling": st.sampled_from(["multiply", "add"]),
        "all_pass": st.fixed_dictionaries({}, optional={
            "dealer": st.sampled_from(["same", "next"]),
            "double": st.sampled_from(["none", "once", "stack", "queue"]),
        }),
    }))
    if d.get("doubling") == "add":  # all 13 tricks is then one doubling: all_tricks_times = 2
        for spec in contracts.values():
            if "all_tricks_times" in spec:
                spec["all_tricks_times"] = 2
    d["contracts"] = contracts
    return d


def canonical(d):
    """The dict as the canonical file writes it: every top-level key, defaults of contracts left out."""
    out = {
        "name": d["name"],
        "description": d.get("description", ""),
        "penalty": d.get("penalty", 5),
        "multi_miserie": d.get("multi_miserie", "alone"),
        "doubling": d.get("doubling", "multiply"),
        "all_pass": {"dealer": d.get("all_pass", {}).get("dealer", "same"),
                     "double": d.get("all_pass", {}).get("double", "none")},
        "contracts": {},
    }
    for name, spec in d["contracts"].items():
        spec = dict(spec)
        for key, default in (("team", False), ("overtrick", 0), ("undertrick", 0), ("promote", False), ("doublings", 0)):
            if spec.get(key, default) == default:
                spec.pop(key, None)
        if not spec.get("aliases"):
            spec.pop("aliases", None)
        out["contracts"][name] = spec
    return out


@settings(max_examples=examples(300), deadline=None)
@given(rules_dict())
def test_house_rules_round_trip(d):
    r = rules_from_dict(d)
    text = to_toml(r)
    assert parse_rules(text) == r
    # and the written file says what the dict said (not only what the reader reads back)
    assert tomllib.loads(text) == canonical(d)
    assert r.contract_names() == list(d["contracts"])


@settings(max_examples=examples(200), deadline=None)
@given(DESCRIPTION)
def test_any_description_survives_the_file(text):
    r = load_preset("whisthub")
    r2 = rules_from_dict({**tomllib.loads(to_toml(r)), "description": text})
    assert parse_rules(to_toml(r2)).description == text


# ---------------------------------------------------------------------------
# Random house rules with the variants (doubling, doublings, double = "queue"): every deal sums to zero


@st.composite
def house_rules_and_deal(draw):
    r = rules_from_dict(draw(rules_dict()))
    if has_miserie(r) and (not any(isinstance(c, TrickContract) for c in r.contracts) or draw(st.booleans())):
        line = draw(miserie_line(r))[0]
        trick = None
    else:
        trick = draw(trick_line(r))
        line = trick[0]
    return r, line, trick, draw(st.sampled_from([1, 2, 4, 8, 16]))


@FAST
@given(house_rules_and_deal())
def test_zero_sum_random_house_rules(args):
    rules, line, trick, m = args
    d = parse_deal(line, rules, PLAYERS)
    s = score(d, rules, PLAYERS, m)
    assert list(s.points) == PLAYERS
    assert sum(Fraction(v) for v in s.points.values()) == 0
    if trick is not None:  # and the amount is the one the text of SCORING.md gives
        _, c, level, takers, tricks = trick
        x = expected_amount(rules, c, level, tricks, m)
        sign = 1 if tricks >= level else -1
        assert dict(s.points) == {
            p: sign * (x if c.team else 3 * x) if p in takers else -sign * x for p in PLAYERS
        }


@FAST
@given(any_deal())
def test_add_equals_multiply_with_at_most_one_doubling(args):
    """With a single doubling (x2) adding and multiplying agree: 1 + 1 = 2 x 1."""
    rules, line, _m, ot = args
    add = replace(rules, doubling="add")
    word = line.split()[0]
    c = rules.contract(word)
    if isinstance(c, TrickContract) and c.all_tricks_times not in (None, 2):
        return  # not a valid "add" house rule
    _, s_mul = run(rules, line, 1, ot)
    d = parse_deal(line, add, PLAYERS, over_troel=ot and c.is_miserie)
    s_add = score(d, add, PLAYERS, 1)
    n = 0
    if isinstance(d, TrickDeal):
        n = c.doublings + (1 if d.tricks == 13 and c.all_tricks is None and c.all_tricks_times == 2 else 0)
    if n <= 1:
        assert s_add.points == s_mul.points
    else:
        assert all(abs(s_add.points[p]) < abs(s_mul.points[p]) for p in PLAYERS)


ENTRY = st.one_of(
    st.just(("pass", "")), st.just(("redeal", "")), st.just(("penalty", "A")),
    st.sampled_from(["samen 8 A+B 8", "samen 8 A+C 5", "alleen 5 D 6", "troel B+D 13"]).map(lambda t: ("deal", t)),
)


@FAST
@given(st.sampled_from(["none", "once", "stack", "queue"]), st.sampled_from(["multiply", "add"]),
       st.lists(ENTRY, max_size=25))
def test_session_fold_doublings(double, doubling, entries):
    """A session under every [all_pass] double and doubling: every entry sums to 0, and each played deal
    gets the multiplier the model below gives (written from SCORING.md, not from the code)."""
    from dataclasses import replace as _r

    from wiezen_score.core.session import EntryInput, fold

    base = load_preset("rupelstreek")
    rules = _r(base, all_pass_double=double, doubling=doubling)
    inputs = [(i, EntryInput(kind, text, offender=text if kind == "penalty" else ""))
              for i, (kind, text) in enumerate(entries, 1)]
    res = fold(inputs, rules, PLAYERS)
    pending, owed = 1, 0  # the model: multiplier of the next deal, and (queue) doubled deals owed
    for sc in res.scored:
        assert sum(Fraction(v) for v in sc.points.values()) == 0
        if sc.kind == "deal":
            want = (2 if owed else 1) if double == "queue" else pending
            assert sc.multiplier == want
            pending, owed = 1, max(owed - 1, 0)
        elif sc.kind == "pass":
            pending = {"none": pending, "once": 2, "stack": pending * 2, "queue": pending}[double]
            owed += 1
        else:
            assert sc.multiplier == 1
    assert res.state.pending == ((2 if owed else 1) if double == "queue" else pending)


@pytest.mark.parametrize("name", PRESETS)
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_zero_sum_each_preset(name, data):
    """Each preset on its own (so that none is left out by chance), with any pending rondje-pas doubling."""
    rules = load_preset(name)
    if has_miserie(rules) and data.draw(st.booleans()):
        line = data.draw(miserie_line(rules))[0]
    else:
        line = data.draw(trick_line(rules))[0]
    _, s = run(rules, line, data.draw(st.sampled_from([1, 2, 4, 8])))
    assert sum(Fraction(v) for v in s.points.values()) == 0


# ---------------------------------------------------------------------------
# A deal doubled by agreement (issue 30, item 5): a trailing x2, x3, x4 on the deal line

AGREED = st.sampled_from([("x2", 2), ("x3", 3), ("x4", 4), ("dubbel", 2)])


@FAST
@given(house_rules_and_deal(), AGREED)
def test_agreed_doubling_by_the_doubling_key(args, agreed):
    """`LINE xN` sums to 0 and counts as SCORING.md says: multiplied, N times the same line without it; added,
    xN is N - 1 more doublings, so a trick contract's x is multiplied by 1 + (its other doublings) + N - 1."""
    rules, line, trick, m = args
    word, n = agreed
    plain_ = score(parse_deal(line, rules, PLAYERS), rules, PLAYERS, m)
    d = parse_deal(f"{line} {word}", rules, PLAYERS)
    assert d.times == n and d.text.endswith(f" x{n}")
    s = score(d, rules, PLAYERS, m)
    assert list(s.points) == PLAYERS and sum(Fraction(v) for v in s.points.values()) == 0
    if rules.doubling == "multiply":
        assert dict(s.points) == {p: v * n for p, v in plain_.points.items()}
    elif trick is not None:
        _, c, level, takers, tricks = trick
        x, made = expected_x(c, level, tricks)
        onder_tafel = made and tricks == 13 and c.all_tricks is None and c.all_tricks_times not in (None, 1)
        k = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[m]
        x *= 1 + c.doublings + (1 if onder_tafel else 0) + k + n - 1
        sign = 1 if made else -1
        assert dict(s.points) == {p: sign * (x if c.team else 3 * x) if p in takers else -sign * x for p in PLAYERS}
    else:  # a miserie: no doublings of its own, so 1 + k + n - 1
        k = {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[m]
        once = score(parse_deal(line, rules, PLAYERS), rules, PLAYERS, 1)
        assert dict(s.points) == {p: v * (k + n) for p, v in once.points.items()}


# ---------------------------------------------------------------------------
# Penalties of several sizes (issue 30, item 6): [penalties]

PENALTY_KINDS = st.dictionaries(WORD.filter(lambda w: w not in ("round", "rondje", "deal")), AMOUNT, max_size=4)


@FAST
@given(rules_dict(), PENALTY_KINDS, st.lists(st.tuples(st.sampled_from(PLAYERS), st.integers(0, 5), st.booleans()),
                                              max_size=8))
def test_penalty_kinds_round_trip_and_sum_to_zero(d, kinds, penalties):
    """A file with [penalties] reads back as written; each penalty costs its kind's amount (the top-level
    `penalty` without one) from the offender to each of the three others, and sums to 0."""
    from wiezen_score.core.session import EntryInput, fold

    r = rules_from_dict({**d, "penalties": kinds} if kinds else d)
    text = to_toml(r)
    assert parse_rules(text) == r and dict(r.penalties) == kinds
    assert ("[penalties]" in text) == bool(kinds)
    names = list(kinds)
    entries = []
    for i, (who, k, first_word) in enumerate(penalties, 1):
        kind = names[k % len(names)] if names and k < 4 else ""
        if first_word:  # at the prompt: 'penalty jan KIND reason'
            entries.append((i, EntryInput("penalty", offender=who, reason=f"{kind} 1-bla".strip(), penalty_kind=None)))
        else:
            entries.append((i, EntryInput("penalty", offender=who, penalty_kind=kind)))
    res = fold(entries, r, PLAYERS)
    for (who, k, _f), sc in zip(penalties, res.scored, strict=True):
        kind = names[k % len(names)] if names and k < 4 else ""
        amount = kinds[kind] if kind else r.penalty
        assert sc.points == {p: -3 * amount if p == who else amount for p in PLAYERS}
        assert sc.text == f"penalty {who}" + (f" {kind}" if kind else "")
    assert sum(Fraction(v) for v in res.totals.values()) == 0


# ---------------------------------------------------------------------------
# A solo or a miserie paid as one sum (issue 30, item 3): payment = "shared"


@FAST
@given(house_rules_and_deal(), st.sampled_from(["", " x2", " x3"]))
def test_shared_payment_is_a_third_of_each_and_sums_to_zero(args, agreed):
    """Under payment = "shared" every player of a solo or miserie deal gets exactly a third of what "each" gives
    him (the taker x instead of 3x, a defender x/3 instead of x): thirds, exact, summing to exactly 0."""
    rules, line, _trick, m = args
    line += agreed
    d = parse_deal(line, rules, PLAYERS)
    if not d.contract.is_miserie and d.contract.team:
        return  # a team contract cannot be shared
    name = d.contract.name
    sh = replace(rules, contracts=tuple(replace(c, payment="shared") if c.name == name else c for c in rules.contracts))
    assert parse_rules(to_toml(sh)) == sh
    each = score(d, rules, PLAYERS, m)
    got = score(parse_deal(line, sh, PLAYERS), sh, PLAYERS, m)
    assert sum(got.points.values()) == 0
    assert dict(got.points) == {p: Fraction(v) / 3 for p, v in each.points.items()}
    for v in got.points.values():
        assert isinstance(v, (int, Fraction)) and Fraction(v).denominator in (1, 2, 3, 6)
