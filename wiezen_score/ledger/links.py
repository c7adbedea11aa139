"""The scorer's links of a ledger's tables: one secret token per table number (0: an evening without a table).

Kept in the ledger (table ``scorer_links``), so that a link printed on a table's card stays valid when the server
starts again; replaced only on purpose (`serve --new-links`), after which the old link says it was replaced.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rows import now

if TYPE_CHECKING:
    from .store import Ledger


@dataclass(frozen=True, slots=True)
class Link:
    token: str
    table: int | str  # its number or label; 0: the evening without a table
    replaced: bool = False


def link_of(led: Ledger, table: int | str) -> str:
    """The current token of ``table``, made (and kept) the first time it is asked for."""
    row = led.conn.execute(
        "SELECT token FROM scorer_links WHERE table_no = ? AND replaced_at IS NULL", (table,)).fetchone()
    if row is not None:
        return str(row[0])
    with led.write() as c:
        row = c.execute("SELECT token FROM scorer_links WHERE table_no = ? AND replaced_at IS NULL", (table,)).fetchone()
        if row is not None:  # another server made it meanwhile
            return str(row[0])
        token = secrets.token_urlsafe(16)
        c.execute("INSERT INTO scorer_links (token, table_no, made_at) VALUES (?, ?, ?)", (token, table, now()))
    return token


def find(led: Ledger, token: str) -> Link | None:
    """The table a token is the link of (current or replaced); None for a token the ledger never made."""
    row = led.conn.execute("SELECT table_no, replaced_at FROM scorer_links WHERE token = ?", (token,)).fetchone()
    return None if row is None else Link(token, row[0] if isinstance(row[0], str) else int(row[0]), row[1] is not None)


def replace_all(led: Ledger) -> int:
    """`serve --new-links`: every current link is replaced (new ones are made when asked for). Returns how many."""
    with led.write() as c:
        return c.execute("UPDATE scorer_links SET replaced_at = ? WHERE replaced_at IS NULL", (now(),)).rowcount
