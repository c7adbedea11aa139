"""House rules for a new session, by preset name, by TOML file path or by a name added to the ledger; text files.

Shared by every front end: the command line's options (cli/common.py re-exports these), the prompt's and the
phone's `rules` line (service/table.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from ..core.errors import WiezenError
from ..core.i18n import N_, _
from ..core.rules import PRESETS, HouseRules, parse_rules

__all__ = ["looks_like_path", "read_input", "read_text_file", "rules_from_spec"]


def read_text_file(path: str, what: str = N_("file")) -> str:
    """The text of the file at ``path``; ``what`` (an N_() msgid: "house-rules file") names it in errors."""
    what = _(what)
    if "\x00" in path:  # open() would raise ValueError: no file name holds a NUL byte
        from ..views.safe import safe

        raise WiezenError(_("{what} '{path}' is not a file name: it holds a NUL byte").format(what=what, path=safe(path)))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise WiezenError(_("{what} '{path}' does not exist").format(what=what, path=path)) from None
    except IsADirectoryError:
        raise WiezenError(_("{what} '{path}' is a folder, not a file").format(what=what, path=path)) from None
    except OSError as e:
        raise WiezenError(_("cannot read {what} '{path}': {reason}").format(what=what, path=path, reason=e.strerror)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise WiezenError(_("{what} '{path}' is not UTF-8 text (bad byte at position {position})").format(
            what=what, path=path, position=e.start)) from None


def looks_like_path(spec: str) -> bool:
    return os.sep in spec or spec.endswith(".toml") or os.path.exists(spec)


def rules_from_spec(spec: str, ledger_lookup: Callable[[str], str | None] | None = None,
                    files: bool = True) -> tuple[HouseRules, str]:
    """House rules by preset name, by TOML file path, or (with ``ledger_lookup``) by added name.

    Returns the rules and their TOML text (the snapshot a session keeps). ``files=False`` (the scorer's phone: the
    file would be on another machine, and ``-`` is the server's own stdin): by name only, never from a file.
    """
    from ..core.presets import preset_text

    if not files and spec not in PRESETS:
        found = ledger_lookup(spec) if ledger_lookup is not None else None
        if found is None:
            raise WiezenError(_("no house rules '{name}' here: the phone takes those built in ({presets}) or the name of "
                                "house rules added with `wiezen rules add`").format(name=spec, presets=", ".join(PRESETS)))
        return parse_rules(found, _("house rules '{name}'").format(name=spec)), found
    if spec in PRESETS:
        text = preset_text(spec)
        return parse_rules(text, _("preset '{name}'").format(name=spec)), text
    if spec == "-" or looks_like_path(spec):
        text = read_input(spec, N_("house-rules file"))
        return parse_rules(text, "stdin" if spec == "-" else spec), text
    if ledger_lookup is not None:
        found = ledger_lookup(spec)
        if found is not None:
            return parse_rules(found, _("house rules '{name}'").format(name=spec)), found
    if ledger_lookup:
        raise WiezenError(_("no house rules '{name}': built in are {presets}, plus those added with `wiezen rules add`; "
                            "or give the path of a .toml file").format(name=spec, presets=", ".join(PRESETS)))
    raise WiezenError(_("no house rules '{name}': built in are {presets}; or give the path of a .toml file").format(
        name=spec, presets=", ".join(PRESETS)))


def read_input(path: str, what: str = N_("file")) -> str:
    """A text file's contents, or standard input for ``-`` (the convention wherever a file is read)."""
    if path == "-":
        import sys

        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise WiezenError(_("{what} on stdin is not UTF-8 text (bad byte at position {position})").format(
                what=_(what), position=e.start)) from None
    return read_text_file(path, what)
