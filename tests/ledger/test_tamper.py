"""Hand edits with the sqlite3 shell: for every table, every column of a stored row changed, a row deleted,
and every trigger dropped or replaced by a no-op of the same name. `wiezen check` catches each one: exit
status 1 and a line naming the problem."""

from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
from _ledger_helpers import wz
from _record_helpers import build_full_ledger, schema_objects

# not facts of the history: sqlite-utils' record of applied migrations, the scorer's links of the tables (they record
# nothing themselves), the rounds a club night was planned with (a setting that scores nothing), and the search
# index's own storage (the index itself, precedents_fts, is compared with the precedents)
SKIP_TABLES = ("_sqlite_migrations", "scorer_links", "night_rounds")


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    db = tmp_path_factory.mktemp("tamper") / "full.db"
    build_full_ledger(db)
    assert wz(db, "session", "void", "1", "--reason", "a test evening").exit_code == 0  # session_voids gets a row
    r = wz(db, "players", "rename", "lotte", "charlotte")  # a row of player_facts (and of the people it makes)
    assert r.exit_code == 0, r.output
    r = wz(db, "check")
    assert r.exit_code == 0, r.output
    return db


def _tables(db) -> list[str]:
    conn = sqlite3.connect(str(db))
    try:
        return [n for (n,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name NOT LIKE 'precedents_fts_%' ORDER BY name") if n not in SKIP_TABLES]
    finally:
        conn.close()


def _columns(db, table) -> list[tuple[str, str, bool]]:
    """(name, declared type, in the primary key) of the stored columns (generated ones cannot be set)."""
    conn = sqlite3.connect(str(db))
    try:
        return [(r[1], (r[2] or "").upper(), r[5] > 0) for r in conn.execute(f"PRAGMA table_xinfo({table})")
                if r[6] == 0]
    finally:
        conn.close()


def _keys(conn, table) -> tuple[list[str], list[tuple]]:
    pk = [r[1] for r in sorted(conn.execute(f"PRAGMA table_info({table})"), key=lambda r: r[5]) if r[5] > 0]
    cols = pk or ["rowid"]
    rows = conn.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {', '.join(cols)}").fetchall()
    return cols, rows


def behind_the_back(db, action) -> None:
    """Drop every trigger, run ``action(conn)``, put the triggers back exactly as they were."""
    conn = sqlite3.connect(str(db), isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")  # a hand edit of a throw-away copy: no need to wait for the disk
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, _ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        try:
            action(conn)
        finally:
            for _, sql in triggers:
                conn.execute(sql)
    finally:
        conn.close()


def _candidates(value, decl):
    if value is None:
        return [1, "x", "2026-01-01"]
    if isinstance(value, int):
        return [value + 1, value - 1, 1 - value]
    if isinstance(value, float):
        return [value + 1, value + 0.5]
    if isinstance(value, bytes):
        return [value + b"x"]
    return [value + "x", value[:-1] if value else "x", "deal", "pass", "undo", "amend", "ruling", "penalty"]


def change_one(conn, table, column) -> str | None:
    """Change ``column`` in one row of ``table`` (the first row the constraints let it); returns what was done,
    None when the table's own constraints refuse every such change."""
    cols, rows = _keys(conn, table)
    for key in rows:
        where = " AND ".join(f"{c} IS ?" for c in cols)
        (value,) = conn.execute(f"SELECT {column} FROM {table} WHERE {where}", key).fetchone()
        for new in _candidates(value, ""):
            if new == value:
                continue
            try:
                cur = conn.execute(f"UPDATE {table} SET {column} = ? WHERE {where}", (new, *key))
            except sqlite3.DatabaseError:
                continue
            if cur.rowcount:
                return f"{table}.{column} {value!r} -> {new!r} where {dict(zip(cols, key, strict=False))}"
    return None


def cases(db):
    out = []
    for t in _tables(db):
        for c, _decl, _ in _columns(db, t):
            out.append((t, c))
    return out


def assert_caught(db, what: str):
    """`wiezen check` must exit 1 with one clear line per problem; returns its result."""
    r = wz(db, "check")
    lines = [line for line in r.stdout.splitlines() if line.strip()]
    assert r.exit_code == 1, f"not caught: {what}\n{r.output}"
    assert isinstance(r.exception, SystemExit) and "unexpected" not in r.output, r.output
    assert lines and all(re.match(r"^[a-z-]+: \S", line) for line in lines), lines  # one clear line each
    assert "problem" in r.stderr
    return r


def test_every_column_of_every_table(template, tmp_path):
    found = cases(template)
    tables = {t for t, _ in found}
    # every table that holds a fact of the history or a cache of it is in the test
    assert tables >= {"players", "house_rules", "sessions", "seats", "entries", "entry_points", "voids", "seals",
                      "chain", "precedents", "precedent_versions", "precedents_fts", "session_totals",
                      "player_evenings", "session_voids"}, tables
    done, impossible = [], []
    for table, column in found:
        db = tmp_path / f"{table}-{column}.db"
        shutil.copy(template, db)
        what: list[str | None] = []
        behind_the_back(db, lambda conn: what.append(change_one(conn, table, column)))  # noqa: B023 (called at once)
        if what[0] is None:
            impossible.append((table, column))
        else:
            assert_caught(db, what[0])
            done.append(what[0])
        db.unlink()
    # a void's action cannot change alone: CHECK ((action = 'amend') = (by_entry IS NOT NULL)) refuses it; a players'
    # fact's action is one of three words (CHECK), which another word cannot pass
    assert impossible == [("player_facts", "action"), ("voids", "action")], impossible
    assert len(done) >= 60, len(done)


def test_a_deleted_row_of_every_table(template, tmp_path):
    for table in _tables(template):
        for pick in ("first", "last"):
            db = tmp_path / f"del-{table}-{pick}.db"
            shutil.copy(template, db)

            def delete(conn, table=table, pick=pick):
                cols, rows = _keys(conn, table)
                key = rows[0] if pick == "first" else rows[-1]
                where = " AND ".join(f"{c} IS ?" for c in cols)
                assert conn.execute(f"DELETE FROM {table} WHERE {where}", key).rowcount == 1

            behind_the_back(db, delete)
            assert_caught(db, f"a {pick} row of {table} deleted")
            db.unlink()


def _neutered(sql: str) -> str:
    head = re.split(r"\bBEGIN\b", sql, maxsplit=1, flags=re.I)[0]
    return head + "BEGIN SELECT 1; END"


@pytest.mark.parametrize("how", ["dropped", "neutered"])
def test_every_trigger_dropped_or_neutered(template, tmp_path, how):
    triggers = [(name, sql) for kind, name, _, sql in schema_objects(template) if kind == "trigger"]
    assert len(triggers) >= 30
    for name, sql in triggers:
        db = tmp_path / f"{how}-{name}.db"
        shutil.copy(template, db)
        conn = sqlite3.connect(str(db), isolation_level=None)
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute(f"DROP TRIGGER {name}")
        if how == "neutered":
            conn.execute(_neutered(sql))
            assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()
        conn.close()
        r = assert_caught(db, f"trigger {name} {how}")
        assert any(name in line for line in r.stdout.splitlines()), r.stdout
        db.unlink()


def test_an_inserted_row_is_caught(template, tmp_path):
    db = tmp_path / "insert.db"
    shutil.copy(template, db)

    def insert(conn):
        conn.execute(
            "INSERT INTO entries (uid, session_id, no, kind, text, contract, dealer, multiplier, offender_id, round, "
            "deal_no, reason, next_dealer, next_multiplier, replaces, created_at) SELECT 'forged', session_id, 99, "
            "'pass', 'pas', NULL, next_dealer, 1, NULL, 0, NULL, '', next_dealer, next_multiplier, NULL, created_at "
            "FROM entries WHERE session_id = 1 ORDER BY no DESC LIMIT 1"
        )
        eid = conn.execute("SELECT id FROM entries WHERE uid = 'forged'").fetchone()[0]
        for (pid,) in conn.execute("SELECT player_id FROM seats WHERE session_id = 1").fetchall():
            conn.execute("INSERT INTO entry_points (entry_id, player_id, sixth, taker) VALUES (?, ?, 0, 0)", (eid, pid))

    behind_the_back(db, insert)
    assert_caught(db, "a forged rondje pas appended to session 1")
    r = wz(db, "check")
    assert any("session 1 entry #99" in line and "added by hand" in line for line in r.stdout.splitlines()), r.stdout


def test_an_amendment_turned_into_an_undo_is_caught(template, tmp_path):
    db = tmp_path / "void.db"
    shutil.copy(template, db)
    behind_the_back(db, lambda conn: conn.execute(
        "UPDATE voids SET action = 'undo', by_entry = NULL WHERE entry_id = "
        "(SELECT min(entry_id) FROM voids WHERE action = 'amend')"))
    assert_caught(db, "an amendment's void turned into an undo")
