"""Click in Dutch: our commands, groups, arguments and paths, whose help texts and metavars are shown translated.

click's own messages are gettext msgids that click looks up in the process's default text domain: speaking
Dutch binds that domain to our catalogue (core/i18n.py), so nothing of click's is rebound for them. Our help
texts are a different matter: click keeps a command's help as it was written (a docstring, a ``help=``), once
per process, and a process may speak both languages (a test suite does). So they stay English in the code
(they are the msgids) and are translated when they are shown, paragraph by paragraph (a ``\\b`` paragraph
keeps its mark), so that ``tools/i18n.py`` can extract exactly the strings that are looked up here.

They are shown translated the way click is made to be extended: every command of ours is a :class:`Command` or
a :class:`Group` (``cls=``; a group's ``command_class`` and ``group_class`` make its sub-commands so), every
argument an :class:`Argument` and every path a :class:`Path`, whose methods say the texts in the current language
(core/i18n's ``_`` is the identity in English). Nothing of click is patched.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ..core import i18n

F = TypeVar("F", bound=Callable[..., Any])

#: click's help texts made when an option is (decorators.py): ``--help`` is made when a command first runs
#: and kept, so in the language of that moment; shown, they are taken back to the msgid first
CLICK_OPTION_HELPS = ("Show this message and exit.", "Show the version and exit.", "Confirm the action without prompting.")

#: click's own words that it looks up through a variable (``_(extra["required"])`` for "[required]" in --help),
#: which extraction cannot see in click's source: named here so that the catalogue keeps them
CLICK_WORDS = (i18n.N_("required"),)


def translate_help(text: str) -> str:
    """``text`` (a cleaned help text) in the current language, paragraph by paragraph."""
    if not i18n.dutch() or not text:
        return text
    return "\n\n".join(translate_paragraph(p) for p in text.split("\n\n"))


def translate_paragraph(p: str) -> str:
    if p.startswith("\b\n"):
        return "\b\n" + i18n._(p[2:])
    return i18n._(p)


def help_paragraphs(text: str | None) -> list[str]:
    """The msgids of a help text: what :func:`translate_help` looks up (for tools/i18n.py)."""
    if not text:
        return []
    return [p[2:] if p.startswith("\b\n") else p for p in text.split("\n\n") if p.strip() and p.strip() != "\b"]


def command_help(text: str | None) -> str | None:
    """A command's help as click shows it (cleaned, up to a form feed): the text whose paragraphs are msgids."""
    if text is None:
        return None
    import inspect

    return inspect.cleandoc(text).partition("\f")[0]


#: an upper-case word of a metavar (FILE, NAME, INTEGER ...): one letter (N, A) stays as it is
METAVAR_WORD = re.compile(r"[A-Z][A-Z_]+(?: [A-Z][A-Z_]+)*")


def metavar_words(metavar: str) -> list[str]:
    return METAVAR_WORD.findall(metavar)


def translate_metavar(metavar: str) -> str:
    if not i18n.dutch():
        return metavar
    return METAVAR_WORD.sub(lambda m: i18n._(m.group()), metavar)


def _option_help(record: tuple[str, str], param: click.Parameter) -> tuple[str, str]:
    """An option's help record (``--since DATE``, its help and click's extras) with its metavar and its help text
    in the current language; a help text click made in Dutch (CLICK_OPTION_HELPS) is its msgid first."""
    names, shown = record
    written = getattr(param, "help", None)
    if isinstance(written, str) and written and shown.startswith(written):
        msgid = i18n.msgid_of(written, CLICK_OPTION_HELPS)
        shown = translate_help(msgid) + shown[len(written):]
    return translate_metavar(names), shown


def _first_sentence(text: str, limit: int) -> str:
    """A command's short help in a group's list, as click makes it from the help: the first sentence of the
    first paragraph (a period ends it unless a lower-case word follows), shortened at a word with "..."."""
    words = text.partition("\n\n")[0].split()
    words = words[1:] if words[:1] == ["\b"] else words
    for i, word in enumerate(words):
        if word.endswith(".") and (i == len(words) - 1 or not words[i + 1][0].islower()):
            words = words[: i + 1]
            break
    short = " ".join(words)
    if len(short) <= limit:
        return short
    import textwrap

    return textwrap.shorten(short, max(limit, 3), placeholder="...", break_on_hyphens=False)


class _Translated(click.Command):
    """What our commands and groups share: their help, short help, epilog, options and usage line said in the
    current language when shown (the texts stay as written: they are the msgids)."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        text = translate_help(command_help(self.help) or "")
        if text:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)

    def get_short_help_str(self, limit: int = 45) -> str:
        if not i18n.dutch():
            return super().get_short_help_str(limit)
        if self.short_help:
            return translate_help(command_help(self.short_help) or "").strip()
        return _first_sentence(translate_help(command_help(self.help) or ""), limit)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        epilog = translate_help(command_help(self.epilog) or "")
        if epilog:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(epilog)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        records = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None and not isinstance(param, click.Argument):  # (arguments: in the usage line)
                records.append(_option_help(record, param))
        if records:
            with formatter.section(i18n._("Options")):
                formatter.write_dl(records)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        """``[OPTIONS]`` and ``COMMAND [ARGS]...`` of the usage line (the arguments say their own metavars)."""
        pieces = super().collect_usage_pieces(ctx)
        if not i18n.dutch():
            return pieces
        fixed = {self.options_metavar, getattr(self, "subcommand_metavar", None)}
        return [i18n._(p) if p in fixed else p for p in pieces]


class Command(_Translated):
    """A command of ours (``@click.command(cls=Command)``, or made by one of our groups)."""


class Group(_Translated, click.Group):
    """A group of ours: its sub-commands are :class:`Command` and its sub-groups :class:`Group`."""

    command_class = Command
    group_class = type  # a sub-group is of the group's own class


class Argument(click.Argument):
    """An argument whose metavar (``FILE``, ``NAME``) is said in the current language: in the usage line, the
    help and click's errors (``Missing argument 'BESTAND'``)."""

    def make_metavar(self, ctx: click.Context) -> str:
        return translate_metavar(super().make_metavar(ctx))


class Path(click.Path):
    """click.Path that names itself ("file", "directory", "path") in the current language. click names a path
    when it is made, in the language of that moment, and a command's path is made once (when its module is first
    imported): the English name (the msgid) is kept, and said in the language of the moment it is shown."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        english = {i18n._(w): w for w in ("file", "directory", "path")}
        self._msgid = english.get(self.name, self.name)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        self.name = i18n._(self._msgid)  # (our own instance: its errors name it in the language of the moment)
        return super().convert(value, param, ctx)


def command(name: str | None = None, **attrs: Any) -> Callable[[Callable[..., Any]], Command]:
    """``@click.command`` making a :class:`Command`."""
    return click.command(name, cls=Command, **attrs)


def group(name: str | None = None, **attrs: Any) -> Callable[[Callable[..., Any]], Group]:
    """``@click.group`` making a :class:`Group`."""
    return click.group(name, cls=Group, **attrs)


def argument(*param_decls: str, **attrs: Any) -> Callable[[F], F]:
    """``@click.argument`` making an :class:`Argument`."""
    return click.argument(*param_decls, cls=Argument, **attrs)


__all__ = ["Argument", "Command", "Group", "Path", "argument", "command", "group", "translate_help"]
