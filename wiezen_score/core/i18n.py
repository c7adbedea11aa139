"""The language of everything a user sees: English msgids, the Dutch catalogue loaded on first use.

Every user-visible string in the package is written in English and passed through :func:`_` (or
:func:`ngettext`) when it is shown; :func:`N_` only marks a string for extraction where it is translated
later. The catalogue is package data (``wiezen_score/locale/nl/LC_MESSAGES/wiezen.mo``, compiled from
``wiezen.po`` by ``python tools/i18n.py compile``), read like the presets are: no user I/O. In English
nothing is loaded at all, so start-up costs nothing.

The language is chosen once per command by the command line (:func:`choose`): ``--lang``, else
``$WIEZEN_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG`` starting with ``nl``), else English.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:  # pragma: no cover
    from gettext import GNUTranslations

LANGUAGES = ("en", "nl")
DOMAIN = "wiezen"

_language = "en"
_catalog: GNUTranslations | None = None


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


def language() -> str:
    return _language


def dutch() -> bool:
    return _language == "nl"


def _translations() -> GNUTranslations:
    global _catalog
    if _catalog is None:
        import gettext
        import io
        import os

        name = f"locale/nl/LC_MESSAGES/{DOMAIN}.mo"
        path = os.path.join(os.path.dirname(os.path.dirname(__file__)), *name.split("/"))
        if os.path.isfile(path):  # installed as files: no importlib.resources (it costs more than the catalogue)
            with open(path, "rb") as f:
                data = f.read()
        else:  # pragma: no cover - a zipped install
            from importlib.resources import files

            data = files("wiezen_score").joinpath(name).read_bytes()
        _catalog = gettext.GNUTranslations(io.BytesIO(data))
    return _catalog


def _(message: str) -> str:
    """``message`` in the current language (English is the msgid itself)."""
    if _language == "en" or not message:
        return message
    return _translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    if _language == "en":
        return singular if n == 1 else plural
    return _translations().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; it is translated with :func:`_` where it is shown."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context``: one English word with two Dutch ones ("deals": a column of counts,
    spelen; "jan deals": deelt)."""
    if _language == "en" or not message:
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
        global _language
        self._before = _language
        _language = "en"

    def __exit__(self, *exc: object) -> None:
        global _language
        _language = self._before
