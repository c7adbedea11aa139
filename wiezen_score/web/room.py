"""The room's state: every open table's totals and last deals, the night; and the poller that keeps it current.

One poller for the whole room (ledger/watch.py: a change anywhere reads the room again, once), which also renders
again the live sheets that follow it: each table's own (`/t/T`, made when first asked for) and the page of the one
open session (`/`, when only one is open), so that a room of 20 tables has one poller, not 21. A table opened after the server started gets its
scorer's link at once (made and kept in the ledger; ``on_new_table`` says it on the terminal).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.errors import WiezenError
from ..core.tables import table_key
from .live import Followed, LiveSheet, poll

if TYPE_CHECKING:
    from ..core.documents import RoomDoc, RoomTable
    from ..ledger import Ledger

__all__ = ["Room"]

LAST_DEALS = 3  # the last entries each table shows in the room


class Room(Followed):
    def __init__(self, path: str, on_new_table: Callable[[int | str], None] | None = None,
                 single: LiveSheet | None = None) -> None:
        super().__init__(path)
        self.single = single  # the page of the one open session, kept current by this poller too
        self.doc: RoomDoc = {"tables": [], "night": None}
        self.tables: dict[int | str, LiveSheet] = {}
        self.seen: set[int | str] = set()
        self.on_new_table = on_new_table
        self.lock = threading.Lock()

    @property
    def busy(self) -> bool:
        """More than one open table, or a night: `/` shows the room rather than one table's sheet."""
        return len(self.doc["tables"]) > 1 or self.doc["night"] is not None

    def _load(self, led: Ledger) -> None:
        from ..ledger.documents import sheet_doc
        from ..ledger.nights import current_night, night_doc
        from ..views.room import room_fragment

        tables: list[RoomTable] = []
        for s in led.open_sessions():
            entries = [e for e in sheet_doc(led, s)["entries"] if not e["voided"]]
            tables.append({"table": s.table, "session": s.id, "round": s.round, "players": list(s.at_table),
                           "totals": dict(led.totals(s.id)), "last": [f"#{e['no']} {e['text']}" for e in entries[-LAST_DEALS:]]})
        n = current_night(led)
        doc: RoomDoc = {"tables": tables, "night": night_doc(led, None, n) if n is not None and n.open else None}
        new = {t["table"] or 0 for t in tables} - self.seen
        if doc == self.doc and not new:
            return
        with self.cond:
            self.doc, self.fragment = doc, room_fragment(doc)
            self.gen += 1
            self.cond.notify_all()
        for t in sorted(new, key=table_key):
            self.seen.add(t)
            if self.on_new_table is not None:
                self.on_new_table(t)

    def _follow(self, led: Ledger) -> None:
        """Render again the live sheets that follow the room (a table not there yet keeps its last rendering)."""
        for live in [*self.tables.values(), *([self.single] if self.single is not None else [])]:
            try:
                live.load(led)
            except WiezenError as e:  # several tables open (the single page), or no session at a table yet
                live.error = str(e)
            finally:
                led.table = None

    def load_once(self) -> None:
        from .. import ledger

        with ledger.open_ledger(self.path, readonly=True) as led:
            self._load(led)

    def night_json(self) -> str:
        with self.cond:
            night = self.doc["night"]
        return json.dumps(night if night is not None else {"night": None, "tables": [], "ranking": [], "next": None},
                          ensure_ascii=False, indent=2) + "\n"

    def table(self, no: int | str) -> LiveSheet:
        """Table ``no``'s live sheet (its open session, else its latest), made and started when first asked for; a
        table the ledger has no session at is a WiezenError."""
        with self.lock:
            live = self.tables.get(no)
            if live is None:
                live = LiveSheet(self.path, None, table=no)
                live.load_once()  # then kept current by the room's poller
                self.tables[no] = live
            return live

    def _poll(self) -> None:
        def changed(led: Ledger) -> None:
            self._load(led)
            self._follow(led)

        poll(self.path, self.stop, changed)  # (a ledger that cannot be read: the last room stays)

    def close(self) -> None:
        for live in list(self.tables.values()):  # (no threads of their own: this ends their pages' streams)
            live.close()
        super().close()
