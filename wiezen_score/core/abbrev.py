"""Contract abbreviations for the `play` prompt: ``s 8 j+p 9`` is ``samen 8 j+p 9``. Pure.

An abbreviation only stands for a contract the session's house rules have, and never hides a word the
house rules themselves know (a contract name or alias). None of them is a word of the prompt's own
commands (pas, penalty, players, redeal, rules, session, settle, sheet, ...), so a line never means two things.
"""

from __future__ import annotations

import re

from .rules import HouseRules, normalize_word

__all__ = ["ABBREVIATIONS", "abbreviations", "expand_line", "expand_word"]

#: abbreviation -> contract name, in the order `help` lists them
ABBREVIATIONS: dict[str, str] = {
    "s": "samen",
    "a": "alleen",
    "t": "troel",
    "ab": "abondance",
    "so": "solo",
    "ss": "solo-slim",
    "km": "kleine-miserie",
    "gm": "grote-miserie",
    "om": "open-miserie",
    "pc": "piccolo",
}

def expand_word(word: str, rules: HouseRules) -> str | None:
    """The contract ``word`` abbreviates under ``rules``, or None (not an abbreviation, or a word the
    house rules know themselves, or a contract these house rules do not have)."""
    w = normalize_word(word)
    if rules.find(w) is not None:
        return None
    full = ABBREVIATIONS.get(w)
    if full is None or rules.find(full) is None:
        return None
    return full


def expand_line(line: str, rules: HouseRules) -> str:
    """``line`` with its contract word written out when it is an abbreviation; else unchanged.

    The contract word is the first word, or the third in ``amend N CONTRACT ...``.
    """
    # the first word and what is around it (as the pattern ^(\s*)(\S+)(.*)$ with DOTALL: str.isspace is \s)
    body = line.lstrip()
    if not body:
        return line
    lead, word = line[: len(line) - len(body)], body.split(None, 1)[0]
    rest = body[len(word):]
    if word.lower() == "amend":
        m2 = re.match(r"^(\s+\d+)(\s+.*)$", rest, re.DOTALL)
        if m2 is None:
            return line
        return f"{lead}{word}{m2.group(1)}{expand_line(m2.group(2), rules)}"
    full = expand_word(word, rules)
    if full is None:
        return line
    return f"{lead}{full}{rest}"


def abbreviations(rules: HouseRules) -> list[tuple[str, str]]:
    """The abbreviations that work under ``rules``: (abbreviation, contract)."""
    return [(a, c) for a, c in ABBREVIATIONS.items() if expand_word(a, rules) is not None]
