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
from ..service.table import NextSession, Table

__all__ = ["ACTIONS", "FormAnswer", "Scorer", "form_line"]

#: the form's buttons, and the line each stands for (the typed words after it)
ACTIONS = {"entry": "", "pass": "pas", "redeal": "redeal", "undo": "undo"}


class _Answered(TypedDict):
    ok: bool


class FormAnswer(_Answered, total=False):
    """The JSON answer to the scorer's form (the page's script reads it; ``nonce`` is added when sent)."""

    message: str
    error: str
    question: str
    declined: str
    expect: int


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
    table: int | None = None  # a club night's table: the link records only there, round after round
    upcoming: NextSession = field(default_factory=NextSession)

    def answer(self, action: str, line: str, confirm: bool = False, expect: int | None = None) -> FormAnswer:
        """Act on one form, on a connection of its own (one form at a time: the server holds a lock)."""
        try:
            return self._answer(form_line(action, line), confirm, expect)
        except WiezenError as e:
            return {"ok": False, "error": _("Error: {message}").format(message=e)}

    def preview(self, line: str) -> dict[str, object]:
        """`/s/TOKEN/preview?line=...`: the points the line would record, without writing; or the refusal."""
        from .. import ledger
        from ..core.numbers import plain

        try:
            with ledger.open_ledger(self.path, readonly=True) as led:
                led.table = self.table
                p = Table(led, files=False).preview(line)
        except WiezenError as e:
            return {"ok": False, "error": _("Error: {message}").format(message=e)}
        return {"ok": True, "no": p.no, "text": p.text, "points": {k: plain(v) for k, v in p.points.items()},
                "multiplier": p.multiplier, "explanation": list(p.explanation)}

    def _answer(self, line: str, confirm: bool, expect: int | None) -> FormAnswer:
        from .. import ledger

        with ledger.open_ledger(self.path) as led:
            led.table = self.table
            if self.session_id is not None:
                s = led.require_open()
                if s.id != self.session_id:
                    raise WiezenError(_("this page shows session {shown}, but the open session is {open}: nothing "
                                        "recorded").format(shown=self.session_id, open=s.id))
            table = Table(led, upcoming=self.upcoming, files=False)  # house rules by name only
            try:
                answer = table.handle(line, confirm=confirm, expect=expect)
            finally:
                self.upcoming = table.upcoming
        if answer.stop:
            raise WiezenError(_("'{line}' stops the prompt; on the phone, close the page instead").format(line=line.strip()))
        q = answer.question
        if q is not None:
            return {"ok": False, "question": q.text, "declined": q.declined, "expect": q.expect}
        return {"ok": True, "message": answer.message}
