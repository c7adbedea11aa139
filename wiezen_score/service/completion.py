"""What may complete the word being typed at the table: commands, contracts, the players in play (tab completion)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.i18n import dutch
from ..core.sessionfile import DUTCH_HEADS

if TYPE_CHECKING:
    from ..core.rules import HouseRules
    from ..ledger import Ledger

__all__ = ["COMMAND_WORDS", "DUTCH_COMMAND_WORDS", "DUTCH_HEADER_WORDS", "HEADER_WORDS", "candidates"]

COMMAND_WORDS = ("amend", "end", "explain", "help", "pas", "penalty", "precedent", "quit", "redeal", "settle", "sheet",
                 "undo")
HEADER_WORDS = ("players", "rules", "session")

#: the Dutch words offered by tab completion when the language is Dutch
DUTCH_COMMAND_WORDS = ("afrekenen", "blad", "einde", "hulp", "ongedaan", "stop", "straf", "uitleg", "uitspraak",
                       "verbeter")
DUTCH_HEADER_WORDS = ("regels", "sessie", "spelers")


def candidates(led: Ledger, before: str, text: str) -> list[str]:
    """What may complete ``text``, the word being typed after ``before`` (the line up to that word)."""
    from ..core.rules import PRESETS
    from ..core.session import active_players

    words = before.split()
    s = led.open_session()
    low = text.casefold()
    if s is None:
        if not words:
            pool = [*HEADER_WORDS, "help", "quit", *((*DUTCH_HEADER_WORDS, "hulp") if dutch() else ())]
        elif DUTCH_HEADS.get(words[0].lower(), words[0].lower()) == "rules" and len(words) == 1:
            pool = [*PRESETS, *(n for n, _ in led.added_rules())]
        else:
            pool = []
        return sorted(w + " " for w in pool if w.casefold().startswith(low))
    rules = s.rules
    contracts = [w for c in rules.contracts for w in (c.name, *c.aliases)]
    entry_words = [*contracts, "pas", "redeal", "penalty"]
    if not words:
        pool = sorted({*COMMAND_WORDS, *contracts, *(DUTCH_COMMAND_WORDS if dutch() else ())})
        return [w + " " for w in pool if w.startswith(low)]
    head = DUTCH_HEADS.get(words[0].lower(), words[0].lower())
    players = list(s.players)
    if head in ("sheet", "explain", "settle", "end", "undo", "redeal", "pas", "help", "quit", "precedent"):
        return []
    if head == "amend":
        if len(words) == 1:
            return []
        if len(words) == 2:
            return [w + " " for w in entry_words if w.startswith(low)]
    elif head == "penalty":
        if len(words) == 2:
            word = "rondje" if dutch() else "round"
            return [word + " "] if word.startswith(low) and low else []
        if len(words) > 2:
            return []
    else:
        state, _number = led.state(s)
        players = list(active_players(s.players, state.dealer))
    return [p + _after_player(words, before, rules) for p in players if p.casefold().startswith(low)]


def _after_player(words: list[str], before: str, rules: HouseRules) -> str:
    """'+' after the first taker of a team contract (s 8 j<TAB> gives 'jan+'), else a space."""
    from ..core.abbrev import expand_word
    from ..core.rules import TrickContract

    if words[0].lower() == "amend":
        words = words[2:]
    if not words or not before or not before[-1].isspace():
        return " "  # right after a '+': the partner
    contract = rules.find(expand_word(words[0], rules) or words[0])
    typed = [w for w in words[1:] if not w.isdigit()]
    if isinstance(contract, TrickContract) and contract.team and not typed:
        return "+"
    return " "
