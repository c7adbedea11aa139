"""The command line's language: --lang, $WIEZEN_LANG or the locale; Dutch for click's own words and every help.

``--lang``, ``$WIEZEN_LANG`` and the locale are weighed by core/i18n.choose().

Nothing here costs anything in English: the catalogue is loaded, and click taught Dutch, only when Dutch is
chosen. Help texts stay English in the code (they are the msgids); they are translated when they are shown,
paragraph by paragraph (a ``\\b`` paragraph keeps its mark), so ``tools/i18n.py`` can extract exactly the
strings that are looked up here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
    """Speak ``lang`` from now on; in Dutch, click speaks it too."""
    i18n.set_language(lang)
    if lang != "en":
        teach_click()


# --- click in Dutch ---------------------------------------------------------------------------------------

#: click's modules that say something to a user through gettext's ``_``/``ngettext``, looked up as it is said
CLICK_MODULES = ("core", "exceptions", "formatting", "types", "parser", "_parser", "termui", "shell_completion",
                 "utils", "_termui_impl")
#: ... and those whose words are help texts fixed once (decorators.py: the --help and --version options, made
#: once and cached): not pointed at our catalogue, they stay English msgids and are translated when shown
CLICK_MESSAGE_MODULES = (*CLICK_MODULES, "decorators")

_taught = False


def teach_click() -> None:
    """Point click's ``_``/``ngettext`` at core/i18n and translate help texts and metavars when they are shown.

    Done once per process, and only when Dutch is chosen; afterwards it follows the current language
    (core/i18n's ``_`` is the identity in English), so switching back costs nothing either.
    """
    global _taught
    if _taught:
        return
    _taught = True
    import importlib
    import sys

    import click

    for name in CLICK_MODULES:
        try:
            mod = sys.modules.get(f"click.{name}") or importlib.import_module(f"click.{name}")
        except ImportError:  # not in this version of click
            continue
        if hasattr(mod, "_"):
            mod._ = i18n._  # type: ignore[attr-defined]
        if hasattr(mod, "ngettext"):
            mod.ngettext = i18n.ngettext  # type: ignore[attr-defined]

    _swap(click.Command, "format_help_text", ("help",))
    _swap(click.Command, "get_short_help_str", ("short_help", "help"))
    _swap(click.Command, "format_epilog", ("epilog",))
    _swap(click.Option, "get_help_record", ("help",), clean=False)
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


def _swap(cls: type, method: str, attrs: tuple[str, ...], clean: bool = True) -> None:
    """Wrap ``cls.method`` so that it runs with the translated texts in ``attrs`` (put back afterwards).

    ``clean``: the texts are cleaned first as click shows them (a command's help is kept as written; an
    option's help is cleaned when the option is made)."""
    original: Callable[..., Any] = getattr(cls, method)

    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not i18n.dutch():
            return original(self, *args, **kwargs)
        saved = {a: getattr(self, a, None) for a in attrs}
        try:
            for a, value in saved.items():
                if isinstance(value, str) and value:
                    setattr(self, a, translate_help((command_help(value) or "") if clean else value))
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
    setattr(cls, "make_metavar", make_metavar)


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
        setattr(klass, "collect_usage_pieces", collect_usage_pieces)


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

    setattr(cls, "__init__", __init__)
    setattr(cls, "convert", converting)
