"""The command line's language: --lang, $WIEZEN_LANG or the locale; Dutch for click's own words and every help.

``--lang``, ``$WIEZEN_LANG`` and the locale are weighed by core/i18n.choose().

Nothing here costs anything in English: the catalogue is loaded (gettext's default text domain bound to it,
for click's own messages: core/i18n.py), and our help texts translated when shown (cli/dutch.py), only when
Dutch is chosen.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from ..core import i18n
from ..core.i18n import N_

#: the value of --lang that was not a language (reported by the group as one error line)
BAD_LANG_ERROR = N_("unknown language {value} for --lang: give en (English) or nl (Nederlands)")

#: the help of --lang (on the group and, like --db, after any command name)
LANG_HELP = N_("The language of messages, help and sheets: en or nl. Default: $WIEZEN_LANG, else the locale "
               "(LC_ALL, LC_MESSAGES, LANG), else en. JSON and CSV are always English.")


def lang_option(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` on the command line (before a ``--``), else None."""
    found: str | None = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            break
        if a == "--lang":
            if i + 1 < len(args):  # without a value: click says the option needs one
                found = args[i + 1]
            i += 1
        elif a.startswith("--lang="):
            found = a[len("--lang="):]
        i += 1
    return found


def machine_output(args: Sequence[str]) -> bool:
    """Whether the command line asks for JSON or CSV (``--json``, ``--csv``, ``--format json|csv``)."""
    for i, a in enumerate(args):
        if a == "--":
            break
        if a in ("--json", "--csv", "--format=json", "--format=csv"):
            return True
        if a == "--format" and i + 1 < len(args) and args[i + 1] in ("json", "csv"):
            return True
    return False


def pick(args: Sequence[str], environ: Mapping[str, str] | None = None) -> tuple[str, str | None]:
    """The language of this command line, and the bad --lang value if there was one (then: the environment's).

    JSON and CSV are for programs: a command line that asks for them is English whatever the language (its
    messages too, so that what a script reads never depends on the reader's locale)."""
    env = os.environ if environ is None else environ
    option = lang_option(args)
    if option is not None and option.strip().lower() not in i18n.LANGUAGES:
        return i18n.choose(None, env), option
    lang = i18n.choose(option.strip() if option else None, env)
    return ("en" if lang != "en" and machine_output(args) else lang), None


def apply(lang: str) -> None:
    """Speak ``lang`` from now on; in Dutch, click speaks it too (its messages through gettext's default text
    domain, set by core/i18n; our help texts through cli/dutch.py)."""
    i18n.set_language(lang)
