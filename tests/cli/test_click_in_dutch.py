"""click's own messages in Dutch the way click is made to be translated: its modules call gettext.gettext, which
looks them up in the process's default text domain; speaking Dutch binds that domain to our catalogue
(core/i18n.py), and English gives it back."""

from __future__ import annotations

import gettext
import os

import click
import pytest
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.cli.dutch import Command
from wiezen_score.cli.lang import apply
from wiezen_score.core import i18n

NEUTRAL = {"WIEZEN_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


@pytest.fixture
def english_after():
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("language_variable", [None, "fr:de"])
def test_dutch_binds_the_default_domain_and_english_gives_it_back(monkeypatch, english_after, language_variable):
    if language_variable is None:
        monkeypatch.delenv("LANGUAGE", raising=False)
    else:
        monkeypatch.setenv("LANGUAGE", language_variable)
    domain = gettext.textdomain()
    assert gettext.gettext("Usage:") == "Usage:"
    i18n.set_language("nl")
    assert gettext.textdomain() == i18n.DOMAIN and os.environ["LANGUAGE"] == "nl"
    assert gettext.gettext("Usage:") == "Gebruik:"  # what click.formatting says
    one, more = "Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."
    assert gettext.ngettext(one, more, 2) == i18n.ngettext(one, more, 2) != more
    i18n.set_language("nl")  # again: what it saved is kept
    i18n.set_language("en")
    assert gettext.textdomain() == domain
    assert os.environ.get("LANGUAGE") == language_variable
    assert gettext.gettext("Usage:") == "Usage:"


def test_the_language_chosen_wins_over_the_locale_for_clicks_messages(tmp_path):
    """gettext alone would take the language of $LANGUAGE or the locale: --lang nl says Dutch under an English one."""
    env = {**NEUTRAL, "LANGUAGE": "en_GB:en", "LANG": "en_GB.UTF-8"}
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "--lang", "nl", "calc", "--rules"], env=env,
                           prog_name="wiezen")
    assert r.exit_code == 2
    assert r.stderr.strip() == "Fout: De optie '--rules' heeft een waarde nodig."
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "calc", "--rules"], env=env, prog_name="wiezen")
    assert r.stderr.strip() == "Error: Option '--rules' requires an argument."
    assert i18n.language() == "en" and gettext.textdomain() == "messages"


def test_a_help_option_made_in_dutch_is_english_in_english(english_after):
    """click makes a command's --help option the first time the command runs, with its help text in the language of
    that moment, and keeps it: shown in English afterwards, it says the msgid."""

    @click.command(cls=Command)
    def hello() -> None:
        """Say hello."""

    apply("nl")
    assert "Toon deze hulp en stop." in CliRunner().invoke(hello, ["--help"], env=NEUTRAL).stdout
    apply("en")
    shown = CliRunner().invoke(hello, ["--help"], env=NEUTRAL).stdout
    assert "Show this message and exit." in shown and "Toon" not in shown


def _click_classes() -> dict[tuple[str, str], object]:
    """Every function and attribute of click's classes, as they are."""
    classes = [v for v in vars(click).values() if isinstance(v, type) and v.__module__.startswith("click")]
    return {(c.__qualname__, k): v for c in classes for k, v in vars(c).items()}


def test_dutch_patches_nothing_of_click(english_after, tmp_path):
    """Our help in Dutch comes from our own subclasses (cli/dutch.py): speaking Dutch changes no method or attribute
    of click's classes, and a plain click command (not ours) is left as written."""
    before = _click_classes()

    @click.command()
    @click.argument("name")
    @click.option("--file", type=click.Path(dir_okay=False), help="Where it goes.")
    def plain(name: str, file: str | None) -> None:
        """Say hello."""

    r = CliRunner().invoke(cli, ["--lang", "nl", "--db", str(tmp_path / "w.db"), "import", "--help"], env=NEUTRAL)
    assert "import [OPTIES] BESTAND" in r.stdout
    apply("nl")
    shown = CliRunner().invoke(plain, ["--help"], env=NEUTRAL).stdout  # click's own words in Dutch, ours not
    assert "Say hello." in shown and "Where it goes." in shown and "NAME" in shown and "Opties:" in shown
    assert _click_classes() == before
