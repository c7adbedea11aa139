"""A watch on the ledger: has anything been committed since the last look? (for `wiezen serve`'s live page)."""

from __future__ import annotations

from .connection import _connect

__all__ = ["Watch"]


class Watch:
    """A read-only connection of its own that answers, cheaply and as often as asked, whether another connection
    committed anything (SQLite's ``PRAGMA data_version``): a poller asks it a few times a second and reads the
    ledger again only when it changed."""

    def __init__(self, path: str) -> None:
        self.conn = _connect(path, readonly=True)
        self.seen: int | None = None

    def changed(self) -> bool:
        """True at the first call and whenever a commit happened since the previous call; sqlite3.Error when the
        ledger cannot be read."""
        version = int(self.conn.execute("PRAGMA data_version").fetchone()[0])
        if version == self.seen:
            return False
        self.seen = version
        return True

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
