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
  session's **seal** (:func:`seal_code`): it vouches for everything the session held when it was sealed.

Links are appended by :func:`sync` at the end of every write transaction, in the order the rows were
inserted: temporary triggers (:func:`install_recorders`, on this connection only) note every head row the
tool itself inserts, so a row slipped in with another program never gets a link.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from .rows import POINTS_BOUND as POINTS_BOUND  # the bound the chain's schema enforces
from .rows import insert_seal
from ..core.i18n import _

GENESIS = "wiezen-chain-1"
KINDS = ("player", "rules", "session", "entry", "void", "seal", "precedent", "version")
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


# ------------------------------------------------------------------------------------------------- hashing


def _dump(value: Any) -> str:
    """The chained text of a fact: canonical JSON (keys sorted, no spaces, UTF-8 as is). Every link's hash and
    every seal is made over these bytes (tests/test_chain_golden.py holds them to the hashes of old ledgers)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(*parts: str) -> str:
    """SHA-256 over the parts, each followed by a NUL byte."""
    return str(hashlib.sha256(("\x00".join(parts) + "\x00").encode("utf-8")).hexdigest())


def link_hash(prev: str, kind: str, rid: int, sub: int, session_id: int | None, portable: Any, local: Any,
              dumped: tuple[str, str] | None = None) -> str:
    p, loc = dumped if dumped is not None else (_dump(portable), _dump(local))
    return _sha(prev, kind, str(rid), str(sub), "" if session_id is None else str(session_id), p, loc)


def session_hash(prev: str, kind: str, portable: Any, dumped: str | None = None) -> str:
    return _sha(prev, kind, dumped if dumped is not None else _dump(portable))


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


# ------------------------------------------------------------------------------------------- fact contents


class Facts:
    """Reads the content of facts, either one at a time (:meth:`one`) or the whole ledger at once (bulk)."""

    def __init__(self, conn: sqlite3.Connection, bulk: bool = False) -> None:
        self.conn = conn
        self.bulk = bulk
        self._cache: dict[str, dict[tuple[int, int], Any]] = {}
        self._names: dict[int, str] | None = None
        self._uids: dict[str, dict[int, str]] = {}
        self._memo_names: dict[int, str | None] = {}

    # lookups used by the contents
    def name(self, pid: int | None) -> str | None:
        if pid is None:
            return None
        if self._names is None and self.bulk:
            self._names = {i: n for i, n in self.conn.execute("SELECT id, name FROM players")}
        if self._names is not None:
            n = self._names.get(pid)
        else:
            if pid not in self._memo_names:  # players never change: one read per player and write
                row = self.conn.execute("SELECT name FROM players WHERE id = ?", (pid,)).fetchone()
                self._memo_names[pid] = row[0] if row else None
            n = self._memo_names[pid]
        return None if n is None else str(n).casefold()

    def uid(self, table: str, rid: int | None) -> str | None:
        if rid is None:
            return None
        if self.bulk:
            if table not in self._uids:
                self._uids[table] = {i: u for i, u in self.conn.execute(f"SELECT id, uid FROM {table}")}
            return self._uids[table].get(rid)
        row = self.conn.execute(f"SELECT uid FROM {table} WHERE id = ?", (rid,)).fetchone()
        return None if row is None else str(row[0])

    def content(self, kind: str, rid: int, sub: int) -> tuple[Any, Any, int | None] | None:
        """(portable content, local ids, session id) of a fact, or None when its row is gone."""
        if self.bulk:
            if kind not in self._cache:
                self._cache[kind] = dict(self._load(kind, None))
            return self._cache[kind].get((rid, sub))
        found = dict(self._load(kind, (rid, sub)))
        return found.get((rid, sub))

    def texts(self, kind: str, rid: int, sub: int) -> tuple[str, str, int | None] | None:
        """(portable text, local text, session id) of a fact: :func:`_dump` of the two halves of
        :meth:`content`, or None when its row is gone."""
        got = self.content(kind, rid, sub)
        if got is None:
            return None
        return _dump(got[0]), _dump(got[1]), got[2]

    def _load(self, kind: str, key: tuple[int, int] | None) -> Iterable[tuple[tuple[int, int], Any]]:
        c = self.conn
        one = key is not None
        rid_arg: tuple[int, ...] = () if key is None else (key[0],)
        both: tuple[int, ...] = () if key is None else key
        if kind == "player":
            q = "SELECT id, name, created_at FROM players" + (" WHERE id = ?" if one else "")
            for i, name, at in c.execute(q, rid_arg):
                yield (i, 0), ({"name": name, "created_at": at}, {"id": i}, None)
        elif kind == "rules":
            q = "SELECT id, name, toml, reason, added_at FROM house_rules" + (" WHERE id = ?" if one else "")
            for i, name, toml, reason, at in c.execute(q, rid_arg):
                yield (i, 0), ({"name": name, "toml": toml, "reason": reason, "added_at": at}, {"id": i}, None)
        elif kind == "session":
            seats: dict[int, list[tuple[int, int]]] = {}
            sq = "SELECT session_id, seat, player_id FROM seats" + (" WHERE session_id = ?" if one else "")
            for sid, seat, pid in c.execute(sq + " ORDER BY session_id, seat", rid_arg):
                seats.setdefault(sid, []).append((seat, pid))
            plan = ", plan" if _has_plan(c) else ", NULL"  # an evening's length, from schema 7 on
            # a competition's tag, round and table (schema 8)
            extra = ", tag, round, table_no" if _has_column(c, "tag") else ", NULL, NULL, NULL"
            q = ("SELECT id, uid, name, date, rules_name, rules_toml, first_dealer, started_at, source_hash" + plan
                 + extra + " FROM sessions" + (" WHERE id = ?" if one else ""))  # fmt: skip
            for i, uid, name, date, rn, rt, fd, at, src, pl, tag, rnd, tno in c.execute(q, rid_arg):
                st = seats.get(i, [])
                portable = {"uid": uid, "name": name, "date": date, "rules_name": rn, "rules_toml": rt,
                            "first_dealer": fd, "started_at": at, "source_hash": src,
                            "players": [self.name(p) for _, p in st],
                            **({"plan": pl} if pl else {})}  # no plan: the same link as before schema 7
                # the tag, round and table join the content only when set, so the links of every session
                # recorded before them keep their hashes
                for k, v in (("tag", tag), ("round", rnd), ("table", tno)):
                    if v is not None:
                        portable[k] = v
                yield (i, 0), (portable, {"id": i, "seats": [[s, p] for s, p in st]}, i)
        elif kind == "entry":
            pts: dict[int, list[tuple[Any, ...]]] = {}
            pq = "SELECT entry_id, player_id, half, taker, made FROM entry_points" + (" WHERE entry_id = ?" if one else "")
            folded: dict[int, str | None] = {}
            for eid, pid, half, taker, made in c.execute(pq, rid_arg):
                if pid not in folded:
                    folded[pid] = self.name(pid)
                n = folded[pid]
                # sorted by (name, player id): the same order in every ledger (a player has one row per entry)
                pts.setdefault(eid, []).append((str(n), pid, [n, half, taker, made]))
            q = ("SELECT id, uid, session_id, no, kind, text, contract, dealer, multiplier, offender_id, round, deal_no, "
                 "reason, next_dealer, next_multiplier, replaces, created_at FROM entries" + (" WHERE id = ?" if one else ""))
            for r in c.execute(q, rid_arg):
                (i, uid, sid, no, k, text, contract, dealer, mult, off, rnd, deal_no, reason, nd, nm, rep, at) = r
                p = sorted(pts.get(i, ()))
                yield (i, 0), (
                    {"uid": uid, "no": no, "kind": k, "text": text, "contract": contract, "dealer": dealer,
                     "multiplier": mult, "offender": None if off is None else self.name(off), "round": rnd,
                     "deal_no": deal_no, "reason": reason, "next_dealer": nd, "next_multiplier": nm,
                     "replaces": None if rep is None else self.uid("entries", rep), "created_at": at,
                     "points": [t[2] for t in p]},
                    {"id": i, "session_id": sid, "offender_id": off, "replaces": rep, "players": [t[1] for t in p]},
                    sid,
                )  # fmt: skip
        elif kind == "void":
            q = ("SELECT v.entry_id, e.session_id, v.action, v.by_entry, v.reason, v.created_at FROM voids v "
                 "LEFT JOIN entries e ON e.id = v.entry_id" + (" WHERE v.entry_id = ?" if one else ""))
            for eid, sid, action, by, reason, at in c.execute(q, rid_arg):
                yield (eid, 0), (
                    {"entry": self.uid("entries", eid), "action": action, "by": self.uid("entries", by),
                     "reason": reason, "created_at": at},
                    {"entry_id": eid, "by_entry": by}, sid,
                )  # fmt: skip
        elif kind == "seal":
            q = "SELECT id, session_id, n, sealed_at FROM seals" + (" WHERE id = ?" if one else "")
            for i, sid, n, at in c.execute(q, rid_arg):
                yield (i, 0), ({"n": n, "sealed_at": at}, {"id": i, "session_id": sid}, sid)
        elif kind == "precedent":
            q = ("SELECT id, uid, date, session_id, entry_no, entry_id, players, origin, created_at FROM precedents"
                 + (" WHERE id = ?" if one else ""))
            for i, uid, date, sid, eno, eid, players, origin, at in c.execute(q, rid_arg):
                yield (i, 0), (
                    {"uid": uid, "date": date, "session": self.uid("sessions", sid), "entry_no": eno,
                     "entry": self.uid("entries", eid), "players": players, "origin": origin, "created_at": at},
                    {"id": i, "session_id": sid, "entry_id": eid}, None,
                )  # fmt: skip
        elif kind == "version":
            q = ("SELECT precedent_id, version, title, ruling, tags, note, edited_at FROM precedent_versions"
                 + (" WHERE precedent_id = ? AND version = ?" if one else ""))
            for pid, v, title, ruling, tags, note, at in c.execute(q, both):
                yield (pid, v), (
                    {"precedent": self.uid("precedents", pid), "version": v, "title": title, "ruling": ruling,
                     "tags": tags, "note": note, "edited_at": at},
                    {"precedent_id": pid}, None,
                )  # fmt: skip


# ------------------------------------------------------------------------------------------------ appending


def install_recorders(conn: sqlite3.Connection) -> None:
    """Temporary triggers (this connection only) that note every head row the tool inserts, in order."""
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS chain_pending "
        "(n INTEGER PRIMARY KEY, kind TEXT NOT NULL, rid INTEGER NOT NULL, sub INTEGER NOT NULL)"
    )
    for kind, table, rid, sub in HEADS:
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
    for kind, table, rid_col, sub_col in HEADS:
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


def _has_plan(conn: Any) -> bool:
    return any(r[1] == "plan" for r in conn.execute("PRAGMA table_info(sessions)"))


def _has_column(conn: Any, name: str) -> bool:
    return any(r[1] == name for r in conn.execute("PRAGMA table_info(sessions)"))
