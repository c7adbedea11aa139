"""The ledger's players: a name as first recorded, look-alikes refused, the names that are one person.

A new name that only looks like a known one is refused; ``players rename|merge|split`` record which names are one
person (ledger/people.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..core.errors import WiezenError
from ..core.i18n import _
from .base import LedgerBase
from .rows import insert_player

if TYPE_CHECKING:
    from ..core.people import Person
    from .people import PlayerDoc


class Players(LedgerBase):
    """Players by name (the spelling first recorded)."""

    def player_id(self, name: str) -> int:
        row = self.conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        return insert_player(self.conn, name)

    def known_player_name(self, name: str) -> str:
        """The spelling a player was first recorded with: names match by NFC and Unicode case folding
        (``Émile`` is ``émile``). A new name that looks like a known player's (``jаn`` with a Cyrillic
        ``а`` beside ``jan``) is refused."""
        from ..core.names import confusable, name_key, normalize_name

        name = normalize_name(name)
        row = self.conn.execute("SELECT name FROM players WHERE name = ?", (name,)).fetchone()
        if row:
            return str(row[0])
        known = [str(r[0]) for r in self.conn.execute("SELECT name FROM players ORDER BY id")]
        key = name_key(name)
        same = next((k for k in known if name_key(k) == key), None)
        if same is not None:
            return same
        renamed = [str(r[0]) for r in self.conn.execute("SELECT DISTINCT name FROM people")]
        same = next((k for k in renamed if name_key(k) == key), None)
        if same is not None:
            return same  # a person's new name (`players rename`): recorded as such, and he is that person
        other = confusable(name, known)
        if other is not None:
            raise WiezenError(
                _("'{name}' looks the same on screen as '{other}', a player this ledger knows: if it is {other}, type {other}; else give the new player another name").format(name=name, other=other)
            )
        return name

    # -- players are people (ledger/people.py, core/people.py) --------------------------------------
    def person_names(self) -> dict[str, str]:
        """Each recorded name (case-folded) -> the name of the person he is."""
        return {str(n).casefold(): str(d) for n, d in self.conn.execute(
            "SELECT p.name, pp.name FROM players p JOIN people pp ON pp.player_id = p.id")}

    def players_docs(self) -> list[PlayerDoc]:
        from .people import player_docs

        return player_docs(self.conn)

    def _person(self, name: str, persons: dict[int, Person], recorded: dict[int, str]) -> Person:
        """The person a typed name stands for: the name he goes by, else a name recorded; else one clear error."""
        from ..core.names import name_key

        key = name_key(name)
        found = next((p for p in persons.values() if name_key(p.name) == key), None)
        if found is None:
            found = next((persons[i] for i, n in recorded.items() if name_key(n) == key), None)
        if found is None:
            from ..core.suggest import bare, distance

            near = {persons[i].name: None for i, n in sorted(recorded.items(), key=lambda r: r[1].casefold())
                    if distance(bare(name), bare(n)) <= (1 if len(bare(name)) < 5 else 2)}
            hint = _("; did you mean {word}?").format(word=_(" or ").join(list(near)[:3])) if near else ""
            raise WiezenError(_("no player '{name}' in this ledger{hint} (see `wiezen players`)").format(
                name=name, hint=hint))
        return found

    def player_fact(self, action: str, name: str, others: Sequence[str], day: str) -> list[str]:
        """Record ``players rename|merge|split`` (all or nothing) after checking it; returns what it did, one
        line per name."""
        from ..core.dates import date_text
        from ..core.names import check_name, normalize_name
        from .people import add_fact, people, shared_tables

        done: list[str] = []
        with self.write() as c:
            for other in others:
                persons, recorded = people(c)
                who = self._person(normalize_name(name), persons, recorded)
                other = normalize_name(other)
                if action == "rename":
                    check_name(other)
                    taken = _name_taken(other, who, persons, recorded)
                    if taken is not None:
                        raise WiezenError(_("'{new}' is the name of another player: if they are one person, "
                                            "`wiezen players merge {taken} {old}`").format(new=other, taken=taken, old=who.name))
                    add_fact(c, action, who.name, other, day)
                    done.append(_("{old} is called {new} from now on (his sheets keep the names recorded)").format(
                        old=who.name, new=other))
                    continue
                them = self._person(other, persons, recorded)
                if action == "merge":
                    if them.id == who.id:
                        raise WiezenError(_("'{other}' is {name} already: a player cannot be merged into himself").format(
                            other=other, name=who.name))
                    clash = shared_tables(c, who.members, them.members)
                    if clash is not None:
                        raise WiezenError(_("{name} and {other} sat at the same table on {date} (session {id}): they are "
                                            "two people, not one").format(name=who.name, other=them.name, date=date_text(clash[1]), id=clash[0]))
                    add_fact(c, action, who.name, them.name, day)
                    done.append(_("{other} is {name}: counted as one player from now on").format(other=them.name, name=who.name))
                    continue
                mine = {recorded[m] for m in who.members}
                if them.id != who.id or len(who.members) < 2 or not any(
                        n.casefold() == other.casefold() for n in mine | {them.name}):
                    raise WiezenError(_("'{other}' is not a name merged into {name} (his names: {names}): nothing to split").format(
                        other=other, name=who.name, names=", ".join(sorted(mine, key=str.casefold))))
                add_fact(c, action, who.name, other, day)
                done.append(_("{other} is a player of his own again, apart from {name}").format(other=other, name=who.name))
        return done


def _name_taken(new: str, who: Person, persons: dict[int, Person], recorded: dict[int, str]) -> str | None:
    """The person (other than ``who``) whose name, as he goes by it or as recorded, is ``new``."""
    from ..core.names import name_key

    key = name_key(new)
    for pid, p in persons.items():
        if p.id != who.id and (name_key(p.name) == key or name_key(recorded[pid]) == key):
            return p.name
    return None
