"""House rules as immutable data, the validating TOML loader, and the canonical TOML writer.

Pure: parsing takes text, never a path. The built-in presets live as TOML files in
``wiezen_score/presets/`` and are read through :func:`preset_text` (package data, no user I/O).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from . import paykeys
from .errors import WiezenError
from .i18n import NP_, _, pgettext
from .rulekeys import MULTI_MISERIE, POOL_TIMES, PerLevel, at_level, miserie_lost, per_level, pool_times, redeal_dealer

PRESETS: tuple[str, ...] = (
    "whisthub",
    "rupelstreek",
    "wikibooks-wiezen",
    "wikibooks-kleurenwiezen",
    "iwwa",
)
DEFAULT_RULES = "whisthub"

#: the presets' descriptions (English text in their TOML files), marked for the catalogue: a summary shows a
#: description in the language spoken when the catalogue has it (house rules a club adds keep their own text);
#: tests/cli/test_dutch_penalty_redeal_files.py fails when a preset's description is not listed here
PRESET_DESCRIPTIONS: tuple[str, ...] = (
    NP_("house rules", "Kleurenwiezen as played on Whisthub (source 002)"),
    NP_("house rules", "Huisregels van Hemiksem en de Rupelstreek (source 000)"),
    NP_("house rules", "Wikibooks Wiezen, column 'puntenverdeling wiezen' (source 001)"),
    NP_("house rules", "Wikibooks Wiezen, column 'puntenverdeling kleurenwiezen' (source 001)"),
    NP_("house rules", "IWWA tournament table as implemented by score apps (provisional: the federation's own text "
                       "was not at hand)"),
)
#: how several miseries of one deal are settled, and how doublings combine, as a summary says them
_MULTI_MISERIE_WORDS = {"alone": NP_("several miseries", "alone"), "split": NP_("several miseries", "split"),
                        "pool": NP_("several miseries", "pool")}
_DOUBLING_WORDS = {"multiply": NP_("doublings", "multiply"), "add": NP_("doublings", "add")}

_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


def _is_name(s: str) -> bool:
    """A lowercase word of letters, digits and hyphens, starting with a letter: as re.match(r"^[a-z][a-z0-9-]*$")
    (whose $ also takes one newline at the very end), without compiling a pattern on the path of every deal."""
    if s.endswith("\n"):
        s = s[:-1]
    return bool(s) and "a" <= s[0] <= "z" and _NAME_CHARS.issuperset(s)


@dataclass(frozen=True, slots=True)
class TrickContract:
    """A contract played for a number of tricks (samen, alleen, abondance, troel, solo ...)."""

    name: str
    team: bool
    levels: tuple[int, ...]
    made: tuple[int, ...]
    lost: tuple[int, ...]
    aliases: tuple[str, ...] = ()
    overtrick: PerLevel = 0  # one amount, or one per level (as undertrick and all_tricks)
    overtrick_cap: int | None = None
    promote: bool = False
    undertrick: PerLevel = 0
    all_tricks: PerLevel | None = None  # in a list, 0: no all-tricks amount at that level
    all_tricks_times: int | None = None
    doublings: int = 0  # the contract's own doublings (troel counted as a doubled samen: 1)
    payment: str = "each"  # a solo: "each" (3x to the taker, x from each defender) or "shared" (x, x/3 each)

    @property
    def is_miserie(self) -> bool:
        return False

    def amounts(self, level: int) -> tuple[int, int]:
        i = self.levels.index(level)
        return self.made[i], self.lost[i]

    def overtrick_at(self, level: int) -> int:
        return at_level(self.overtrick, self.levels.index(level)) or 0

    def undertrick_at(self, level: int) -> int:
        return at_level(self.undertrick, self.levels.index(level)) or 0

    def all_tricks_at(self, level: int) -> int | None:
        """The fixed amount for all 13 tricks at ``level``, or None (none given, or 0 in a list)."""
        v = at_level(self.all_tricks, self.levels.index(level))
        return None if v is None or (v == 0 and isinstance(self.all_tricks, tuple)) else v


@dataclass(frozen=True, slots=True)
class MiserieContract:
    """A no-trump contract played alone for an exact number of tricks (miseries, piccolo)."""

    name: str
    tricks: int  # what the player must take: 0 for miserie, 1 for piccolo
    points: int
    aliases: tuple[str, ...] = ()
    over_troel: int | None = None
    # a lost miserie's own amount (default: points), what each further trick adds, and over a troel
    lost: int | None = None
    lost_per_trick: int = 0
    over_troel_lost: int | None = None
    payment: str = "each"  # "each" (3x to the player, x from each other) or "shared" (x, x/3 from each other)

    @property
    def is_miserie(self) -> bool:
        return True

    def lost_amount(self, tricks: int, over_troel: bool = False) -> int:
        """What the miserie costs (per player) when lost with ``tricks``: its lost amount (over a troel:
        over_troel_lost, else over_troel), and lost_per_trick for each trick further from what it allows."""
        if over_troel and self.over_troel is not None:
            base = self.over_troel_lost if self.over_troel_lost is not None else self.over_troel
        else:
            base = self.lost if self.lost is not None else self.points
        return base + self.lost_per_trick * (abs(tricks - self.tricks) - 1)


Contract = TrickContract | MiserieContract


@dataclass(frozen=True, slots=True)
class HouseRules:
    name: str
    contracts: tuple[Contract, ...]
    description: str = ""
    penalty: int = 5
    multi_miserie: str = "alone"  # "alone" | "split" | "pool"
    all_pass_dealer: str = "same"  # "same" | "next"
    all_pass_double: str = "none"  # "none" | "once" | "stack" | "queue"
    doubling: str = "multiply"  # how several doublings of one deal combine: "multiply" | "add"
    pool_times: int = POOL_TIMES  # multi_miserie = "pool": a miserie player's amount times this
    redeal_dealer: str = "same"  # who deals after a redeal: "same" | "next"
    penalties: tuple[tuple[str, int], ...] = ()  # [penalties]: the kinds of strafpunten and their amounts, in order
    # every name and alias -> its contract, made from the contracts
    _index: Mapping[str, Contract] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, Contract] = {}
        for c in self.contracts:
            for word in (c.name, *c.aliases):
                index[word] = c
        object.__setattr__(self, "_index", index)

    def penalty_amount(self, kind: str) -> int:
        """What a penalty of ``kind`` costs the offender per other player ("": the top-level ``penalty``)."""
        return dict(self.penalties)[kind] if kind else self.penalty

    def penalty_kind(self, word: str) -> str | None:
        """The kind of penalty ``word`` names in ``[penalties]`` (case and '_' aside), or None."""
        w = normalize_word(word)
        return w if w in dict(self.penalties) else None

    def contract_names(self) -> list[str]:
        return [c.name for c in self.contracts]

    def find(self, word: str) -> Contract | None:
        return self._index.get(normalize_word(word))

    def contract(self, word: str) -> Contract:
        c = self.find(word)
        if c is None:
            raise WiezenError(
                _("house rules '{rules}' have no contract '{word}'; they have: {contracts}").format(
                    rules=self.name, word=word, contracts=", ".join(self.contract_names())
                )
            )
        return c


def normalize_word(word: str) -> str:
    return word.strip().lower().replace("_", "-")


# ---------------------------------------------------------------------------
# Loading


_TOP_KEYS = {"name", "description", "penalty", "multi_miserie", "doubling", "all_pass", "contracts",
             "pool_times", "redeal"}
_ALL_PASS_KEYS = {"dealer", "double"}
_TRICK_KEYS = {
    "team", "aliases", "levels", "made", "lost", "overtrick", "overtrick_cap", "promote",
    "undertrick", "all_tricks", "all_tricks_times", "doublings",
}
ALL_PASS_DOUBLE = ("none", "once", "stack", "queue")
DOUBLING = ("multiply", "add")
_MISERIE_KEYS = {"aliases", "miserie", "points", "over_troel", "lost", "lost_per_trick", "over_troel_lost"}


class _Lines:
    """Finds the line of a key in the source text, so that errors can name it."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()

    def of(self, section: str | None, key: str | None = None) -> int | None:
        current: str | None = None
        header_line: int | None = None
        for no, raw in enumerate(self.lines, 1):
            line = raw.split("#", 1)[0].strip()
            m = re.match(r"^\[\s*([^\]]+?)\s*\]$", line)
            if m:
                current = m.group(1).replace('"', "").replace(" ", "")
                if current == section:
                    header_line = no
                    if key is None:
                        return no
                continue
            if current == section and key is not None:
                k = line.split("=", 1)[0].strip().strip('"')
                if "=" in line and k == key:
                    return no
        return header_line


def _where(lines: _Lines, section: str | None, key: str | None = None) -> str:
    no = lines.of(section, key)
    return _("line {no}: ").format(no=no) if no else ""


def load_toml(text: str, source: str = "house rules") -> dict[str, Any]:
    """TOML text as a dict (tomllib, or tomli on Python 3.10); a syntax error is a WiezenError."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise WiezenError(_("{source} is not valid TOML: {why}").format(source=source, why=e)) from None
    except RecursionError:
        raise WiezenError(
            _("{source} is not usable house rules: its tables or lists are nested too deeply").format(source=source)
        ) from None
    except ValueError as e:  # e.g. a number of thousands of digits (Python's int limit)
        raise WiezenError(
            _("{source} is not usable house rules: a number in it is far too long ({why})").format(source=source, why=e)
        ) from None


def parse_rules(text: str, source: str = "house rules") -> HouseRules:
    """Parse and validate a house-rules TOML text. Raises WiezenError naming the problem and line."""
    return rules_from_dict(load_toml(text, source), source, _Lines(text))


def rules_from_dict(data: Mapping[str, Any], source: str = "house rules", lines: _Lines | None = None) -> HouseRules:
    lines = lines or _Lines("")

    def fail(msg: str, section: str | None = None, key: str | None = None) -> WiezenError:
        return WiezenError(f"{source}: {_where(lines, section, key)}{msg}")

    for k in data:
        if k not in _TOP_KEYS:
            raise fail(_("unknown key '{key}' (known: {keys})").format(key=k, keys=", ".join(sorted(_TOP_KEYS))), None, k)
    name = data.get("name")
    if not isinstance(name, str) or not _is_name(name):
        raise fail(_("'name' must be a lowercase word (letters, digits, hyphens), e.g. name = \"my-club\""), None, "name")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise fail(_("'description' must be text"), None, "description")
    penalty = _amount(data.get("penalty", 5), "penalty", lambda m: fail(m, None, "penalty"))
    mm = data.get("multi_miserie", "alone")
    if mm not in MULTI_MISERIE:
        raise fail(_("'multi_miserie' must be \"alone\", \"split\" or \"pool\""), None, "multi_miserie")
    times = pool_times(data, mm, _amount, lambda m, k: fail(m, None, k))
    ap = data.get("all_pass", {})
    if not isinstance(ap, dict):
        raise fail(_("'all_pass' must be a table: [all_pass]"), None, "all_pass")
    for k in ap:
        if k not in _ALL_PASS_KEYS:
            raise fail(_("unknown key '{key}' in [all_pass] (known: dealer, double)").format(key=k), "all_pass", k)
    dealer = ap.get("dealer", "same")
    if dealer not in ("same", "next"):
        raise fail(_("[all_pass] dealer must be \"same\" or \"next\""), "all_pass", "dealer")
    double = ap.get("double", "none")
    if double not in ALL_PASS_DOUBLE:
        raise fail(_("[all_pass] double must be \"none\", \"once\", \"stack\" or \"queue\" (got {value})").format(value=repr(double)),
                   "all_pass", "double")
    redeal = redeal_dealer(data, fail)
    doubling = data.get("doubling", "multiply")
    if doubling not in DOUBLING:
        raise fail(_("'doubling' must be \"multiply\" or \"add\" (got {value})").format(value=repr(doubling)), None, "doubling")
    cdata = data.get("contracts")
    if not isinstance(cdata, dict) or not cdata:
        raise fail(_("no contracts: add at least one [contracts.NAME] table"))
    contracts: list[Contract] = []
    seen: dict[str, str] = {}
    for cname, spec in cdata.items():
        section = f"contracts.{cname}"

        def cfail(msg: str, key: str | None = None, _s: str = section, _c: str = cname) -> WiezenError:
            return fail(_("contract '{contract}': {message}").format(contract=_c, message=msg), _s, key)

        if not _is_name(cname):
            raise cfail(_("a contract name is a lowercase word with hyphens, e.g. grote-miserie"))
        if not isinstance(spec, dict):
            raise cfail(_("must be a table"))
        c = _contract(cname, spec, cfail)
        if doubling == "add" and isinstance(c, TrickContract) and c.all_tricks_times not in (None, 2):
            raise cfail(
                _("with doubling = \"add\", all 13 tricks is one doubling: 'all_tricks_times' must be 2 "
                  "(got {value}); for a fixed amount write all_tricks = N").format(value=c.all_tricks_times),
                "all_tricks_times",
            )
        for word in (c.name, *c.aliases):
            if word in seen:
                raise cfail(_("'{word}' is already used by contract '{contract}'").format(word=word, contract=seen[word]), "aliases")
            seen[word] = c.name
        contracts.append(c)
    penalties = paykeys.penalties(data.get("penalties", {}), fail, _is_name, _amount)
    return HouseRules(
        name=name,
        description=description,
        penalty=penalty,
        multi_miserie=mm,
        all_pass_dealer=dealer,
        all_pass_double=double,
        doubling=doubling,
        contracts=tuple(contracts),
        pool_times=times,
        redeal_dealer=redeal,
        penalties=penalties,
    )


MAX_AMOUNT = 10_000  # points, tricks or levels in a house-rules file: anything larger is a typing error


def _amount(v: object, key: str, fail: Callable[..., WiezenError], minimum: int = 0) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise fail(_("'{key}' must be a whole number").format(key=key))
    if v < minimum:
        raise fail(
            (_("'{key}' must not be negative (got {value})") if minimum == 0
             else _("'{key}' must not be below {minimum} (got {value})")).format(key=key, minimum=minimum, value=v)
        )
    if v > MAX_AMOUNT:
        raise fail(_("'{key}' must be at most {most} (got {value})").format(key=key, most=MAX_AMOUNT, value=v))
    return v


def _contract(cname: str, spec: Mapping[str, Any], cfail: Callable[..., WiezenError]) -> Contract:
    aliases = spec.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and _is_name(a) for a in aliases):
        raise cfail(_("'aliases' must be a list of lowercase words"), "aliases")
    has_levels = "levels" in spec
    has_miserie = "miserie" in spec
    if has_levels and has_miserie:
        raise cfail(_("has both 'levels' and 'miserie': a contract is either played for tricks or a miserie"))
    if not has_levels and not has_miserie:
        raise cfail(_("has neither 'levels' nor 'miserie'"))
    if has_miserie:
        for k in spec:
            if k not in _MISERIE_KEYS:
                raise cfail(
                    _("unknown key '{key}' for a miserie contract (known: {keys})").format(
                        key=k, keys=", ".join(sorted(_MISERIE_KEYS))
                    ),
                    k,
                )
        tricks = _amount(spec["miserie"], "miserie", lambda m: cfail(m, "miserie"))
        if tricks > 13:
            raise cfail(_("'miserie' is the number of tricks to take, 0 to 13"), "miserie")
        if "points" not in spec:
            raise cfail(_("missing 'points'"))
        points = _amount(spec["points"], "points", lambda m: cfail(m, "points"))
        ot = spec.get("over_troel")
        if ot is not None:
            ot = _amount(ot, "over_troel", lambda m: cfail(m, "over_troel"))
        lost = miserie_lost(spec, ot is not None, _amount, cfail)
        pay = paykeys.payment(spec, False, cfail).get("payment", "each")
        return MiserieContract(name=cname, tricks=tricks, points=points, aliases=tuple(aliases), over_troel=ot,
                               payment=pay, **lost)
    for k in spec:
        if k not in _TRICK_KEYS:
            raise cfail(_("unknown key '{key}' (known: {keys})").format(key=k, keys=", ".join(sorted(_TRICK_KEYS))), k)
    team = spec.get("team", False)
    if not isinstance(team, bool):
        raise cfail(_("'team' must be true or false"), "team")
    lists: dict[str, tuple[int, ...]] = {}
    for key in ("levels", "made", "lost"):
        if key not in spec:
            raise cfail(_("missing '{key}' (one amount per level)").format(key=key))
        v = spec[key]
        if not isinstance(v, list) or not v:
            raise cfail(_("'{key}' must be a non-empty list of whole numbers").format(key=key), key)
        lists[key] = tuple(_amount(x, key, lambda m, _k=key: cfail(m, _k)) for x in v)
    levels = lists["levels"]
    if len(lists["made"]) != len(levels) or len(lists["lost"]) != len(levels):
        raise cfail(
            _("'levels', 'made' and 'lost' must have the same length (got {levels}, {made}, {lost})").format(
                levels=len(levels), made=len(lists["made"]), lost=len(lists["lost"])
            ),
            "made" if len(lists["made"]) != len(levels) else "lost",
        )
    if any(not 1 <= lv <= 13 for lv in levels) or list(levels) != sorted(set(levels)):
        raise cfail(_("'levels' must be increasing numbers of tricks from 1 to 13"), "levels")
    opts: dict[str, Any] = {}
    for key in ("overtrick", "undertrick", "all_tricks"):  # one amount, or a list of one per level
        if key in spec:
            opts[key] = per_level(spec, key, len(levels), _amount, cfail)
    if "overtrick_cap" in spec:
        cap = _amount(spec["overtrick_cap"], "overtrick_cap", lambda m: cfail(m, "overtrick_cap"))
        if not levels[0] <= cap <= 13:
            raise cfail(_("'overtrick_cap' must be between {lowest} and 13").format(lowest=levels[0]), "overtrick_cap")
        opts["overtrick_cap"] = cap
    if "promote" in spec:
        if not isinstance(spec["promote"], bool):
            raise cfail(_("'promote' must be true or false"), "promote")
        opts["promote"] = spec["promote"]
        if spec["promote"] and any(at_level(opts.get("overtrick", 0), i) for i in range(len(levels))):
            raise cfail(_("'promote' replaces overtrick points: give one or the other"), "promote")
    if "all_tricks" in spec and "all_tricks_times" in spec:
        raise cfail(_("give 'all_tricks' or 'all_tricks_times', not both"), "all_tricks_times")
    if "all_tricks_times" in spec:
        opts["all_tricks_times"] = _amount(
            spec["all_tricks_times"], "all_tricks_times", lambda m: cfail(m, "all_tricks_times"), minimum=1
        )
    if "doublings" in spec:
        n = _amount(spec["doublings"], "doublings", lambda m: cfail(m, "doublings"))
        if n > 4:
            raise cfail(_("'doublings' is how often the contract counts double, 0 to 4 (got {value})").format(value=n), "doublings")
        opts["doublings"] = n
    opts.update(paykeys.payment(spec, team, cfail))
    return TrickContract(
        name=cname, team=team, levels=levels, made=lists["made"], lost=lists["lost"], aliases=tuple(aliases), **opts
    )


# Keys of issue 30, checked in core/paykeys.py: payment = "shared" (a solo or a miserie paid as one sum that the
# defenders share) and [penalties] (kinds of strafpunten and their amounts)

_TRICK_KEYS.add("payment")
_MISERIE_KEYS.add("payment")
_TOP_KEYS.add("penalties")


# ---------------------------------------------------------------------------
# Writing


def _toml_str(s: str) -> str:
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    out = "".join(c if (c >= " " and c != "\x7f") or c == "\t" else f"\\u{ord(c):04x}" for c in out)
    return f'"{out}"'


def _toml_list(xs: tuple[object, ...]) -> str:
    return "[" + ", ".join(_toml_str(x) if isinstance(x, str) else str(x) for x in xs) + "]"


def to_toml(rules: HouseRules) -> str:
    """The canonical house-rules file for ``rules``; ``parse_rules(to_toml(r)) == r``."""
    out = [
        f"name = {_toml_str(rules.name)}",
        f"description = {_toml_str(rules.description)}",
        f"penalty = {rules.penalty}",
        f"multi_miserie = {_toml_str(rules.multi_miserie)}",
        f"doubling = {_toml_str(rules.doubling)}",
        "",
        "[all_pass]",
        f"dealer = {_toml_str(rules.all_pass_dealer)}",
        f"double = {_toml_str(rules.all_pass_double)}",
    ]
    # the keys of issue 30, written only when they differ from their defaults (files from before stay as they were)
    if rules.pool_times != POOL_TIMES:
        out.insert(5, f"pool_times = {rules.pool_times}")
    if rules.redeal_dealer != "same":
        out += ["", "[redeal]", f"dealer = {_toml_str(rules.redeal_dealer)}"]
    for c in rules.contracts:
        out += ["", f"[contracts.{c.name}]"]
        if isinstance(c, TrickContract):
            if c.team:
                out.append("team = true")
            if c.aliases:
                out.append(f"aliases = {_toml_list(c.aliases)}")
            out += [f"levels = {_toml_list(c.levels)}", f"made = {_toml_list(c.made)}", f"lost = {_toml_list(c.lost)}"]
            for key in ("overtrick", "overtrick_cap", "undertrick", "all_tricks", "all_tricks_times", "doublings"):
                v = getattr(c, key)
                if v is not None and not (key in ("overtrick", "undertrick", "doublings") and v == 0):
                    out.append(f"{key} = {_toml_list(v) if isinstance(v, tuple) else v}")
            if c.promote:
                out.append("promote = true")
            if c.payment != "each":
                out.append(f"payment = {_toml_str(c.payment)}")
        else:
            if c.aliases:
                out.append(f"aliases = {_toml_list(c.aliases)}")
            out += [f"miserie = {c.tricks}", f"points = {c.points}"]
            if c.over_troel is not None:
                out.append(f"over_troel = {c.over_troel}")
            out += [f"{key} = {v}" for key in ("lost", "lost_per_trick", "over_troel_lost")
                    if (v := getattr(c, key)) is not None and not (key == "lost_per_trick" and v == 0)]
            if c.payment != "each":
                out.append(f"payment = {_toml_str(c.payment)}")
    if rules.penalties:  # (house rules without kinds write the file they always wrote)
        out += ["", "[penalties]", *(f"{kind} = {amount}" for kind, amount in rules.penalties)]
    return "\n".join(out) + "\n"


def summary(rules: HouseRules) -> str:
    """One line saying what sets these house rules apart."""
    dealer = {"same": _("same dealer"), "next": _("next dealer")}[rules.all_pass_dealer]
    double = {
        "none": _("no doubling"),
        "once": _("next deal x2"),
        "stack": _("each one doubles again"),
        "queue": _("each one doubles one later deal"),
    }[rules.all_pass_double]
    description = pgettext("house rules", rules.description) if rules.description in PRESET_DESCRIPTIONS else rules.description
    miseries = _MULTI_MISERIE_WORDS.get(rules.multi_miserie)
    out = _("{description}; rondje pas: {dealer}, {double}; several miseries: {miseries}").format(
        description=description, dealer=dealer, double=double,
        miseries=pgettext("several miseries", miseries) if miseries else rules.multi_miserie,
    )
    if rules.doubling != "multiply":
        how = _DOUBLING_WORDS.get(rules.doubling)
        out += _("; doublings {how}").format(how=pgettext("doublings", how) if how else rules.doubling)
    if rules.multi_miserie == "pool" and rules.pool_times != POOL_TIMES:
        out += _(" (each x{n})").format(n=rules.pool_times)
    if rules.redeal_dealer != "same":
        out += _("; redeal: next dealer")
    if rules.penalties:
        out += _("; penalties: {kinds}").format(kinds=", ".join(f"{k} {v}" for k, v in rules.penalties))
    shared = [c.name for c in rules.contracts if c.payment == "shared"]
    if shared:
        out += _("; paid as one sum: {contracts}").format(contracts=", ".join(shared))
    return out
