"""Click in Dutch: every help text and metavar of ours translated when shown.

click's own messages are gettext msgids that click looks up in the process's default text domain: speaking
Dutch binds that domain to our catalogue (core/i18n.py), so nothing of click's is rebound for them. Our help
texts are a different matter: click keeps a command's help as it was written (a docstring, a ``help=``), once
per process, and a process may speak both languages (a test suite does). So they stay English in the code
(they are the msgids) and are translated when they are shown, paragraph by paragraph (a ``\\b`` paragraph
keeps its mark), so that ``tools/i18n.py`` can extract exactly the strings that are looked up here.

Imported only when Dutch is chosen (cli/lang.py apply()).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..core import i18n

#: click's help texts made when an option is (decorators.py): ``--help`` is made when a command first runs
#: and kept, so in the language of that moment; shown, they are taken back to the msgid first
CLICK_OPTION_HELPS = ("Show this message and exit.", "Show the version and exit.", "Confirm the action without prompting.")

#: click's own words that it looks up through a variable (``_(extra["required"])`` for "[required]" in --help),
#: which extraction cannot see in click's source: named here so that the catalogue keeps them
CLICK_WORDS = (i18n.N_("required"),)

_taught = False


def teach_click() -> None:
    """Translate help texts and metavars when they are shown (click's own messages need nothing: core/i18n.py).

    Done once per process, and only when Dutch is chosen; afterwards it follows the current language
    (core/i18n's ``_`` is the identity in English), so switching back costs nothing either.
    """
    global _taught
    if _taught:
        return
    _taught = True
    import click

    _swap(click.Command, "format_help_text", ("help",))
    _swap(click.Command, "get_short_help_str", ("short_help", "help"))
    _swap(click.Command, "format_epilog", ("epilog",))
    _swap(click.Option, "get_help_record", ("help",), clean=False,
          msgids={i18n._(m): m for m in CLICK_OPTION_HELPS})
    for cls in (click.Parameter, click.Argument):
        if "make_metavar" in vars(cls):
            _metavar(cls)
    _usage(click.Command)
    _path_names(click.Path)


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


def _swap(cls: type, method: str, attrs: tuple[str, ...], clean: bool = True,
          msgids: dict[str, str] | None = None) -> None:
    """Wrap ``cls.method`` so that it runs with the translated texts in ``attrs`` (put back afterwards).

    ``clean``: the texts are cleaned first as click shows them (a command's help is kept as written; an
    option's help is cleaned when the option is made). ``msgids``: texts that click made in Dutch, each with
    its msgid (shown in English as the msgid)."""
    original: Callable[..., Any] = getattr(cls, method)

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        saved = {a: getattr(self, a, None) for a in attrs}
        if not i18n.dutch() and not (msgids and any(v in msgids for v in saved.values() if isinstance(v, str))):
            return original(self, *args, **kwargs)
        try:
            for a, value in saved.items():
                if isinstance(value, str) and value:
                    text = msgids.get(value, value) if msgids else value
                    setattr(self, a, translate_help((command_help(text) or "") if clean else text))
            return original(self, *args, **kwargs)
        finally:
            for a, value in saved.items():
                setattr(self, a, value)

    wrapper.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(cls, method, wrapper)


def _metavar(cls: type) -> None:
    original: Callable[..., str] = vars(cls)["make_metavar"]

    def make_metavar(self: Any, *args: Any, **kwargs: Any) -> str:
        return translate_metavar(original(self, *args, **kwargs))

    make_metavar.__wrapped__ = original  # type: ignore[attr-defined]
    setattr(cls, "make_metavar", make_metavar)  # noqa: B010 (a method set on a class mypy knows as type)


def _usage(cls: type) -> None:
    """``[OPTIONS]`` and ``COMMAND [ARGS]...`` of the usage line (click keeps them as plain strings)."""
    import click

    for klass in (cls, click.Group):
        if "collect_usage_pieces" not in vars(klass):
            continue
        original: Callable[..., list[str]] = vars(klass)["collect_usage_pieces"]

        def collect_usage_pieces(self: Any, ctx: Any, _original: Callable[..., list[str]] = original) -> list[str]:
            pieces = _original(self, ctx)
            if not i18n.dutch():
                return pieces
            fixed = {self.options_metavar, getattr(self, "subcommand_metavar", None)}
            return [i18n._(p) if p in fixed else p for p in pieces]

        collect_usage_pieces.__wrapped__ = original  # type: ignore[attr-defined]
        setattr(klass, "collect_usage_pieces", collect_usage_pieces)  # noqa: B010 (a method set on a class mypy knows as type)


def _path_names(cls: type) -> None:
    """click.Path names itself ("file", "directory", "path") when it is made, in the language of that moment,
    and a command's Path is made once (when its module is first imported): keep the English name, the msgid,
    and say it in the current language only while a value is converted (its errors name it)."""
    english = {i18n._(w): w for w in ("file", "directory", "path")}
    init: Callable[..., None] = vars(cls)["__init__"]
    convert: Callable[..., Any] = vars(cls)["convert"]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.name = english.get(self.name, self.name)

    def converting(self: Any, *args: Any, **kwargs: Any) -> Any:
        name = self.name
        self.name = i18n._(name)
        try:
            return convert(self, *args, **kwargs)
        finally:
            self.name = name

    setattr(cls, "__init__", __init__)  # noqa: B010 (a method set on a class mypy knows as type)
    setattr(cls, "convert", converting)  # noqa: B010 (a method set on a class mypy knows as type)
