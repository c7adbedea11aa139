"""Player names: one spelling per player, and no two names that look alike. Pure.

- :func:`normalize_name`: a name as stored, in Unicode NFC (``Émile`` typed as E + combining accent, as macOS
  does, is the same text as ``Émile`` typed at once).
- :func:`name_key`: what two names are compared by: NFC and Unicode case folding, so ``Émile`` and ``émile``
  are one player (not only ASCII letters fold).
- :func:`check_name`: a name written in one script (Latin, Cyrillic, Greek ...; Japanese may mix kanji and
  kana): ``jаn`` with a Cyrillic ``а`` is refused, it would look exactly like ``jan``.
- :func:`skeleton` / :func:`confusable`: names that look the same on screen (``раре`` in Cyrillic and ``pape``
  in Latin) are refused side by side at one table, and beside a player the ledger knows already.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import WiezenError
from .i18n import _

__all__ = ["check_name", "confusable", "name_key", "normalize_name", "scripts", "skeleton"]


def normalize_name(name: str) -> str:
    import unicodedata

    return unicodedata.normalize("NFC", name.strip())


def name_key(name: str) -> str:
    """Names compare by this: NFC, Unicode case folding, NFC again (folding may decompose)."""
    if name.isascii():  # (NFC leaves ASCII as it is, and folds it to ASCII: the same key without unicodedata)
        return name.strip().casefold()
    import unicodedata

    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name.strip()).casefold())


# the script of a letter, by the first word of its Unicode name (LATIN SMALL LETTER A -> LATIN)
_RENAME = {"CJK": "HAN", "FULLWIDTH": None, "HALFWIDTH": None}
# scripts that are written together: Japanese (kanji + kana), Chinese with bopomofo, Korean (hangul + hanja)
_TOGETHER = ({"HAN", "HIRAGANA", "KATAKANA", "LATIN"}, {"HAN", "BOPOMOFO", "LATIN"}, {"HAN", "HANGUL", "LATIN"})


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None  # digits, . ' - _ and combining marks belong to every script
    import unicodedata  # (imported where it is used: a deal that names players in ASCII needs none of it)

    try:
        words = unicodedata.name(ch).split()
    except ValueError:
        return "UNKNOWN"
    first = words[0]
    if first in _RENAME:
        renamed = _RENAME[first]
        if renamed is None:  # FULLWIDTH LATIN ... -> LATIN
            return words[1] if len(words) > 1 else "UNKNOWN"
        return renamed
    if first == "MODIFIER":
        return None
    return first


def scripts(name: str) -> set[str]:
    return {s for s in map(_script, name) if s is not None}


def check_name(name: str) -> None:
    """A name in one script (or a mix that is written together, such as Japanese)."""
    found = scripts(name)
    if len(found) <= 1 or any(found <= ok for ok in _TOGETHER):
        return
    import unicodedata

    main = max(found, key=lambda s: sum(1 for ch in name if _script(ch) == s))
    odd = next(ch for ch in name if _script(ch) not in (None, main))
    raise WiezenError(
        _("'{name}' mixes {scripts} letters ('{odd}' is {char}): it would look like another name; "
          "write the name in one script").format(
            name=name, scripts=_(" and ").join(sorted(s.title() for s in found)), odd=odd,
            char=unicodedata.name(odd, f"U+{ord(odd):04X}").title(),
        )
    )


# letters of other scripts that look like a Latin letter (after case folding), and digits like letters
_LOOKS_LIKE = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "һ": "h", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ӏ": "l",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
    # digits and Latin letters that pass for others
    "0": "o", "1": "l", "ı": "i", "ℓ": "l",
})


def skeleton(name: str) -> str:
    """What a name looks like: compatibility forms (full-width letters) folded, case folded, look-alike letters
    of other scripts mapped to the Latin one. Two names with one skeleton read the same on screen."""
    import unicodedata

    s = unicodedata.normalize("NFKC", name.strip()).casefold()
    s = unicodedata.normalize("NFD", s).translate(_LOOKS_LIKE)
    return unicodedata.normalize("NFC", s)


def confusable(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that is another name (another key) but looks the same as ``name``."""
    key, sk = name_key(name), skeleton(name)
    for o in others:
        if name_key(o) != key and skeleton(o) == sk:
            return o
    return None


def check_table(names: Sequence[str]) -> None:
    """One script per name, and no two names at the table that look the same."""
    for i, n in enumerate(names):
        check_name(n)
        other = confusable(n, names[:i])
        if other is not None:
            raise WiezenError(
                _("'{name}' and '{other}' look the same on screen: give one of them another name").format(
                    name=n, other=other
                )
            )
