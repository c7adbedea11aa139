"""core/people.py: which recorded names are one person after renames, merges and splits, and look-alike names."""

from __future__ import annotations

from wiezen_score.core.people import Fact, fold, look_alike, loose_key

PLAYERS = [(1, "Rene"), (2, "rené"), (3, "jan"), (4, "piet")]


def groups(players, facts):
    """{name the person goes by: sorted recorded names}."""
    rec = dict(players)
    out: dict[str, list[str]] = {}
    for pid, person in fold(players, facts).items():
        out.setdefault(person.name, []).append(rec[pid])
    return {k: sorted(v) for k, v in out.items()}


def test_no_facts_every_name_its_own_person():
    assert groups(PLAYERS, []) == {"Rene": ["Rene"], "rené": ["rené"], "jan": ["jan"], "piet": ["piet"]}


def test_merge_makes_one_person_under_the_first_name():
    assert groups(PLAYERS, [Fact("merge", "Rene", "rené")]) == {"Rene": ["Rene", "rené"], "jan": ["jan"], "piet": ["piet"]}


def test_the_person_id_is_his_lowest_player_id():
    people = fold(PLAYERS, [Fact("merge", "rené", "Rene")])
    assert people[1].id == people[2].id == 1
    assert people[1].name == "rené"


def test_split_undoes_a_merge_either_way_round():
    for split in (Fact("split", "Rene", "rené"), Fact("split", "rené", "Rene")):
        assert groups(PLAYERS, [Fact("merge", "Rene", "rené"), split]) == groups(PLAYERS, [])


def test_split_of_one_of_three_keeps_the_other_two():
    facts = [Fact("merge", "Rene", "rené"), Fact("merge", "Rene", "jan"), Fact("split", "Rene", "jan")]
    assert groups(PLAYERS, facts) == {"Rene": ["Rene", "rené"], "jan": ["jan"], "piet": ["piet"]}


def test_rename_changes_the_name_he_goes_by_and_merge_finds_him_by_it():
    facts = [Fact("rename", "jan", "Johan"), Fact("merge", "Johan", "piet")]
    assert groups(PLAYERS, facts) == {"Rene": ["Rene"], "rené": ["rené"], "Johan": ["jan", "piet"]}


def test_a_name_recorded_after_a_rename_is_that_person():
    players = [*PLAYERS, (5, "Johan")]  # a table typed the new name after the rename
    assert groups(players, [Fact("rename", "jan", "Johan")])["Johan"] == ["Johan", "jan"]


def test_facts_about_players_not_here_wait():
    assert groups(PLAYERS, [Fact("merge", "Rene", "nobody"), Fact("rename", "ghost", "x")]) == groups(PLAYERS, [])


def test_look_alikes_differ_only_by_case_accents_and_spaces():
    assert loose_key("René ") == loose_key("rene") == loose_key("Re ne")
    assert look_alike("rené", ["Rene", "René", "Renee", "jan"]) == ["Rene"]  # René is the same name (case only)
    assert look_alike("jan", ["Jan", "jaan"]) == []
