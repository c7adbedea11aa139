"""The ledger's house rules added by users: the newest of a name is current; replacing them records a precedent."""

from __future__ import annotations

from ..core.i18n import _
from .entries import Entries
from .rows import insert_house_rules


class HouseRules(Entries):
    """House rules by name, as users added them. (On top of the entries: replaced house rules are recorded as a
    precedent, and the precedents log reads sessions and entries.)"""

    def rules_text(self, name: str) -> str | None:
        row = self.conn.execute(
            "SELECT toml FROM house_rules WHERE name = ? ORDER BY id DESC LIMIT 1", (name,)
        ).fetchone()
        return str(row[0]) if row else None

    def added_rules(self) -> list[tuple[str, str]]:
        rows = self.conn.execute(
            "SELECT name, toml FROM house_rules h WHERE id = (SELECT max(id) FROM house_rules WHERE name = h.name) "
            "ORDER BY name"
        ).fetchall()
        return [(str(a), str(b)) for a, b in rows]

    def add_rules(self, name: str, text: str, reason: str | None = None) -> str:
        with self.write() as c:
            old = self.rules_text(name)
            if old == text:
                return _("house rules '{name}' are already added, unchanged").format(name=name)
            insert_house_rules(c, name, text, reason or "")
            pid = self._on_rules_added(name, old, text, reason)
        if old is None:
            return _("added house rules '{name}'").format(name=name)
        return _("replaced house rules '{name}' for new sessions (sessions already recorded keep theirs)").format(
            name=name
        ) + (_("; recorded as precedent {id} (`wiezen precedent show {id}`)").format(id=pid) if pid else "")

    def _on_rules_added(self, name: str, old: str | None, new: str, reason: str | None) -> int | None:
        """Hook for the precedents log: replaced house rules are a ruling worth keeping.

        Records a precedent listing what changed (old and new values); returns its id, or None when the
        house rules are new or only their comments changed.
        """
        if old is None:
            return None
        from ..core import dates
        from .precedents import rules_changed

        return rules_changed(self, name, old, new, reason, dates.today().isoformat())
