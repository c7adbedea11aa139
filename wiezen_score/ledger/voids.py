"""Sessions taken out of every count: `wiezen session void ID --reason TEXT`.

A session started by mistake (empty, a test, the wrong players) stays in the ledger as it was, entries, seals
and all, and under its seal; a row of ``session_voids`` (a fact of its own in the chain, migration m015) takes
it out of the standings, the competitions and the players' figures (the queries that count add rows.COUNTED).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.errors import WiezenError
from ..core.i18n import _
from .rows import SessionInfo, end_session_row, insert_seal, now

if TYPE_CHECKING:
    from .store import Ledger

def void_session(led: Ledger, session_id: int, reason: str, force: bool = False) -> tuple[SessionInfo, bool]:
    """Void the session; an open one only with ``force``, which ends (and seals) it first. Returns the session
    and whether it was ended here."""
    reason = " ".join(reason.split())
    if not reason:
        raise WiezenError(_("give --reason TEXT: why session {id} counts nowhere").format(id=session_id))
    with led.write() as c:
        s = led.session(session_id)
        row = c.execute("SELECT reason FROM session_voids WHERE session_id = ?", (s.id,)).fetchone()
        if row is not None:
            raise WiezenError(_("session {id} is void already ({reason})").format(id=s.id, reason=row[0]))
        ended = False
        if s.ended_at is None:
            if not force:
                raise WiezenError(_("session {id} is open: end it first, or give --force to end and void it "
                                    "at once").format(id=s.id))
            ts = now()
            end_session_row(c, s.id, ts)
            insert_seal(c, s.id, 1, ts)
            ended = True
        c.execute("INSERT INTO session_voids (session_id, reason, voided_at) VALUES (?, ?, ?)", (s.id, reason, now()))
    return s, ended


def voided(led: Ledger) -> dict[int, str]:
    """Every void session: id -> reason."""
    return {int(i): str(r) for i, r in led.conn.execute("SELECT session_id, reason FROM session_voids")}
