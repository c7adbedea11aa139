"""Text from users, checked once: numbers typed in words, and text that must be valid UTF-8. Pure.

Only ASCII digits make a number ("²", "١٠" or "1_000" are words, not numbers), and a number is bounded before
Python converts it, so that a line of thousands of digits is one clear error.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import WiezenError
from .i18n import _

#: the most digits a number typed in a line may have (entry numbers, tricks, levels, cents)
MAX_DIGITS = 9
NEWLINE = b"\n"


def is_digits(word: str) -> bool:
    """ASCII digits only (``str.isdigit`` also takes "²" and "١", which ``int()`` then refuses or reads)."""
    return word.isascii() and word.isdigit()  # (as the pattern [0-9]+\Z, without compiling one at start-up)


def as_count(word: str) -> int | None:
    """``word`` as a whole number of at most MAX_DIGITS ASCII digits, else None."""
    if not is_digits(word) or len(word.lstrip("0")) > MAX_DIGITS:
        return None
    return int(word)


def shorten(word: str, limit: int = 24) -> str:
    """A long word cut for an error message (a 5,000-digit 'number' is named, not printed whole)."""
    return word if len(word) <= limit else _("{start}... ({n} characters)").format(start=word[:limit], n=len(word))


def bad_utf8(text: str) -> int | None:
    """The position of the first character that stands for a byte that was not UTF-8, or None.

    Python reads the command line and the environment with ``surrogateescape``: an invalid byte becomes a lone
    surrogate (U+DC80..U+DCFF), which cannot be stored, printed or compared.
    """
    for i, ch in enumerate(text):
        if "\ud800" <= ch <= "\udfff":
            return i
    return None


def require_utf8(text: str, what: str) -> str:
    """``text`` unchanged, or a WiezenError naming ``what`` when it holds bytes that are not UTF-8."""
    i = bad_utf8(text)
    if i is not None:
        ch = text[i]
        byte = f"0x{ord(ch) - 0xDC00:02X}" if "\udc80" <= ch <= "\udcff" else f"U+{ord(ch):04X}"
        raise WiezenError(
            _("{what} is not valid UTF-8 text (byte {byte} at position {position}): type it again in UTF-8").format(
                what=what, byte=byte, position=i + 1
            )
        )
    return text


def decode_utf8(data: bytes, what: str, one_line: bool = False) -> str:
    """Bytes read from a file or stdin as text: UTF-8, with or without a byte-order mark."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        where = "" if one_line else _(" on line {n}").format(n=data[: e.start].count(NEWLINE) + 1)
        raise WiezenError(
            _("{what} is not UTF-8 text (byte {byte}{where}): save it as UTF-8").format(
                what=what, byte=f"0x{data[e.start]:02X}", where=where
            )
        ) from None


def parse_json(text: str, what: str) -> Any:
    """A JSON document; bad JSON, nesting too deep for Python and numbers of thousands of digits are one
    WiezenError naming ``what``."""
    import json

    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise WiezenError(
            _("{what} is not a wiezen export: bad JSON at line {line}, column {column} ({why})").format(
                what=what, line=e.lineno, column=e.colno, why=e.msg
            )
        ) from None
    except RecursionError:
        raise WiezenError(_("{what} is not a wiezen export: its JSON is nested too deeply").format(what=what)) from None
    except ValueError as e:  # Python's limit on the digits of an int
        raise WiezenError(
            _("{what} is not a wiezen export: a number in it is far too long ({why})").format(what=what, why=e)
        ) from None


class LazyPattern:
    """``re.compile(pattern, flags)``, compiled when first used rather than when its module is imported (a
    pattern costs a fraction of a millisecond to compile: modules on the path of every command keep theirs
    this way)."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self.flags = pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def match(self, text: str) -> re.Match[str] | None:
        return self.compiled().match(text)
