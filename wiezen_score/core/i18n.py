"""The language of everything a user sees: English msgids, the Dutch catalogue loaded on first use.

Every user-visible string in the package is written in English and passed through :func:`_` (or
:func:`ngettext`) when it is shown; :func:`N_` only marks a string for extraction where it is translated
later. The catalogue is package data (``wiezen_score/locale/nl/LC_MESSAGES/wiezen.mo``, compiled from
``wiezen.po`` by ``python tools/i18n.py compile``), read like the presets are: no user I/O. In English
nothing is loaded at all, so start-up costs nothing.

The language is chosen once per command by the command line (:func:`choose`): ``--lang``, else
``$WIEZEN_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG`` starting with ``nl``), else English.

click's own messages ("Usage:", "Error: Missing argument ...") are gettext msgids too: click's modules call
:func:`gettext.gettext`, which looks them up in the process's default text domain, in the language of
``$LANGUAGE`` (then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), at every call. So speaking Dutch also binds the
default text domain to this catalogue (``gettext.bindtextdomain``/``textdomain``: the one .mo file, read once,
holds click's msgids as well) and sets ``$LANGUAGE`` to ``nl`` (the variable that gettext puts before the locale,
for a language chosen apart from it: ``--lang nl`` wins over ``LANG=en_GB.UTF-8``); going back to English puts
back the previous domain and ``$LANGUAGE``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from gettext import GNUTranslations

LANGUAGES = ("en", "nl")
DOMAIN = "wiezen"

#: the folder of the catalogues (``nl/LC_MESSAGES/wiezen.mo`` in it), package data
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locale")

_language = "en"
_catalog: GNUTranslations | None = None
#: a thread's own language, over the process's (`serve` answers each phone in the language it asks for; english()
#: speaks English in its own thread only); looked at only once some thread has had one
_here = threading.local()
_threads = False
#: while Dutch is spoken: gettext's default text domain and ``$LANGUAGE`` as they were before (put back in English)
_before_dutch: tuple[str, str | None] | None = None


def choose(option: str | None, environ: Mapping[str, str]) -> str:
    """The language to speak: ``--lang`` wins, then ``$WIEZEN_LANG``, then the locale; English otherwise.

    An unknown value of ``--lang`` is the caller's error to report; an unknown ``$WIEZEN_LANG`` or locale
    falls back to English (the environment is not the user's last word).
    """
    if option:
        return option.lower()
    wanted = environ.get("WIEZEN_LANG", "").strip().lower()
    if wanted in LANGUAGES:
        return wanted
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if value:  # the first one set decides, as in POSIX
            return "nl" if value.lower().startswith("nl") else "en"
    return "en"


def set_language(lang: str) -> None:
    """Speak ``lang`` ('en' or 'nl') from now on."""
    global _language
    if lang not in LANGUAGES:
        raise ValueError(lang)
    _language = lang
    _default_domain(lang)


def _default_domain(lang: str) -> None:
    """Point gettext's default text domain (click's messages) at the catalogue of ``lang``, or give it back.

    English changes nothing (and loads nothing) unless Dutch was spoken before in this process."""
    global _before_dutch
    if lang == "nl" and _before_dutch is None:
        import gettext

        if not os.path.isfile(_mo_path()):  # pragma: no cover - a zipped install: click stays English
            return
        _translations()
        _before_dutch = (gettext.textdomain(), os.environ.get("LANGUAGE"))
        gettext.bindtextdomain(DOMAIN, LOCALE_DIR)
        gettext.textdomain(DOMAIN)
        os.environ["LANGUAGE"] = lang
    elif lang == "en" and _before_dutch is not None:
        import gettext

        domain, language_variable = _before_dutch
        _before_dutch = None
        gettext.textdomain(domain)
        if language_variable is None:
            os.environ.pop("LANGUAGE", None)
        else:
            os.environ["LANGUAGE"] = language_variable


def _current() -> str:
    if _threads:
        return getattr(_here, "lang", None) or _language
    return _language


def language() -> str:
    return _current()


def dutch() -> bool:
    return _current() == "nl"


class speaking:
    """``with speaking(lang):`` speaks ``lang`` in this thread only, inside the block (None: the process's
    language); other threads keep theirs."""

    def __init__(self, lang: str | None) -> None:
        if lang is not None and lang not in LANGUAGES:
            raise ValueError(lang)
        self.lang = lang

    def __enter__(self) -> None:
        global _threads
        if self.lang == "nl":
            _translations()
        _threads = True
        self._before = getattr(_here, "lang", None)
        _here.lang = self.lang

    def __exit__(self, *exc: object) -> None:
        _here.lang = self._before


def _translations() -> GNUTranslations:
    global _catalog
    if _catalog is None:
        import gettext

        if os.path.isfile(_mo_path()):  # installed as files: no importlib.resources (it costs more than the catalogue)
            # gettext's own cache keeps it: click's lookups in the default domain (bound to it) find it there
            _catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=["nl"])
        else:  # pragma: no cover - a zipped install
            import io
            from importlib.resources import files

            data = files("wiezen_score").joinpath(f"locale/nl/LC_MESSAGES/{DOMAIN}.mo").read_bytes()
            _catalog = gettext.GNUTranslations(io.BytesIO(data))
    assert _catalog is not None
    return _catalog


def _mo_path() -> str:
    return os.path.join(LOCALE_DIR, "nl", "LC_MESSAGES", f"{DOMAIN}.mo")


def msgid_of(text: str, msgids: Iterable[str]) -> str:
    """The msgid among ``msgids`` whose Dutch is ``text`` (a text made while Dutch was spoken, and kept), else
    ``text`` itself; nothing is loaded unless Dutch was spoken in this process."""
    if _catalog is None:
        return text
    return next((m for m in msgids if _catalog.gettext(m) == text), text)


def _(message: str) -> str:
    """``message`` in the current language (English is the msgid itself)."""
    if _current() == "en" or not message:
        return message
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    if _current() == "en":
        return singular if n == 1 else plural
    return _translations().ngettext(singular, plural, n)


_Msg = TypeVar("_Msg", bound=str)  # N_ gives back what it is given: a Literal stays one


def N_(message: _Msg) -> _Msg:
    """Mark ``message`` for extraction only; it is translated with :func:`_` where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context``: one English word with two Dutch ones ("deals": a column of counts,
    spelen; "jan deals": deelt)."""
    if _current() == "en" or not message:
        return message
    return _translations().pgettext(context, message)


def NP_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for extraction only; it is translated with :func:`pgettext` where shown."""
    return message


class english:
    """``with english():`` speaks English inside the block, whatever the language chosen.

    For documents that stay English in every language (JSON and CSV output): built inside the block, their
    texts (an explanation's steps, a check's messages) are the English ones.
    """

    def __enter__(self) -> None:
        self._in = speaking("en")  # in this thread only (a server's other threads go on in theirs)
        self._in.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._in.__exit__(*exc)
