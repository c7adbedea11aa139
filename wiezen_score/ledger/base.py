"""The ledger's connection: opening (and upgrading) the file, its write transaction, backup and close."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime

from ..core.errors import WiezenError
from ..core.i18n import _, ngettext
from .connection import APP_ID, _connect, checkpoint, db_error
from .migrations import SCHEMA_VERSION, _migrations
from .rows import now


class LedgerBase:
    """One SQLite connection to a ledger file, checked and upgraded when opened; the parts of the
    :class:`~wiezen_score.ledger.store.Ledger` build on it."""

    def __init__(self, path: str, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        self._recording = False
        self._writing = False  # inside write(): a nested write() joins the transaction
        # "queue" house rules: the doubled deals still owed, counted from the whole session (see state()), kept
        # per session with what would change it: (PRAGMA data_version, conn.total_changes) -> owed
        self._owed: dict[int, tuple[tuple[int, int], int]] = {}
        self.notes: list[str] = []  # what an upgrade of the ledger did, for the user
        existed = os.path.exists(path) and os.path.getsize(path) > 0
        self.conn = _connect(path, readonly)
        try:
            try:
                self._check_schema(existed)
            except sqlite3.OperationalError as e:
                folder = os.path.dirname(os.path.abspath(path))
                low = str(e).lower()
                if not (readonly and ("unable to open" in low or "readonly" in low) and not os.access(folder, os.W_OK)
                        and not os.path.exists(path + "-wal")):
                    raise
                # a WAL ledger in a folder we may not write: SQLite cannot make its -shm file there. With no
                # -wal file, every committed change is in the file itself: read it as an immutable file
                self.conn.close()
                self.conn = _connect(path, readonly=True, immutable=True)
                self._check_schema(existed)
        except sqlite3.Error as e:
            self.conn.close()
            raise db_error(e, path, reading=readonly) from None
        except BaseException:
            self.conn.close()
            raise

    def _check_schema(self, existed: bool) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise WiezenError(
                _("the ledger '{path}' was written by a newer wiezen (schema {version}, this one knows {schema}): upgrade wiezen").format(path=self.path, version=version, schema=SCHEMA_VERSION)
            )
        if version == 0 and existed:
            app = self.conn.execute("PRAGMA application_id").fetchone()[0]
            tables = self.conn.execute("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").fetchone()[0]
            if tables and app != APP_ID:
                raise WiezenError(_("'{path}' is an SQLite database, but not a wiezen ledger").format(path=self.path))
        if self.readonly and version > 0:
            # a reading command on a ledger of an older wiezen: upgrade it (backup first), then read
            self.conn.close()
            try:
                upgraded = type(self)(self.path)
                self.notes += upgraded.notes
                upgraded.close()
            except WiezenError as e:
                raise WiezenError(_('the ledger needs an upgrade to schema {schema} before it can be read: {error}').format(schema=SCHEMA_VERSION, error=e)) from None
            self.conn = _connect(self.path, readonly=True)
            return
        if self.readonly:
            raise WiezenError(_("the ledger '{path}' is empty: start a session first").format(path=self.path))
        self._migrate(version, existed)

    def _migrate(self, version: int, existed: bool) -> None:
        with suppress(sqlite3.OperationalError):  # another process holds it; it is already WAL or will be
            self.conn.execute("PRAGMA journal_mode = WAL")
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version == SCHEMA_VERSION:  # another process migrated while we waited
                self.conn.execute("COMMIT")
                return
            if version > 0 and existed:
                self.last_backup = self._backup_before_migration(version)
            had_chain = version >= 6
            if version == 0 and self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0:
                from .fresh_build import create

                create(self.conn)  # a new ledger: the schema the migrations leave, made in one step (fresh.py)
            else:
                from sqlite_utils import Database

                _migrations().apply(Database(self.conn))
            if version > 0 and existed and not had_chain:
                n = self.conn.execute("SELECT count(*) FROM seals").fetchone()[0]
                self.notes.append(
                    ngettext(
                        "the ledger now keeps its history in a hash chain: {n} ended session "
                        "sealed as they were (`wiezen sheet --session ID` shows a session's seal)",
                        "the ledger now keeps its history in a hash chain: {n} ended sessions "
                        "sealed as they were (`wiezen sheet --session ID` shows a session's seal)",
                        n,
                    ).format(n=n)
                )
            self.conn.execute(f"PRAGMA application_id = {APP_ID}")
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.conn.execute("COMMIT")
            checkpoint(self.conn)
        except BaseException:
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise

    def _backup_before_migration(self, version: int) -> str:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = f"{self.path}.before-schema-{SCHEMA_VERSION}-from-{version}-{stamp}.bak"
        n = 1
        while os.path.exists(target):  # never overwrite an earlier backup
            n += 1
            target = f"{self.path}.before-schema-{SCHEMA_VERSION}-from-{version}-{stamp}-{n}.bak"
        # self.conn holds the write lock (BEGIN IMMEDIATE): a backup from it would get SQLITE_LOCKED, on
        # which Python's backup() retries forever. A second connection reads the same, pre-migration state.
        from .files import atomic_file

        src = _connect(self.path, readonly=True)
        try:
            with atomic_file(target, "copy made before the upgrade") as tmp:
                self._copy_to(tmp, src)
        finally:
            src.close()
        return target

    def _copy_to(self, target: str, src: sqlite3.Connection | None = None) -> None:
        """SQLite's online backup API into a new file; a half-written copy is removed."""
        try:
            dst = sqlite3.connect(target)
            try:
                (src or self.conn).backup(dst)
            finally:
                dst.close()
        except BaseException:
            for suffix in ("", "-journal", "-wal", "-shm"):
                with suppress(OSError):
                    os.remove(target + suffix)
            raise

    def backup(self, target: str, force: bool = False) -> None:
        """A consistent copy through SQLite's online backup API, written under a temporary name and renamed
        when whole. Never over this ledger; over an existing file only with ``force``."""
        from .files import atomic_file, refuse_target

        refuse_target(target, self.path, force, "backup", any_file=True)
        try:
            with atomic_file(target, "backup") as tmp:
                self._copy_to(tmp)
        except sqlite3.Error as e:
            folder = os.path.dirname(os.path.abspath(target))
            if not os.path.isdir(folder):
                raise WiezenError(_("cannot write the backup '{target}': the folder '{folder}' does not exist").format(target=target, folder=folder)) from None
            if not os.access(folder, os.W_OK):
                raise WiezenError(_("cannot write the backup '{target}': the folder '{folder}' is read-only").format(target=target, folder=folder)) from None
            raise WiezenError(_("cannot write the backup '{target}': {error}").format(target=target, error=e)) from None

    def close(self) -> None:
        """Close the connection; a writable ledger first copies its journal into the file (connection.checkpoint),
        so that the bare file is whole even when another process keeps a reader open."""
        if not self.readonly:
            checkpoint(self.conn)
        self.conn.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction taken at once (BEGIN IMMEDIATE): all or nothing.

        A write() inside another one joins it: the outer one commits (or rolls back) the whole.
        """
        if self.readonly:
            raise WiezenError(_("the ledger '{path}' is open read-only").format(path=self.path))
        c = self.conn
        if self._writing:
            yield c
            return
        if not self._recording:
            from .chain import install_recorders

            install_recorders(c)
            self._recording = True
        try:
            c.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as e:
            raise db_error(e, self.path) from None
        self._writing = True
        try:
            yield c
            from .chain import sync

            sync(c, now())  # every fact written gets its link in the chain, in the same transaction
            c.execute("COMMIT")
            checkpoint(c)  # the bare file holds this write at once, whatever ends the command next
        except BaseException as e:
            self._owed.clear()  # counted from rows that are gone now
            if c.in_transaction:
                c.execute("ROLLBACK")
            if isinstance(e, sqlite3.Error):
                raise db_error(e, self.path) from None
            raise
        finally:
            self._writing = False

    def _unchanged(self) -> tuple[int, int]:
        """What changes with every change to the ledger: another connection's commit (PRAGMA data_version) or
        a row this connection wrote, committed or rolled back (total_changes)."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0], self.conn.total_changes

