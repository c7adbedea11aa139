"""The Ledger, composed of its parts, and the conveniences the command line opens it with.

The parts, each a module of one idea: the connection and its write transaction (base.py), players and house
rules (players.py, house_rules.py), sessions (sessions.py), entries and replay (entries.py), the club's reads
(reads.py).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..core.errors import WiezenError
from ..core.i18n import _
from .connection import db_error
from .entries import content_hash, file_hash
from .house_rules import HouseRules
from .paths import existing_db_path, resolve_path
from .reads import ClubReads
from .rows import sixth_points
from .sessions import check_player_names, session_setup

__all__ = [
    "Ledger", "added_rules", "check_player_names", "content_hash", "file_hash", "open_ledger", "sixth_points",
    "peek_open_session", "rules_lookup", "session_setup",
]


class Ledger(HouseRules, ClubReads):
    """One ledger file: what the command line and the server call (``led.record``, ``led.state``, ...)."""


# ---------------------------------------------------------------------------
# Module-level conveniences for the command line


@contextmanager
def open_ledger(
    opt: str | None, readonly: bool = False, create: Callable[[str], None] | None = None
) -> Iterator[Ledger]:
    """The ledger of --db / $WIEZEN_DB / the user data folder, checked before anything is created.

    Only a command that starts something may create a new ledger and its folder (``create``: called with the
    path when the command succeeded, to say so); for any other, a missing ledger is an error and no file
    appears. When the command fails, a new ledger it leaves empty is removed again, with the folders made for it.
    """
    from .paths import check_ledger_path, missing_folder, remove_ledger_files

    path = resolve_path(opt)
    exists = check_ledger_path(path)
    made: list[str] = []
    if not exists:
        if readonly or create is None:
            folder = missing_folder(path)
            raise WiezenError(
                (_("no ledger at '{path}' yet (its folder '{folder}' does not exist either): start a session first "
                   "(`wiezen session start --players ...`)") if folder
                 else _("no ledger at '{path}' yet: start a session first (`wiezen session start --players ...`)"))
                .format(path=path, folder=folder)
            )
        folder = missing_folder(path)
        while folder is not None:  # the folders to make, deepest first, so that a failure can remove them
            made.append(folder)
            parent = os.path.dirname(folder)
            folder = parent if parent != folder and not os.path.isdir(parent) else None
    ok = False
    try:
        led = Ledger(path, readonly=readonly)
        for note in led.notes:  # what an upgrade did: said once, on stderr, so that output stays clean
            import sys

            sys.stderr.write(_("note: {note}").format(note=note) + "\n")
        try:
            yield led
            ok = True
        except sqlite3.Error as e:
            raise db_error(e, path, reading=readonly) from None
        finally:
            led.close()
    finally:
        if not exists and create is not None:
            if not ok and _holds_nothing(path):  # the command failed: no new file is left behind
                remove_ledger_files(path)
                for folder in made:
                    try:
                        os.rmdir(folder)
                    except OSError:
                        break
            else:
                create(path)


def _holds_nothing(path: str) -> bool:
    """A ledger this command created holds no session, house rules or precedent (so nobody else wrote to it
    meanwhile): only then may the command that failed remove it again."""
    if not os.path.exists(path):
        return True
    try:
        from urllib.parse import quote

        conn = sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro", uri=True)
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            return not any(
                conn.execute(f"SELECT 1 FROM {t} LIMIT 1").fetchone()
                for t in ("sessions", "house_rules", "precedents", "players") if t in tables
            )
        finally:
            conn.close()
    except sqlite3.Error:
        return os.path.getsize(path) == 0


def peek_open_session(path: str) -> tuple[list[str], str] | None:
    """The four players of the open session's next deal and its house-rules text (read-only; None if none).

    At a table of five or six, those are the players who do not sit out the deal about to be dealt.
    """
    from ..core.session import active_players

    try:
        led = Ledger(path, readonly=True)
    except WiezenError:
        return None
    try:
        s = led.open_session()
        if s is None:
            return None
        state, _ = led.state(s)
        return list(active_players(s.players, state.dealer)), s.rules_toml
    except (sqlite3.Error, WiezenError):  # (several tables open and none chosen: no one table's players)
        return None
    finally:
        led.close()


def rules_lookup(opt: str | None) -> Callable[[str], str | None]:
    def lookup(name: str) -> str | None:
        path = existing_db_path(opt)
        if path is None:
            return None
        with open_ledger(path, readonly=True) as led:
            return led.rules_text(name)

    return lookup


def added_rules(opt: str | None) -> list[tuple[str, str]]:
    path = existing_db_path(opt)
    if path is None:
        return []
    with open_ledger(path, readonly=True) as led:
        return led.added_rules()

