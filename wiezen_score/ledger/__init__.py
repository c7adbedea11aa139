"""The ledger: the only package that knows SQL.

One SQLite file holds players, sessions (each with a snapshot of the exact house rules it was started
under), entries with their stored points, and the voids that undo and amend add. Entries, their points
and voids are append-only, enforced by triggers: a correction adds rows, it never rewrites one.

Every connection: foreign keys on, WAL, a busy timeout; every write that reads first runs in
``BEGIN IMMEDIATE`` so that concurrent scorers queue instead of failing with "database is locked".
The schema is built by a registry of migration functions (sqlite-utils ``Migrations``, migrations.py), imported
only when the file's ``user_version`` says a migration is due, so the everyday path stays light.

The :class:`Ledger` (store.py) is what the command line and the server use; it is composed of parts of one idea
each: the connection and its write transaction (base.py), players, sessions, entries, house rules, and the
club's reads (standings, competitions, export, checks). No caller outside the ledger touches its connection.
"""


from .connection import APP_ID, BUSY_TIMEOUT_MS, _connect, checkpoint, db_error, flush_journal
from .migrations import MIGRATION_NAMES, SCHEMA_VERSION, _migration_list, _migrations
from .paths import check_ledger_path, default_path, existing_db_path, migration_backups, remove_ledger_files, resolve_path
from .rows import EntryRow, SessionInfo, _num, _rules_cache, new_uid, now, stored_input
from .sessions import CHOSEN_TABLE
from .sql import _statements, append_only
from .store import (
    Ledger,
    added_rules,
    check_player_names,
    file_hash,
    open_ledger,
    peek_open_session,
    rules_lookup,
    session_setup,
)

__all__ = [
    "APP_ID", "BUSY_TIMEOUT_MS", "CHOSEN_TABLE", "EntryRow", "Ledger", "MIGRATION_NAMES", "SCHEMA_VERSION", "SessionInfo",
    "_connect", "_migration_list", "checkpoint", "flush_journal", "_migrations", "_num", "_rules_cache", "_statements", "added_rules",
    "append_only", "check_ledger_path", "check_player_names", "db_error", "default_path", "existing_db_path", "file_hash",
    "migration_backups", "new_uid", "now", "open_ledger", "peek_open_session", "remove_ledger_files",
    "resolve_path", "rules_lookup", "session_setup", "stored_input",
]
