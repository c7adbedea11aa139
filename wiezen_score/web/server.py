"""The HTTP server of the live sheet: the page, its JSON, its server-sent events, and the scorer's form.

The standard library's threaded HTTP server with server-sent events: a table has a handful of phones, each holds
one open connection, and a thread each is plenty; no framework to install or keep up.

- Every browser is sent the one rendering the poller keeps (web/live.py).
- Writes come only through the scorer's link, which holds a secret token printed on the scorer's terminal; they
  go through the table's service (service/table.py), which takes every line `wiezen play` takes, on a connection
  of their own. Without the token every write is refused with 403.
- Every response is a string made here: no file from disk is ever served.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, quote, urlsplit

from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.text import as_count
from ..ledger.links import Link
from .live import LiveSheet
from .room import Room
from .scorer import FormAnswer, Scorer

__all__ = ["Handler", "Server", "lan_addresses", "make_server", "urls_for"]

KEEPALIVE_SECONDS = 15  # an SSE comment this often, so dead connections are noticed
MAX_BODY = 4096  # bytes of a POST body
MAX_TARGET = 2048  # characters of a request's path and query
MAX_STREAMS = 256  # open event streams at once: a club's room (20 tables, 200 phones) and then some (benchmarks/room.py)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], live: LiveSheet, room: Room | None, read_only: bool,
                 pinned_table: int | None = None) -> None:
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        self.live = live
        self.room = room  # None: the page is pinned to one session (--session)
        self.read_only = read_only
        self.pinned_table = pinned_table  # with --session: its table (0: none), the only one its link records at
        self.scorers: dict[int, Scorer] = {}
        self._names: frozenset[str] | None = None  # (host_names)
        self.streams = 0
        self.lock = threading.Lock()  # one write at a time, and the table of answered forms
        self.answered: OrderedDict[str, tuple[int, FormAnswer]] = OrderedDict()

    def host_names(self) -> frozenset[str]:
        """The host names this server answers to (a Host header naming another, as DNS rebinding does, gets 421): its
        own address, this machine's names and network addresses, localhost."""
        names = self._names
        if names is None:
            host = self.server_address[0]
            own = {"localhost", "127.0.0.1", "::1", str(host).lower()}
            try:
                machine = socket.gethostname().lower()
                own |= {machine, machine + ".local", socket.getfqdn().lower()}
            except OSError:
                pass
            own |= set(lan_addresses())
            names = self._names = frozenset(own)
        return names

    def knows_host(self, header: str | None) -> bool:
        """Whether a Host (or an Origin's host) is one of :meth:`host_names`, with this server's port or none."""
        if not header:
            return False
        host = header.strip().lower()
        if host.startswith("["):  # [::1]:8080
            name, _sep, rest = host[1:].partition("]")
            port = rest[1:] if rest.startswith(":") else ""
        else:
            name, _sep, port = host.partition(":")
        return name in self.host_names() and port in ("", str(self.server_address[1]))

    @property
    def token(self) -> str | None:
        """The scorer's link of the table the page shows (the evening without a table: 0)."""
        if self.read_only:
            return None
        return self.link_of(self.pinned_table or 0)

    def link_of(self, table: int) -> str:
        """Table ``table``'s scorer's token (made and kept in the ledger the first time)."""
        from .. import ledger
        from ..ledger.links import link_of

        with ledger.open_ledger(self.live.path) as led:
            return link_of(led, table)

    def find_link(self, token: str) -> Link | None:
        from .. import ledger
        from ..ledger.links import find

        if self.read_only or not token or len(token) > 64:
            return None
        with ledger.open_ledger(self.live.path, readonly=True) as led:
            return find(led, token)

    def scorer(self, table: int) -> Scorer:
        """The scorer's side of a table's link (kept: what is typed before `players` carries on between forms)."""
        got = self.scorers.get(table)
        if got is None:
            got = self.scorers[table] = Scorer(self.live.path, self.live.session_id, table or None)
        return got

    def sheet_of(self, table: int) -> LiveSheet:
        """The live sheet a table's pages show (0: the one session followed, as without tables)."""
        if table and self.room is not None:
            return self.room.table(table)
        return self.live

    def shut(self) -> None:
        """Stop the pollers, close the socket, and copy what the page's readers kept in the ledger's journal into the
        file, so that a copy of the bare .db file is the whole ledger (`wiezen db path`)."""
        from ..ledger import flush_journal

        self.live.close()
        if self.room is not None:
            self.room.close()
        self.server_close()
        flush_journal(self.live.path)


class Handler(BaseHTTPRequestHandler):
    server: Server
    server_version = "wiezen"
    sys_version = ""
    timeout = 20  # seconds a client may take to send its request

    def log_message(self, format: str, *args: object) -> None:
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

    def _json(self, status: int, doc: object) -> None:
        self._send(status, json.dumps(doc, ensure_ascii=False), "application/json")

    def _plain(self, status: int, text: str) -> None:
        """A refusal: plain text, or ``{"ok": false, "error": TEXT}`` for the page's script (it asks for JSON), so that
        the page can show it instead of 'no answer'."""
        self.close_connection = True
        if "application/json" in (self.headers.get("Accept") or ""):
            self._json(status, {"ok": False, "error": text})
            return
        self._send(status, text + "\n", "text/plain")

    def _target(self) -> tuple[str, dict[str, list[str]]] | None:
        if len(self.path) > MAX_TARGET:
            self._plain(HTTPStatus.REQUEST_URI_TOO_LONG, "request target too long")
            return None
        parts = urlsplit(self.path)
        return parts.path, parse_qs(parts.query, max_num_fields=4)

    def _scorer_path(self, path: str) -> tuple[Link, str] | None:
        """(the link, '' for the scorer's page or '/entry' for its form) when ``path`` is a scorer's link the ledger
        made; None otherwise."""
        prefix = "/s/"
        if not path.startswith(prefix):
            return None
        given, _sep, rest = path[len(prefix):].partition("/")
        link = self.server.find_link(given)
        if link is None:
            return None
        return link, "/" + rest if rest else ""

    def _scorer_link(self, path: str, rest: str, refusal: str) -> Link | None:
        """The current link of a scorer's address ending in ``rest``; else the answer is sent (403 ``refusal``, or
        410 for a replaced link) and None returned."""
        found = self._scorer_path(path)
        if found is None or found[1] != rest:
            self._plain(HTTPStatus.FORBIDDEN, refusal)
            return None
        if found[0].replaced:
            self._replaced()
            return None
        return found[0]

    def _replaced(self) -> None:
        self._send(HTTPStatus.GONE, _("this link was replaced: scan the new code") + "\n", "text/plain")

    def _table_path(self, path: str) -> tuple[int, str] | None:
        """/t/N, /t/N/sheet.json, /t/N/events: (N, the rest)."""
        if not path.startswith("/t/"):
            return None
        no, _sep, rest = path[3:].partition("/")
        n = as_count(no)
        return None if n is None or not 1 <= n <= 999 else (n, "/" + rest if rest else "")

    # -- GET -----------------------------------------------------------------
    def do_HEAD(self) -> None:
        self.do_GET()

    def _misdirected(self) -> bool:
        """A request whose Host is not one of this server's names (DNS rebinding): 421, and nothing else said."""
        if self.server.knows_host(self.headers.get("Host")):
            return False
        self._plain(HTTPStatus.MISDIRECTED_REQUEST, "misdirected request: this server does not answer to that host name")
        return True

    def do_GET(self) -> None:
        from ..views.live import live_page

        target = self._target()
        if target is None or self._misdirected():
            return
        path, query = target
        srv = self.server
        room = srv.room
        if path == "/" and room is not None and (room.busy or not srv.live.doc):
            from ..views.room import room_page

            with room.cond:
                doc = room.doc
            self._send(HTTPStatus.OK, room_page(doc), "text/html")
        elif path == "/":
            live = srv.live
            with live.cond:
                doc, fragment, gen = live.doc, live.fragment, live.gen
            self._send(HTTPStatus.OK, live_page(doc, fragment, gen=gen), "text/html")
        elif path == "/sheet.json":
            with srv.live.cond:
                text = srv.live.json_text
            self._send(HTTPStatus.OK, text, "application/json")
        elif path == "/events":
            self._events(srv.live)
        elif path == "/night.json" and room is not None:
            self._send(HTTPStatus.OK, room.night_json(), "application/json")
        elif path == "/room/events" and room is not None:
            self._events(room)
        elif path == "/qr" and room is not None:
            self._cards()
        elif path.startswith("/t/") and room is not None:
            self._table(path)
        elif path.startswith("/s/") and path.endswith("/preview"):
            found = self._scorer_path(path)
            if found is None or found[1] != "/preview" or found[0].replaced:
                self._json(HTTPStatus.FORBIDDEN, {"ok": False, "error": "forbidden: this is not the scorer's link"})
                return
            answer = srv.scorer(found[0].table).preview(query.get("line", [""])[0][:500])
            self._json(HTTPStatus.OK if answer["ok"] else HTTPStatus.BAD_REQUEST, answer)
        elif path.startswith("/s/"):
            link = self._scorer_link(path, "", "forbidden: this is not the scorer's link")
            if link is None:
                return
            try:
                live = srv.sheet_of(link.table)
            except WiezenError as e:
                self._plain(HTTPStatus.NOT_FOUND, str(e))
                return
            with live.cond:
                doc, fragment, gen, contracts, examples = live.doc, live.fragment, live.gen, live.contracts, live.examples
            message = query.get("msg", [""])[0][:300]
            expect = as_count(query.get("expect", [""])[0][:12])  # a question to answer: the button of its yes
            confirm = None if expect is None else (query.get("ask", ["entry"])[0][:16], query.get("line", [""])[0][:500], expect)
            events = f"/t/{link.table}/events" if link.table and room is not None else "/events"
            page = live_page(doc, fragment, gen=gen, scorer_action=f"/s/{link.token}/entry",
                             nonce=secrets.token_urlsafe(12), contracts=contracts, message=message, confirm=confirm,
                             events=events, examples=examples)
            self._send(HTTPStatus.OK, page, "text/html")
        else:
            self._plain(HTTPStatus.NOT_FOUND, "not found: the live sheet is at /, its JSON at /sheet.json")

    def _table(self, path: str) -> None:
        from ..views.live import live_page

        got = self._table_path(path)
        if got is None or got[1] not in ("", "/sheet.json", "/events"):
            self._plain(HTTPStatus.NOT_FOUND, "not found: a table's sheet is at /t/N")
            return
        try:
            live = self.server.sheet_of(got[0])
        except WiezenError as e:
            self._plain(HTTPStatus.NOT_FOUND, str(e))
            return
        if got[1] == "/events":
            self._events(live)
            return
        with live.cond:
            doc, fragment, gen, text = live.doc, live.fragment, live.gen, live.json_text
        if got[1] == "/sheet.json":
            self._send(HTTPStatus.OK, text, "application/json")
        else:
            self._send(HTTPStatus.OK, live_page(doc, fragment, gen=gen, events=f"/t/{got[0]}/events"), "text/html")

    def _cards(self) -> None:
        """/qr: the printable cards of the tables' scorer's links, only for the server's own machine."""
        from ..views.room import cards_page

        if not ipaddress.ip_address(self.client_address[0]).is_loopback:
            self._plain(HTTPStatus.FORBIDDEN, "forbidden: the cards are printed on the server's own computer")
            return
        srv = self.server
        room = srv.room
        if srv.read_only or room is None:
            self._plain(HTTPStatus.NOT_FOUND, "no scorer's links: the server is read-only")
            return
        host = self.headers.get("Host", "")
        with room.cond:
            tables = [t["table"] or 0 for t in room.doc["tables"]]
        cards = []
        for t in tables:
            url = f"http://{host}/s/{srv.link_of(t)}"
            cards.append((t, url, qr_svg(url)))
        self._send(HTTPStatus.OK, cards_page(cards), "text/html")

    def _events(self, live: LiveSheet | Room) -> None:
        from ..views.live import event_data

        srv = self.server
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
                    if isinstance(live, LiveSheet):
                        data, kind = event_data(gen, doc, fragment), "sheet"
                    else:
                        data, kind = json.dumps({"gen": gen, "html": fragment}, ensure_ascii=False), "room"
                    self.wfile.write(f"id: {gen}\nevent: {kind}\ndata: {data}\n\n".encode())
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
        if target is None or self._misdirected():
            return
        origin = self.headers.get("Origin")
        if origin is not None and origin != "null" and not self.server.knows_host(urlsplit(origin).netloc):
            self.close_connection = True  # a page of another site posting with a valid link: refused, nothing written
            self._json(HTTPStatus.FORBIDDEN, {"ok": False, "error": _("Error: a form of another site is refused: nothing "
                                                                       "was recorded")})
            return
        path, _query = target
        link = self._scorer_link(path, "/entry", "forbidden: only the scorer's link can record (nothing was written)")
        if link is None:
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
        confirm = form.get("confirm", [""])[0] == "1"  # the yes to the question the line asked
        expect = as_count(form.get("expect", [""])[0][:12])
        srv = self.server
        with srv.lock:
            if nonce and nonce in srv.answered:  # the phone sent the same form again (a retry): answer as before
                status, answer = srv.answered[nonce]
            else:
                answer = srv.scorer(link.table).answer(action, line, confirm, expect)
                status = HTTPStatus.BAD_REQUEST if "error" in answer else HTTPStatus.OK
                if nonce:
                    srv.answered[nonce] = (status, answer)
                    while len(srv.answered) > 500:
                        srv.answered.popitem(last=False)
        if "application/json" in self.headers.get("Accept", ""):
            self._send(status, json.dumps({**answer, "nonce": secrets.token_urlsafe(12)}, ensure_ascii=False),
                       "application/json")
        else:  # a form sent without the script: back to the scorer's page, with the answer on it
            text = answer.get("message") or answer.get("question") or answer.get("error", "")
            where = f"/s/{link.token}?msg={quote(text)}"
            if "expect" in answer:  # a question: the page shows the button of its yes
                where += f"&ask={quote(action)}&line={quote(line)}&expect={answer['expect']}"
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("Location", where)
            self.send_header("Content-Length", "0")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()

    def _refuse(self) -> None:
        self._plain(HTTPStatus.FORBIDDEN, "forbidden: the live sheet is read-only (nothing was written)")

    do_PUT = do_DELETE = do_PATCH = _refuse


def make_server(path: str, session_id: int | None, host: str, port: int, read_only: bool,
                new_links: bool = False, on_new_table: Callable[[int], None] | None = None) -> Server:
    """The server of the ledger at ``path`` on ``host``:``port`` (0: any free port), its pages rendered once (a
    ledger or session that is not there is an error now); not serving yet (``serve_forever``, then
    :meth:`Server.shut`). Without ``session_id`` it serves the room: every open table. ``new_links``: the scorer's
    links are replaced (`--new-links`). A port in use or an address that cannot be had is one WiezenError."""
    from .. import ledger

    live = LiveSheet(path, session_id)
    room = None
    pinned = None
    if session_id is None:  # the room's poller keeps the one session's page current too
        room = Room(path, on_new_table=None if read_only else on_new_table, single=live)
        room.load_once()
        if not room.busy:
            live.load_once()
    else:
        live.load_once()
        pinned = live.doc["session"].get("table") or 0
    if not read_only:
        from ..ledger.links import replace_all

        with ledger.open_ledger(path) as led:
            if new_links:
                replace_all(led)
    try:
        return Server((host, port), live, room, read_only, pinned)
    except OSError as e:
        if e.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
            raise WiezenError(_("port {port} on {host} is in use: give another with --port (0: any free port)").format(
                port=port, host=host)) from None
        raise WiezenError(_("cannot listen on {host} port {port}: {reason}").format(host=host, port=port, reason=e.strerror or e)) from None


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
