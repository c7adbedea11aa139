"""`wiezen rules list|show|diff|add`: the built-in house rules, the ones a club added, and what differs."""

from __future__ import annotations

import click

from ..core.i18n import N_, _
from ..core.rules import PRESETS, parse_rules, summary
from .common import Output, SafePath, echo, echo_json, output_options, read_input, rules_from_spec
from .completion import complete_rules
from .dutch import argument, group


@group()
def rules() -> None:
    """List, show, compare and add house rules.

    \b
    Examples:
        wiezen rules list
        wiezen rules show rupelstreek > mijn-cafe.toml     (then edit a line)
        wiezen rules diff rupelstreek mijn-cafe.toml
        wiezen rules add mijn-cafe.toml
        wiezen session start --players jan,piet,mieke,lotte --rules mijn-cafe
    """


def _all_rules(ctx: click.Context) -> list[tuple[str, str, str]]:
    """(name, origin, TOML text) of every preset and every house rules added to the ledger."""
    from .. import ledger
    from ..core.presets import preset_text

    out = [(name, N_("built in"), preset_text(name)) for name in PRESETS]
    out += [(name, N_("added"), text) for name, text in ledger.added_rules(ctx.obj.get("db"))]
    return out


@rules.command("list")
@output_options(json_help="JSON output: a list of {name, origin, description, summary}.")
@click.pass_context
def list_(ctx: click.Context, output: Output) -> None:
    """List the built-in and added house rules, with a one-line summary each.

    \b
    Examples:
        wiezen rules list
        wiezen rules list --json
    """
    items = []
    for name, origin, text in _all_rules(ctx):
        r = parse_rules(text, name)
        items.append({"name": name, "origin": origin, "description": r.description, "summary": summary(r)})
    # the table is for a person: its origin in the language spoken (JSON and CSV keep "built in", "added")
    output.emit([N_("name"), N_("origin"), N_("summary")], [[r["name"], _(r["origin"]), r["summary"]] for r in items],
                items, csv_headers=[N_("name"), N_("origin"), N_("description"), N_("summary")],
                csv_rows=[[r["name"], r["origin"], r["description"], r["summary"]] for r in items])


@rules.command()
@argument("name", shell_complete=complete_rules)
@click.option("--json", "as_json", is_flag=True, help="The house rules as JSON instead of TOML.")
@click.pass_context
def show(ctx: click.Context, name: str, as_json: bool) -> None:
    """Print house rules NAME as a house-rules file (TOML), ready to copy and edit.

    NAME is a preset, house rules added with `rules add`, or the path of a .toml file.

    \b
    Examples:
        wiezen rules show whisthub
        wiezen rules show rupelstreek --json
    """
    from .. import ledger

    _rules, text = rules_from_spec(name, ledger.rules_lookup(ctx.obj.get("db")))
    if as_json:
        from ..core.rules import load_toml

        echo_json(load_toml(text, name))
    else:
        from ..core.presets import comments_shown

        echo(comments_shown(text), nl=not text.endswith("\n"))


@rules.command()
@argument("old", shell_complete=complete_rules)
@argument("new", shell_complete=complete_rules)
@click.option("--json", "as_json", is_flag=True, help="JSON output: a list of the differences.")
@click.pass_context
def diff(ctx: click.Context, old: str, new: str, as_json: bool) -> None:
    """Show what differs between house rules OLD and NEW, key by key.

    OLD and NEW are presets, house rules added with `rules add`, or paths of .toml files. Each line names
    a key as the house-rules file writes it, with the value in OLD and in NEW; keys left out count as
    their default.

    \b
    Examples:
        wiezen rules diff whisthub rupelstreek
        wiezen rules diff rupelstreek mijn-cafe.toml
    """
    from .. import ledger
    from ..core.rulediff import diff_rules

    lookup = ledger.rules_lookup(ctx.obj.get("db"))
    a, _text_a = rules_from_spec(old, lookup)
    b, _text_b = rules_from_spec(new, lookup)
    changes = diff_rules(a, b)
    if as_json:
        echo_json(changes)
    elif not changes:
        echo(_("no differences between '{old}' and '{new}'").format(old=old, new=new))
    else:
        for line in changes:
            echo(line)


@rules.command()
@argument("file", type=SafePath(dir_okay=False, allow_dash=True))
@click.option("--reason", help="Why the house rules change (kept with the automatic precedent).")
@click.pass_context
def add(ctx: click.Context, file: str, reason: str | None) -> None:
    """Add house rules from a TOML FILE to the ledger, under the name the file gives.

    Adding a file whose name is already added replaces those house rules for new sessions; sessions
    already recorded keep the house rules they were started under. The name of a built-in preset
    cannot be taken.

    \b
    Example:
        wiezen rules show rupelstreek > ons-cafe.toml
        (edit: name = "ons-cafe", penalty = 10)
        wiezen rules add ons-cafe.toml
        sed 's/penalty = 5/penalty = 10/' ons-cafe.toml | wiezen rules add -
    """
    from .. import ledger
    from ..core.errors import WiezenError

    text = read_input(file, N_("house-rules file"))
    label = "stdin" if file == "-" else file
    r = parse_rules(text, label)
    if r.name in PRESETS:
        raise WiezenError(_("'{name}' is a built-in preset: give your house rules another name in {file}").format(
            name=r.name, file=label))
    from .common import new_ledger_note

    with ledger.open_ledger(ctx.obj.get("db"), create=new_ledger_note) as led:
        result = led.add_rules(r.name, text, reason=reason)
    echo(result)
