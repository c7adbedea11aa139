"""Where a ledger lives: --db, $WIEZEN_DB or the user data folder, and the files beside it."""

from __future__ import annotations

import os




def default_path() -> str:
    import platformdirs

    return os.path.join(platformdirs.user_data_dir("wiezen", appauthor=False), "wiezen.db")


def resolve_path(opt: str | None) -> str:
    """--db, else $WIEZEN_DB (click fills ``opt`` from it), else the user data folder."""
    return opt or os.environ.get("WIEZEN_DB") or default_path()


def migration_backups(path: str) -> list[str]:
    """The copies made before schema upgrades (``<db>.before-schema-N-from-M-<stamp>.bak``), oldest first."""
    import glob

    found = glob.glob(glob.escape(path) + ".before-schema-*.bak")
    return sorted(found, key=lambda f: (os.path.getmtime(f), f))


def remove_ledger_files(path: str) -> None:
    """Remove a ledger this command itself created (and its journal files): for a refused first import."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.remove(path + suffix)
        except OSError:
            pass


def existing_db_path(opt: str | None) -> str | None:
    path = resolve_path(opt)
    return path if os.path.exists(path) else None
