"""Printing text from users safely: the unsafe characters (core/safe.py decides which) shown as escapes. Pure.

Names, reasons, precedents, session names and file names are stored exactly as given, but a terminal obeys
some characters instead of showing them: ESC starts a sequence that can clear the screen or (OSC 52) write the
clipboard, a newline in a penalty reason would start a fake row of the sheet, a bidi override turns the text
around, and a lone surrogate (a byte that was not UTF-8) cannot be printed at all. Every output shows those
characters as visible escapes instead (``\\x1b``, ``\\n``, ``\\u202e``):

- :func:`safe` for one line of text (terminal, CSV, HTML: a newline is shown as ``\\n`` too);
- :func:`safe_lines` for text whose own lines are kept (a multi-line ruling, a house-rules file);
- :func:`safe_json` for a JSON document: the same characters as ``\\uXXXX`` escapes, so it stays valid JSON
  that reads back to the same value.
"""

from __future__ import annotations

from typing import TypeVar, cast

from ..core.safe import is_unsafe, safe_json

_Doc = TypeVar("_Doc")

__all__ = ["is_unsafe", "safe", "safe_json", "safe_lines"]

_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
def _escape(ch: str) -> str:
    named = _NAMED.get(ch)
    if named:
        return named
    o = ord(ch)
    if o < 0x100:
        return f"\\x{o:02x}"
    if o < 0x10000:
        return f"\\u{o:04x}"
    return f"\\U{o:08x}"


def _plain(s: str) -> bool:
    """Only the printable ASCII characters, space to tilde (as the pattern ``[\\x20-\\x7e]*\\Z``)."""
    return s.isascii() and s.isprintable()


def safe(text: object) -> str:
    """``text`` as one printable line: every unsafe character (newlines included) as a visible escape."""
    s = text if isinstance(text, str) else str(text)
    if _plain(s):
        return s
    return "".join(_escape(ch) if is_unsafe(ch) else ch for ch in s)


def safe_lines(text: object) -> str:
    """``text`` with its line breaks (``\\n``) and tabs kept, every other unsafe character escaped."""
    s = text if isinstance(text, str) else str(text)
    if _plain(s.replace("\n", " ").replace("\t", " ")):  # (plain but for its line breaks and tabs, as a sheet)
        return s
    return "".join(_escape(ch) if is_unsafe(ch) and ch not in "\n\t" else ch for ch in s)


def safe_tree(value: _Doc) -> _Doc:
    """A copy of a document (dicts, lists, texts) with :func:`safe` applied to every text, keys included:
    what a text renderer gets, so that no field of it can break a line or steer the terminal. The copy has the
    document's shape (a tuple in it becomes a list, as in JSON), so it keeps the document's type."""
    return cast("_Doc", _safe_tree(value))


def _safe_tree(value: object) -> object:
    if isinstance(value, str):
        return safe(value)
    if isinstance(value, dict):
        return {safe(k) if isinstance(k, str) else k: _safe_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_safe_tree(v) for v in value]
    return value
