"""What a player meant: accent-free folding of typed words and the nearest known word for a near miss. Pure."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["bare", "did_you_mean", "distance", "nearest"]


def bare(word: str) -> str:
    """``word`` without accents, case-folded: ``René`` and ``rene`` are the same bare word."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def distance(a: str, b: str) -> int:
    """Edit distance (insertions, deletions, substitutions and swaps of two neighbours each count 1)."""
    if a == b:
        return 0
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[-1]


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The one known word closest to ``word`` when it is a near miss (1 edit, 2 from 5 letters on), else None."""
    w = bare(word)
    if not w:
        return None
    limit = 1 if len(w) < 5 else 2
    scored: dict[str, int] = {}
    for k in known:
        d = distance(w, bare(k))
        if d <= limit and (k not in scored or d < scored[k]):
            scored[k] = d
    if not scored:
        return None
    best = min(scored.values())
    winners = [k for k, d in scored.items() if d == best]
    return winners[0] if len(winners) == 1 else None


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``"; did you mean samen?"`` for a near miss, else an empty string."""
    found = nearest(word, known)
    from .i18n import _

    return _("; did you mean {word}?").format(word=found) if found else ""
