"""Where a ledger lives: --db, $WIEZEN_DB or the user data folder, and the files beside it."""

from __future__ import annotations

import contextlib
import os
import stat

from ..core.errors import WiezenError
from ..core.i18n import N_, _


def default_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("wiezen", appauthor=False), "wiezen.db")


def resolve_path(opt: str | None) -> str:
    """--db, else $WIEZEN_DB (click fills ``opt`` from it), else the user data folder.

    An empty --db (an unset shell variable: ``--db "$LEDGER"``) is an error, never the default ledger.
    """
    from ..core.text import require_utf8

    if opt is not None and not opt.strip():
        raise WiezenError(
            _("--db is empty (an unset shell variable?): give the ledger's file, e.g. --db club.db, or leave --db out "
            "for your own ledger (`wiezen db path`)")
        )
    path = opt or os.environ.get("WIEZEN_DB") or default_path()
    require_utf8(path, _("the ledger's path '{path}'").format(path=path))
    return path


_KINDS = (
    (stat.S_ISDIR, N_("a folder")),
    (stat.S_ISFIFO, N_("a named pipe (FIFO)")),
    (stat.S_ISCHR, N_("a device")),
    (stat.S_ISBLK, N_("a device")),
    (stat.S_ISSOCK, N_("a socket")),
)


def check_ledger_path(path: str) -> bool:
    """Before anything opens or creates ``path``: it is a regular file, or nothing yet. Returns whether it exists.

    A folder, a FIFO (opening one waits for ever for a writer), a device or a socket is refused in one line.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return False
    except NotADirectoryError:
        raise WiezenError(_("the ledger '{path}' cannot be there: a part of its path is a file, not a folder").format(path=path)) from None
    except OSError as e:
        raise WiezenError(_("cannot reach the ledger '{path}': {strerror}").format(path=path, strerror=e.strerror)) from None
    for test, kind in _KINDS:
        if test(st.st_mode):
            raise WiezenError(_("the ledger '{path}' is {kind}, not a ledger file: give the path of a file (--db FILE)").format(path=path, kind=_(kind)))
    return True


def missing_folder(path: str) -> str | None:
    """The folder ``path`` would be created in, when it does not exist; else None."""
    folder = os.path.dirname(os.path.abspath(path))
    return None if os.path.isdir(folder) else folder


def migration_backups(path: str) -> list[str]:
    """The copies made before schema upgrades (``<db>.before-schema-N-from-M-<stamp>.bak``), oldest first."""
    import glob

    found = glob.glob(glob.escape(path) + ".before-schema-*.bak")
    return sorted(found, key=lambda f: (os.path.getmtime(f), f))


def remove_ledger_files(path: str) -> None:
    """Remove a ledger this command itself created (and its journal files): for a refused first import."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(OSError):
            os.remove(path + suffix)


def existing_db_path(opt: str | None) -> str | None:
    path = resolve_path(opt)
    return path if check_ledger_path(path) else None
