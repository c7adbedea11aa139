"""The wire under the server's answers: gzip, the event streams, and whether a page hung up.

gzip when the page takes it; an event stream is one gzip stream flushed after every event (each event reaches the
page at once, and what repeats the one before costs a few bytes); a page that closes its end of a stream is
noticed within a second, and its place is free."""

from __future__ import annotations

import selectors
import socket
import threading
from collections.abc import Callable
from io import BufferedIOBase

__all__ = ["HangUps", "Stream", "accepts_gzip", "hung_up", "spoken"]


def accepts_gzip(header: str | None) -> bool:
    """Whether an Accept-Encoding header takes gzip (and does not refuse it with q=0)."""
    for item in (header or "").lower().split(","):
        name, _sep, params = item.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def hung_up(conn: socket.socket) -> bool:
    """Whether the other end closed the connection (it is readable and has nothing to read)."""
    import select

    try:
        readable, _w, _x = select.select([conn], [], [], 0)
        return bool(readable) and conn.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):
        return True


class Stream:
    """An event stream's body: written as it is, or as one gzip stream flushed after every write (each event
    reaches the page at once, and repeats what it sent before in a few bytes)."""

    def __init__(self, wfile: BufferedIOBase, zipped: bool) -> None:
        import zlib

        self.wfile = wfile
        self.z = zlib.compressobj(6, zlib.DEFLATED, 31) if zipped else None
        self.flush_mode = zlib.Z_SYNC_FLUSH

    def write(self, data: bytes) -> None:
        if self.z is not None:
            data = self.z.compress(data) + self.z.flush(self.flush_mode)
        self.wfile.write(data)
        self.wfile.flush()


def spoken(header: str | None) -> str | None:
    """The language of ours an Accept-Language header prefers ('nl' for nl-BE;q=0.9 before en), None for none."""
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate((header or "").lower().split(",")[:20]):
        tag, _sep, params = item.strip().partition(";")
        lang = tag.strip().split("-")[0]
        if lang not in ("en", "nl"):
            continue
        q = 1.0
        params = params.replace(" ", "")
        if params.startswith("q="):
            try:
                q = float(params[2:7])
            except ValueError:
                continue
        if q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


class HangUps:
    """One thread that notices, for every open event stream at once, when its page hangs up (its socket becomes
    readable with nothing to read): the stream is told at once, and its place is free; no stream wakes up to look."""

    def __init__(self) -> None:
        self.sel = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.closed = False

    def watch(self, conn: socket.socket, hung: Callable[[], None]) -> None:
        """Call ``hung()`` once when the other end of ``conn`` closes it (until :meth:`forget`)."""
        with self.lock:
            self.sel.register(conn, selectors.EVENT_READ, hung)
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="wiezen-hangups", daemon=True)
                self.thread.start()

    def forget(self, conn: socket.socket) -> None:
        with self.lock, _quiet():
            self.sel.unregister(conn)

    def _run(self) -> None:
        while not self.closed:
            with self.lock:
                empty = not self.sel.get_map()
            if empty:  # (select with nothing to watch fails on Windows)
                threading.Event().wait(0.5)
                continue
            try:
                ready = self.sel.select(timeout=1.0)  # (registrations made meanwhile are seen by the next call)
            except (OSError, ValueError):
                continue
            for key, _mask in ready:
                conn = key.fileobj
                if isinstance(conn, socket.socket):
                    self.forget(conn)  # (readable with something to read: not watched any more; its keep-alive will tell)
                    if hung_up(conn):
                        key.data()

    def close(self) -> None:
        self.closed = True


class _quiet:
    """Ignore a socket that is gone already (KeyError, ValueError, OSError from the selector)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> bool:
        return kind is not None and issubclass(kind, (KeyError, ValueError, OSError))
