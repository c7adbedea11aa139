"""`wiezen serve`: the live sheet on the players' phones, from the scorer's laptop, without any cloud.

The command only parses its options, starts the server of wiezen_score/web/ and says where it is (addresses,
QR codes, the scorer's secret link); the server, the live sheet and the scorer's form live in web/.
"""

from __future__ import annotations

import sys
import time

import click

from ..core.i18n import _
from .common import SESSION_HELP, SessionRef, _db
from .dutch import command

__all__ = ["print_qr", "serve"]


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


@command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 lets the phones on the café's network in.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--session", "session_ref", type=SessionRef(), help=SESSION_HELP + " Without it the page "
              "follows the open session, also the next one started.")
@click.option("--read-only", is_flag=True, help="No scorer's link: nothing can be recorded from a phone.")
@click.option("--new-links", is_flag=True, help="Replace the scorer's links (kept in the ledger from one start to the "
              "next): an old link then says it was replaced.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, session_ref: int | str | None, read_only: bool,
          new_links: bool) -> None:
    """Serve the live sheet to the players' phones: open the address it prints, or scan its QR code.

    The page follows every entry (from `wiezen deal`, `wiezen play`, or the scorer's phone) within a second
    or two without a reload; /sheet.json is `wiezen sheet --json`'s document. Everyone who can open the
    address can read the sheet; recording needs the scorer's link, with a secret token that only this
    terminal shows, kept in the ledger so that it stays valid when the server starts again (--new-links
    replaces it). Stop with Ctrl-C.

    On a club night (several tables open, `wiezen night`), / is the room: every open table's totals and last
    deals, the night's ranking and the next round's seating; /t/N is table N's sheet, /night.json `night show
    --json`'s document; each table has a scorer's link of its own, which records only at that table, round after
    round; /qr (on this computer) prints a card per table with its link's QR code.

    \b
    Examples:
        wiezen serve                       only this computer (http://127.0.0.1:8080/)
        wiezen serve --host 0.0.0.0        the phones at the table, on the café's Wi-Fi
        wiezen serve --session 12 --read-only --port 8000
    """
    from .. import ledger
    from ..web.server import make_server, urls_for
    from .common import ends_like_ctrl_c, pick_session

    path = ledger.resolve_path(_db(ctx))
    session_id: int | None = None
    if session_ref is not None:
        with ledger.open_ledger(path, readonly=True) as led:
            session_id = pick_session(led, session_ref).id
    urls: list[str] = []
    tty = sys.stdout.isatty()

    def new_table(table: int | str) -> None:  # a table opened while the server runs: its link at once
        if urls:
            url = f"{urls[0]}s/{httpd.link_of(table)}"
            click.echo(_("table {table}: the scorer's link {url}").format(table=table, url=url))

    from .lang import lang_option

    httpd = make_server(path, session_id, host, port, read_only, new_links, on_new_table=new_table,
                        fixed_lang=lang_option(sys.argv[1:]) is not None)  # else each phone in its own language
    port = httpd.server_address[1]
    live, room = httpd.live, httpd.room
    urls[:] = urls_for(host, port)
    if room is not None and room.busy:
        click.echo(_("the room: every open table, the night's ranking and the next seating:"))
    else:
        s = live.doc["session"]
        click.echo(_("the live sheet of session {id}{name}:").format(id=s["id"], name=" (" + s["name"] + ")" if s["name"] else ""))
    for u in urls:
        click.echo(f"  {u}")
    if host.startswith("127.") or host in ("localhost", "::1"):
        click.echo(_("  (only this computer can open it: --host 0.0.0.0 lets the phones on your network in)"))
    if tty:
        print_qr(urls[0])
    if not read_only:
        if room is not None and room.busy:
            click.echo(_("the scorer's links, one per table (they record deals: give each to its table's scorer; "
                         "printable cards: {url}qr on this computer):").format(url=urls[0]))
            with room.cond:
                tables = [t["table"] or 0 for t in room.doc["tables"]]
            for t in tables:
                click.echo(_("  table {table}: {url}").format(table=t, url=f"{urls[0]}s/{httpd.link_of(t)}"))
        else:
            token = httpd.token
            click.echo(_("the scorer's link (it can record deals: keep it to yourself):"))
            click.echo(f"  {urls[0]}s/{token}")
            if tty:
                print_qr(f"{urls[0]}s/{token}")
    if room is not None:
        room.start()  # it keeps the page of the one open session current too
    else:
        live.start()
    click.echo(_("Ctrl-C stops."))

    started = time.monotonic()
    try:
        with ends_like_ctrl_c(lambda signum: KeyboardInterrupt()):  # SIGTERM, a closed terminal: as Ctrl-C
            httpd.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        # the poller stops, and what the page's reader kept in the ledger's journal goes into the file
        # (ledger.flush_journal), so that a copy of the bare .db file is the whole ledger (`wiezen db path`)
        httpd.shut()
    click.echo(_("stopped after {seconds} s; nothing was left open").format(seconds=f"{time.monotonic() - started:.0f}"))
