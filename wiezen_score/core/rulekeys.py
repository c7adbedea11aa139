"""The checks of the newer house-rules keys: amounts per level, lost miseries, the pool, [redeal] dealer.

These are the keys of the second survey of variants (issue 30); core/rules.py reads them into its data. Pure: each function takes the parsed TOML values and a ``fail(message, key)`` that makes the error naming the
file's line, and gives the values as the house-rules data keeps them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from .errors import WiezenError
from .i18n import _

#: trick-contract keys that may be one number or a list with one number per level
PER_LEVEL = ("overtrick", "undertrick", "all_tricks")
#: miserie-contract keys of a lost miserie
MISERIE_LOST = ("lost", "lost_per_trick", "over_troel_lost")
REDEAL_KEYS = ("dealer",)
MULTI_MISERIE = ("alone", "split", "pool")
POOL_TIMES = 3  # the default: a miserie player wins or pays three times its amount

Fail = Callable[[str, "str | None"], WiezenError]


class Amount(Protocol):
    """core/rules.py's check of one whole number (``fail`` takes the message and gives the error)."""

    def __call__(self, v: object, key: str, fail: Callable[[str], WiezenError], minimum: int = 0) -> int: ...


PerLevel = int | tuple[int, ...]


def per_level(spec: Mapping[str, object], key: str, n_levels: int, amount: Amount, fail: Fail) -> PerLevel | None:
    """``spec[key]`` as one amount or as a list of one amount per level (None when the key is not given)."""
    if key not in spec:
        return None
    v = spec[key]
    if not isinstance(v, list):
        return amount(v, key, lambda m: fail(m, key))
    if len(v) != n_levels:
        raise fail(
            _("'{key}' as a list gives one amount per level: {levels} levels, {n} amounts").format(
                key=key, levels=n_levels, n=len(v)
            ),
            key,
        )
    return tuple(amount(x, key, lambda m: fail(m, key)) for x in v)


def miserie_lost(spec: Mapping[str, object], has_over_troel: bool, amount: Amount, fail: Fail) -> dict[str, int]:
    """``lost``, ``lost_per_trick`` and ``over_troel_lost`` of a miserie contract, those given."""
    out: dict[str, int] = {}
    for key in MISERIE_LOST:
        if key in spec:
            out[key] = amount(spec[key], key, _failing(fail, key))
    if "over_troel_lost" in out and not has_over_troel:
        raise fail(_("'over_troel_lost' is what a miserie bid over a troel costs when lost: give 'over_troel' too"),
                   "over_troel_lost")
    return out


def pool_times(data: Mapping[str, object], multi_miserie: object, amount: Amount, fail: Fail) -> int:
    """The top-level ``pool_times`` (default 3), which only a pool of miseries uses."""
    if "pool_times" not in data:
        return POOL_TIMES
    n = amount(data["pool_times"], "pool_times", lambda m: fail(m, "pool_times"), minimum=1)
    if multi_miserie != "pool":
        raise fail(_("'pool_times' is for several miseries paid into a pool: it needs multi_miserie = \"pool\""),
                   "pool_times")
    return n


def redeal_dealer(data: Mapping[str, object], fail: Callable[[str, str | None, str | None], WiezenError]) -> str:
    """``[redeal] dealer``: who deals after a redeal, "same" (the default) or "next"."""
    rd = data.get("redeal", {})
    if not isinstance(rd, dict):
        raise fail(_("'redeal' must be a table: [redeal]"), None, "redeal")
    for k in rd:
        if k not in REDEAL_KEYS:
            raise fail(_("unknown key '{key}' in [redeal] (known: dealer)").format(key=k), "redeal", k)
    dealer = rd.get("dealer", "same")
    if dealer not in ("same", "next"):
        raise fail(_("[redeal] dealer must be \"same\" or \"next\" (got {value})").format(value=repr(dealer)),
                   "redeal", "dealer")
    return str(dealer)


def _failing(fail: Fail, key: str) -> Callable[[str], WiezenError]:
    return lambda m: fail(m, key)


def at_level(v: PerLevel | None, i: int) -> int | None:
    """The amount at the level of index ``i`` of a key that may be one amount or a list."""
    if v is None or isinstance(v, int):
        return v
    return v[i]
