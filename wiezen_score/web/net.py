"""Where the server can be reached: this machine's network addresses, the pages' addresses, and their QR code."""

from __future__ import annotations

import socket

__all__ = ["lan_addresses", "qr_svg", "urls_for"]


def qr_svg(text: str) -> str:
    """The QR code of ``text`` as an inline SVG (segno), or nothing when segno is not installed."""
    try:
        import segno
    except ImportError:
        return ""
    import io

    buf = io.BytesIO()
    segno.make(text, error="m").save(buf, kind="svg", xmldecl=False, svgns=True, scale=4, border=2)
    return buf.getvalue().decode("utf-8")


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses that another device on the network could reach (best guess, no traffic)."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))  # a UDP "connect" sends nothing; it picks the outgoing interface
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if ip not in found:
                found.append(ip)
    except OSError:
        pass
    return [ip for ip in found if not ip.startswith("127.")]


def urls_for(host: str, port: int) -> list[str]:
    hosts = lan_addresses() or ["127.0.0.1"] if host in ("0.0.0.0", "", "::") else [host]
    return [f"http://{'[' + h + ']' if ':' in h else h}:{port}/" for h in hosts]
