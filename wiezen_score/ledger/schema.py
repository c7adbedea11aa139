"""The schema's statements and the migration functions that make the core tables (ledger/migrations.py orders them)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.i18n import _
from .sql import _statements, append_only

if TYPE_CHECKING:
    from sqlite_utils import Database


def m001_initial(db: Database) -> None:
    # executescript() would COMMIT the surrounding transaction: run the statements one by one
    for stmt in _statements(_SCHEMA_1):
        db.execute(stmt)


_SESSION_TOTALS = """
CREATE TABLE session_totals (         -- a cache of each player's total per session, kept by triggers
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    points REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (session_id, player_id)
) WITHOUT ROWID;
CREATE TRIGGER session_totals_add AFTER INSERT ON entry_points
BEGIN
    INSERT INTO session_totals (session_id, player_id, points)
    VALUES ((SELECT session_id FROM entries WHERE id = NEW.entry_id), NEW.player_id, NEW.points)
    ON CONFLICT (session_id, player_id) DO UPDATE SET points = points + excluded.points;
END;
CREATE TRIGGER session_totals_void AFTER INSERT ON voids
BEGIN
    UPDATE session_totals SET points = points - coalesce(
        (SELECT ep.points FROM entry_points ep WHERE ep.entry_id = NEW.entry_id AND ep.player_id = session_totals.player_id), 0)
    WHERE session_id = (SELECT session_id FROM entries WHERE id = NEW.entry_id)
      AND player_id IN (SELECT player_id FROM entry_points WHERE entry_id = NEW.entry_id);
END;
INSERT INTO session_totals (session_id, player_id, points)
    SELECT e.session_id, ep.player_id, sum(ep.points) FROM entry_points ep JOIN entries e ON e.id = ep.entry_id
    WHERE NOT EXISTS (SELECT 1 FROM voids v WHERE v.entry_id = e.id) GROUP BY e.session_id, ep.player_id;
"""


def m004_session_totals(db: Database) -> None:
    """Each session's totals, kept in step by triggers, so a deal's report does not grow with the session."""
    for stmt in _statements(_SESSION_TOTALS):
        db.execute(stmt)


# Each append-only table with the column sets that identify a row. INSERT OR REPLACE (and REPLACE INTO) would
# delete the old row without firing the delete trigger: a BEFORE INSERT trigger refuses a row that exists.
_KEYS: dict[str, list[tuple[str, ...]]] = {
    "entries": [("id",), ("uid",)],
    "entry_points": [("entry_id", "player_id")],
    "voids": [("entry_id",)],
    "seats": [("session_id", "seat"), ("session_id", "player_id")],
    "house_rules": [("id",)],
    "sessions": [("id",), ("uid",), ("source_hash",)],
    "players": [("id",), ("name",)],
    "precedents": [("id",), ("uid",)],
    "precedent_versions": [("precedent_id", "version")],
}


def no_replace(table: str, keys: list[tuple[str, ...]]) -> str:
    """A trigger that refuses a row whose key exists (INSERT OR REPLACE would delete the old one silently)."""
    cond = " OR ".join(
        "EXISTS (SELECT 1 FROM {t} WHERE {m})".format(t=table, m=" AND ".join(f"{c} = NEW.{c}" for c in cols))
        for cols in keys
    )
    return (
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} WHEN {cond} "
        f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: this row exists already'); END"
    )


def m005_no_replace(db: Database) -> None:
    """History cannot be replaced either; players are never renamed nor removed."""
    for table, keys in _KEYS.items():
        db.execute(no_replace(table, keys))
    for stmt in _statements(append_only("players", "a player keeps his name")):
        db.execute(stmt)


_ENTRY_POINTS_EXACT = """
CREATE TABLE entry_points_exact (     -- one row per player of the deal in play (not who sat out)
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    half INTEGER NOT NULL CHECK (typeof(half) = 'integer' AND abs(half) <= {bound}),  -- twice the points, exactly
    points REAL GENERATED ALWAYS AS (half / 2.0) VIRTUAL,                        -- whole or half points
    taker INTEGER NOT NULL DEFAULT 0, -- 1: bidder, partner or on miserie
    made INTEGER,                     -- takers: 1 made, 0 lost
    PRIMARY KEY (entry_id, player_id)
) WITHOUT ROWID
"""


def m006_chain(db: Database) -> None:
    """Exact points (twice the points as an integer) and the hash chain over every stored fact, with the
    seals of the sessions already ended (see ledger/chain.py)."""
    from ..core.errors import WiezenError
    from ..core.numbers import grouped
    from . import chain

    conn = db.conn
    bad = conn.execute(
        "SELECT e.session_id, e.no, ep.points FROM entry_points ep JOIN entries e ON e.id = ep.entry_id "
        "WHERE typeof(ep.points) NOT IN ('integer', 'real') OR ep.points * 2 <> CAST(ep.points * 2 AS INTEGER) "
        f"OR abs(ep.points) > {chain.POINTS_BOUND} ORDER BY e.session_id, e.no LIMIT 1"
    ).fetchone()
    if bad is not None:
        raise WiezenError(
            _('session {session}, entry #{no} holds {points} points, which no deal can give (whole or half points, at most {most}): the ledger cannot be upgraded; restore a backup').format(session=bad[0], no=bad[1], points=repr(bad[2]), most=grouped(chain.POINTS_BOUND))
        )
    rebuild_entry_points(
        db, _ENTRY_POINTS_EXACT.format(bound=2 * chain.POINTS_BOUND), "entry_points_exact",
        "INSERT INTO entry_points_exact (entry_id, player_id, half, taker, made) "
        "SELECT entry_id, player_id, CAST(points * 2 AS INTEGER), taker, made FROM entry_points",
    )
    for stmt in _statements(chain.SCHEMA):
        db.execute(stmt)
    for table, keys in (("seals", [("id",), ("session_id", "n")]), ("chain", [("seq",), ("kind", "rid", "sub")])):
        db.execute(no_replace(table, keys))
        for stmt in _statements(append_only(table, "the history is sealed")):
            db.execute(stmt)
    chain.chain_everything(conn)


_KEEP_HISTORY_2 = """
CREATE TRIGGER sessions_keep_history BEFORE UPDATE ON sessions
WHEN OLD.ended_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.uid IS NOT OLD.uid OR NEW.name IS NOT OLD.name
  OR NEW.date IS NOT OLD.date OR NEW.rules_name IS NOT OLD.rules_name OR NEW.rules_toml IS NOT OLD.rules_toml
  OR NEW.first_dealer IS NOT OLD.first_dealer OR NEW.started_at IS NOT OLD.started_at
  OR NEW.source_hash IS NOT OLD.source_hash OR NEW.plan IS NOT OLD.plan
BEGIN SELECT RAISE(ABORT, 'a session only changes by being ended'); END
"""


def m007_evening_length(db: Database) -> None:
    """How long the evening is meant to last (``deals 24``, ``rounds 6``, ``target 100``; NULL: not said), kept
    like the rest of a session: it never changes once the session is started."""
    db.execute("ALTER TABLE sessions ADD COLUMN plan TEXT")
    db.execute("DROP TRIGGER sessions_keep_history")
    db.execute(_KEEP_HISTORY_2.strip())


_KEEP_HISTORY_3 = """
CREATE TRIGGER sessions_keep_history BEFORE UPDATE ON sessions
WHEN OLD.ended_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.uid IS NOT OLD.uid OR NEW.name IS NOT OLD.name
  OR NEW.date IS NOT OLD.date OR NEW.rules_name IS NOT OLD.rules_name OR NEW.rules_toml IS NOT OLD.rules_toml
  OR NEW.first_dealer IS NOT OLD.first_dealer OR NEW.started_at IS NOT OLD.started_at
  OR NEW.source_hash IS NOT OLD.source_hash OR NEW.plan IS NOT OLD.plan
  OR NEW.tag IS NOT OLD.tag OR NEW.round IS NOT OLD.round OR NEW.table_no IS NOT OLD.table_no
BEGIN SELECT RAISE(ABORT, 'a session only changes by being ended'); END
"""


def m009_competitions(db: Database) -> None:
    """Club competitions: a session may carry a tag (which competition it belongs to) and, on a night with
    several tables, its round and table number. Kept in history like the rest of the session."""
    db.execute("ALTER TABLE sessions ADD COLUMN tag TEXT")  # a competition's label; NULL: none
    db.execute("ALTER TABLE sessions ADD COLUMN round INTEGER CHECK (round IS NULL OR round >= 1)")
    db.execute("ALTER TABLE sessions ADD COLUMN table_no INTEGER CHECK (table_no IS NULL OR table_no >= 1)")
    db.execute("DROP TRIGGER sessions_keep_history")
    db.execute(_KEEP_HISTORY_3.strip())
    db.execute("CREATE INDEX sessions_tag ON sessions(tag, date)")


def m011_tables(db: Database) -> None:
    """A club night: one open session per table. The one open session of a ledger becomes one per table number
    (a session without a table counts as table 0: still one such at a time); which tables may be open together,
    and that a player sits at one of them, is checked when a session starts (ledger/sessions.py)."""
    db.execute("DROP INDEX one_open_session")
    db.execute("CREATE UNIQUE INDEX one_open_session_per_table ON sessions(coalesce(table_no, 0)) WHERE ended_at IS NULL")


def m012_scorer_links(db: Database) -> None:
    """The scorer's link of each table (table 0: an evening without a table), kept with the ledger so that the cards
    printed for the tables stay valid when `wiezen serve` starts again; `serve --new-links` replaces them (an old
    link then says so). Not part of the record: a link records nothing itself, and is not sealed or exported."""
    db.execute(
        "CREATE TABLE scorer_links (token TEXT PRIMARY KEY, table_no INTEGER NOT NULL CHECK (table_no >= 0), "
        "made_at TEXT NOT NULL, replaced_at TEXT)"
    )
    db.execute("CREATE UNIQUE INDEX scorer_links_current ON scorer_links(table_no) WHERE replaced_at IS NULL")


def m015_session_voids(db: Database) -> None:
    """A session taken out of every count (started by mistake, a test): `session void ID --reason TEXT`. The
    session, its entries and its seals stay as they were; the void is a fact of its own in the chain."""
    db.execute(
        "CREATE TABLE session_voids (          -- a session that counts nowhere (standings, competitions, players)\n"
        "    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),\n"
        "    reason TEXT NOT NULL CHECK (trim(reason) <> ''),\n"
        "    voided_at TEXT NOT NULL\n"
        ")"
    )
    from .standings import STANDINGS_VIEW_COUNTED

    db.execute("DROP VIEW standings")  # Datasette's standings leave the void sessions out too
    db.execute(STANDINGS_VIEW_COUNTED)


def m016_seat_entries(db: Database) -> None:
    """Players come and go (`session join`, `session leave`): two more kinds of entry. SQLite cannot change a
    CHECK constraint in place; loosening one is the one change its documentation allows through the schema's
    text (https://www.sqlite.org/lang_altertable.html, "otherwise": writable_schema, then a new schema_version):
    no row is rewritten, and every row already stored satisfies the wider check. The joins and leaves of a
    session are read through an index of their own."""
    old = "CHECK (kind IN ('deal', 'pass', 'redeal', 'penalty'))"
    new = "CHECK (kind IN ('deal', 'pass', 'redeal', 'penalty', 'join', 'leave'))"
    version = db.execute("PRAGMA schema_version").fetchone()[0]
    db.execute("PRAGMA writable_schema = ON")
    try:
        changed = db.execute(
            "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'entries'", (old, new)
        ).rowcount
        db.execute(f"PRAGMA schema_version = {int(version) + 1}")
    finally:
        db.execute("PRAGMA writable_schema = OFF")
    if changed != 1 or db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
        raise RuntimeError("m016: the entries table is not as the migrations left it")
    db.execute("CREATE INDEX entries_seats ON entries(session_id) WHERE kind IN ('join', 'leave')")


def m014_night_rounds(db: Database) -> None:
    """How many rounds a night was started with (`night start --rounds N`): one row per night, by its date, name and
    tag (a night is the sessions that carry them, ledger/nights.py); a night started without --rounds has none."""
    db.execute("CREATE TABLE night_rounds (date TEXT NOT NULL, name TEXT NOT NULL, tag TEXT, "
               "rounds INTEGER NOT NULL CHECK (rounds BETWEEN 1 AND 99), created_at TEXT NOT NULL)")
    db.execute("CREATE INDEX night_rounds_night ON night_rounds(date, name)")


def rebuild_entry_points(db: Database, create: str, new_table: str, copy: str) -> None:
    """``entry_points`` made again with another shape (migrations m006 and m014): ``create`` makes ``new_table``,
    ``copy`` fills it from the old table, which it then replaces; its indexes and triggers are made again as
    they were."""
    conn = db.conn
    kept = [r[0] for r in conn.execute(
        "SELECT sql FROM sqlite_master WHERE tbl_name = 'entry_points' AND type IN ('index', 'trigger') "
        "AND sql IS NOT NULL ORDER BY type, name"
    )]  # fmt: skip
    conn.execute("PRAGMA legacy_alter_table = ON")  # the rename must not re-check the views and triggers
    try:
        db.execute(create.strip())
        db.execute(copy)
        db.execute("DROP TABLE entry_points")
        db.execute(f"ALTER TABLE {new_table} RENAME TO entry_points")
    finally:
        conn.execute("PRAGMA legacy_alter_table = OFF")
    for stmt in kept:
        db.execute(stmt)


def m010_rounds_index(db: Database) -> None:
    """The rounds owed (penalties "een rondje geven") are read through an index of their own, so that `play`
    and `sheet` need not scan a long session for them."""
    db.execute("CREATE INDEX entries_rounds ON entries(session_id) WHERE round = 1")


_SCHEMA_1 = (
    """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    created_at TEXT NOT NULL
);
CREATE TABLE house_rules (            -- house rules added by users; the newest row of a name is current
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    toml TEXT NOT NULL,
    reason TEXT,
    added_at TEXT NOT NULL
);
CREATE INDEX house_rules_name ON house_rules(name, id);
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL DEFAULT '',
    date TEXT NOT NULL,
    rules_name TEXT NOT NULL,
    rules_toml TEXT NOT NULL,         -- the exact house rules the session was started under
    first_dealer INTEGER NOT NULL,    -- seat
    started_at TEXT NOT NULL,
    ended_at TEXT,
    source_hash TEXT UNIQUE           -- replayed session files, so the same file is not recorded twice
);
CREATE UNIQUE INDEX one_open_session ON sessions(ended_at IS NULL) WHERE ended_at IS NULL;
CREATE INDEX sessions_date ON sessions(date);
CREATE TABLE seats (
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (session_id, seat),
    UNIQUE (session_id, player_id)
) WITHOUT ROWID;
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    no INTEGER NOT NULL,              -- the entry's number on the sheet; an amendment keeps the number
    kind TEXT NOT NULL CHECK (kind IN ('deal', 'pass', 'redeal', 'penalty')),
    text TEXT NOT NULL,               -- canonical deal line ('samen 8 jan+piet 9'), 'pas', ...
    contract TEXT,                    -- deals: the contract's name
    dealer INTEGER NOT NULL,          -- seat of the dealer
    multiplier INTEGER NOT NULL CHECK (multiplier >= 1),
    offender_id INTEGER REFERENCES players(id),   -- penalties
    round INTEGER NOT NULL DEFAULT 0, -- penalty: een rondje geven instead of points
    deal_no INTEGER,                  -- penalty: the deal it is linked to
    reason TEXT NOT NULL DEFAULT '',
    next_dealer INTEGER NOT NULL,     -- the table state after this entry: who deals next ...
    next_multiplier INTEGER NOT NULL, -- ... and the multiplier the next played deal gets
    replaces INTEGER REFERENCES entries(id),      -- an amendment: the entry it corrects
    created_at TEXT NOT NULL
);
CREATE INDEX entries_session_no ON entries(session_id, no, id);
CREATE TABLE entry_points (           -- one row per player of the deal in play (not who sat out)
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    points REAL NOT NULL,             -- whole or half points: exact in binary floating point
    taker INTEGER NOT NULL DEFAULT 0, -- 1: bidder, partner or on miserie
    made INTEGER,                     -- takers: 1 made, 0 lost
    PRIMARY KEY (entry_id, player_id)
) WITHOUT ROWID;
CREATE INDEX entry_points_player ON entry_points(player_id);
CREATE TABLE voids (                  -- an entry is voided by an undo, or by an amendment that replaces it
    entry_id INTEGER PRIMARY KEY REFERENCES entries(id),
    action TEXT NOT NULL CHECK (action IN ('undo', 'amend')),
    by_entry INTEGER REFERENCES entries(id),
    reason TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    CHECK ((action = 'amend') = (by_entry IS NOT NULL))
);
CREATE TRIGGER sessions_keep_history BEFORE UPDATE ON sessions
WHEN OLD.ended_at IS NOT NULL OR NEW.id IS NOT OLD.id OR NEW.uid IS NOT OLD.uid OR NEW.name IS NOT OLD.name
  OR NEW.date IS NOT OLD.date OR NEW.rules_name IS NOT OLD.rules_name OR NEW.rules_toml IS NOT OLD.rules_toml
  OR NEW.first_dealer IS NOT OLD.first_dealer OR NEW.started_at IS NOT OLD.started_at
  OR NEW.source_hash IS NOT OLD.source_hash
BEGIN SELECT RAISE(ABORT, 'a session only changes by being ended'); END;
CREATE TRIGGER sessions_no_delete BEFORE DELETE ON sessions
BEGIN SELECT RAISE(ABORT, 'sessions are never deleted'); END;
"""
    + "".join(append_only(t) for t in ("entries", "entry_points", "voids", "house_rules", "seats"))
)
