"""Opening a ledger file (foreign keys, WAL, busy timeout) and turning SQLite errors into one clear line."""

from __future__ import annotations

import os
import sqlite3

from ..core.errors import WiezenError
from ..core.i18n import _

APP_ID = 0x5749455A  # "WIEZ" in PRAGMA application_id: this file is a wiezen ledger
BUSY_TIMEOUT_MS = 60_000


def checkpoint(conn: sqlite3.Connection, wait: bool = False) -> bool:
    """Copy every committed change from the ``-wal`` file into the ledger file itself, so that a plain copy of
    the bare ``.db`` file (a USB stick, a mail) is the whole ledger. True when everything was copied.

    Run after every write and when a command closes the ledger: a command that is killed afterwards, or a
    server stopped with Ctrl-C while its reader still holds the file, leaves nothing only in the journal.
    ``wait``: wait for readers and writers of other processes (TRUNCATE, within the busy timeout) and empty
    the journal, for the end of a long-running command; else take what no reader holds (PASSIVE, no wait).
    The change is committed before this runs: a checkpoint that cannot run (a full disk) is not an error of
    the write, and SQLite runs it again at the next one.
    """
    try:
        row = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)" if wait else "PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    except sqlite3.Error:
        return False
    busy, log, done = row
    return bool(busy == 0 and log == done)


def flush_journal(path: str, seconds: float = 5.0) -> bool:
    """At the end of a long-running command (`serve`): copy what is left in the ledger's journal into the file and
    empty the journal, waiting at most ``seconds`` for another process's reader or writer. True when the bare
    file is then the whole ledger. A ledger that does not exist (or cannot be opened) is left as it is."""
    if not os.path.isfile(path):
        return False
    try:
        conn = sqlite3.connect(path, isolation_level=None, timeout=seconds)
    except sqlite3.Error:
        return False
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(seconds * 1000)}")
        return checkpoint(conn, wait=True)
    except sqlite3.Error:
        return False
    finally:
        conn.close()  # the last connection to close also removes the emptied journal


def _connect(path: str, readonly: bool = False, immutable: bool = False) -> sqlite3.Connection:
    from .paths import check_ledger_path

    check_ledger_path(path)  # never open a FIFO (it would wait for ever), a folder or a device
    try:
        if readonly:
            from urllib.parse import quote  # a path may hold '?', '#' or '%': quote it for the URI

            uri = f"file:{quote(os.path.abspath(path))}?mode=ro" + ("&immutable=1" if immutable else "")
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        else:
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                try:
                    os.makedirs(folder, exist_ok=True)
                except OSError as e:
                    raise WiezenError(_("cannot create the folder '{folder}' for the ledger: {strerror}").format(folder=folder, strerror=e.strerror)) from None
            conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    except sqlite3.Error as e:
        raise db_error(e, path, reading=readonly) from None
    except OSError as e:
        raise WiezenError(_("cannot open the ledger '{path}': {strerror}").format(path=path, strerror=e.strerror)) from None
    return conn


def db_error(e: Exception, path: str, reading: bool = False) -> WiezenError:
    """One clear line for an SQLite error on the ledger ``path``; ``reading``: the command only reads."""
    msg = str(e)
    low = msg.lower()
    if "not a database" in low or "file is encrypted" in low:
        return WiezenError(_("'{path}' is not a wiezen ledger (it is not an SQLite database)").format(path=path))
    if "readonly" in low or "read-only" in low or "unable to open" in low:
        folder = os.path.dirname(os.path.abspath(path)) or "."
        if os.path.exists(path) and not os.access(path, os.W_OK):
            return WiezenError(_("the ledger '{path}' is read-only: make the file writable to record anything").format(path=path))
        if os.path.isdir(folder) and not os.access(folder, os.W_OK):
            return WiezenError(
                _("the folder '{folder}' is read-only: the ledger needs to write its journal files next to '{path}'").format(folder=folder, path=path)
            )
        if "unable to open" in low:
            return WiezenError(_("cannot open the ledger '{path}': check that its folder exists and is writable").format(path=path))
        return WiezenError(_("the ledger '{path}' is read-only: check the permissions of the file and its folder").format(path=path))
    if reading and ("disk is full" in low or "disk i/o error" in low):
        what = _("the disk is full") if "full" in low else _("a disk I/O error (is the disk full or failing?)")
        return WiezenError(_("could not read the ledger '{path}': {what}; the ledger was not changed").format(path=path, what=what))
    if "disk is full" in low or "database or disk is full" in low:
        return WiezenError(_("the disk is full: nothing was written to '{path}'").format(path=path))
    if "disk i/o error" in low:  # e.g. EFBIG (file size limit), EIO: the transaction is rolled back
        return WiezenError(_("could not write the ledger '{path}' (disk I/O error: is the disk full?): the change was not recorded").format(path=path))
    if "malformed" in low or "corrupt" in low:
        return WiezenError(_("the ledger '{path}' is damaged ({msg}); restore a backup (`wiezen db path` shows them)").format(path=path, msg=msg))
    if "locked" in low or "busy" in low:
        return WiezenError(_("the ledger '{path}' stayed busy for {value} s: another wiezen is writing; try again").format(path=path, value=BUSY_TIMEOUT_MS // 1000))
    return WiezenError(_("ledger '{path}': {msg}").format(path=path, msg=msg))
