"""The command reference (docs/cli.md), made from the commands' own --help by cog.

Regenerate it with::

    cog -r docs/cli.md

tests/project/test_docs.py fails when a --help changes and docs/cli.md was not regenerated.
"""

from __future__ import annotations

from collections.abc import Iterator

import click


def command_paths() -> Iterator[tuple[list[str], click.Command]]:
    """Every command and sub-command, in the order of `wiezen --help`, groups before their commands."""
    from . import cli

    ctx = click.Context(cli, info_name="wiezen")

    def walk(cmd: click.Command, path: list[str]) -> Iterator[tuple[list[str], click.Command]]:
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    yield from walk(sub, path + [name])

    yield from walk(cli, [])


def help_text(path: list[str]) -> str:
    """`wiezen PATH --help` as a user sees it in an 80-column terminal, in English."""
    from click.testing import CliRunner

    from . import cli

    env = {"WIEZEN_LANG": "en", "LANG": "C.UTF-8", "LC_ALL": None, "LC_MESSAGES": None, "COLUMNS": "80",
           "WIEZEN_DB": None, "NO_COLOR": "1"}  # fmt: skip
    r = CliRunner().invoke(cli, [*path, "--help"], env=env, prog_name="wiezen", terminal_width=80, color=False)
    if r.exit_code != 0:
        raise RuntimeError(f"wiezen {' '.join(path)} --help exited {r.exit_code}: {r.output}")
    return r.output


def cli_reference() -> str:
    """The Markdown of every command's --help, one section each."""
    out = []
    for path, _ in command_paths():
        title = " ".join(["wiezen", *path])
        anchor = "-".join(["wiezen", *path])
        out.append(f'<a id="{anchor}"></a>\n### `{title}`\n\n```\n{help_text(path).rstrip()}\n```\n')
    return "\n".join(out)
