"""`wiezen serve`: the live sheet on the players' phones, from the scorer's laptop, without any cloud.

The server is the standard library's threaded HTTP server with server-sent events: a table has a handful of
phones, each holds one open connection, and a thread each is plenty; no framework to install or keep up.

- One poller thread watches the ledger read-only with ``PRAGMA data_version`` (a few times a second; it changes
  when any other connection commits, so `wiezen deal` in another terminal, or `wiezen play`, is seen at once)
  and renders the sheet once per change; every browser is sent that one rendering.
- Writes come only through the scorer's link, which holds a secret token printed on the scorer's terminal;
  they go through the Ledger's own ``record`` and ``undo`` (what `wiezen deal`, `pass`, `redeal`, `penalty` and
  `undo` use) on a connection of their own. Without the token every write is refused with 403.
- Every response is a string made here: no file from disk is ever served.
"""

from __future__ import annotations

import hmac
import json
import secrets
import socket
import sqlite3
import sys
import threading
import time
from collections import OrderedDict
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, quote, urlsplit

import click

from ..core.errors import WiezenError
from ..core.i18n import _
from .common import SESSION_HELP, SessionRef
from .common import _db

POLL_SECONDS = 0.25  # how often the poller asks the ledger whether anything was committed
KEEPALIVE_SECONDS = 15  # an SSE comment this often, so dead connections are noticed
MAX_BODY = 4096  # bytes of a POST body
MAX_TARGET = 2048  # characters of a request's path and query
MAX_STREAMS = 64  # open event streams at once
ACTIONS = ("entry", "pass", "redeal", "undo")


class LiveSheet:
    """The latest rendering of the sheet, and the thread that keeps it current."""

    def __init__(self, path: str, session_id: int | None) -> None:
        self.path = path
        self.session_id = session_id  # None: follow the open session, else the newest
        self.cond = threading.Condition()
        self.stop = threading.Event()
        self.gen = 0
        self.doc: dict[str, Any] = {}
        self.fragment = ""
        self.json_text = ""
        self.contracts: list[str] = []
        self.error = ""
        self.thread: threading.Thread | None = None

    # -- reading -----------------------------------------------------------
    def _load(self, led: Any) -> None:
        from ..views.live import sheet_fragment
        from ..ledger.documents import sheet_doc

        s = led.session(self.session_id)
        doc = sheet_doc(led, s)
        if doc == self.doc:
            return
        fragment = sheet_fragment(doc)
        with self.cond:
            self.doc, self.fragment = doc, fragment
            self.json_text = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"  # what `sheet --json` prints
            self.contracts = [c.name for c in s.rules.contracts]
            self.gen += 1
            self.cond.notify_all()

    def load_once(self) -> None:
        """The first rendering, in the caller's thread: a ledger or session that is not there is an error now."""
        from .. import ledger

        with ledger.open_ledger(self.path, readonly=True) as led:
            self._load(led)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._poll, name="wiezen-serve-poller", daemon=True)
        self.thread.start()

    def _poll(self) -> None:
        from ..ledger import Ledger

        led = None
        seen = None
        while not self.stop.is_set():
            try:
                if led is None:
                    led = Ledger(self.path, readonly=True)
                version = led.data_version()
                if version != seen:
                    seen = version
                    self._load(led)
                    self.error = ""
            except (WiezenError, sqlite3.Error) as e:  # keep serving the last sheet; try again
                self.error = str(e)
                seen = None
                if led is not None:
                    led.close()
                    led = None
            self.stop.wait(POLL_SECONDS)
        if led is not None:
            led.close()

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


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], live: LiveSheet, token: str | None) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.live = live
        self.token = token
        self.streams = 0
        self.lock = threading.Lock()  # one write at a time, and the table of answered forms
        self.answered: OrderedDict[str, tuple[int, dict[str, Any]]] = OrderedDict()


def record_from_form(path: str, live: LiveSheet, action: str, line: str) -> str:
    """Record what the scorer's form asks, through the Ledger's record/undo like the command line; the message."""
    from .. import ledger
    from ..core.session import EntryInput
    from ..core.sessionfile import Undo, parse_entry
    from ..views.sheet import recorded_line

    if action not in ACTIONS:
        raise WiezenError(_("unknown action '{action}': one of {actions}").format(action=action, actions=", ".join(ACTIONS)))
    words = line.split()
    if action == "entry" and not words:
        raise WiezenError(_("type or tap a deal line first, e.g. 'samen 9 jan+piet 10'"))
    if action == "pass":
        e: Any = EntryInput("pass")
    elif action == "redeal":
        e = EntryInput("redeal", reason=line.strip())
    elif action == "undo":
        e = Undo(line.strip())
    else:
        e = parse_entry(words)
    with ledger.open_ledger(path) as led:
        s = led.require_open()
        if live.session_id is not None and s.id != live.session_id:
            raise WiezenError(_("this page shows session {shown}, but the open session is {open}: nothing recorded").format(
                shown=live.session_id, open=s.id))
        if isinstance(e, Undo):
            row = led.undo(e.reason)
            from ..views.fit import row_words

            return _("voided #{number} {text}").format(number=row.no, text=row_words(row))
        no, sc = led.record(e)
        return recorded_line(no, sc, s.players)


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "wiezen"
    sys_version = ""
    timeout = 20  # seconds a client may take to send its request

    def log_message(self, format: str, *args: Any) -> None:
        return

    # -- answers -------------------------------------------------------------
    def _send(self, status: int, body: str, ctype: str, extra: dict[str, str] | None = None) -> None:
        data = body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", f"{ctype}; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        if ctype == "text/html":
            from ..views.live import csp

            self.send_header("Content-Security-Policy", csp())
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _plain(self, status: int, text: str) -> None:
        self.close_connection = True
        self._send(status, text + "\n", "text/plain")

    def _target(self) -> tuple[str, dict[str, list[str]]] | None:
        if len(self.path) > MAX_TARGET:
            self._plain(HTTPStatus.REQUEST_URI_TOO_LONG, "request target too long")
            return None
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query, max_num_fields=4)

    def _scorer_path(self, path: str) -> str | None:
        """'' for the scorer's page, '/entry' for its form's address; None when the token is not in the path."""
        token = self.server.token
        prefix = "/s/"
        if token is None or not path.startswith(prefix):
            return None
        given, _sep, rest = path[len(prefix):].partition("/")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8")):
            return None
        return "/" + rest if rest else ""

    # -- GET -----------------------------------------------------------------
    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        from ..views.live import live_page

        target = self._target()
        if target is None:
            return
        path, query = target
        live = self.server.live
        if path == "/":
            with live.cond:
                doc, fragment, gen = live.doc, live.fragment, live.gen
            self._send(HTTPStatus.OK, live_page(doc, fragment, gen=gen), "text/html")
        elif path == "/sheet.json":
            with live.cond:
                text = live.json_text
            self._send(HTTPStatus.OK, text, "application/json")
        elif path == "/events":
            self._events()
        elif path.startswith("/s/"):
            if self._scorer_path(path) != "":
                self._plain(HTTPStatus.FORBIDDEN, "forbidden: this is not the scorer's link")
                return
            with live.cond:
                doc, fragment, gen, contracts = live.doc, live.fragment, live.gen, live.contracts
            message = query.get("msg", [""])[0][:300]
            page = live_page(doc, fragment, gen=gen, scorer_action=f"/s/{self.server.token}/entry",
                             nonce=secrets.token_urlsafe(12), contracts=contracts, message=message)
            self._send(HTTPStatus.OK, page, "text/html")
        else:
            self._plain(HTTPStatus.NOT_FOUND, "not found: the live sheet is at /, its JSON at /sheet.json")

    def _events(self) -> None:
        from ..views.live import event_data

        srv, live = self.server, self.server.live
        with srv.lock:
            if srv.streams >= MAX_STREAMS:
                self._plain(HTTPStatus.SERVICE_UNAVAILABLE, "too many open pages")
                return
            srv.streams += 1
        try:
            self.close_connection = True
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Accel-Buffering", "no")
            self.end_headers()
            self.wfile.write(b"retry: 2000\n\n")
            sent = -1
            while not live.stop.is_set():
                with live.cond:
                    gen, doc, fragment = live.gen, live.doc, live.fragment
                if gen != sent:
                    data = event_data(gen, doc, fragment)
                    self.wfile.write(f"id: {gen}\nevent: sheet\ndata: {data}\n\n".encode())
                    sent = gen
                elif live.wait(gen, KEEPALIVE_SECONDS) == gen and not live.stop.is_set():
                    self.wfile.write(b": still here\n\n")
        except (TimeoutError, BrokenPipeError, ConnectionResetError, OSError):
            pass  # the phone went away
        finally:
            with srv.lock:
                srv.streams -= 1

    # -- writes --------------------------------------------------------------
    def do_POST(self) -> None:
        target = self._target()
        if target is None:
            return
        path, _query = target
        if self._scorer_path(path) != "/entry":
            self._plain(HTTPStatus.FORBIDDEN, "forbidden: only the scorer's link can record (nothing was written)")
            return
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            self._plain(HTTPStatus.LENGTH_REQUIRED, "send the form with a Content-Length")
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            self._plain(HTTPStatus.LENGTH_REQUIRED, "send the form with a Content-Length")
            return
        if length < 0 or length > MAX_BODY:
            self._plain(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a form is at most {MAX_BODY} bytes")
            return
        raw = self.rfile.read(length)
        try:
            form = parse_qs(raw.decode("utf-8"), max_num_fields=8, strict_parsing=False)
        except (UnicodeDecodeError, ValueError):
            self._plain(HTTPStatus.BAD_REQUEST, "the form is not UTF-8 form data")
            return
        action = form.get("action", ["entry"])[0]
        line = form.get("line", [""])[0][:500]
        nonce = form.get("nonce", [""])[0][:64]
        srv = self.server
        with srv.lock:
            if nonce and nonce in srv.answered:  # the phone sent the same form again (a retry): answer as before
                status, answer = srv.answered[nonce]
            else:
                try:
                    answer = {"ok": True, "message": record_from_form(srv.live.path, srv.live, action, line)}
                    status = HTTPStatus.OK
                except WiezenError as e:
                    answer, status = {"ok": False, "error": _("Error: {message}").format(message=e)}, HTTPStatus.BAD_REQUEST
                if nonce:
                    srv.answered[nonce] = (status, answer)
                    while len(srv.answered) > 500:
                        srv.answered.popitem(last=False)
        if "application/json" in self.headers.get("Accept", ""):
            self._send(status, json.dumps({**answer, "nonce": secrets.token_urlsafe(12)}, ensure_ascii=False),
                       "application/json")
        else:  # a form sent without the script: back to the scorer's page, with the answer on it
            text = answer.get("message") or answer.get("error", "")
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", f"/s/{srv.token}?msg={quote(text)}")
            self.send_header("Content-Length", "0")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()

    def _refuse(self) -> None:
        self._plain(HTTPStatus.FORBIDDEN, "forbidden: the live sheet is read-only (nothing was written)")

    do_PUT = do_DELETE = do_PATCH = _refuse


# -------------------------------------------------------------------------------------------- the command


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
    if host in ("0.0.0.0", "", "::"):
        hosts = lan_addresses() or ["127.0.0.1"]
    else:
        hosts = [host]
    return [f"http://{'[' + h + ']' if ':' in h else h}:{port}/" for h in hosts]


def print_qr(text: str) -> None:
    """A QR code of ``text`` on the terminal; nothing (and a hint) when segno is not installed."""
    try:
        import segno
    except ImportError:
        click.echo(_("  (no QR code: install segno, `pip install segno`, to have one here)"))
        return
    import io

    buf = io.StringIO()
    try:
        segno.make(text, error="m").terminal(out=buf, compact=True, border=2)
        click.echo(buf.getvalue().rstrip("\n"))
    except (UnicodeEncodeError, OSError):
        click.echo(_("  (no QR code: this terminal cannot show one)"))


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets the phones on the café's network in.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--session", "session_ref", type=SessionRef(), help=SESSION_HELP + " Without it the page "
              "follows the open session, also the next one started.")
@click.option("--read-only", is_flag=True, help="No scorer's link: nothing can be recorded from a phone.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, session_ref: int | str | None, read_only: bool) -> None:
    """Serve the live sheet to the players' phones: open the address it prints, or scan its QR code.

    The page follows every entry (from `wiezen deal`, `wiezen play`, or the scorer's phone) within a second
    or two without a reload; /sheet.json is `wiezen sheet --json`'s document. Everyone who can open the
    address can read the sheet; recording needs the scorer's link, with a secret token that only this
    terminal shows (a new one every start). Stop with Ctrl-C.

    \b
    Examples:
        wiezen serve                       only this computer (http://127.0.0.1:8080/)
        wiezen serve --host 0.0.0.0        the phones at the table, on the café's Wi-Fi
        wiezen serve --session 12 --read-only --port 8000
    """
    from .. import ledger
    from .common import ends_like_ctrl_c, pick_session

    path = ledger.resolve_path(_db(ctx))
    session_id: int | None = None
    if session_ref is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            session_id = pick_session(led, session_ref).id
    live = LiveSheet(path, session_id)
    live.load_once()
    token = None if read_only else secrets.token_urlsafe(16)
    try:
        httpd = Server((host, port), live, token)
    except OSError as e:
        if e.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise WiezenError(_("port {port} on {host} is in use: give another with --port (0: any free port)").format(
                port=port, host=host)) from None
        raise WiezenError(_("cannot listen on {host} port {port}: {reason}").format(host=host, port=port, reason=e.strerror or e)) from None
    port = httpd.server_address[1]
    live.start()
    s = live.doc["session"]
    urls = urls_for(host, port)
    tty = sys.stdout.isatty()
    click.echo(_("the live sheet of session {id}{name}:").format(id=s["id"], name=" (" + s["name"] + ")" if s["name"] else ""))
    for u in urls:
        click.echo(f"  {u}")
    if host.startswith("127.") or host in ("localhost", "::1"):
        click.echo(_("  (only this computer can open it: --host 0.0.0.0 lets the phones on your network in)"))
    if tty:
        print_qr(urls[0])
    if token is not None:
        click.echo(_("the scorer's link (it can record deals: keep it to yourself):"))
        click.echo(f"  {urls[0]}s/{token}")
        if tty:
            print_qr(f"{urls[0]}s/{token}")
    click.echo(_("Ctrl-C stops."))

    started = time.monotonic()
    try:
        with ends_like_ctrl_c(lambda signum: KeyboardInterrupt()):  # SIGTERM, a closed terminal: as Ctrl-C
            httpd.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        live.close()
        httpd.server_close()
        # the page's reader kept the ledger open while the phones wrote: what is still in its journal goes into the
        # file now, so that a copy of the bare .db file is the whole ledger (`wiezen db path`)
        ledger.flush_journal(path)
    click.echo(_("stopped after {seconds} s; nothing was left open").format(seconds=f"{time.monotonic() - started:.0f}"))
