"""Helpers shared by the commands: resolving house rules, printing tables and JSON."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Sequence

import click

from ..core.errors import WiezenError
from ..core.rules import PRESETS, HouseRules, parse_rules


#: the date forms every date option takes (core/dates.py parse_when)
DATE_HELP = ("YYYY-MM-DD, DD/MM/YYYY, DD-MM-YYYY, today, yesterday, a weekday (friday = last friday), "
             "last-week, last-month; in Dutch too (vandaag, gisteren, vorige vrijdag, vorige-week ...).")


def text_width() -> int | None:
    """How wide text output may be: $COLUMNS, else the terminal's width; None when neither is known (a pipe)."""
    import sys

    env = os.environ.get("COLUMNS", "").strip()
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        if sys.stdout.isatty():
            return os.get_terminal_size(sys.stdout.fileno()).columns or None
    except (AttributeError, OSError, ValueError):
        pass
    return None


def read_text_file(path: str, what: str = "file") -> str:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise WiezenError(f"{what} '{path}' does not exist") from None
    except IsADirectoryError:
        raise WiezenError(f"{what} '{path}' is a folder, not a file") from None
    except OSError as e:
        raise WiezenError(f"cannot read {what} '{path}': {e.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise WiezenError(f"{what} '{path}' is not UTF-8 text (bad byte at position {e.start})") from None


def looks_like_path(spec: str) -> bool:
    return os.sep in spec or spec.endswith(".toml") or os.path.exists(spec)


def rules_from_spec(spec: str, ledger_lookup: Any = None) -> tuple[HouseRules, str]:
    """House rules by preset name, by TOML file path, or (with ``ledger_lookup``) by added name.

    Returns the rules and their TOML text (the snapshot a session keeps).
    """
    from ..core.presets import preset_text

    if spec in PRESETS:
        text = preset_text(spec)
        return parse_rules(text, f"preset '{spec}'"), text
    if looks_like_path(spec):
        text = read_text_file(spec, "house-rules file")
        return parse_rules(text, spec), text
    if ledger_lookup is not None:
        found = ledger_lookup(spec)
        if found is not None:
            return parse_rules(found, f"house rules '{spec}'"), found
    raise WiezenError(
        f"no house rules '{spec}': built in are {', '.join(PRESETS)}"
        + (", plus those added with `wiezen rules add`" if ledger_lookup else "")
        + "; or give the path of a .toml file"
    )


# Deal lines are arguments: a negative number of tricks ("-1") must reach the deal parser (which explains
# that tricks are 0 to 13) instead of being taken for an unknown option. Real options still work anywhere.
DEAL_ARGS = {"ignore_unknown_options": True}


def deal_text(words: Sequence[str]) -> str:
    """The words of a deal line; a word that looks like a mistyped option (--x, -x) is a usage error."""
    for w in words:
        if w.startswith("-") and not w[1:].isdigit():
            raise click.NoSuchOption(w)
    return " ".join(words)


def echo_json(doc: Any) -> None:
    click.echo(json.dumps(doc, ensure_ascii=False, indent=2))


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str], **kw: Any) -> str:
    from tabulate import tabulate

    return tabulate(list(rows), headers=list(headers), disable_numparse=True, **kw)


class SessionRef(click.ParamType):
    """``--session``: a session ID, or a date in any form a date option takes (the evening of that day)."""

    name = "ID|DATE"

    def convert(self, value: Any, param: Any, ctx: Any) -> int | str:
        if isinstance(value, int):
            return value
        v = str(value).strip()
        return int(v) if v.isdigit() else v


SESSION_HELP = "Session ID, or a date (the evening of that day); default: the open one, else the newest."
DATE_PICK_HELP = "The evening of that day (instead of --session): " + DATE_HELP


def pick_session(led: Any, ref: int | str | None, date: str | None = None) -> Any:
    """The session ``ref`` (an ID or a date) or ``date`` names; the open, else the newest, when neither does.

    A date picks the session played that day; several that day is an error that lists them.
    """
    import datetime

    from ..core.dates import parse_when, weekday_name

    if ref is not None and date is not None:
        raise WiezenError("give --session or --date, not both")
    if isinstance(ref, str):
        ref, date = None, ref
    if date is None:
        return led.session(ref)
    day = parse_when(date, datetime.date.today()).isoformat()
    found = led.sessions(day, day)
    when = f"{weekday_name(day)} {day}"
    if not found:
        return led.session(_no_session_on(led, when))
    if len(found) > 1:
        listed = "; ".join(f"{i['id']} ({i['name'] or ', '.join(i['players'])})" for i in reversed(found))
        raise WiezenError(f"{len(found)} sessions on {when}: {listed}; give --session ID")
    return led.session(found[0]["id"])


def _no_session_on(led: Any, when: str) -> int:
    from ..core.dates import weekday_name

    recent = led.sessions()[:3]
    hint = ", ".join(f"{weekday_name(i['date'])} {i['date']} (session {i['id']})" for i in recent)
    raise WiezenError(f"no session on {when}" + (f"; the latest: {hint}" if hint else ": no sessions yet"))
