"""Players are people: which recorded names are one person, and the name he goes by now. Pure.

The ledger records a player by the name typed at the table, and never changes it (the sheets, the chain and the
seals keep it). What a club learns later, that ``rené`` on one laptop is ``Rene`` on another, or that ``Jan``
now wants to be ``Johan``, is kept apart as facts in the order they were recorded: ``rename OLD NEW``, ``merge
NAME OTHER`` (OTHER is the same person as NAME, and goes by NAME), ``split NAME OTHER`` (undoes that merge).
:func:`fold` reads them over the recorded names: each recorded player belongs to one person, and a person is
counted once wherever players are counted (standings, competitions, seating, nights).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .names import name_key
from .suggest import bare

__all__ = ["ACTIONS", "Fact", "Person", "fold", "look_alike", "loose_key"]

ACTIONS = ("rename", "merge", "split")


@dataclass(frozen=True, slots=True)
class Fact:
    """One recorded fact about players: ``action`` (rename, merge or split), ``name`` and ``other`` as typed."""

    action: str
    name: str
    other: str


@dataclass(frozen=True, slots=True)
class Person:
    """A person: ``id`` (his lowest player id), the name he goes by, and the player ids that are his."""

    id: int
    name: str
    members: tuple[int, ...]


def loose_key(name: str) -> str:
    """What look-alike names share: no case, no accents, no spaces (``Rene``, ``René``, ``rené `` and ``Re ne``)."""
    return "".join(bare(name).split())


def look_alike(name: str, known: Iterable[str]) -> list[str]:
    """The names of ``known`` that differ from ``name`` but only by case, accents or spaces."""
    key, loose = name_key(name), loose_key(name)
    return [k for k in known if name_key(k) != key and loose_key(k) == loose]


class _Groups:
    """Player ids grouped into people while the facts are read."""

    def __init__(self, players: Sequence[tuple[int, str]]) -> None:
        self.recorded = {pid: name for pid, name in players}
        self.group = {pid: pid for pid, _n in players}  # player id -> group id
        self.display = {pid: name for pid, name in players}  # group id -> the name it goes by
        self.came_in: dict[tuple[int, str], list[int]] = {}  # (group, key of a merged name) -> the ids it brought

    def members(self, g: int) -> list[int]:
        return [p for p, h in self.group.items() if h == g]

    def find(self, name: str) -> int | None:
        """The group a name stands for: a person's present name first, else a recorded name."""
        key = name_key(name)
        for g, d in self.display.items():
            if name_key(d) == key:
                return g
        for pid, rec in self.recorded.items():
            if name_key(rec) == key:
                return self.group[pid]
        return None

    def apply(self, f: Fact) -> None:
        g = self.find(f.name)
        if g is None:
            return  # a fact about players this ledger does not hold (another laptop's): it waits for them
        if f.action == "rename":
            self.display[g] = f.other
            return
        if f.action == "merge":
            h = self.find(f.other)
            if h is None or h == g:
                return
            moved = self.members(h)
            for p in moved:
                self.group[p] = g
            del self.display[h]
            self.came_in[(g, name_key(f.other))] = moved
            return
        key = name_key(f.other)  # split: what came in under that name leaves again
        moved = [p for p in self.came_in.pop((g, key), []) if self.group[p] == g]
        if not moved:
            moved = [p for p in self.members(g) if name_key(self.recorded[p]) == key]
        if not moved or len(moved) == len(self.members(g)):
            return
        stay = [p for p in self.members(g) if p not in moved]
        if g in moved:  # the one who leaves holds the group's id: the others take a new one, under NAME
            new = min(stay)
            for p in stay:
                self.group[p] = new
            self.display[new] = f.name
            self.display[g] = f.other
            return
        new = min(moved)
        for p in moved:
            self.group[p] = new
        self.display[new] = f.other

    def join_new_names(self) -> None:
        """A player recorded under a person's new name (after ``rename Jan Johan``, a table typed ``Johan``)
        is that person."""
        by_key: dict[str, int] = {}
        members: dict[int, list[int]] = {}
        for p, h in self.group.items():
            members.setdefault(h, []).append(p)
        for g, d in self.display.items():
            ms = members.get(g, [])
            if ms and all(name_key(self.recorded[p]) != name_key(d) for p in ms):
                by_key.setdefault(name_key(d), g)
        for pid, rec in self.recorded.items():
            target = by_key.get(name_key(rec))
            h = self.group[pid]
            if target is not None and target != h and members.get(h) == [pid] and self.display[h] == rec:
                self.group[pid] = target


def fold(players: Sequence[tuple[int, str]], facts: Iterable[Fact]) -> dict[int, Person]:
    """Each recorded player (id, name as recorded) -> the person he is, after ``facts`` in recorded order."""
    gs = _Groups(players)
    for f in facts:
        gs.apply(f)
    gs.join_new_names()
    out: dict[int, Person] = {}
    groups: dict[int, list[int]] = {}
    for pid, g in gs.group.items():
        groups.setdefault(g, []).append(pid)
    for g, ms in groups.items():
        person = Person(min(ms), gs.display[g], tuple(sorted(ms)))
        for pid in ms:
            out[pid] = person
    return out


def names_of(person: Person, recorded: Mapping[int, str]) -> list[str]:
    """The other names that are his: the recorded names of a person besides the one he goes by."""
    seen = {name_key(person.name)}
    out = []
    for pid in person.members:
        n = recorded[pid]
        if name_key(n) not in seen:
            seen.add(name_key(n))
            out.append(n)
    return out
