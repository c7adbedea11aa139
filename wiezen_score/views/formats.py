"""The one registry of output formats (`--format`): what each one is, and how a listing is written in it.

Every listing command prints through :data:`FORMATS` (cli/common.py's ``output_options`` and ``Output``): a
command says which of these formats it offers and hands over a :class:`Listing`, the same data in each form a
format may want; the format picks its form. Nothing is chosen by an if-chain in a command.

- ``table`` and ``text``: for a person: the command's own text when it has one, else a text table of ``rows``
  (its column names translated).
- ``json``: ``items`` as an indented JSON document (machine: English, a decimal point).
- ``csv``: ``csv_headers``/``csv_rows`` (default: ``headers``/``rows``) as spreadsheet-safe CSV in the chosen
  dialect (machine: the dialect decides the decimal separator).
- ``markdown`` and ``html``: the command's own markdown text or self-contained HTML page.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

__all__ = ["FORMATS", "Format", "Listing", "register", "write"]


@dataclass
class Listing:
    """What a command lists, in every form its formats need (the callables run only for the chosen format)."""

    headers: Sequence[str] = ()
    rows: Iterable[Sequence[object]] = ()
    items: object = None  # the JSON document
    text: Callable[[], str] | None = None
    markdown: Callable[[], str] | None = None
    html: Callable[[], str] | None = None
    csv_headers: Sequence[str] | None = None
    csv_rows: Iterable[Sequence[object]] | None = None
    table_kw: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Format:
    name: str
    description: str  # what --help says of it
    machine: bool  # for programs: English and a decimal point whatever the language
    write: Callable[[Listing, str], str]  # (listing, csv dialect) -> the whole output, newline included


FORMATS: dict[str, Format] = {}


def register(name: str, description: str, machine: bool = False) -> Callable[[Callable[[Listing, str], str]],
                                                                            Callable[[Listing, str], str]]:
    """Add a format to the registry (a decorator on its writer)."""

    def add(writer: Callable[[Listing, str], str]) -> Callable[[Listing, str], str]:
        FORMATS[name] = Format(name, description, machine, writer)
        return writer

    return add


def write(name: str, listing: Listing, csv_dialect: str = "excel") -> str:
    """``listing`` written in format ``name``; a format the command did not give the listing for is an error."""
    return FORMATS[name].write(listing, csv_dialect)


def column(header: str) -> str:
    """A table's column header in the current language: its "column" sense (NP_("column", ...)) when the
    catalogue has one, else the plain msgid's."""
    from ..core.i18n import _, dutch, pgettext

    if not dutch():
        return header
    shown = pgettext("column", header)
    return shown if shown != header else _(header)


def _need(part: Callable[[], str] | None, name: str) -> Callable[[], str]:
    if part is None:
        raise ValueError(f"this listing has no {name} form")
    return part


@register("table", "a text table")
@register("text", "text, as on paper")
def _person(listing: Listing, csv_dialect: str) -> str:
    if listing.text is not None:
        return listing.text() + "\n"
    from .render import table

    # a person's table has its column names in the language (CSV and JSON keep the English ones)
    return table(listing.rows, [column(h) for h in listing.headers], **listing.table_kw) + "\n"


@register("json", "JSON", machine=True)
def _json(listing: Listing, csv_dialect: str) -> str:
    from .safe import safe_json

    return safe_json(json.dumps(listing.items, ensure_ascii=False, indent=2)) + "\n"


@register("csv", "CSV, safe for spreadsheets", machine=True)
def _csv(listing: Listing, csv_dialect: str) -> str:
    from .render import to_csv

    headers = listing.csv_headers if listing.csv_headers is not None else listing.headers
    rows = listing.csv_rows if listing.csv_rows is not None else listing.rows
    return to_csv(headers, rows, csv_dialect)


@register("markdown", "markdown")
def _markdown(listing: Listing, csv_dialect: str) -> str:
    return _need(listing.markdown, "markdown")() + "\n"


@register("html", "one self-contained HTML page")
def _html(listing: Listing, csv_dialect: str) -> str:
    return _need(listing.html, "html")()
