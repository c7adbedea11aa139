"""The deal-line grammar (shared/INTERFACE.md) and player-name resolution.

    CONTRACT [LEVEL] TAKER[+PARTNER] TRICKS        trick contracts
    CONTRACT PLAYER TRICKS [PLAYER TRICKS ...]     miserie-type contracts

Extensions, documented in the README: the contract may be a phrase of up to three words (``solo slim``,
``grote miserie``, ``miserie op tafel``) or an abbreviation (``s``, ``gm``: core/abbrev.py), players are
matched without accents, a near miss suggests what was meant, a trailing word ``over-troel`` marks an
open miserie bid over a troel, and a trailing ``x2``, ``x3`` or ``x4`` (``dubbel``: x2) a deal doubled by agreement.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import WiezenError
from .i18n import _
from .rules import Contract, HouseRules, MiserieContract, TrickContract, normalize_word
from .text import as_count, is_digits, shorten

OVER_TROEL = "over-troel"
#: how many times a deal may count by agreement (a trailing ``x2``, ``x3``, ``x4``)
AGREED_TIMES = (2, 3, 4)
#: the words for a deal doubled by agreement, beside ``xN``
_DOUBLE_WORDS = ("dubbel", "double")


def _suffix(times: int) -> str:
    """The canonical end of a deal line doubled by agreement: ' x2' ('' for a deal that is not)."""
    return f" x{times}" if times > 1 else ""


def agreed_times(word: str) -> int | None:
    """How many times a trailing word makes a deal count (``x2``, ``X3``, ``×4``, ``dubbel``), or None when the word
    is no such word. ``x1``, ``x5`` ... are refused with a line saying what is valid."""
    w = word.lower()
    if w in _DOUBLE_WORDS:
        return 2
    if len(w) >= 2 and w[0] in "x\u00d7" and is_digits(w[1:]):
        n = as_count(w[1:])
        if n not in AGREED_TIMES:
            raise WiezenError(
                _("'{word}': a deal counts x2, x3 or x4 by agreement (or 'dubbel': x2)").format(word=shorten(word))
            )
        return n
    return None


@dataclass(frozen=True, slots=True)
class TrickDeal:
    contract: TrickContract
    level: int
    takers: tuple[str, ...]  # the bidder, and the partner for team contracts
    tricks: int  # what the takers took together
    times: int = 1  # the deal counts x2, x3 or x4 by agreement (a trailing 'x2' on the line)

    @property
    def text(self) -> str:
        return f"{self.contract.name} {self.level} {'+'.join(self.takers)} {self.tricks}{_suffix(self.times)}"

    @property
    def players(self) -> tuple[str, ...]:
        return self.takers


@dataclass(frozen=True, slots=True)
class MiserieDeal:
    contract: MiserieContract
    plays: tuple[tuple[str, int], ...]  # (player, tricks he took), in the order typed
    over_troel: bool = False
    times: int = 1  # the deal counts x2, x3 or x4 by agreement (a trailing 'x2' on the line)

    @property
    def text(self) -> str:
        body = " ".join(f"{p} {t}" for p, t in self.plays)
        return f"{self.contract.name} {body}" + (f" {OVER_TROEL}" if self.over_troel else "") + _suffix(self.times)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p, _ in self.plays)


Deal = TrickDeal | MiserieDeal


class SitsOut(WiezenError):
    """A player named in a deal line sits out this deal (the session adds who deals and who plays)."""

    def __init__(self, player: str) -> None:
        super().__init__(_("{player} sits out this deal").format(player=player))
        self.player = player


def resolve_player(word: str, players: Sequence[str]) -> str:
    """A player by exact name or unambiguous prefix, case-insensitively and without accents (``rene`` finds
    ``René``); a near miss names the player probably meant."""
    from .names import name_key

    w = name_key(word)
    if not w:
        raise WiezenError(_("empty player name"))
    exact = [p for p in players if name_key(p) == w]
    if len(exact) == 1:  # (the usual case: the words for accents and near misses are not needed)
        return exact[0]
    from .suggest import bare, did_you_mean

    keys: tuple[Callable[[str], bool], ...] = (lambda p: name_key(p) == w, lambda p: bare(p) == bare(w))
    for same in keys:
        exact = [p for p in players if same(p)]
        if len(exact) == 1:
            return exact[0]
    cands = [p for p in players if name_key(p).startswith(w)] or [p for p in players if bare(p).startswith(bare(w))]
    if len(cands) == 1:
        return cands[0]
    if not cands:
        raise WiezenError(
            _("no player '{word}' at this table (players: {players}){hint}").format(
                word=word, players=", ".join(players), hint=did_you_mean(word, players)
            )
        )
    raise WiezenError(_("'{word}' is ambiguous: it could be {players}").format(word=word, players=", ".join(cands)))


#: what players say for a contract, beside the names and aliases of the house rules: word groups joined by '-'
PHRASES: dict[str, str] = {
    "miserie-op-tafel": "open-miserie",
    "open-miserie": "open-miserie",
    "grote-miserie": "grote-miserie",
    "kleine-miserie": "kleine-miserie",
    "solo-slim": "solo-slim",
    "abondance-troef": "abondance",
}


def find_contract(words: Sequence[str], rules: HouseRules) -> tuple[Contract, int]:
    """The contract the line starts with and how many words name it: a name or alias of the house rules, a
    phrase of up to three words (``miserie op tafel``, ``solo slim``) or an abbreviation (``s``, ``gm``)."""
    from .abbrev import ABBREVIATIONS, expand_word

    for n in (3, 2, 1):
        if len(words) < n:
            continue
        joined = normalize_word("-".join(words[:n]))
        c = rules.find(joined)
        if c is None and joined in PHRASES:
            c = rules.find(PHRASES[joined])
        if c is None and n == 1:
            full = expand_word(joined, rules)
            c = rules.find(full) if full else None
        if c is not None:
            return c, n
    from .suggest import nearest  # (only for a word that names no contract: start-up)

    known = [w for c in rules.contracts for w in (c.name, *c.aliases)]
    known += [a for a, full in ABBREVIATIONS.items() if rules.find(full) is not None and len(a) > 1]
    found = nearest(words[0], known)
    hint = ""
    if found is not None:
        meant = rules.find(found) or rules.find(ABBREVIATIONS.get(found, ""))
        if meant is not None and meant.name != found:
            hint = _("; did you mean {word} ({contract})?").format(word=found, contract=meant.name)
        else:
            hint = _("; did you mean {word}?").format(word=found)
    raise WiezenError(
        _("house rules '{rules}' have no contract '{word}'{hint} (they have: {contracts})").format(
            rules=rules.name, word=words[0], hint=hint, contracts=", ".join(rules.contract_names())
        )
    )


def _tricks(word: str) -> int:
    digits = word[1:] if word.startswith("-") else word
    if not is_digits(digits):
        raise WiezenError(_("'{word}' is not a number of tricks (0 to 13)").format(word=shorten(word)))
    n = as_count(digits)
    if n is None or n > 13 or word.startswith("-"):
        shown = f"{'-' if word.startswith('-') else ''}{n}" if n is not None else shorten(word)
        raise WiezenError(_("{shown} tricks: a deal has 13 tricks, so tricks are 0 to 13").format(shown=shown))
    return n


def impossible_reason(d: MiserieDeal, in_play: int = 4) -> str | None:
    """Why no real deal can end with these miserie tricks: all players in play on miserie whose tricks do not
    add up to 13 (None when a deal can).

    Recording refuses such a line; ``calc`` still scores it by the rule table, whose arithmetic is defined for it
    (two scoring conformance cases are such lines), and warns.
    """
    took = sum(t for _p, t in d.plays)
    if len(d.plays) == in_play and took != 13:
        shown = " + ".join(str(t) for _p, t in d.plays)
        return _("all {n} players are on {contract}, so their tricks must add up to 13, not {took} ({shown})").format(
            n=in_play, contract=d.contract.name, took=took, shown=shown
        )
    return None


def parse_deal(
    line: str,
    rules: HouseRules,
    players: Sequence[str],
    active: Sequence[str] | None = None,
    over_troel: bool = False,
    possible: bool = True,
) -> Deal:
    """Parse a deal line against house rules and the table.

    ``players`` are the names that can be referred to (the session's players); ``active`` the four who
    play this deal (default: all of ``players``). Raises WiezenError with a one-line message.
    """
    words = line.split()
    if not words:
        raise WiezenError(_("empty deal line: expected e.g. '{example}'").format(example=deal_example(rules, players)))
    times, ot_word = 1, False
    for _i in range(2):  # 'over-troel' and 'x2' end the line, in either order
        if len(words) > 1 and times == 1:
            n = agreed_times(words[-1])
            if n is not None:
                times, words = n, words[:-1]
                continue
        if words[-1].lower() == OVER_TROEL and not ot_word:
            over_troel = ot_word = True
            words = words[:-1]
            if not words:
                raise WiezenError(_("'over-troel' follows a miserie deal line, e.g. 'open-miserie jan 0 over-troel'"))
    contract, used = find_contract(words, rules)
    args = words[used:]
    act = tuple(active) if active is not None else tuple(players)

    def player(word: str) -> str:
        p = resolve_player(word, players)
        if p not in act:
            raise SitsOut(p)
        return p

    if isinstance(contract, MiserieContract):
        if not args or len(args) % 2:
            raise WiezenError(
                _("{contract} needs PLAYER TRICKS for each player on it, e.g. '{contract} jan 0 piet 1'").format(
                    contract=contract.name
                )
            )
        plays: list[tuple[str, int]] = []
        for i in range(0, len(args), 2):
            p = player(args[i])
            if p in (q for q, _ in plays):
                raise WiezenError(_("{player} is named twice in one deal").format(player=p))
            plays.append((p, _tricks(args[i + 1])))
        took = sum(t for _p, t in plays)
        if took > 13:  # more tricks than a deal has: refused everywhere, calc too
            raise WiezenError(
                _("the players on {contract} took {took} tricks: more than 13 ({shown}; a deal has 13 tricks)").format(
                    contract=contract.name, took=took, shown=" + ".join(str(t) for _p, t in plays)
                )
            )
        md = MiserieDeal(contract, tuple(plays), over_troel, times)
        why = impossible_reason(md, len(act))
        if possible and why:
            raise WiezenError(why)
        return md

    # trick contract: [LEVEL] TAKER[+PARTNER] TRICKS
    if over_troel:
        raise WiezenError(
            _("over-troel is for a miserie bid over a troel, not for {contract}").format(contract=contract.name)
        )
    level = contract.levels[0]
    if args and is_digits(args[0]) and len(args) == 3:
        lv = as_count(args[0])
        if lv is None or lv not in contract.levels:
            raise WiezenError(
                _("{contract} has no level {level} in house rules '{rules}'; levels: {levels}").format(
                    contract=contract.name, level=shorten(args[0]) if lv is None else lv, rules=rules.name,
                    levels=", ".join(map(str, contract.levels)),
                )
            )
        level = lv
        args = args[1:]
    if len(args) != 2 or (is_digits(args[0]) and not is_digits(args[1].lstrip("-"))):  # e.g. 'samen 8 A+B'
        example = f"{contract.name} {contract.levels[0]} jan{'+piet' if contract.team else ''} 9"
        expected = (
            _("expected {contract} [LEVEL] TAKER+PARTNER TRICKS, e.g. '{example}'")
            if contract.team
            else _("expected {contract} [LEVEL] TAKER TRICKS, e.g. '{example}'")
        )
        raise WiezenError(expected.format(contract=contract.name, example=example))
    names = [n for n in args[0].split("+")]
    if any(not n for n in names):
        raise WiezenError(_("'{word}' is not a taker: write TAKER or TAKER+PARTNER").format(word=args[0]))
    takers = tuple(player(n) for n in names)
    if len(set(takers)) != len(takers):
        raise WiezenError(_("{player} is named twice in one deal").format(player=takers[0]))
    if contract.team and len(takers) != 2:
        raise WiezenError(
            _("{contract} is played by two: write TAKER+PARTNER, e.g. jan+piet").format(contract=contract.name)
        )
    if not contract.team and len(takers) != 1:
        raise WiezenError(
            _("{contract} is played alone: no partner ({takers})").format(contract=contract.name, takers="+".join(takers))
        )
    return TrickDeal(contract, level, takers, _tricks(args[1]), times)


def deal_example(rules: HouseRules, players: Sequence[str] = ("jan", "piet")) -> str:
    """A deal line these house rules take, for a hint or a placeholder: their first team contract (samen) at its
    first level, made with one overtrick, by the first two of ``players`` (``samen 8 jan+piet 9``)."""
    tricks = [c for c in rules.contracts if isinstance(c, TrickContract) and c.levels]
    chosen = next((c for c in tricks if c.team), tricks[0] if tricks else None)
    names = list(players[:2]) if len(players) >= 2 else ["jan", "piet"]
    if chosen is None:
        return f"{rules.contracts[0].name} {names[0]} 0" if rules.contracts else ""
    level = chosen.levels[0]
    takers = "+".join(names) if chosen.team else names[0]
    return f"{chosen.name} {level} {takers} {min(level + 1, 13)}"


def miserie_example(rules: HouseRules, players: Sequence[str] = ("jan",)) -> str:
    """A miserie line these house rules take (``grote-miserie jan 0``), or '' when they have no miserie."""
    found = next((c for c in rules.contracts if isinstance(c, MiserieContract) and c.tricks == 0), None)
    return f"{found.name} {players[0] if players else 'jan'} 0" if found is not None else ""
