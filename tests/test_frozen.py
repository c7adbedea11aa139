"""core/frozen.py: each record behaves as the ``@dataclass(frozen=True)`` it replaced (written out below as it was
declared): the same constructor, repr, equality, hash, frozenness, match args, and dataclasses.replace/fields/asdict."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import field, make_dataclass
from typing import Any

import pytest

from wiezen_score.core import deal, rules, scoring, session, sessionfile
from wiezen_score.core.frozen import NEW_DICT

_no = dataclasses.MISSING
# the declarations of the dataclasses, field by field: (name, default); a default of dict means field(default_factory=dict)
DECLARED: dict[type, list[tuple[str, Any]]] = {
    rules.TrickContract: [("name", _no), ("team", _no), ("levels", _no), ("made", _no), ("lost", _no), ("aliases", ()),
                          ("overtrick", 0), ("overtrick_cap", None), ("promote", False), ("undertrick", 0),
                          ("all_tricks", None), ("all_tricks_times", None), ("doublings", 0)],
    rules.MiserieContract: [("name", _no), ("tricks", _no), ("points", _no), ("aliases", ()), ("over_troel", None)],
    rules.HouseRules: [("name", _no), ("contracts", _no), ("description", ""), ("penalty", 5), ("multi_miserie", "alone"),
                       ("all_pass_dealer", "same"), ("all_pass_double", "none"), ("doubling", "multiply"),
                       ("_index", dict)],  # _index: compare=False, repr=False
    deal.TrickDeal: [("contract", _no), ("level", _no), ("takers", _no), ("tricks", _no)],
    deal.MiserieDeal: [("contract", _no), ("plays", _no), ("over_troel", False)],
    scoring.Score: [("points", _no), ("multiplier", _no), ("made", _no), ("explanation", _no)],
    session.TableState: [("dealer", _no), ("pending", 1), ("queued", 0)],
    session.EntryInput: [("kind", _no), ("text", ""), ("offender", ""), ("round", False), ("reason", ""),
                         ("deal_no", None), ("over_troel", False)],
    session.Scored: [("kind", _no), ("text", _no), ("dealer", _no), ("multiplier", _no), ("points", _no),
                     ("takers", dict), ("explanation", ()), ("after", session.TableState(0)), ("offender", ""),
                     ("round", False), ("reason", ""), ("deal_no", None), ("contract", "")],
    session.FoldResult: [("scored", _no), ("state", _no), ("totals", _no), ("rounds_owed", _no)],
    sessionfile.Header: [("key", _no), ("name", ""), ("date", ""), ("rules", ""), ("players", ()), ("dealer", ""),
                         ("tag", ""), ("round", None), ("table", None)],
    sessionfile.Undo: [("reason", "")],
    sessionfile.Amend: [("no", _no), ("entry", _no), ("reason", "")],
}
HIDDEN = {(rules.HouseRules, "_index")}  # compare=False, repr=False


def reference(cls: type) -> type:
    spec = []
    for name, default in DECLARED[cls]:
        hidden = (cls, name) in HIDDEN
        if default is dict:
            f = field(default_factory=dict, compare=not hidden, repr=not hidden)
        elif default is _no:
            f = field(compare=not hidden, repr=not hidden)
        else:
            f = field(default=default, compare=not hidden, repr=not hidden)
        spec.append((name, Any, f))
    return make_dataclass(cls.__name__, spec, frozen=True)


def sample(cls: type, salt: int) -> dict[str, Any]:
    """Arguments for every field: distinct values (a house rules' contracts are real contracts)."""
    args: dict[str, Any] = {}
    for i, (name, _default) in enumerate(DECLARED[cls]):
        if cls is rules.HouseRules and name == "contracts":
            args[name] = (rules.MiserieContract(f"m{salt}", 0, 6, ("x",)),)
        elif cls is rules.HouseRules and name == "_index":
            continue
        else:
            args[name] = (name, i, salt)
    return args


@pytest.mark.parametrize("cls", list(DECLARED), ids=lambda c: c.__name__)
def test_record_behaves_as_its_dataclass(cls: type) -> None:
    ref = reference(cls)
    # the constructor: the same parameters, in order, with the same defaults
    ours = inspect.signature(cls).parameters
    theirs = inspect.signature(ref).parameters
    assert list(ours) == list(theirs)
    for name in ours:
        a, b = ours[name].default, theirs[name].default
        if b is not inspect.Parameter.empty and type(b).__name__ == "_HAS_DEFAULT_FACTORY_CLASS":
            assert a is NEW_DICT, name
        else:
            assert a == b, name
        assert ours[name].kind == theirs[name].kind
    assert cls.__match_args__ == ref.__match_args__  # type: ignore[attr-defined]

    args, other = sample(cls, 1), sample(cls, 2)
    x, y, twin, r = cls(**args), cls(**other), cls(**args), ref(**args)
    if cls is rules.HouseRules:
        r = ref(**args, _index=x._index)
    assert repr(x) == repr(r)
    assert x == twin and not (x != twin) and x != y and hash(x) == hash(twin)
    assert hash(x) == hash(r)  # the same tuple of compared fields
    assert x != r and (x == r) is False  # another class: never equal (as two dataclasses)
    for name, _d in DECLARED[cls]:
        assert getattr(x, name) == getattr(r, name), name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(x, DECLARED[cls][0][0], 0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        x.not_a_field = 1  # type: ignore[attr-defined]
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(x, DECLARED[cls][0][0])
    # dataclasses' functions
    assert dataclasses.is_dataclass(x)
    assert [f.name for f in dataclasses.fields(x)] == [f.name for f in dataclasses.fields(r)]
    assert [(f.compare, f.repr) for f in dataclasses.fields(x)] == [(f.compare, f.repr) for f in dataclasses.fields(r)]
    assert dataclasses.asdict(x) == dataclasses.asdict(r)
    first = DECLARED[cls][0][0]
    changed = dataclasses.replace(x, **{first: other[first]})
    assert type(changed) is cls and getattr(changed, first) == other[first]
    assert changed == cls(**{**args, first: other[first]})


def test_a_default_dict_is_new_for_each_record() -> None:
    a = session.Scored("deal", "x", 0, 1, {})
    b = session.Scored("deal", "x", 0, 1, {})
    assert a.takers == {} and a.takers is not b.takers
    given = {"jan": True}
    assert session.Scored("deal", "x", 0, 1, {}, given).takers is given


def test_house_rules_index_follows_the_contracts() -> None:
    m = rules.MiserieContract("grote-miserie", 0, 12, ("miserie",))
    r = rules.HouseRules("x", (m,), _index={"other": m})
    assert r.find("miserie") is m and r.find("other") is None
    assert dataclasses.replace(r, penalty=7).find("grote-miserie") is m


def _lazy_pair() -> tuple[type, type]:
    """The same declaration as a lazy dataclass and as a dataclass."""
    from wiezen_score.core.frozen import lazy_dataclass

    def declare(decorate: Any) -> type:
        @decorate(frozen=True)
        class Seal:
            n: int
            code: str = "x"
            later: tuple[str, ...] = ()

            def twice(self) -> int:
                return 2 * self.n

        return Seal

    return declare(lazy_dataclass), declare(dataclasses.dataclass)


def test_a_lazy_dataclass_is_the_dataclass_once_used() -> None:
    from wiezen_score.core import frozen

    lazy, real = _lazy_pair()
    assert lazy in frozen._LAZY  # its __init__ not written at the declaration
    a, b, r = lazy(1, "y"), lazy(1, "y"), real(1, "y")
    assert lazy not in frozen._LAZY
    assert repr(a) == repr(r) and a == b and hash(a) == hash(b) == hash(r) and a != lazy(2) and a.twice() == 2
    assert a != r  # (two classes)
    ours, theirs = inspect.signature(lazy).parameters, inspect.signature(real).parameters
    assert [(p.name, p.default, p.kind) for p in ours.values()] == [(p.name, p.default, p.kind) for p in theirs.values()]
    assert lazy(n=4, later=("x",)) == lazy(4, "x", ("x",))
    with pytest.raises(TypeError):
        lazy()  # n is required
    with pytest.raises(TypeError):
        lazy(1, "a", (), 4)  # one too many
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.n = 3  # type: ignore[misc]
    assert dataclasses.replace(a, code="z") == lazy(1, "z")
    assert lazy.__match_args__ == real.__match_args__  # type: ignore[attr-defined]


def test_a_lazy_dataclass_asked_for_its_fields_first() -> None:
    lazy, real = _lazy_pair()
    assert dataclasses.is_dataclass(lazy)
    assert [f.name for f in dataclasses.fields(lazy)] == [f.name for f in dataclasses.fields(real)] == ["n", "code", "later"]
    assert [f.default for f in dataclasses.fields(lazy)] == [f.default for f in dataclasses.fields(real)]
    assert lazy(5).later == () and dataclasses.asdict(lazy(5)) == dataclasses.asdict(real(5))


def test_what_is_not_a_plain_declaration_is_the_dataclass_itself() -> None:
    from wiezen_score.core.frozen import lazy_dataclass

    @lazy_dataclass(frozen=True)
    class WithFactory:
        x: dict[str, int] = dataclasses.field(default_factory=dict)

    @lazy_dataclass(order=True)
    class Ordered:
        x: int

    assert "__init__" in WithFactory.__dict__ and WithFactory().x == {}
    assert Ordered(1) < Ordered(2)
    with pytest.raises(ValueError):
        @lazy_dataclass(frozen=True)
        class Mutable:
            x: list[int] = []  # noqa: RUF012 - the dataclass's own error
    with pytest.raises(TypeError):
        @lazy_dataclass(frozen=True)
        class Order:
            x: int = 1
            y: int  # a field without a default after one with: the dataclass's own error


@pytest.mark.parametrize("name", ["ledger.rows.SessionInfo", "ledger.rows.EntryRow", "ledger.chain.Seal",
                                  "ledger.chain.Finding", "ledger.chain.SealResult"])
def test_the_ledgers_lazy_dataclasses_as_their_dataclass(name: str) -> None:
    """Each class declared with lazy_dataclass in the package against the dataclass of its own declaration."""
    import importlib

    module, cls_name = name.rsplit(".", 1)
    cls = getattr(importlib.import_module(f"wiezen_score.{module}"), cls_name)
    notes = cls.__annotations__
    spec = [(f, Any, field(default=getattr(cls, f)) if f in vars(cls) and not callable(getattr(cls, f)) else field())
            for f in notes]
    ref = make_dataclass(cls_name, spec, frozen=True)
    ours, theirs = inspect.signature(cls).parameters, inspect.signature(ref).parameters
    assert [(p.name, p.default, p.kind) for p in ours.values()] == [(p.name, p.default, p.kind) for p in theirs.values()]
    args = {f: (f, i) for i, f in enumerate(notes)}
    x, r = cls(**args), ref(**args)
    assert repr(x) == repr(r) and hash(x) == hash(r) and x == cls(**args)
    assert dataclasses.asdict(x) == dataclasses.asdict(r)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(x, next(iter(notes)), 0)
