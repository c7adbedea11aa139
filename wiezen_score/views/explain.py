"""How one entry was scored, as text: the steps of `explain` and the earlier versions of the entry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.i18n import N_, _
from ..core.numbers import signed

if TYPE_CHECKING:
    from ..core.documents import ExplainDoc, ExplainVersion

#: how an entry was voided, as the ledger stores it (English words), and as a person reads it
_HOW = {"undo": N_("undo"), "amend": N_("amend")}


def _how(how: str | None) -> str:
    return _(_HOW[how]) if how in _HOW else how or ""


def _reason(reason: str) -> str:
    """A stored reason as shown: the one the ledger writes itself (re-scored after an amendment) in the reader's
    language, a player's own reason as typed."""
    head = "re-scored after the amendment of entry "
    if reason.startswith(head) and reason[len(head):].isdigit():
        return _("re-scored after the amendment of entry {no}").format(no=reason[len(head):])
    return reason


def render_explain(doc: ExplainDoc) -> str:
    """The text of `explain`: the steps, or how the entry was voided; earlier versions last."""
    from .fit import entry_words
    from .safe import safe_tree

    doc = safe_tree(doc)
    out = [_("#{no} {entry} (session {session}, {rules}; dealer {dealer})").format(
        no=doc["no"], entry=entry_words(doc), session=doc["session"], rules=doc["rules"], dealer=doc["dealer"]
    )]
    rulings = [
        _("  ruling attached: precedent {id} \"{title}\" (`wiezen precedent show {id}`)").format(id=p["id"], title=p["title"])
        for p in doc.get("precedents", [])
    ]
    if doc["voided"]:
        last = doc["history"][-1]
        out.append(
            (_("  voided by {how}: {reason}") if last["reason"] else _("  voided by {how}")).format(
                how=_how(last["how"]), reason=_reason(last["reason"])
            )
        )
        return "\n".join(out + rulings)
    out += [f"  {step}" for step in doc["explanation"]]
    if "totals_before" in doc:
        out.append(_("  totals before: {before}").format(before=", ".join(f"{p} {signed(v)}" for p, v in doc["totals_before"].items())))
        out.append(_("  totals after:  {after}").format(after=", ".join(f"{p} {signed(v)}" for p, v in doc["totals_after"].items())))
    earlier = [h for h in doc["history"] if h["voided"]]
    if earlier:
        out.append(_("  earlier versions: {versions}").format(versions="; ".join(_version(h, doc) for h in earlier)))
    return "\n".join(out + rulings)


def _version(h: ExplainVersion, doc: ExplainDoc) -> str:
    """An earlier version of an entry, with what made it differ when its line is the same as now's."""
    why = _how(h["how"])
    if h.get("reason") and h["reason"].startswith("re-scored"):
        why = _reason(h["reason"])
    if h["text"] != doc["text"] or "dealer" not in h:
        return f"{h['text']} ({why})"
    diffs = []
    if h["dealer"] != doc["dealer"]:
        diffs.append(_("dealt by {player}").format(player=h["dealer"]))
    if h["multiplier"] != doc["multiplier"]:
        diffs.append(f"x{h['multiplier']}")
    if h["points"] != doc["points"]:
        diffs.append(", ".join(f"{p} {signed(v)}" for p, v in h["points"].items()))
    return f"{h['text']}{' (' + '; '.join(diffs) + ')' if diffs else ''} ({why})"
