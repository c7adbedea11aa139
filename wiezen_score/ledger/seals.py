"""Seals: the session hash at a seal link, shortened to 12 characters players can note, and checking one.

A seal vouches for everything its session held when it was sealed: :func:`check_seal` hashes the session's
history again from the rows (facts.py) and looks for the seal among the session's seal links.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..core.i18n import _
from .facts import GENESIS, Facts, session_hash

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I, L, O, U


def seal_code(shash: str) -> str:
    """The first 60 bits of a session hash as 12 characters, e.g. ``7KQ2-M9XD-4TPA``."""
    n = int(shash[:15], 16)
    chars = "".join(_ALPHABET[(n >> (5 * i)) & 31] for i in reversed(range(12)))
    return f"{chars[:4]}-{chars[4:8]}-{chars[8:]}"


def normalize_code(code: str) -> str:
    """A seal as typed (any case, spaces or dashes, O for 0, I or L for 1) in its printed form."""
    raw = "".join(ch for ch in code.upper() if ch.isalnum()).replace("O", "0").replace("I", "1").replace("L", "1")
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}" if len(raw) == 12 and all(c in _ALPHABET for c in raw) else ""



# ------------------------------------------------------------------------------------------------- reading


@dataclass(frozen=True, slots=True)
class Seal:
    n: int
    code: str
    sealed_at: str
    seq: int  # the chain link of the seal


def seals(conn: sqlite3.Connection, session_id: int) -> list[Seal]:
    """The seals of a session, oldest first (the last one is current)."""
    try:
        rows = conn.execute(
            "SELECT s.n, c.shash, s.sealed_at, c.seq FROM seals s JOIN chain c ON c.kind = 'seal' AND c.rid = s.id "
            "WHERE s.session_id = ? ORDER BY s.n",
            (session_id,),
        ).fetchall()
    except sqlite3.OperationalError:
        return []
    return [Seal(n, seal_code(h), at, seq) for n, h, at, seq in rows if h]


def corrections(conn: sqlite3.Connection, session_id: int) -> dict[tuple[str, int], str]:
    """(kind, row id) -> the time, of the entries and voids recorded after the session was first sealed."""
    try:
        rows = conn.execute(
            "SELECT c.kind, c.rid FROM chain c WHERE c.session_id = ? AND c.kind IN ('entry', 'void') AND c.seq > "
            "(SELECT min(c2.seq) FROM chain c2 WHERE c2.session_id = ? AND c2.kind = 'seal')",
            (session_id, session_id),
        ).fetchall()
    except sqlite3.OperationalError:
        return {}
    out: dict[tuple[str, int], str] = {}
    for kind, rid in rows:
        if kind == "entry":
            r = conn.execute("SELECT created_at FROM entries WHERE id = ?", (rid,)).fetchone()
        else:
            r = conn.execute("SELECT created_at FROM voids WHERE entry_id = ?", (rid,)).fetchone()
        if r:
            out[(kind, rid)] = str(r[0])
    return out



@dataclass(frozen=True, slots=True)
class SealResult:
    ok: bool
    message: str
    session_id: int | None = None
    later: tuple[str, ...] = ()


def check_seal(conn: sqlite3.Connection, code: str, session_id: int | None) -> SealResult:
    """Does the ledger still hold exactly the history that seal ``code`` vouches for?

    The session chain is computed afresh from the rows (not read from the stored hashes): the seal must be the
    hash at one of the session's seals. What was recorded after it is listed (corrections)."""
    want = normalize_code(code)
    if not want:
        return SealResult(False, _("'{code}' is not a seal: a seal is 12 letters and digits like 7KQ2-M9XD-4TPA").format(code=code))
    if session_id is not None:
        sids = [session_id]
    else:
        sids = [int(s) for (s,) in conn.execute("SELECT DISTINCT session_id FROM seals ORDER BY session_id")]
    facts = Facts(conn)
    for sid in sids:
        links = conn.execute(
            "SELECT seq, kind, rid, sub FROM chain WHERE session_id = ? ORDER BY seq", (sid,)
        ).fetchall()
        head = GENESIS
        for i, (seq, kind, rid, sub) in enumerate(links):
            got = facts.content(kind, rid, sub)
            if got is None:
                break
            head = session_hash(head, kind, got[0])
            if kind == "seal" and seal_code(head) == want:
                later = []
                for _seq, k2, r2, s2 in links[i + 1:]:
                    later.append(_later_line(conn, facts, k2, r2, s2))
                n = got[0]["n"]
                return SealResult(True, _('seal {want} vouches for session {sid} as sealed at {got} (seal {n}): it holds exactly that history').format(want=want, sid=sid, got=got[0]['sealed_at'], n=n), sid, tuple(x for x in later if x))
    where = _("session {id}").format(id=session_id) if session_id is not None else _("any session of this ledger")
    return SealResult(
        False,
        _('the seal {want} does not vouch for {where}: the history it sealed is not here as it was (an entry, correction, reason or time changed, missing or forged)').format(want=want, where=where),
        session_id,
    )


def _later_line(conn: sqlite3.Connection, facts: Facts, kind: str, rid: int, sub: int) -> str:
    got = facts.content(kind, rid, sub)
    if got is None:
        return ""
    p = got[0]
    if kind == "entry":
        return (_("#{no} {text} recorded {at} (a correction)") if p["replaces"] else _("#{no} {text} recorded {at}")).format(
            no=p["no"], text=p["text"], at=p["created_at"]
        )
    if kind == "void":
        r = conn.execute("SELECT no, text FROM entries WHERE id = ?", (rid,)).fetchone()
        label = f"#{r[0]} {r[1]}" if r else _("an entry")
        return _("{entry} voided ({how}) {at}").format(entry=label, how=p["action"], at=p["created_at"]) + (
            f": {p['reason']}" if p["reason"] else ""
        )
    if kind == "seal":
        return _("sealed again {at}: {seal}").format(at=p["sealed_at"], seal=seal_code(_shash_of(conn, rid)))
    return ""


def _shash_of(conn: sqlite3.Connection, seal_id: int) -> str:
    r = conn.execute("SELECT shash FROM chain WHERE kind = 'seal' AND rid = ?", (seal_id,)).fetchone()
    return str(r[0]) if r and r[0] else "0" * 64
