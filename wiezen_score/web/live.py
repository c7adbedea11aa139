"""The live sheet's state: the latest rendering of the sheet, and the poller thread that keeps it current.

The poller watches the ledger read-only (ledger/watch.py: ``PRAGMA data_version``, a few times a second; it
changes when any other connection commits, so `wiezen deal` in another terminal, or `wiezen play`, is seen at
once) and renders the sheet once per change; every browser is sent that one rendering.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import WiezenError

if TYPE_CHECKING:
    from ..ledger import Ledger
    from ..ledger.watch import Watch

__all__ = ["POLL_SECONDS", "Followed", "LiveSheet", "poll"]

POLL_SECONDS = 0.25  # how often the poller asks the ledger whether anything was committed


class Followed:
    """A rendering the pages follow: its generation (one more per change), the condition its event streams wait on,
    and the poller thread that keeps it current (:meth:`_poll`)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.cond = threading.Condition()
        self.stop = threading.Event()
        self.gen = 0
        self.fragment = ""
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._poll, name=f"wiezen-{type(self).__name__.lower()}-poller", daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        raise NotImplementedError

    def wait(self, gen: int, timeout: float) -> int:
        """Block until the rendering is newer than ``gen`` (or ``timeout``, or stop); the current generation."""
        with self.cond:
            self.cond.wait_for(lambda: self.gen != gen or self.stop.is_set(), timeout)
            return self.gen

    def close(self) -> None:
        self.stop.set()
        with self.cond:
            self.cond.notify_all()
        if self.thread is not None:
            self.thread.join(2)


class LiveSheet(Followed):
    """The latest rendering of the sheet, and the thread that keeps it current."""

    def __init__(self, path: str, session_id: int | None, table: int | None = None) -> None:
        super().__init__(path)
        self.session_id = session_id  # None: follow the open session, else the newest
        self.table = table  # a club night's table: its open session, else its latest
        self.doc: dict[str, Any] = {}  # the `sheet --json` document (ledger/documents.py sheet_doc)
        self.json_text = ""
        self.contracts: list[str] = []
        self.examples: tuple[str, ...] = ()  # lines the scorer's form shows as examples, under the session's rules
        self.error = ""

    # -- reading -----------------------------------------------------------
    def load(self, led: Ledger) -> None:
        """Render the sheet again from ``led`` (its own poller, or a room's that keeps the live sheets following it)."""
        from ..core.deal import deal_example, miserie_example
        from ..ledger.documents import sheet_doc
        from ..views.live import sheet_fragment

        led.table = self.table
        s = led.session(self.session_id)
        doc = sheet_doc(led, s)
        if doc == self.doc:
            return
        fragment = sheet_fragment(doc)
        with self.cond:
            self.doc, self.fragment = doc, fragment
            self.json_text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"  # what `sheet --json` prints
            self.contracts = [c.name for c in s.rules.contracts]
            self.examples = tuple(x for x in (deal_example(s.rules, s.players), miserie_example(s.rules, s.players)) if x)
            self.gen += 1
            self.cond.notify_all()

    def load_once(self) -> None:
        """The first rendering, in the caller's thread: a ledger or session that is not there is an error now."""
        from .. import ledger

        with ledger.open_ledger(self.path, readonly=True) as led:
            self.load(led)

    def _poll(self) -> None:
        def changed(led: Ledger) -> None:
            self.load(led)
            self.error = ""

        def failed(e: Exception) -> None:  # keep serving the last sheet; try again
            self.error = str(e)

        poll(self.path, self.stop, changed, failed)


def poll(path: str, stop: threading.Event, changed: Callable[[Ledger], None],
         failed: Callable[[Exception], None] = lambda e: None) -> None:
    """The poller of a live page (and of the room): until ``stop``, a few times a second, ``changed(led)`` when
    anything was committed to the ledger at ``path`` since the last look; ``failed(error)`` when the ledger cannot be
    read, and the next look opens it again."""
    from ..ledger import Ledger
    from ..ledger.watch import Watch

    led: Ledger | None = None
    watch: Watch | None = None
    while not stop.is_set():
        try:
            if led is None or watch is None:
                watch, led = Watch(path), Ledger(path, readonly=True)
            if watch.changed():
                changed(led)
        except (WiezenError, sqlite3.Error) as e:
            failed(e)
            led, watch = _close(led, watch)
        stop.wait(POLL_SECONDS)
    _close(led, watch)


def _close(led: Ledger | None, watch: Watch | None) -> tuple[None, None]:
    for thing in (watch, led):
        if thing is not None:
            with contextlib.suppress(sqlite3.Error):
                thing.close()
    return None, None
