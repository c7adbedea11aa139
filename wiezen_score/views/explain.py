"""How one entry was scored, as text: the steps of `explain` and the earlier versions of the entry."""

from __future__ import annotations

from typing import Any

from ..core.numbers import signed


def render_explain(doc: dict[str, Any]) -> str:
    """The text of `explain`: the steps, or how the entry was voided; earlier versions last."""
    from .safe import safe_tree

    doc = safe_tree(doc)  # type: ignore[assignment]
    out = [f"#{doc['no']} {doc['text']} (session {doc['session']}, {doc['rules']}; dealer {doc['dealer']})"]
    rulings = [
        f"  ruling attached: precedent {p['id']} \"{p['title']}\" (`wiezen precedent show {p['id']}`)"
        for p in doc.get("precedents", [])
    ]
    if doc["voided"]:
        last = doc["history"][-1]
        out.append(f"  voided by {last['how']}{': ' + last['reason'] if last['reason'] else ''}")
        return "\n".join(out + rulings)
    out += [f"  {step}" for step in doc["explanation"]]
    earlier = [h for h in doc["history"] if h["voided"]]
    if earlier:
        out.append("  earlier versions: " + "; ".join(_version(h, doc) for h in earlier))
    return "\n".join(out + rulings)


def _version(h: dict[str, Any], doc: dict[str, Any]) -> str:
    """An earlier version of an entry, with what made it differ when its line is the same as now's."""
    why = h["how"] or ""
    if h.get("reason") and h["reason"].startswith("re-scored"):
        why = h["reason"]
    if h["text"] != doc["text"] or "dealer" not in h:
        return f"{h['text']} ({why})"
    diffs = []
    if h["dealer"] != doc["dealer"]:
        diffs.append(f"dealt by {h['dealer']}")
    if h["multiplier"] != doc["multiplier"]:
        diffs.append(f"x{h['multiplier']}")
    if h["points"] != doc["points"]:
        diffs.append(", ".join(f"{p} {signed(v)}" for p, v in h["points"].items()))
    return f"{h['text']}{' (' + '; '.join(diffs) + ')' if diffs else ''} ({why})"
