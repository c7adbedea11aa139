"""Every command's --help in Dutch has no English left: no msgid of the catalogue that has a Dutch text
other than itself (help paragraphs, option help, metavar words, click's own words) shows in it."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wiezen_score.cli import COMMANDS, cli

ROOT = Path(__file__).resolve().parents[2]
MO = ROOT / "wiezen_score" / "locale" / "nl" / "LC_MESSAGES" / "wiezen.mo"
ENV = {"WIEZEN_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def command_paths():
    paths = []

    def walk(cmd, path, parent):
        ctx = click.Context(cmd, info_name=path[-1] if path else "wiezen", parent=parent)
        paths.append(tuple(path))
        if isinstance(cmd, click.Group):
            for name in (sorted(COMMANDS) if cmd is cli else cmd.list_commands(ctx)):
                walk(cmd.get_command(ctx, name), [*path, name], ctx)

    walk(cli, [], None)
    return paths


PATHS = command_paths()


def _flat(text):
    return " ".join(text.split())


def english_texts():
    """The English the Dutch help must not show: msgids (without placeholders) whose Dutch text differs."""
    catalog = gettext.GNUTranslations(MO.open("rb"))._catalog
    long, words = [], []
    for key, value in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if isinstance(key, tuple) and key[1] != 0 or not msgid or "{" in msgid or "%(" in msgid:
            continue
        if value == msgid:
            continue
        if re.fullmatch(r"[A-Z][A-Z_ ]+", msgid):  # a metavar word: as a whole word only
            words.append(re.compile(rf"(?<![\w-]){re.escape(msgid)}(?![\w-])"))
        elif len(msgid) >= 12 and " " in msgid or msgid.endswith(":"):
            long.append(_flat(msgid))
    return long, words


LONG, WORDS = english_texts()


def english_left(text):
    flat = _flat(text)
    return [m for m in LONG if m in flat] + [w.pattern for w in WORDS if w.search(text)]


def _help(path, *lang):
    r = CliRunner().invoke(cli, [*lang, *path, "--help"], env=ENV, prog_name="wiezen", terminal_width=100)
    assert r.exit_code == 0, (path, r.output)
    return r.stdout


def test_every_command_is_walked():
    names = {p[0] for p in PATHS if p}
    assert names == set(COMMANDS)
    assert ("session", "start") in PATHS and ("db", "backup") in PATHS and ("precedent", "search") in PATHS
    assert len(PATHS) > 35


@pytest.mark.parametrize("path", PATHS, ids=lambda p: " ".join(p) or "wiezen")
def test_the_dutch_help_has_no_english_left(path):
    english = _help(path)
    dutch = _help(path, "--lang", "nl")
    # the check has teeth: the same command's English help is caught by it
    assert english_left(english), f"nothing of the catalogue found in the English help of {path}"
    assert dutch.startswith("Gebruik: wiezen") and "Opties:" in dutch
    assert english_left(dutch) == [], dutch


def test_every_command_argument_and_path_is_one_of_ours():
    """Our help is said in Dutch by cli/dutch.py's subclasses: a command made with a plain @click.command (or an
    argument, a path) would keep its English."""
    from wiezen_score.cli.dutch import Argument, Command, Group, Path

    def walk(cmd, parent):
        ctx = click.Context(cmd, info_name=cmd.name, parent=parent)
        assert isinstance(cmd, (Command, Group)), cmd.name
        for param in cmd.params:
            assert not isinstance(param, click.Argument) or isinstance(param, Argument), (cmd.name, param.name)
            assert not isinstance(param.type, click.Path) or isinstance(param.type, Path), (cmd.name, param.name)
        if isinstance(cmd, click.Group):
            for name in (sorted(COMMANDS) if cmd is cli else cmd.list_commands(ctx)):
                walk(cmd.get_command(ctx, name), ctx)

    walk(cli, None)
