"""House rules as immutable data, the validating TOML loader, and the canonical TOML writer.

Pure: parsing takes text, never a path. The built-in presets live as TOML files in
``wiezen_score/presets/`` and are read through :func:`preset_text` (package data, no user I/O).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import WiezenError
from .i18n import NP_, _, pgettext

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
#: tests/test_i18n_rest.py fails when a preset's description is not listed here
PRESET_DESCRIPTIONS: tuple[str, ...] = (
    NP_("house rules", "Kleurenwiezen as played on Whisthub (source 002)"),
    NP_("house rules", "Huisregels van Hemiksem en de Rupelstreek (source 000)"),
    NP_("house rules", "Wikibooks Wiezen, column 'puntenverdeling wiezen' (source 001)"),
    NP_("house rules", "Wikibooks Wiezen, column 'puntenverdeling kleurenwiezen' (source 001)"),
    NP_("house rules", "IWWA tournament table as implemented by score apps (provisional: the federation's own text "
                       "was not at hand)"),
)
#: how several miseries of one deal are settled, and how doublings combine, as a summary says them
_MULTI_MISERIE_WORDS = {"alone": NP_("several miseries", "alone"), "split": NP_("several miseries", "split")}
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
    overtrick: int = 0
    overtrick_cap: int | None = None
    promote: bool = False
    undertrick: int = 0
    all_tricks: int | None = None
    all_tricks_times: int | None = None
    doublings: int = 0  # the contract's own doublings (troel counted as a doubled samen: 1)

    @property
    def is_miserie(self) -> bool:
        return False

    def amounts(self, level: int) -> tuple[int, int]:
        i = self.levels.index(level)
        return self.made[i], self.lost[i]


@dataclass(frozen=True, slots=True)
class MiserieContract:
    """A no-trump contract played alone for an exact number of tricks (miseries, piccolo)."""

    name: str
    tricks: int  # what the player must take: 0 for miserie, 1 for piccolo
    points: int
    aliases: tuple[str, ...] = ()
    over_troel: int | None = None

    @property
    def is_miserie(self) -> bool:
        return True


Contract = TrickContract | MiserieContract


@dataclass(frozen=True, slots=True)
class HouseRules:
    name: str
    contracts: tuple[Contract, ...]
    description: str = ""
    penalty: int = 5
    multi_miserie: str = "alone"  # "alone" | "split"
    all_pass_dealer: str = "same"  # "same" | "next"
    all_pass_double: str = "none"  # "none" | "once" | "stack" | "queue"
    doubling: str = "multiply"  # how several doublings of one deal combine: "multiply" | "add"
    # every name and alias -> its contract, made from the contracts
    _index: Mapping[str, Contract] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, Contract] = {}
        for c in self.contracts:
            for word in (c.name, *c.aliases):
                index[word] = c
        object.__setattr__(self, "_index", index)

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


_TOP_KEYS = {"name", "description", "penalty", "multi_miserie", "doubling", "all_pass", "contracts"}
_ALL_PASS_KEYS = {"dealer", "double"}
_TRICK_KEYS = {
    "team", "aliases", "levels", "made", "lost", "overtrick", "overtrick_cap", "promote",
    "undertrick", "all_tricks", "all_tricks_times", "doublings",
}
ALL_PASS_DOUBLE = ("none", "once", "stack", "queue")
DOUBLING = ("multiply", "add")
_MISERIE_KEYS = {"aliases", "miserie", "points", "over_troel"}


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
    if mm not in ("alone", "split"):
        raise fail(_("'multi_miserie' must be \"alone\" or \"split\""), None, "multi_miserie")
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
    return HouseRules(
        name=name,
        description=description,
        penalty=penalty,
        multi_miserie=mm,
        all_pass_dealer=dealer,
        all_pass_double=double,
        doubling=doubling,
        contracts=tuple(contracts),
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
        return MiserieContract(name=cname, tricks=tricks, points=points, aliases=tuple(aliases), over_troel=ot)
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
    for key in ("overtrick", "undertrick"):
        if key in spec:
            opts[key] = _amount(spec[key], key, lambda m, _k=key: cfail(m, _k))
    if "overtrick_cap" in spec:
        cap = _amount(spec["overtrick_cap"], "overtrick_cap", lambda m: cfail(m, "overtrick_cap"))
        if not levels[0] <= cap <= 13:
            raise cfail(_("'overtrick_cap' must be between {lowest} and 13").format(lowest=levels[0]), "overtrick_cap")
        opts["overtrick_cap"] = cap
    if "promote" in spec:
        if not isinstance(spec["promote"], bool):
            raise cfail(_("'promote' must be true or false"), "promote")
        opts["promote"] = spec["promote"]
        if spec["promote"] and spec.get("overtrick"):
            raise cfail(_("'promote' replaces overtrick points: give one or the other"), "promote")
    if "all_tricks" in spec and "all_tricks_times" in spec:
        raise cfail(_("give 'all_tricks' or 'all_tricks_times', not both"), "all_tricks_times")
    if "all_tricks" in spec:
        opts["all_tricks"] = _amount(spec["all_tricks"], "all_tricks", lambda m: cfail(m, "all_tricks"))
    if "all_tricks_times" in spec:
        opts["all_tricks_times"] = _amount(
            spec["all_tricks_times"], "all_tricks_times", lambda m: cfail(m, "all_tricks_times"), minimum=1
        )
    if "doublings" in spec:
        n = _amount(spec["doublings"], "doublings", lambda m: cfail(m, "doublings"))
        if n > 4:
            raise cfail(_("'doublings' is how often the contract counts double, 0 to 4 (got {value})").format(value=n), "doublings")
        opts["doublings"] = n
    return TrickContract(
        name=cname, team=team, levels=levels, made=lists["made"], lost=lists["lost"], aliases=tuple(aliases), **opts
    )


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
                    out.append(f"{key} = {v}")
            if c.promote:
                out.append("promote = true")
        else:
            if c.aliases:
                out.append(f"aliases = {_toml_list(c.aliases)}")
            out += [f"miserie = {c.tricks}", f"points = {c.points}"]
            if c.over_troel is not None:
                out.append(f"over_troel = {c.over_troel}")
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
    return out
