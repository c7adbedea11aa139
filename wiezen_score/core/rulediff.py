"""What changed between two versions of house rules, in the words of the house-rules file.

Pure: takes two parsed :class:`~wiezen_score.rules.HouseRules` and lists the keys whose values differ,
named as in the TOML file (``penalty``, ``all_pass.double``, ``contracts.samen.made``), e.g.
``penalty: 5 -> 10``. Used by `wiezen rules diff A B` and for the precedent that `wiezen rules add` records
when it replaces house rules.
"""

from __future__ import annotations

from .i18n import _
from .rules import HouseRules, MiserieContract, TrickContract

__all__ = ["flatten_rules", "diff_rules"]

_TRICK_FIELDS = (
    ("team", "team"), ("aliases", "aliases"), ("levels", "levels"), ("made", "made"), ("lost", "lost"),
    ("overtrick", "overtrick"), ("overtrick_cap", "overtrick_cap"), ("promote", "promote"),
    ("undertrick", "undertrick"), ("all_tricks", "all_tricks"), ("all_tricks_times", "all_tricks_times"),
    ("doublings", "doublings"),
)  # fmt: skip
_MISERIE_FIELDS = (("aliases", "aliases"), ("miserie", "tricks"), ("points", "points"), ("over_troel", "over_troel"),
                   ("lost", "lost"), ("lost_per_trick", "lost_per_trick"), ("over_troel_lost", "over_troel_lost"))
_PAYMENT_FIELDS = (("payment", "payment"),)  # payment = "shared", of either kind of contract (issue 30)


def flatten_rules(r: HouseRules) -> dict[str, object]:
    """Every value of ``r`` under its dotted TOML key (defaults included, so a left-out key compares equal)."""
    out: dict[str, object] = {
        "description": r.description,
        "penalty": r.penalty,
        "multi_miserie": r.multi_miserie,
        "doubling": r.doubling,
        "all_pass.dealer": r.all_pass_dealer,
        "all_pass.double": r.all_pass_double,
        "pool_times": r.pool_times,
        "redeal.dealer": r.redeal_dealer,
    }
    for c in r.contracts:
        fields = _TRICK_FIELDS if isinstance(c, TrickContract) else _MISERIE_FIELDS
        for key, attr in fields + _PAYMENT_FIELDS:
            out[f"contracts.{c.name}.{key}"] = getattr(c, attr)
    return out


def _show(v: object) -> str:
    if v is None:
        return _("(none)")
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, tuple):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    return str(v)


def diff_rules(old: HouseRules, new: HouseRules) -> list[str]:
    """The differences, one ``key: old -> new`` per changed value, in file order.

    Changed values come first; then one line per contract that disappears, changes kind (tricks <-> miserie)
    or appears (``contracts.solo: added``).
    """
    out: list[str] = []
    if old.name != new.name:
        out.append(f"name: {_show(old.name)} -> {_show(new.name)}")
    a, b = flatten_rules(old), flatten_rules(new)
    old_kinds = {c.name: isinstance(c, MiserieContract) for c in old.contracts}
    new_kinds = {c.name: isinstance(c, MiserieContract) for c in new.contracts}
    for key, v in a.items():
        parts = key.split(".")
        if parts[0] == "contracts" and (parts[1] not in new_kinds or old_kinds[parts[1]] != new_kinds[parts[1]]):
            continue
        if key in b and b[key] != v:
            out.append(f"{key}: {_show(v)} -> {_show(b[key])}")
    for name in old_kinds:
        if name not in new_kinds:
            out.append(_("contracts.{name}: removed").format(name=name))
        elif old_kinds[name] != new_kinds[name]:
            out.append(
                (_("contracts.{name}: replaced by a miserie contract") if new_kinds[name]
                 else _("contracts.{name}: replaced by a trick contract")).format(name=name)
            )
    for c in new.contracts:
        if c.name not in old_kinds:
            out.append(_("contracts.{name}: added").format(name=c.name))
    out += _penalty_changes(old, new)
    return out


def _penalty_changes(old: HouseRules, new: HouseRules) -> list[str]:
    """``penalties.KIND: old -> new`` for each kind of [penalties] whose amount changed, came or went."""
    a, b = dict(old.penalties), dict(new.penalties)
    return [f"penalties.{k}: {_show(a.get(k))} -> {_show(b.get(k))}" for k in [*a, *(k for k in b if k not in a)]
            if a.get(k) != b.get(k)]
