"""views/formats.py: the one registry of output formats, and every --format of every command drawn from it."""

from __future__ import annotations

import json

import click
import pytest

from wiezen_score.cli import COMMANDS, cli
from wiezen_score.cli.common import output_options
from wiezen_score.views.formats import FORMATS, Listing, write


def _commands():
    ctx = click.Context(cli)
    for name in COMMANDS:
        cmd = cli.get_command(ctx, name)
        subs = cmd.commands.values() if isinstance(cmd, click.Group) else [cmd]
        yield from subs


def test_every_format_option_offers_only_registered_formats():
    offered = set()
    for cmd in _commands():
        for p in cmd.params:
            if p.name == "out_format":
                offered |= set(p.type.choices)
    assert offered  # the walk found the --format options
    assert offered <= set(FORMATS)
    assert {"table", "text", "json", "csv", "markdown", "html"} <= offered


def test_a_command_cannot_offer_a_format_the_registry_lacks():
    with pytest.raises(ValueError, match="no format yaml"):
        output_options(("table", "yaml"))


LISTING = Listing(
    headers=["player", "points"], rows=[["jan", 7], ["piet", -7.5]], items=[{"player": "jan", "points": 7}],
    markdown=lambda: "| player |", html=lambda: "<html></html>\n",
)


def test_each_format_writes_its_own_form():
    assert json.loads(write("json", LISTING)) == [{"player": "jan", "points": 7}]
    assert write("csv", LISTING) == '"player","points"\n"jan",7\n"piet",-7.5\n'
    assert write("csv", LISTING, "excel-nl") == '"player";"points"\n"jan";7\n"piet";-7,5\n'
    table = write("table", LISTING)
    assert table.splitlines()[0].split() == ["player", "points"] and "-7.5" in table and table.endswith("\n")
    assert write("text", LISTING) == table
    assert write("markdown", LISTING) == "| player |\n"
    assert write("html", LISTING) == "<html></html>\n"


def test_a_commands_own_text_and_csv_rows_win():
    own = Listing(headers=["a"], rows=[[1]], text=lambda: "one line", csv_headers=["a", "b"], csv_rows=[[1, 2]])
    assert write("table", own) == "one line\n"
    assert write("csv", own) == '"a","b"\n1,2\n'


def test_a_format_without_its_form_is_an_error():
    with pytest.raises(ValueError, match="no html form"):
        write("html", Listing(headers=["a"], rows=[[1]]))


def test_machine_formats_are_marked():
    assert {name for name, f in FORMATS.items() if f.machine} == {"json", "csv"}


def test_no_command_chooses_its_output_by_an_if_chain_on_the_format():
    import pathlib
    import re

    cli_dir = pathlib.Path(__file__).resolve().parents[2] / "wiezen_score" / "cli"
    found = [
        f"{p.name}:{n}"
        for p in sorted(cli_dir.glob("*.py"))
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\b(output\.format|out_format)\s*(==|!=|in\b)", line)
    ]
    # the one exception: `precedent search` prints its text itself, in colour on a terminal (json and csv
    # still go through the registry)
    assert len(found) == 1 and found[0].startswith("precedent.py:"), found
