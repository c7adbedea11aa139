"""Seals: the session hash at a seal link, shortened to 12 characters and a check character players can note.

A seal vouches for everything its session held when it was sealed: :func:`check_seal` hashes the session's
history again from the rows (facts.py) and looks for the seal among the session's seal links.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from ..core.dates import moment_text
from ..core.i18n import N_, _
from .facts import GENESIS, Facts, session_hash

#: how an entry was voided, as the ledger stores it, in the words `explain` uses
_VOIDED_BY = {"undo": N_("undo"), "amend": N_("amend")}


def seal_code(shash: str) -> str:
    """The seal of a session hash: its first 60 bits as 12 characters and a check character, e.g.
    ``7KQ2-M9XD-4TPA-R`` (core/sealcode.py)."""
    from ..core.sealcode import seal_code as code

    return code(shash)


def normalize_code(code: str) -> str:
    """A seal as typed (any case, spaces or dashes, O for 0, I or L for 1; with its check character or, printed
    before there was one, without) as its 12 characters; '' when it is not a seal's shape or its check is wrong."""
    from ..core.sealcode import read_seal

    typed = read_seal(code)
    return "" if typed.typo else typed.body


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
    from ..core.sealcode import body_of, near, read_seal

    typed = read_seal(code)
    if not typed.shaped:
        return SealResult(False, _("'{code}' is not a seal: a seal is 12 letters and digits and a check character, like "
                                   "7KQ2-M9XD-4TPA-R").format(code=code))
    want = typed.body
    if session_id is not None:
        sids = [session_id]
    else:
        sids = [int(s) for (s,) in conn.execute("SELECT DISTINCT session_id FROM seals ORDER BY session_id")]
    facts = Facts(conn)
    found: list[tuple[int, str]] = []  # every seal the history gives now: (session, seal)
    for sid in sids:
        links = conn.execute(
            "SELECT seq, kind, rid, sub FROM chain WHERE session_id = ? ORDER BY seq", (sid,)
        ).fetchall()
        head = GENESIS
        for i, (_seq, kind, rid, sub) in enumerate(links):
            got = facts.content(kind, rid, sub)
            if got is None:
                break
            head = session_hash(head, kind, got[0])
            if kind != "seal":
                continue
            printed = seal_code(head)
            found.append((sid, printed))
            if not typed.typo and body_of(printed) == want:
                later = []
                for _seq, k2, r2, s2 in links[i + 1:]:
                    later.append(_later_line(conn, facts, k2, r2, s2))
                n = got[0]["n"]
                return SealResult(True, _('seal {want} vouches for session {sid} as sealed at {got} (seal {n}): it holds exactly that history').format(want=printed, sid=sid, got=moment_text(str(got[0]['sealed_at'])), n=n), sid, tuple(x for x in later if x))
    close = [(sid, printed) for sid, printed in found if near(want, body_of(printed))]
    if typed.typo or close:  # a character noted wrong: not a changed history
        named = close or (found if session_id is not None else [])
        seals_of = "; ".join(_("session {id}: {seal}").format(id=sid, seal=printed) for sid, printed in named)
        return SealResult(False, _("'{code}' is not a seal: one character is wrong? {seals}").format(
            code=code.strip(), seals=(_("the seals: {seals}").format(seals=seals_of) if named else
                                      _("give --session ID to see that session's seals"))))
    where = _("session {id}").format(id=session_id) if session_id is not None else _("any session of this ledger")
    shown = f"{want[:4]}-{want[4:8]}-{want[8:]}" + (code.strip().upper()[-2:] if typed.checked else "")
    return SealResult(
        False,
        _('the seal {want} does not vouch for {where}: the history it sealed is not here as it was (an entry, correction, reason or time changed, missing or forged)').format(want=shown, where=where),
        session_id,
    )


def _later_line(conn: sqlite3.Connection, facts: Facts, kind: str, rid: int, sub: int) -> str:
    got = facts.content(kind, rid, sub)
    if got is None:
        return ""
    p = got[0]
    if kind == "entry":
        return (_("#{no} {text} recorded {at} (a correction)") if p["replaces"] else _("#{no} {text} recorded {at}")).format(
            no=p["no"], text=p["text"], at=moment_text(str(p["created_at"]))
        )
    if kind == "void":
        r = conn.execute("SELECT no, text FROM entries WHERE id = ?", (rid,)).fetchone()
        label = f"#{r[0]} {r[1]}" if r else _("an entry")
        how = _(_VOIDED_BY[p["action"]]) if p["action"] in _VOIDED_BY else p["action"]
        return _("{entry} voided ({how}) {at}").format(entry=label, how=how, at=moment_text(str(p["created_at"]))) + (
            f": {p['reason']}" if p["reason"] else ""
        )
    if kind == "seal":
        return _("sealed again {at}: {seal}").format(at=moment_text(str(p["sealed_at"])), seal=seal_code(_shash_of(conn, rid)))
    return ""


def _shash_of(conn: sqlite3.Connection, seal_id: int) -> str:
    r = conn.execute("SELECT shash FROM chain WHERE kind = 'seal' AND rid = ?", (seal_id,)).fetchone()
    return str(r[0]) if r and r[0] else "0" * 64
