"""Plain TOML: the few forms a house-rules file is written in, read without importing tomllib.

Every ``wiezen deal`` reads the open session's house rules (their TOML text, kept with the session); tomllib
costs more to import than all the rest of that reading. :func:`loads` reads the plain subset those files are
written in (and that :func:`~wiezen_score.core.rules.to_toml` writes): ASCII text; ``[table]`` and
``[table.sub]`` headers of bare keys; ``key = value`` lines with a bare key and a value that is a basic string
without escapes, a decimal integer, ``true``, ``false``, or a one-line array of those; comments and blank
lines. For anything else, and for anything TOML would refuse (a key or table given twice, a leading zero ...),
it returns None, and the caller reads the text with tomllib: so where it gives a result, it is exactly
tomllib's (tests/test_plaintoml.py compares the two on the presets and on thousands of altered texts).
"""

from __future__ import annotations

from typing import Any

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_MAX_DIGITS = 100  # a longer number is left to tomllib (and to its error for a number too long for Python)


class _Unplain(Exception):
    """Not in the plain subset: read the text with tomllib."""


def loads(text: str) -> dict[str, Any] | None:
    """The TOML ``text`` as tomllib reads it, or None when it is not plain (see the module's docstring)."""
    if not text.isascii() or "\r" in text:
        return None
    try:
        return _parse(text)
    except _Unplain:
        return None


def _bare(key: str) -> str:
    if not key or not _BARE.issuperset(key):
        raise _Unplain
    return key


def _parse(text: str) -> dict[str, Any]:
    root: dict[str, Any] = {}
    table = root  # where the next key goes: the root, then the table of the last header
    for raw in text.split("\n"):
        line = raw.strip(" \t")
        if not line.replace("\t", " ").isprintable():  # a control character: TOML's rules for them are tomllib's
            raise _Unplain
        if not line or line[0] == "#":
            continue
        if line[0] == "[":
            head, sep, rest = line[1:].partition("]")
            if not sep or rest.lstrip(" \t")[:1] not in ("", "#"):
                raise _Unplain
            *path, last = [_bare(part) for part in head.split(".")]
            table = root
            for part in path:  # the tables above: made on the way (as TOML does), or made before by a header
                if part not in table:
                    table[part] = {}
                table = table[part]
                if not isinstance(table, dict):
                    raise _Unplain
            if last in table:  # a table given twice, or over a key, or a table made on the way given later
                raise _Unplain
            table[last] = table = {}
            continue
        key, sep, value = line.partition("=")
        key = _bare(key.rstrip(" \t"))
        if not sep or key in table:
            raise _Unplain
        v, end = _value(value, _skip(value, 0))
        end = _skip(value, end)
        if end < len(value) and value[end] != "#":
            raise _Unplain
        table[key] = v
    return root


def _skip(s: str, i: int) -> int:
    while i < len(s) and s[i] in " \t":
        i += 1
    return i


def _value(s: str, i: int) -> tuple[Any, int]:
    """The value that starts at ``s[i]`` and the index after it."""
    if i >= len(s):
        raise _Unplain
    c = s[i]
    if c == '"':
        if s.startswith('""', i):
            if s.startswith('"""', i):  # a multi-line string: tomllib's
                raise _Unplain
            return "", i + 2
        end = s.find('"', i + 1)
        if end < 0:
            raise _Unplain
        body = s[i + 1:end]
        if "\\" in body:
            raise _Unplain
        return body, end + 1
    if c == "[":
        items: list[Any] = []
        i = _skip(s, i + 1)
        while True:
            if i >= len(s):
                raise _Unplain
            if s[i] == "]":
                return items, i + 1
            if s[i] == "[":  # an array in an array
                raise _Unplain
            v, i = _value(s, i)
            items.append(v)
            i = _skip(s, i)
            if i < len(s) and s[i] == ",":
                i = _skip(s, i + 1)
            elif i >= len(s) or s[i] != "]":
                raise _Unplain
    j = i
    while j < len(s) and s[j] not in " \t,]#":
        j += 1
    word = s[i:j]
    if word == "true":
        return True, j
    if word == "false":
        return False, j
    digits = word[1:] if word[:1] == "-" else word
    if not digits.isdigit() or len(digits) > _MAX_DIGITS or (digits[0] == "0" and len(digits) > 1):
        raise _Unplain
    return int(word), j
