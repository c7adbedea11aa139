"""The core's value classes are frozen dataclasses: immutable, equal by value, and HouseRules' index of names
and aliases follows its contracts (it is neither compared nor shown)."""

from __future__ import annotations

import dataclasses

import pytest

from wiezen_score.core import deal, rules, session, sessionfile
from wiezen_score.core.presets import load_preset


def test_values_are_immutable_and_equal_by_value() -> None:
    a, b = session.TableState(1, 2), session.TableState(1, 2)
    assert a == b and hash(a) == hash(b) and a != session.TableState(2, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.dealer = 3  # type: ignore[misc]
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        a.not_a_field = 1  # type: ignore[attr-defined]
    assert repr(a) == "TableState(dealer=1, pending=2, queued=0)"
    h = sessionfile.Header("session", name="x")
    assert h == sessionfile.Header("session", "x") and dataclasses.replace(h, name="y").name == "y"
    e = session.EntryInput("deal", "samen 8 jan+piet 9")
    assert sessionfile.Amend(1, e) == sessionfile.Amend(1, session.EntryInput("deal", "samen 8 jan+piet 9"))


def test_a_default_dict_is_new_for_each_record() -> None:
    a = session.Scored("deal", "x", 0, 1, {})
    b = session.Scored("deal", "x", 0, 1, {})
    assert a.takers == {} and a.takers is not b.takers
    given = {"jan": True}
    assert session.Scored("deal", "x", 0, 1, {}, given).takers is given


def test_house_rules_index_follows_the_contracts() -> None:
    m = rules.MiserieContract("grote-miserie", 0, 12, ("miserie",))
    r = rules.HouseRules("x", (m,))
    assert r.find("miserie") is m and r.find("other") is None
    assert dataclasses.replace(r, penalty=7).find("grote-miserie") is m
    assert "_index" not in repr(r) and r == rules.HouseRules("x", (m,))
    with pytest.raises(TypeError):
        rules.HouseRules("x", (m,), _index={"other": m})  # type: ignore[call-arg]


def test_house_rules_compare_by_their_fields() -> None:
    r = load_preset("rupelstreek")
    assert r == load_preset("rupelstreek") and hash(r) == hash(load_preset("rupelstreek"))
    assert r != dataclasses.replace(r, penalty=r.penalty + 1)
    d = deal.parse_deal("samen 8 jan+piet 9", r, ["jan", "piet", "mieke", "lotte"])
    assert d == deal.parse_deal("samen 8 jan+piet 9", r, ["jan", "piet", "mieke", "lotte"])
