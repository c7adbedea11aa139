"""Table labels of a club night: a number (``1``, ``2`` ... 999) or a short word (``terras``, ``zaal-2``). Pure.

A label is what ``--table``, ``$WIEZEN_TABLE``, a room's ``/t/LABEL`` and a scorer's card name a table by. Numbers
stay numbers (``03`` is table 3); a word is kept in lower case (``Terras`` is ``terras``), so that a table is found
however it is typed.
"""

from __future__ import annotations

import re

from .errors import WiezenError
from .i18n import _

__all__ = ["MAX_LABEL", "Table", "parse_table", "table_key"]

#: a table: its number, or its word
Table = int | str

MAX_LABEL = 12
MAX_TABLE = 99  # tables in a round (core/sessionfile.py MAX_ROUND)
_WORD = re.compile(r"[a-z][a-z0-9_-]{0,11}")  # MAX_LABEL characters


def parse_table(text: str) -> Table:
    """A table label as typed: a number 1 to 99, or a word of letters (a-z), digits, ``-`` and ``_`` that starts
    with a letter, at most 12 characters; else one clear error."""
    t = text.strip()
    if t.isascii() and t.isdigit():
        n = int(t)
        if 1 <= n <= MAX_TABLE:
            return n
    else:
        word = t.lower()
        if _WORD.fullmatch(word):
            return word
    raise WiezenError(_("'{table}' is not a table: a number 1 to {most_no}, or a short word such as terras (letters a-z, "
                        "digits, - and _, starting with a letter, at most {most} characters)").format(
        table=text, most_no=MAX_TABLE, most=MAX_LABEL))


def table_key(table: Table | None) -> tuple[int, int, str]:
    """Tables in order: no table first, then the numbers, then the words."""
    if table is None or table == 0:
        return (0, 0, "")
    if isinstance(table, int):
        return (1, table, "")
    return (2, 0, table)
