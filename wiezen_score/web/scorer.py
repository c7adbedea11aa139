"""The scorer's form: one line from the phone, through the table's service as `wiezen play` takes it; the answer.

The form sends ``action`` (entry, pass, redeal, undo), ``line`` (what is typed), and for the yes to a question
``confirm=1`` with the question's ``expect``. The answer is the JSON document the page's script reads:
``{"ok": true, "message": ...}``, ``{"ok": false, "error": "Error: ..."}``, or a question
``{"ok": false, "question": ..., "declined": ..., "expect": N}`` that the same form answers with confirm=1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from ..core.errors import WiezenError
from ..core.i18n import _
from ..service.table import Ended, NextSession, Table

__all__ = ["ACTIONS", "FormAnswer", "Payment", "Scorer", "ended", "form_line"]

#: the form's buttons, and the line each stands for (the typed words after it)
ACTIONS = {"entry": "", "pass": "pas", "redeal": "redeal", "undo": "undo"}


class _Answered(TypedDict):
    ok: bool


class Payment(TypedDict, total=False):
    payer: str
    payee: str
    points: int | float
    cents: int


class FormAnswer(_Answered, total=False):
    """The JSON answer to the scorer's form (the page's script reads it; ``nonce`` is added when sent)."""

    message: str
    error: str
    question: str
    declined: str
    expect: int
    ask: str  # what the question is about: 'end' (the page asks the cents a point with it), else the line's head
    undo: int  # a rondje pas or redeal just recorded: the row the page's 'take back' button undoes
    repeat: bool  # the same form came again (the phone retried): answered as before, nothing recorded twice
    session: int  # `end`: the session, its seal, the totals and the payments (at ``cents`` a point)
    seal: str
    totals: dict[str, int | float]
    payments: list[Payment]
    paid: list[str]  # the payments as the prompt's `settle` says them
    cents: int


def form_line(action: str, line: str) -> str:
    """The line the form's ``action`` and typed ``line`` stand for, as the prompt would take it."""
    if action not in ACTIONS:
        raise WiezenError(_("unknown action '{action}': one of {actions}").format(action=action, actions=", ".join(ACTIONS)))
    if action == "entry":
        if not line.split():
            raise WiezenError(_("type or tap a deal line first, e.g. 'samen 8 jan+piet 9'"))
        return line
    if action == "pass":
        return ACTIONS[action]  # the button records a rondje pas, whatever is typed
    return f"{ACTIONS[action]} {line.strip()}".strip()


@dataclass
class Scorer:
    """The scorer's side of one server: the ledger's path, the session the page shows (None: the open one), and
    the settings typed before `players` (kept from one form to the next, as the prompt keeps them)."""

    path: str
    session_id: int | None = None
    table: int | str | None = None  # a club night's table: the link records only there, round after round
    upcoming: NextSession = field(default_factory=NextSession)

    def answer(self, action: str, line: str, confirm: bool = False, expect: int | None = None,
               cents: int | None = None, nonce: str = "") -> FormAnswer:
        """Act on one form, on a connection of its own (one form at a time: the server holds a lock). ``cents``: what
        a point is worth in the payments `end` answers with; ``nonce``: the form's, which makes the uid of the entry
        it records (the same form again finds it, after a restart of the server too)."""
        try:
            return self._answer(form_line(action, line), confirm, expect, cents, entry_uid(nonce))
        except WiezenError as e:
            return {"ok": False, "error": _("Error: {message}").format(message=e)}

    def preview(self, line: str) -> dict[str, object]:
        """`/s/TOKEN/preview?line=...`: the points the line would record, without writing; or the refusal."""
        from .. import ledger
        from ..core.numbers import plain, signed

        try:
            with ledger.open_ledger(self.path, readonly=True) as led:
                led.table = self.table
                p = Table(led, files=False).preview(line)
        except WiezenError as e:
            return {"ok": False, "error": _("Error: {message}").format(message=e)}
        # "shown": the points as the page writes them (-1.33 for a third, a decimal comma in Dutch)
        return {"ok": True, "no": p.no, "text": p.text, "points": {k: plain(v) for k, v in p.points.items()},
                "shown": {k: signed(v) for k, v in p.points.items()},
                "multiplier": p.multiplier, "explanation": list(p.explanation)}

    def _answer(self, line: str, confirm: bool, expect: int | None, cents: int | None, uid: str | None) -> FormAnswer:
        from .. import ledger

        with ledger.open_ledger(self.path) as led:
            led.table = self.table
            if self.session_id is not None:
                s = led.require_open()
                if s.id != self.session_id:
                    raise WiezenError(_("this page shows session {shown}, but the open session is {open}: nothing "
                                        "recorded").format(shown=self.session_id, open=s.id))
            table = Table(led, upcoming=self.upcoming, files=False, again=True, uid=uid)  # house rules by name only
            try:
                answer = table.handle(line, confirm=confirm, expect=expect)
            finally:
                self.upcoming = table.upcoming
        if answer.stop:
            raise WiezenError(_("'{line}' stops the prompt; on the phone, close the page instead").format(line=line.strip()))
        q = answer.question
        if q is not None:
            return {"ok": False, "question": q.text, "declined": q.declined, "expect": q.expect,
                    "ask": line.split()[0].lower() if line.split() else ""}
        out: FormAnswer = {"ok": True, "message": answer.message}
        if answer.entry is not None and answer.kind in ("pass", "redeal"):
            out["undo"] = answer.entry
        if answer.ended is not None:
            out.update(ended(answer.ended, cents))
        return out


def entry_uid(nonce: str) -> str | None:
    """The uid of the entry a form with ``nonce`` records (32 hex digits, as every uid), None without a nonce."""
    import hashlib

    if not nonce:
        return None
    return hashlib.sha256(("wiezen phone form " + nonce).encode("utf-8")).hexdigest()[:32]


def ended(e: Ended, cents: int | None) -> FormAnswer:
    """The fields of the answer to `end`: the seal, the totals, and who pays whom (at ``cents`` a point)."""
    from ..core.numbers import fmt, money, plain
    from ..core.settle import settle

    pays: list[Payment] = []
    said: list[str] = []
    for p in settle(e.totals, cents):
        one: Payment = {"payer": p.payer, "payee": p.payee, "points": plain(p.amount)}
        if p.cents is not None:
            one["cents"] = p.cents
        pays.append(one)
        said.append(_("  {payer} pays {payee} {points}{money}").format(
            payer=p.payer, payee=p.payee, points=fmt(p.amount),
            money=f" ({money(p.cents)})" if p.cents is not None else "").strip())
    out: FormAnswer = {"ok": True, "session": e.session, "seal": e.seal,
                       "totals": {k: plain(v) for k, v in e.totals.items()}, "payments": pays,
                       "paid": said or [_("everybody is square: nobody pays")]}
    if cents is not None:
        out["cents"] = cents
    return out
