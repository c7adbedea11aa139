"""The hash chain: every stored fact has one link, each link's hash covers the one before it.

A *fact* is one head row with the rows that belong to it:

- ``player`` (a players row), ``rules`` (a house_rules row),
- ``session`` (the sessions row without its end time, with its seats in order),
- ``entry`` (an entries row with its entry_points rows), ``void`` (a voids row),
- ``seal`` (a seals row: the session was ended, or corrected after it ended),
- ``precedent`` (a precedents row), ``version`` (a precedent_versions row).

Every link in table ``chain`` (append-only, numbered 1, 2, 3 ... without gaps) stores two hashes:

- ``hash``: SHA-256 over the previous link's hash and the fact's whole content, local row ids included. A row
  changed, deleted or inserted by hand no longer fits its link (or has none), and `wiezen check` says which.
- ``shash`` (facts of a session only): the *session chain*, SHA-256 over the session's previous ``shash`` and
  the fact's content without local row ids (players by name, entries by their uid), so the same history
  gives the same hashes in every ledger it is imported into. The ``shash`` of a seal link, shortened, is the
  session's **seal** (seals.py: :func:`~.seals.seal_code`): it vouches for everything the session held when it was sealed.

Links are appended by :func:`sync` at the end of every write transaction, in the order the rows were
inserted: temporary triggers (:func:`install_recorders`, on this connection only) note every head row the
tool itself inserts, so a row slipped in with another program never gets a link.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.i18n import _
from .facts import GENESIS as GENESIS
from .facts import Facts, link_hash, session_hash
from .rows import POINTS_BOUND as POINTS_BOUND  # the bound the chain's schema enforces
from .rows import insert_seal

KINDS = ("player", "rules", "session", "entry", "void", "seal", "precedent", "version", "session_void", "people")
SESSION_KINDS = ("session", "entry", "void", "seal")

# (kind, table, the expression of the link's rid, of its sub) for the head rows
HEADS: tuple[tuple[str, str, str, str], ...] = (
    ("player", "players", "id", "0"),
    ("rules", "house_rules", "id", "0"),
    ("session", "sessions", "id", "0"),
    ("entry", "entries", "id", "0"),
    ("void", "voids", "entry_id", "0"),
    ("seal", "seals", "id", "0"),
    ("precedent", "precedents", "id", "0"),
    ("version", "precedent_versions", "precedent_id", "version"),
    # a session taken out of every count: a fact of the ledger, not of the session (its seal stays)
    ("session_void", "session_voids", "session_id", "0"),
    ("people", "player_facts", "id", "0"),  # players rename|merge|split (ledger/people.py, schema 13)
)

SCHEMA = """
CREATE TABLE seals (                  -- a session ended (n = 1), or was corrected after it ended (n = 2, 3 ...)
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    n INTEGER NOT NULL CHECK (n >= 1),
    sealed_at TEXT NOT NULL,
    UNIQUE (session_id, n)
);
CREATE TABLE chain (                  -- one link per stored fact, in the order they were recorded
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    rid INTEGER NOT NULL,             -- the fact's row id (its precedent's id for a version) ...
    sub INTEGER NOT NULL DEFAULT 0,   -- ... and the version number for a version
    session_id INTEGER REFERENCES sessions(id),
    hash TEXT NOT NULL,               -- SHA-256(previous hash, the fact with its row ids)
    shash TEXT,                       -- SHA-256(the session's previous shash, the fact without row ids)
    UNIQUE (kind, rid, sub)
);
CREATE INDEX chain_session ON chain(session_id, seq);
CREATE TRIGGER seals_in_order BEFORE INSERT ON seals
WHEN NEW.n <> coalesce((SELECT max(n) FROM seals WHERE session_id = NEW.session_id), 0) + 1
BEGIN SELECT RAISE(ABORT, 'seals are numbered 1, 2, 3 ... in order'); END;
CREATE TRIGGER chain_in_order BEFORE INSERT ON chain
WHEN NEW.seq <> coalesce((SELECT max(seq) FROM chain), 0) + 1
BEGIN SELECT RAISE(ABORT, 'the chain grows one link at a time, at its end'); END;
"""


# ------------------------------------------------------------------------------------------------ appending


def install_recorders(conn: sqlite3.Connection) -> None:
    """Temporary triggers (this connection only) that note every head row the tool inserts, in order."""
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS chain_pending "
        "(n INTEGER PRIMARY KEY, kind TEXT NOT NULL, rid INTEGER NOT NULL, sub INTEGER NOT NULL)"
    )
    tables = {r[0] for r in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")}
    for kind, table, rid, sub in HEADS:
        if table not in tables:
            continue  # (a table of a later schema)
        conn.execute(
            f"CREATE TEMP TRIGGER IF NOT EXISTS chain_note_{table} AFTER INSERT ON main.{table} BEGIN "
            f"INSERT INTO chain_pending (kind, rid, sub) VALUES ('{kind}', NEW.{rid}, "
            f"{'NEW.' + sub if sub != '0' else '0'}); END"
        )
    conn.execute(
        "CREATE TEMP TRIGGER IF NOT EXISTS chain_note_end AFTER UPDATE OF ended_at ON main.sessions "
        "BEGIN INSERT INTO chain_pending (kind, rid, sub) VALUES ('end', NEW.id, 0); END"
    )


def _append(conn: sqlite3.Connection, facts: Facts, items: Sequence[tuple[str, int, int]]) -> set[int]:
    """Append one link per (kind, rid, sub), in this order. Returns the sessions written to."""
    if not items:
        return set()
    row = conn.execute("SELECT seq, hash FROM chain ORDER BY seq DESC LIMIT 1").fetchone()
    seq, prev = (row[0], row[1]) if row else (0, GENESIS)
    heads: dict[int, str] = {}
    links: list[tuple[int, str, int, int, int | None, str, str | None]] = []
    for kind, rid, sub in items:
        got = facts.texts(kind, rid, sub)
        if got is None:
            continue
        dumped = (got[0], got[1])
        sid = got[2]
        shash = None
        if kind in SESSION_KINDS and sid is not None:
            if sid not in heads:
                r = conn.execute(
                    "SELECT shash FROM chain WHERE session_id = ? ORDER BY seq DESC LIMIT 1", (sid,)
                ).fetchone()
                heads[sid] = r[0] if r else GENESIS
            shash = heads[sid] = session_hash(heads[sid], kind, None, dumped[0])
        seq += 1
        prev = link_hash(prev, kind, rid, sub, sid if kind in SESSION_KINDS else None, None, None, dumped)
        links.append((seq, kind, rid, sub, sid if kind in SESSION_KINDS else None, prev, shash))
    conn.executemany(_LINK_ROW, links)
    return set(heads)


_LINK_ROW = "INSERT INTO chain (seq, kind, rid, sub, session_id, hash, shash) VALUES (?, ?, ?, ?, ?, ?, ?)"


def sync(conn: sqlite3.Connection, now: str) -> None:
    """Link every head row this connection inserted since the last sync; seal again every ended session that
    was written to (a correction after the evening). Runs inside the write transaction, before COMMIT."""
    try:
        pending = conn.execute("SELECT kind, rid, sub FROM chain_pending ORDER BY n").fetchall()
    except sqlite3.OperationalError:
        return  # no recorders on this connection (a ledger before the chain)
    if not pending:
        return
    conn.execute("DELETE FROM chain_pending")
    facts = Facts(conn)
    items = [(str(k), int(r), int(s)) for k, r, s in pending if k != "end"]
    touched = _append(conn, facts, items) | {int(r) for k, r, _ in pending if k == "end"}
    for sid in sorted(touched):
        last = conn.execute("SELECT kind FROM chain WHERE session_id = ? ORDER BY seq DESC LIMIT 1", (sid,)).fetchone()
        sealed = conn.execute("SELECT max(n) FROM seals WHERE session_id = ?", (sid,)).fetchone()[0]
        if sealed and last and last[0] != "seal":
            # a session that has a seal and was written to after it: a correction, which gets a new seal
            insert_seal(conn, sid, sealed + 1, now)
        elif not sealed:
            # ended in this transaction (a replayed file, an import) without its seal: sealed at its end
            ended = conn.execute("SELECT ended_at FROM sessions WHERE id = ?", (sid,)).fetchone()
            if ended and ended[0] is not None:
                insert_seal(conn, sid, 1, ended[0])
    rest = conn.execute("SELECT kind, rid, sub FROM chain_pending ORDER BY n").fetchall()
    conn.execute("DELETE FROM chain_pending")
    _append(conn, facts, [(str(k), int(r), int(s)) for k, r, s in rest])


def chain_everything(conn: sqlite3.Connection) -> int:
    """The migration onto the chain: one link for every fact already stored, in the order of the history
    (players, house rules, then each session with its entries and voids by time and its seal, then the
    precedents). Returns the number of ended sessions sealed."""
    items: list[tuple[str, int, int]] = []
    items += [("player", i, 0) for (i,) in conn.execute("SELECT id FROM players ORDER BY id")]
    items += [("rules", i, 0) for (i,) in conn.execute("SELECT id FROM house_rules ORDER BY id")]
    sealed = 0
    for sid, ended in conn.execute("SELECT id, ended_at FROM sessions ORDER BY id").fetchall():
        items.append(("session", sid, 0))
        items += [(kind, eid, 0) for kind, eid in _recorded_order(conn, sid)]
        if ended is not None:
            items.append(("seal", insert_seal(conn, sid, 1, ended), 0))
            sealed += 1
    items += [("precedent", i, 0) for (i,) in conn.execute("SELECT id FROM precedents ORDER BY id")]
    items += [("version", p, v) for p, v in conn.execute(
        "SELECT precedent_id, version FROM precedent_versions ORDER BY edited_at, precedent_id, version")]
    _append(conn, Facts(conn, bulk=True), items)
    return sealed


def _recorded_order(conn: sqlite3.Connection, sid: int) -> list[tuple[str, int]]:
    """The order in which a session's entries and voids were recorded, rebuilt for a ledger from before the
    chain (times have whole seconds: a replayed file is recorded within one). An amendment's void follows the
    entry that replaced it; an undo comes before the next new entry unless that entry was undone earlier."""
    entries = conn.execute(
        "SELECT id, replaces FROM entries WHERE session_id = ? ORDER BY id", (sid,)
    ).fetchall()
    voids = {
        eid: (action, by, at) for eid, action, by, at in conn.execute(
            "SELECT v.entry_id, v.action, v.by_entry, v.created_at FROM voids v JOIN entries e ON e.id = v.entry_id "
            "WHERE e.session_id = ?", (sid,))
    }  # fmt: skip
    undo_at = {eid: v[2] for eid, v in voids.items() if v[0] == "undo"}
    amended_by = {v[1]: eid for eid, v in voids.items() if v[0] == "amend" and v[1] is not None}
    out: list[tuple[str, int]] = []
    placed: set[int] = set()
    counting: list[int] = []

    def undo_top() -> None:
        top = counting.pop()
        out.append(("void", top))
        placed.add(top)

    for eid, replaces in entries:
        if replaces is None:
            while counting and counting[-1] in undo_at and not (
                eid in undo_at and undo_at[eid] < undo_at[counting[-1]]
            ):
                undo_top()
            out.append(("entry", eid))
            counting.append(eid)
        else:
            out.append(("entry", eid))
            counting = [eid if x == replaces else x for x in counting]
            old = amended_by.get(eid)
            if old is not None and old not in placed:
                out.append(("void", old))
                placed.add(old)
    while counting and counting[-1] in undo_at:
        undo_top()
    rest = sorted((v[2], eid) for eid, v in voids.items() if eid not in placed)
    out += [("void", eid) for _, eid in rest]
    return out


def history_problems(conn: sqlite3.Connection, sid: int) -> list[Finding]:
    """The session's history, followed link by link in the order it was recorded, must be one the command line
    could have written: a new entry takes the next number, an amendment replaces an entry that counts (and
    voids it), an undo voids the last entry that counts, and after the evening ended only corrections come."""
    out: list[Finding] = []
    links = conn.execute(
        "SELECT kind, rid FROM chain WHERE session_id = ? AND kind IN ('entry', 'void', 'seal') ORDER BY seq", (sid,)
    ).fetchall()
    rows = {
        i: (no, replaces)
        for i, no, replaces in conn.execute("SELECT id, no, replaces FROM entries WHERE session_id = ?", (sid,))
    }
    voids = {
        eid: (action, by, reason) for eid, action, by, reason in conn.execute(
            "SELECT v.entry_id, v.action, v.by_entry, v.reason FROM voids v JOIN entries e ON e.id = v.entry_id "
            "WHERE e.session_id = ?", (sid,))
    }  # fmt: skip
    counting: dict[int, int] = {}  # no -> entry id
    replaced: dict[int, int] = {}  # entry id -> the entry that replaced it (its void is due)
    top = 0
    ended = False
    for kind, rid in links:
        if kind == "seal":
            ended = True
            continue
        if kind == "entry":
            if rid not in rows:
                continue
            no, rep = rows[rid]
            if rep is None:
                if ended:
                    out.append(Finding(_("the entry was recorded after the evening ended and corrects nothing "
                                       "(only an amendment or an undo may come after the end)"), sid, no, rid))
                if no != top + 1:
                    out.append(Finding(_('a new entry takes the next number ({next}), not {no}').format(next=top + 1, no=no), sid, no, rid))
                counting[no] = rid
                top = max(top, no)
            else:
                if counting.get(no) != rep:
                    out.append(Finding(_('it replaces entry id {rep}, which is not the entry #{no} that counted').format(rep=rep, no=no), sid, no, rid))
                else:
                    replaced[rep] = rid
                counting[no] = rid
            continue
        if rid not in voids or rid not in rows:
            continue
        action, by, reason = voids[rid]
        no = rows[rid][0]
        if action == "undo":
            last = max(counting) if counting else None
            if last is None or counting[last] != rid:
                out.append(Finding(
                    _("an undo that is not of the last entry that counted (#{no} counted after it)").format(no=last)
                    if last is not None and last != no
                    else _("an undo that is not of the last entry that counted (it did not count)"),
                    sid, no, rid))
            elif ended and not str(reason).strip():
                out.append(Finding(_("undone after the evening ended without a reason"), sid, no, rid))
            if counting.get(no) == rid:
                del counting[no]
        else:
            if replaced.get(rid) != by:
                out.append(Finding(_('voided by an amendment (entry id {by}) that did not replace it').format(by=by), sid, no, rid))
            replaced.pop(rid, None)
    for old, new in replaced.items():
        out.append(Finding(_('replaced by entry id {new} but never voided').format(new=new), sid, rows[old][0], old))
    return out



# ----------------------------------------------------------------------------------------------- verifying


@dataclass(frozen=True, slots=True)
class Finding:
    message: str
    session_id: int | None = None
    entry_no: int | None = None
    entry_id: int | None = None


def describe(conn: sqlite3.Connection, kind: str, rid: int, sub: int) -> tuple[str, int | None, int | None, int | None]:
    """How a fact is named in a problem line: (text, session id, entry number, entry row id)."""
    if kind in ("entry", "void"):
        r = conn.execute("SELECT session_id, no FROM entries WHERE id = ?", (rid,)).fetchone()
        what = _("the entry") if kind == "entry" else _("the void of the entry")
        return what, (r[0] if r else None), (r[1] if r else None), rid
    if kind == "session":
        return _("the session (its name, date, house rules, first dealer, start or seats)"), rid, None, None
    if kind == "seal":
        r = conn.execute("SELECT session_id, n FROM seals WHERE id = ?", (rid,)).fetchone()
        what = _("seal {n}").format(n=r[1]) if r else _("seal row {id}").format(id=rid)
        return what, (r[0] if r else None), None, None
    if kind == "player":
        return _("player id {id}").format(id=rid), None, None, None
    if kind == "rules":
        return _("added house rules id {id}").format(id=rid), None, None, None
    if kind == "precedent":
        return _("precedent {id}").format(id=rid), None, None, None
    if kind == "session_void":
        return _("the void of session {id}").format(id=rid), rid, None, None
    if kind == "people":
        return _("the rename or merge of players {id}").format(id=rid), None, None, None
    return _("version {n} of precedent {id}").format(n=sub, id=rid), None, None, None


def verify(conn: sqlite3.Connection) -> list[Finding]:
    """Every link against the row it covers, every row against the chain, the ends of the sessions."""
    out: list[Finding] = []
    facts = Facts(conn, bulk=True)
    links = conn.execute("SELECT seq, kind, rid, sub, session_id, hash, shash FROM chain ORDER BY seq").fetchall()
    prev_stored = prev_fresh = GENESIS
    heads: dict[int, tuple[str, str]] = {}  # session -> (stored, fresh) head
    linked: set[tuple[str, int, int]] = set()
    expect_seq = 1
    for seq, kind, rid, sub, sid, h, sh in links:
        if seq != expect_seq:
            out.append(Finding(_('chain: links {first} to {last} are missing (deleted by hand)').format(first=expect_seq, last=seq - 1)))
            prev_stored = prev_fresh = ""  # the next link cannot fit
        expect_seq = seq + 1
        if (kind, rid, sub) in linked:
            out.append(Finding(_('chain: link {seq} covers a fact that an earlier link covers already').format(seq=seq)))
        linked.add((kind, rid, sub))
        got = facts.texts(kind, rid, sub) if kind in KINDS else None
        if got is None:
            out.append(Finding(
                _("chain: link {seq} ({kind}) covers a row that is gone (deleted by hand)").format(seq=seq, kind=kind)
                if kind in KINDS
                else _("chain: link {seq} has an unknown kind {kind}").format(seq=seq, kind=repr(kind)),
                sid if kind in SESSION_KINDS else None,
            ))
            prev_stored, prev_fresh = h, h
            continue
        fsid = got[2]
        link_sid = fsid if kind in SESSION_KINDS else None
        dumped = (got[0], got[1])
        fresh = link_hash(prev_stored, kind, rid, sub, link_sid, None, None, dumped)
        fresh2 = fresh if prev_fresh == prev_stored else link_hash(prev_fresh, kind, rid, sub, link_sid, None, None, dumped)
        ok = h in (fresh, fresh2) and (sid if sid is None else int(sid)) == link_sid
        if not ok:
            what, w_sid, w_no, w_id = describe(conn, kind, rid, sub)
            out.append(Finding(_('{what} is not as it was recorded (changed by hand): it does not fit link {seq} of the chain').format(what=what, seq=seq), w_sid, w_no, w_id))
        if kind in SESSION_KINDS and link_sid is not None:
            s_stored, s_prev_fresh = heads.get(link_sid, (GENESIS, GENESIS))
            s_fresh = session_hash(s_stored, kind, None, dumped[0])
            s_fresh2 = s_fresh if s_prev_fresh == s_stored else session_hash(s_prev_fresh, kind, None, dumped[0])
            heads[link_sid] = (sh or "", s_fresh)
            if ok and sh not in (s_fresh, s_fresh2):
                what, w_sid, w_no, w_id = describe(conn, kind, rid, sub)
                out.append(Finding(_('the session chain does not fit at link {seq} ({what}): changed by hand').format(seq=seq, what=what),
                                   w_sid, w_no, w_id))
        elif ok and sh is not None:
            what, w_sid, w_no, w_id = describe(conn, kind, rid, sub)
            out.append(Finding(_('chain: link {seq} ({what}) claims a place in a session chain').format(seq=seq, what=what), w_sid, w_no, w_id))
        prev_stored, prev_fresh = h, fresh
    # every row has its link
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for kind, table, rid_col, sub_col in HEADS:
        if table not in tables:
            continue  # (a table of a later schema)
        for rid, sub in conn.execute(f"SELECT {rid_col}, {sub_col} FROM {table}"):
            if (kind, rid, sub) not in linked:
                what, w_sid, w_no, w_id = describe(conn, kind, rid, sub)
                out.append(Finding(_('{what} has no link in the chain: it was added by hand').format(what=what), w_sid, w_no, w_id))
    # an ended session has its first seal at its end, an open one none
    first = {sid: at for sid, at in conn.execute("SELECT session_id, sealed_at FROM seals WHERE n = 1")}
    for sid, ended in conn.execute("SELECT id, ended_at FROM sessions"):
        seal_at = first.get(sid)
        if ended is None and seal_at is not None:
            out.append(Finding(_("the session was sealed when it ended, yet it is marked open (reopened by hand)"), sid))
        elif ended is not None and seal_at is None:
            out.append(Finding(_("the session is marked ended but has no seal (closed by hand)"), sid))
        elif ended is not None and ended != seal_at:
            out.append(Finding(_("the session's end time {ended} is not the time it was sealed ({seal_at})").format(ended=ended, seal_at=seal_at), sid))
    for (sid,) in conn.execute("SELECT id FROM sessions ORDER BY id").fetchall():
        out += history_problems(conn, sid)
    return out
