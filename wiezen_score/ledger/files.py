"""Files the tool writes beside the ledger (backups, exports, the copy made before an upgrade).

Each is written under a temporary name in the same folder and renamed over its target only when it is
complete and flushed to disk, so a crash (or ``kill -9``) leaves either nothing or a whole file at the target.
None may be written over the ledger in use, and none over another SQLite file unless the user says so.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from ..core.errors import WiezenError
from ..core.i18n import N_, _

PART = ".wiezen-part-"
SQLITE_HEADER = b"SQLite format 3\x00"


def is_sqlite(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == SQLITE_HEADER
    except OSError:
        return False


def same_file(a: str, b: str) -> bool:
    """Whether two paths name the same file (hard and symbolic links included)."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


#: what is written, as a sentence names it ("the backup"): translated whole, for the article
_THE = {
    "backup": N_("the backup"),
    "export": N_("the export"),
    "copy made before the upgrade": N_("the copy made before the upgrade"),
    "file": N_("the file"),
}


def _the(what: str) -> str:
    return _(_THE.get(what, "the " + what))


def refuse_target(target: str, ledger_path: str | None, force: bool, what: str, any_file: bool = False) -> None:
    """Raise when ``target`` may not be written: it is the ledger in use (or one of its journal files), or
    an existing SQLite file (``any_file``: any existing file) and ``force`` is not given."""
    if ledger_path is not None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            if same_file(target, ledger_path + suffix):
                raise WiezenError(
                    _("'{target}' is the ledger in use{value}: {what} would destroy it; write {what} to another file (nothing was written)").format(target=target, value=' (' + suffix[1:] + ' file)' if suffix else '', what=_the(what))
                )
    if os.path.isdir(target):
        raise WiezenError(_("'{target}' is a folder: give a file name for {what}").format(target=target, what=_the(what)))
    if os.path.exists(target) and not os.path.isfile(target):  # a FIFO would hang a read of its header
        raise WiezenError(_("'{target}' is not a file (a named pipe or a device?): give a file name for {what}").format(target=target, what=_the(what)))
    if os.path.exists(target) and not force:
        if is_sqlite(target):
            raise WiezenError(
                _("'{target}' exists already and is an SQLite database (another ledger?): {what} will not write over it; choose a new file name, or add --force to replace it (nothing was written)").format(target=target, what=_the(what))
            )
        if any_file:
            raise WiezenError(
                _("'{target}' exists already: choose a new file name for {what}, or add --force to replace it").format(target=target, what=_the(what))
            )


def _remove(path: str) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with suppress(OSError):
            os.remove(path + suffix)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _clean_stale(target: str) -> None:
    """Remove the temporary files that a killed earlier run left for the same target."""
    folder, name = os.path.split(os.path.abspath(target))
    for f in glob.glob(os.path.join(glob.escape(folder), glob.escape("." + name + PART) + "*")):
        rest = os.path.basename(f)[len("." + name + PART):]
        pid = rest.split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)) and not f.endswith(("-journal", "-wal", "-shm")):
            _remove(f)


@contextmanager
def atomic_file(target: str, what: str = "file") -> Iterator[str]:
    """A temporary path beside ``target``; when the block ends without error, the file written there is
    flushed to disk and renamed to ``target`` in one step. On error it is removed and ``target`` untouched."""
    folder, name = os.path.split(os.path.abspath(target))
    if not os.path.isdir(folder):
        raise WiezenError(_("cannot write {what} '{target}': the folder '{folder}' does not exist").format(what=_the(what), target=target, folder=folder))
    _clean_stale(target)
    tmp = os.path.join(folder, f".{name}{PART}{os.getpid()}-{os.urandom(4).hex()}")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        try:
            dfd = os.open(folder, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dfd)
        except OSError:
            pass
        finally:
            os.close(dfd)
    except OSError as e:
        _remove(tmp)
        if not os.access(folder, os.W_OK):
            raise WiezenError(_("cannot write {what} '{target}': the folder '{folder}' is read-only").format(what=_the(what), target=target, folder=folder)) from None
        raise WiezenError(_("cannot write {what} '{target}': {value}").format(what=_the(what), target=target, value=e.strerror or e)) from None
    except BaseException:
        _remove(tmp)
        raise
    finally:
        for suffix in ("-journal", "-wal", "-shm"):
            with suppress(OSError):
                os.remove(tmp + suffix)
