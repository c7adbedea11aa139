"""The characters a terminal may obey instead of showing, decided in one place; JSON with them escaped. Pure.

The views show such characters as visible escapes (views/safe.py); the ledger writes its JSON exports with
:func:`safe_json`, and marks search hits with :data:`HL_START` / :data:`HL_END`, two such characters that no
stored text may hold.
"""

from __future__ import annotations

import unicodedata

__all__ = ["HL_END", "HL_START", "is_unsafe", "safe_json"]

# Markers around the matched words in search results (precedents); the command line turns them into colour or
# nothing. Control characters: text from users holding them is refused, so a marker is always one.
HL_START = "\x02"
HL_END = "\x03"

# format characters that are harmless and needed in ordinary text: the soft hyphen and the joiners of
# emoji sequences and of Persian or Indic writing
_KEEP_FORMAT = frozenset("\u00ad\u200c\u200d")


def is_unsafe(ch: str) -> bool:
    """A character a terminal may obey instead of showing: controls (C0, DEL, C1), format characters such as
    the bidi overrides and zero-width space, line and paragraph separators, and lone surrogates."""
    o = ord(ch)
    if 0x20 <= o < 0x7F:
        return False
    if o < 0x20 or 0x7F <= o <= 0x9F or 0xD800 <= o <= 0xDFFF:
        return True
    if o <= 0xFF:  # Latin-1 letters and signs (the soft hyphen is kept): nothing to escape
        return False
    cat = unicodedata.category(ch)
    return cat in ("Zl", "Zp", "Cs") or (cat == "Cf" and ch not in _KEEP_FORMAT)


def _json_escape(ch: str) -> str:
    o = ord(ch)
    if o < 0x10000:
        return f"\\u{o:04x}"
    o -= 0x10000
    return f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}"


def safe_json(dumped: str) -> str:
    """A JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every unsafe character written as a
    ``\\uXXXX`` escape. Outside strings JSON has only ASCII, so only string contents change, and
    ``json.loads`` gives back the same value."""
    if dumped.isascii() and "\x7f" not in dumped:
        return dumped
    return "".join(_json_escape(ch) if is_unsafe(ch) and ch not in "\n\t" else ch for ch in dumped)
