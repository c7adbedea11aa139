"""An import checks every entry of the file before it writes (ledger/import_check.py), one check after another:
a good file passes whole, a changed or hostile entry is refused with a message naming the entry and its first
problem (the messages of the quick test and the checks one by one it replaced, issue 26), never with a crash."""

from __future__ import annotations

import copy
import json
import math
import re

import pytest
from _hypothesis_helpers import examples
from _ledger_helpers import ok
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiezen_score.core.errors import WiezenError
from wiezen_score.ledger import import_check

FIELDS = ("uid", *import_check._ENTRY_FIELDS, "void")


@pytest.fixture(scope="module")
def doc(tmp_path_factory) -> dict:
    """An export of one session with deals, a rondje pas, penalties, half points, an undo and an amendment."""
    folder = tmp_path_factory.mktemp("shape")
    db = folder / "s.db"
    ok(db, "session", "start", "--players", "an,jan,piet,mieke,lotte", "--rules", "wikibooks-kleurenwiezen")
    for line in (["deal", "samen", "8", "jan+piet", "9"], ["pass"], ["deal", "alleen", "6", "mieke", "5"],
                 ["penalty", "lotte", "--reason", "renonce"], ["deal", "grote-miserie", "an", "0", "jan", "1", "mieke", "2"],
                 ["undo"], ["deal", "samen", "9", "jan+lotte", "10"], ["amend", "1", "samen", "8", "jan+piet", "10"]):
        ok(db, *line)
    ok(db, "session", "end")
    out = ok(db, "export").stdout
    return json.loads(out)


def outcome(doc: dict) -> tuple[str | None, set[str]]:
    """The message refusing the file's first session (None: it passes), and the entry uids seen."""
    seen: set[str] = set()
    try:
        import_check.check_session(copy.deepcopy(doc["sessions"][0]), 0, set(), seen)
    except WiezenError as err:
        return str(err), seen
    return None, seen


def test_the_file_fits(doc):
    assert outcome(doc) == (None, {e["uid"] for e in doc["sessions"][0]["entries"]})
    entries = doc["sessions"][0]["entries"]
    assert any(e["void"] for e in entries) and any(e["replaces"] for e in entries)
    assert any(isinstance(v, float) and not v.is_integer() for e in entries for v in e["points"].values())


# values an entry's field may take in a changed or hostile file
odd = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 8), st.sampled_from([0, 1, 2**40, 2**40 + 1, 2**53, 2**53 + 1, -2**53 - 1]),
    st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.5, -0.5, 1.0, 1e308]),
    st.sampled_from(["", "deal", "pass", "penalty", "jan", "JAN", "piet", "nobody", "undo", "amend"]),
    st.text(max_size=3), st.lists(st.integers(0, 2), max_size=2),
    st.dictionaries(st.sampled_from(["jan", "Jan", "piet", "mieke", "lotte", "an", "x"]),
                    st.one_of(st.integers(-4, 4), st.booleans(), st.floats(-2, 2)), max_size=5),
    st.fixed_dictionaries({"action": st.sampled_from(["undo", "amend", "x"]), "by": st.one_of(st.none(), st.text(max_size=2)),
                           "reason": st.one_of(st.text(max_size=2), st.none()), "created_at": st.sampled_from(["t", None])}),
)


@settings(max_examples=examples(400), suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(changes=st.lists(st.tuples(st.integers(0, 7), st.sampled_from(FIELDS), st.one_of(odd, st.just("<drop>"),
                                                                                           st.just("<uid-of>"))),
                        min_size=1, max_size=3),
       whole=st.one_of(st.none(), st.tuples(st.integers(0, 7), st.sampled_from([None, [], "x", 3]))))
def test_a_changed_entry_is_refused_with_a_message_or_passes(doc, changes, whole):
    changed = copy.deepcopy(doc)
    entries = changed["sessions"][0]["entries"]
    for k, field, value in changes:
        e = entries[k % len(entries)]
        if value == "<drop>":
            e.pop(field, None)
        elif value == "<uid-of>":  # another entry's uid: a repeated uid, a replaced or voiding entry
            e[field] = entries[(k + 1) % len(entries)]["uid"]
        else:
            e[field] = value
    if whole is not None:
        entries[whole[0] % len(entries)] = whole[1]
    message, seen = outcome(changed)  # (any other exception fails the test)
    if message is None:
        assert seen == {e["uid"] for e in entries}
    else:
        assert message.startswith(f"cannot import: session {changed['sessions'][0]['uid']}, entr"), message


def test_points_that_do_not_add_up_are_refused(doc):
    for extra in (1, 0.5, 2**53, 1e-9, math.inf):
        changed = copy.deepcopy(doc)
        e = changed["sessions"][0]["entries"][0]
        name = next(iter(e["points"]))
        e["points"][name] = e["points"][name] + extra
        got = outcome(changed)[0]
        problem = '"points" must map players to numbers' if extra == math.inf else "the points do not add up to 0"
        assert got is not None and got.endswith(f"entry {e['uid']}: {problem}"), (extra, got)


def _first(entries: list, want) -> dict:
    return next(e for e in entries if want(e))


# one change to the file each, and every one of them refused
REFUSED = {
    "a repeated uid": (lambda es: es[1].update(uid=es[0]["uid"]),
        'entries[1]: uid UID0 appears twice in the file'),
    "an empty uid": (lambda es: es[0].update(uid=""),
        'entries[0]: "uid" must be a non-empty text'),
    "an unknown kind": (lambda es: es[0].update(kind="slag"),
        'entry UID: kind must be one of deal, pass, redeal, penalty, join, leave'),
    "number 0": (lambda es: es[0].update(no=0),
        'entry UID: "no" must be a whole number from 1 to 1099511627776'),
    "a number past 2**40": (lambda es: es[0].update(multiplier=2**40 + 1),
        'entry UID: "multiplier" must be a whole number from 1 to 1099511627776'),
    "a bool for a number": (lambda es: es[0].update(next_multiplier=True),
        'entry UID: "next_multiplier" must be a whole number from 1 to 1099511627776'),
    "a dealer past the table": (lambda es: es[0].update(dealer=5),
        'entry UID: "dealer" must be a seat number'),
    "a negative next dealer": (lambda es: es[0].update(next_dealer=-1),
        'entry UID: "next_dealer" must be a seat number'),
    "a deal number 0": (lambda es: es[0].update(deal_no=0),
        'entry UID: "deal_no" must be an entry number or null'),
    "round as a number": (lambda es: es[0].update(round=0),
        'entry UID: "round" must be true or false'),
    "text as a number": (lambda es: es[0].update(text=3),
        'entry UID: "text" must be text'),
    "a contract as a list": (lambda es: es[0].update(contract=[]),
        'entry UID: "contract" must be text or null'),
    "an offender not at the table": (lambda es: es[0].update(offender="nobody"),
        'entry UID: the offender is not at the table'),
    "replacing a later entry": (lambda es: es[0].update(replaces=es[1]["uid"]),
        'entry UID: it replaces an entry that is not listed before it in its session'),
    "points as a list": (lambda es: es[0].update(points=[]),
        'entry UID: "points" must map players to numbers'),
    "a bool for points": (lambda es: es[0]["points"].update({next(iter(es[0]["points"])): True}),
        'entry UID: "points" must map players to numbers'),
    "NaN points": (lambda es: es[0]["points"].update({next(iter(es[0]["points"])): math.nan}),
        'entry UID: "points" must map players to numbers'),
    "points for a stranger": (lambda es: es[0]["points"].update(nobody=0),
        'entry UID: points for a player who is not at the table'),
    "a player's points twice": (lambda es: es[0]["points"].update({next(iter(es[0]["points"])).upper(): 0}),
        'entry UID: a player has points twice'),
    "a taker as 1": (lambda es: es[0]["takers"].update({next(iter(es[0]["points"])): 1}),
        'entry UID: "takers" must map players to true/false'),
    "a taker without points": (lambda es: _first(es, lambda e: len(e["points"]) == 4)["takers"].update(
        {p: True for p in ("an", "jan", "piet", "mieke", "lotte") if p not in _first(es, lambda e: len(e["points"]) == 4)["points"]}),
        'entry UID: a taker without points'),
    "a void as text": (lambda es: es[0].update(void="undo"),
        'entry UID: "void" must be an object or null'),
    "an amend void without its entry": (lambda es: _first(es, lambda e: e["void"] and e["void"]["by"]).update(
        void={**_first(es, lambda e: e["void"] and e["void"]["by"])["void"], "by": None}),
        'entry UID: an amend void names the entry that replaced it ("by"), an undo does not'),
    "an undo void naming an entry": (lambda es: _first(es, lambda e: e["void"] and not e["void"]["by"]).update(
        void={**_first(es, lambda e: e["void"] and not e["void"]["by"])["void"], "by": es[0]["uid"]}),
        'entry UID: an amend void names the entry that replaced it ("by"), an undo does not'),
    "a void without a reason": (lambda es: _first(es, lambda e: e["void"]).update(
        void={k: v for k, v in _first(es, lambda e: e["void"])["void"].items() if k != "reason"}),
        'entry UID: the void needs "reason" and "created_at" texts'),
    "a missing field": (lambda es: es[0].pop("takers"),
        'entries[0]: lacks takers'),
    "an undo void without its by": (lambda es: _first(es, lambda e: e["void"] and not e["void"]["by"])["void"].pop("by"),
        'entry UID: an amend void names the entry that replaced it ("by"), an undo does not'),
    "points past a float that do not add up": (lambda es: es[0].update(points={"an": 10**400, "jan": -10**400 + 1}),
        'entry UID: the points do not add up to 0'),
}


@pytest.mark.parametrize("change", sorted(REFUSED))
def test_each_bad_field_is_refused_with_its_message(doc, change):
    changed = copy.deepcopy(doc)
    entries = changed["sessions"][0]["entries"]
    uid0 = entries[0]["uid"]
    mutate, where_what = REFUSED[change]
    mutate(entries)
    got = outcome(changed)[0]
    expected = re.compile(re.escape(f"cannot import: session {changed['sessions'][0]['uid']}, ")
                          + re.escape(where_what.replace("UID0", uid0)).replace("UID", "[0-9a-f]{32}") + "$")
    assert got is not None and expected.match(got), (change, got)
