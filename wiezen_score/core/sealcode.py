"""A seal as players note it: 12 characters of a session hash and a check character, and the typo it catches.

A seal is the first 60 bits of a session hash in Crockford's base 32 (no I, L, O, U), grouped by four, with a
check character after a dash: ``7KQ2-M9XD-4TPA-R``. The check character is the Luhn mod 32 check over the twelve
(the Luhn algorithm for an alphabet of 32): one wrong character, and nearly every swap of two neighbours, makes a
code whose check does not fit, so that `check --seal` can say "a typo" instead of "a changed history". Seals
printed before the check character existed (twelve characters) keep working: they are read without a check. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32
_VALUE = {c: i for i, c in enumerate(ALPHABET)}
BODY = 12  # characters of hash in a seal


def luhn32(body: str) -> str:
    """The Luhn mod 32 check character of ``body`` (characters of ALPHABET)."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        v = _VALUE[ch]
        if i % 2 == 0:  # from the right, every other character is doubled, its two base-32 digits added
            v *= 2
            v = v // 32 + v % 32
        total += v
    return ALPHABET[(32 - total % 32) % 32]


def seal_code(shash: str) -> str:
    """The seal of a session hash (hex): ``7KQ2-M9XD-4TPA-R``."""
    n = int(shash[:15], 16)
    body = "".join(ALPHABET[(n >> (5 * i)) & 31] for i in reversed(range(BODY)))
    return f"{body[:4]}-{body[4:8]}-{body[8:]}-{luhn32(body)}"


def body_of(code: str) -> str:
    """The twelve characters of a printed seal (old or new)."""
    raw = code.replace("-", "")
    return raw[:BODY]


@dataclass(frozen=True, slots=True)
class Typed:
    """A seal as typed, read: ``body`` its twelve characters (empty when it is not a seal's shape); ``checked``:
    it carried a check character (a seal of this version); ``typo``: that check character does not fit."""

    body: str
    checked: bool = False
    typo: bool = False

    @property
    def shaped(self) -> bool:
        return bool(self.body)


def read_seal(code: str) -> Typed:
    """A seal as typed: any case, spaces or dashes, O for 0, I or L for 1; twelve characters (a seal printed before
    the check character) or thirteen (with it)."""
    raw = "".join(ch for ch in code.upper() if ch.isalnum()).replace("O", "0").replace("I", "1").replace("L", "1")
    if len(raw) not in (BODY, BODY + 1) or not all(c in _VALUE for c in raw):
        return Typed("")
    body = raw[:BODY]
    if len(raw) == BODY:
        return Typed(body)
    return Typed(body, checked=True, typo=luhn32(body) != raw[BODY])


def printed(body: str) -> str:
    """Twelve characters as a seal is printed, with their check character."""
    return f"{body[:4]}-{body[4:8]}-{body[8:]}-{luhn32(body)}"


def near(body: str, other: str) -> bool:
    """Two seals' twelve characters that differ in at most one place, or by two neighbours swapped: what a
    typo makes of a seal (two different histories' seals differ in about eleven places of twelve)."""
    diff = [i for i, (a, b) in enumerate(zip(body, other, strict=False)) if a != b]
    if len(diff) <= 1:
        return True
    return len(diff) == 2 and diff[1] == diff[0] + 1 and body[diff[0]] == other[diff[1]] and body[diff[1]] == other[diff[0]]
