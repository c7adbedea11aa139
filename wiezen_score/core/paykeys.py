"""House-rules keys checked apart from the loader in rules.py: ``payment`` and ``[penalties]``.

``payment = "shared"`` (a solo or a miserie paid as one sum that the three others share: thirds, exact) and
``[penalties]`` (kinds of strafpunten with their amounts). rules.py calls these with its own ways to refuse a
value (naming the file's line), to check a name and an amount, so that this module needs nothing of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .i18n import _

PAYMENT = ("each", "shared")
#: words that mean something else in a penalty line (`penalty jan round ...`, `penalty jan deal 3 ...`)
NOT_PENALTY_KINDS = ("round", "rondje", "deal")


def payment(spec: Mapping[str, Any], team: bool, cfail: Any) -> dict[str, str]:
    """``payment`` of a contract, as keyword arguments ({} for the default, "each")."""
    if "payment" not in spec:
        return {}
    v = spec["payment"]
    if v not in PAYMENT:
        raise cfail(_("'payment' must be \"each\" or \"shared\" (got {value})").format(value=repr(v)), "payment")
    if team and v == "shared":
        raise cfail(_("'payment = \"shared\"' is for a solo or a miserie (one player against three), not for a "
                      "team contract"), "payment")
    return {} if v == "each" else {"payment": v}


def penalties(table: Any, fail: Any, is_name: Callable[[str], bool], amount: Callable[..., int],
              ) -> tuple[tuple[str, int], ...]:
    """The ``[penalties]`` table: each kind (a lowercase word) with its amount, in the order of the file."""
    if not isinstance(table, dict):
        raise fail(_("'penalties' must be a table: [penalties] with lines like renonce = 10"), None, "penalties")
    out: list[tuple[str, int]] = []
    for kind, value in table.items():
        if not is_name(kind) or kind in NOT_PENALTY_KINDS:
            raise fail(
                _("[penalties] '{kind}': a kind of penalty is a lowercase word with hyphens, e.g. renonce or "
                  "verkeerd-gegeven (not round, rondje or deal)").format(kind=kind),
                "penalties", kind,
            )
        out.append((kind, amount(value, kind, lambda m, _k=kind: fail(_("[penalties] {message}").format(message=m),
                                                                      "penalties", _k))))
    return tuple(out)
