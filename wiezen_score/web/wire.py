"""The wire under the server's answers: gzip, the event streams, and whether a page hung up.

gzip when the page takes it; an event stream is one gzip stream flushed after every event (each event reaches the
page at once, and what repeats the one before costs a few bytes); a page that closes its end of a stream is
noticed within a second, and its place is free."""

from __future__ import annotations

import socket
from io import BufferedIOBase

__all__ = ["Stream", "accepts_gzip", "hung_up", "spoken"]


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
