"""Shell completion (click's ``shell_complete`` callbacks): house-rules names, players, contracts.

The players are those of the open session, the contracts those of its house rules. Each reads at most the ledger's open session, read-only, and never fails: no ledger, no session or
a damaged file complete to nothing rather than print an error into the shell.

Enable it with ``eval "$(_WIEZEN_COMPLETE=bash_source wiezen)"`` (zsh_source, fish_source): see the README.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # (click.shell_completion is imported only when the shell asks: not by every command)
    from click.shell_completion import CompletionItem

    from ..core.rules import HouseRules


def _db(ctx: click.Context) -> str | None:
    root = ctx.find_root()
    return (root.obj or {}).get("db") or root.params.get("db_path") or os.environ.get("WIEZEN_DB")


def _open_session(ctx: click.Context) -> tuple[list[str], HouseRules] | None:
    """(players in seat order, house rules) of the open session, or None."""
    from ..core.rules import parse_rules
    from ..ledger import Ledger, existing_db_path

    try:
        path = existing_db_path(_db(ctx))
        if path is None:
            return None
        led = Ledger(path, readonly=True)
        try:
            s = led.open_session()
            return None if s is None else (list(s.players), parse_rules(s.rules_toml, s.rules_name))
        finally:
            led.close()
    except Exception:  # completion must never break the shell
        return None


def _matching(words: list[str], incomplete: str, help_: str | None = None) -> list[CompletionItem]:
    from click.shell_completion import CompletionItem

    low = incomplete.casefold()
    seen: list[str] = []
    for w in words:
        if w.casefold().startswith(low) and w not in seen:
            seen.append(w)
    return [CompletionItem(w, help=help_) for w in seen]


def complete_rules(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Built-in presets and the house rules added to the ledger; a path completes as a file."""
    from click.shell_completion import CompletionItem

    from ..core.rules import PRESETS

    if os.sep in incomplete or incomplete.startswith("."):
        return [CompletionItem(incomplete, type="file")]
    names = list(PRESETS)
    try:
        from ..ledger import added_rules

        names += [name for name, _ in added_rules(_db(ctx))]
    except Exception:
        pass
    return _matching(names, incomplete)


def complete_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The players of the open session, in seat order."""
    found = _open_session(ctx)
    return _matching(found[0], incomplete) if found else []


def _contracts(rules: HouseRules) -> list[str]:
    out: list[str] = []
    for c in rules.contracts:
        out += [c.name, *c.aliases]
    return out


def complete_deal(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A deal line: first a contract of the open session's house rules (else of whisthub), then players;
    after a '+', the partner."""
    found = _open_session(ctx)
    if found is None:
        from ..core.presets import preset_text
        from ..core.rules import parse_rules

        players: list[str] = []
        rules = parse_rules(preset_text("whisthub"), "whisthub")
    else:
        players, rules = found
    words = list(ctx.params.get(param.name or "", None) or ())
    if not words:
        return _matching(_contracts(rules), incomplete)
    if incomplete[:1].isdigit():
        return []
    if "+" in incomplete:
        from click.shell_completion import CompletionItem

        head, _, tail = incomplete.rpartition("+")
        taken = {w.casefold() for w in head.split("+")}
        return [CompletionItem(f"{head}+{c.value}") for c in _matching(players, tail) if c.value.casefold() not in taken]
    return _matching(players, incomplete)
