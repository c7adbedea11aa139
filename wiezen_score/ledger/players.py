"""The ledger's players: a name as first recorded, and a new name that only looks like a known one refused."""

from __future__ import annotations

from ..core.errors import WiezenError
from ..core.i18n import _
from .base import LedgerBase
from .rows import insert_player


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
        other = confusable(name, known)
        if other is not None:
            raise WiezenError(
                _("'{name}' looks the same on screen as '{other}', a player this ledger knows: if it is {other}, type {other}; else give the new player another name").format(name=name, other=other)
            )
        return name
