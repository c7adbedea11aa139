"""The chained text of a fact, and the hashes made over it.

A fact's content comes in two halves: *portable* (what the same history gives in every ledger it is imported
into: players by name, entries by uid) and *local* (the row ids of this ledger). Each half is written as
canonical JSON by :func:`_dump`, the one definition of the bytes every link's hash and every seal covers
(tests/ledger/test_chain_golden.py holds them to the hashes of existing ledgers). chain.py links facts, seals.py
reads and checks seals.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Mapping

GENESIS = "wiezen-chain-1"

#: a fact's content: (portable half, local half, session id); each half a JSON object
Content = tuple[Mapping[str, object], Mapping[str, object], "int | None"]


def _dump(value: object) -> str:
    """The chained text of a fact: canonical JSON (keys sorted, no spaces, UTF-8 as is). Every link's hash and
    every seal is made over these bytes (tests/ledger/test_chain_golden.py holds them to the hashes of old ledgers)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _sha(*parts: str) -> str:
    """SHA-256 over the parts, each followed by a NUL byte."""
    return str(hashlib.sha256(("\x00".join(parts) + "\x00").encode("utf-8")).hexdigest())


def link_hash(prev: str, kind: str, rid: int, sub: int, session_id: int | None, portable: object, local: object,
              dumped: tuple[str, str] | None = None) -> str:
    p, loc = dumped if dumped is not None else (_dump(portable), _dump(local))
    return _sha(prev, kind, str(rid), str(sub), "" if session_id is None else str(session_id), p, loc)


def session_hash(prev: str, kind: str, portable: object, dumped: str | None = None) -> str:
    return _sha(prev, kind, dumped if dumped is not None else _dump(portable))



# ------------------------------------------------------------------------------------------- fact contents


class Facts:
    """Reads the content of facts, either one at a time (:meth:`one`) or the whole ledger at once (bulk)."""

    def __init__(self, conn: sqlite3.Connection, bulk: bool = False) -> None:
        self.conn = conn
        self.bulk = bulk
        self._has_sixths: bool | None = None
        self._cache: dict[str, dict[tuple[int, int], Content]] = {}
        self._names: dict[int, str] | None = None
        self._uids: dict[str, dict[int, str]] = {}
        self._memo_names: dict[int, str | None] = {}

    def _sixths(self) -> bool:
        """entry_points stores sixths (schema 14 on), not halves."""
        if self._has_sixths is None:
            self._has_sixths = any(r[1] == "sixth" for r in self.conn.execute("PRAGMA table_info(entry_points)"))
        return self._has_sixths

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

    def content(self, kind: str, rid: int, sub: int) -> Content | None:
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

    def _load(self, kind: str, key: tuple[int, int] | None) -> Iterable[tuple[tuple[int, int], Content]]:
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
            # the seats the session started with (those of players who joined later are entries' facts)
            sq = "SELECT session_id, seat, player_id FROM seats WHERE seat < 100" + (" AND session_id = ?" if one else "")
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
            pts: dict[int, list[tuple[str, int, list[object]]]] = {}
            # six times the points (schema 14 on; before it, twice them: three times that is six times)
            six = "sixth" if self._sixths() else "3 * half"
            pq = f"SELECT entry_id, player_id, {six}, taker, made FROM entry_points" + (" WHERE entry_id = ?" if one else "")
            folded: dict[int, str | None] = {}
            for eid, pid, sixth, taker, made in c.execute(pq, rid_arg):
                if pid not in folded:
                    folded[pid] = self.name(pid)
                n = folded[pid]
                # sorted by (name, player id): the same order in every ledger (a player has one row per entry)
                pts.setdefault(eid, []).append((str(n), pid, [n, _twice(sixth), taker, made]))
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
        elif kind == "session_void":
            q = "SELECT session_id, reason, voided_at FROM session_voids" + (" WHERE session_id = ?" if one else "")
            for sid, reason, at in c.execute(q, rid_arg):
                yield (sid, 0), (
                    {"session": self.uid("sessions", sid), "reason": reason, "voided_at": at},
                    {"session_id": sid}, sid,
                )  # fmt: skip
        elif kind == "people":
            q = "SELECT id, uid, action, name, other, date, created_at FROM player_facts" + (" WHERE id = ?" if one else "")
            for i, uid, action, name, other, date, at in c.execute(q, rid_arg):
                yield (i, 0), ({"uid": uid, "action": action, "name": name, "other": other, "date": date,
                                "created_at": at}, {"id": i}, None)
        elif kind == "version":
            q = ("SELECT precedent_id, version, title, ruling, tags, note, edited_at FROM precedent_versions"
                 + (" WHERE precedent_id = ? AND version = ?" if one else ""))
            for pid, v, title, ruling, tags, note, at in c.execute(q, both):
                yield (pid, v), (
                    {"precedent": self.uid("precedents", pid), "version": v, "title": title, "ruling": ruling,
                     "tags": tags, "note": note, "edited_at": at},
                    {"precedent_id": pid}, None,
                )  # fmt: skip



def _twice(sixth: int) -> int | str:
    """Twice the points, as the chained text of an entry writes them: an integer for whole and half points (as
    before schema 14, so that every link made before it still verifies), and for a third the exact fraction as text
    ("-8/3" for -4/3 points), which no integer can be taken for."""
    if sixth % 3 == 0:
        return sixth // 3
    from fractions import Fraction

    return str(Fraction(sixth, 3))


def _has_plan(conn: sqlite3.Connection) -> bool:
    return any(r[1] == "plan" for r in conn.execute("PRAGMA table_info(sessions)"))


def _has_column(conn: sqlite3.Connection, name: str) -> bool:
    return any(r[1] == name for r in conn.execute("PRAGMA table_info(sessions)"))
