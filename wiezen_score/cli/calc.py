"""`wiezen calc`: score a deal without recording it."""

from __future__ import annotations

import json
import sys
from typing import BinaryIO

import click

from ..core.deal import MiserieDeal, impossible_reason, parse_deal
from ..core.errors import WiezenError
from ..core.i18n import _
from ..core.numbers import fmt, signed
from ..core.rules import DEFAULT_RULES, HouseRules
from ..core.scoring import Score, score
from ..views.calc import _doc
from ..views.render import table
from .common import DEAL_ARGS, deal_text, echo, echo_json, rules_from_spec
from .completion import complete_deal, complete_rules
from .dutch import argument, command


def _defaults(ctx: click.Context) -> tuple[list[str] | None, str | None]:
    """The open session's players and house-rules snapshot, when a ledger with an open session exists."""
    from .. import ledger

    path = ledger.existing_db_path(ctx.obj.get("db"))
    if path is None:
        return None, None
    info = ledger.peek_open_session(path)
    if info is None:
        return None, None
    return info


def score_line(line: str, rules: HouseRules, names: list[str], multiplier: int, over_troel: bool) -> tuple[str, Score]:
    """The canonical text of ``line`` and its score; a rondje pas or a redeal (as the table says them) scores 0, a
    penalty (``penalty A renonce``: a kind of the house rules' [penalties], else their one amount) what it costs."""
    from ..core.sessionfile import parse_entry

    words = line.split()
    e = parse_entry(words) if words else None
    if e is not None and getattr(e, "kind", "deal") in ("pass", "redeal", "penalty"):
        from ..core.session import TableState, apply

        sc = apply(e, rules, names, TableState(0, multiplier))  # type: ignore[arg-type]
        steps = sc.explanation[:-1] if sc.kind == "pass" else sc.explanation  # no table here: no dealer (last step)
        return sc.text, Score(sc.points, 1, None, steps)
    d = parse_deal(line, rules, names, over_troel=over_troel, possible=False)
    s = score(d, rules, names, multiplier)
    why = impossible_reason(d) if isinstance(d, MiserieDeal) else None
    if why:  # the rule table still defines the points; a deal like this is refused when recorded
        echo(_("Warning: {reason}: no real deal ends like this, and `wiezen deal` refuses it").format(reason=why), err=True)
        s = Score(s.points, s.multiplier, s.made, (*s.explanation, _("impossible at a real table: {reason}").format(reason=why)))
    return d.text, s


@command(context_settings=DEAL_ARGS)
@argument("deal", nargs=-1, shell_complete=complete_deal)
@click.option("--rules", "rules_spec", metavar="NAME|FILE", shell_complete=complete_rules, help="House rules: a preset, added rules, or a .toml file. "
              "Default: the open session's, else whisthub.")
@click.option("--players", metavar="A,B,C,D", help="The four players, comma-separated. Default: the four who play the "
              "open session's next deal, else A,B,C,D.")
@click.option("--multiplier", type=click.IntRange(min=1, max=2**20), default=1, show_default=True,
              help="Multiply every amount (x2 after a rondje pas under doubling house rules).")
@click.option("--over-troel", is_flag=True, help="Open miserie bid over a troel (wikibooks-wiezen: 24 instead of 12).")
@click.option("--each", "each", type=click.File("rb"), metavar="FILE|-",
              help="Score one deal line per line of FILE (- for stdin); blank lines and # comments are skipped.")
@click.option("--json", "as_json", is_flag=True, help="JSON output (with --each: one JSON object per line).")
@click.pass_context
def calc(ctx: click.Context, deal: tuple[str, ...], rules_spec: str | None, players: str | None, multiplier: int,
         over_troel: bool, each: BinaryIO | None, as_json: bool) -> None:
    """Score one deal under house rules, without recording anything.

    DEAL is a deal line: CONTRACT [LEVEL] TAKER[+PARTNER] TRICKS, or for miseries
    CONTRACT PLAYER TRICKS [PLAYER TRICKS ...].

    \b
    Examples:
        wiezen calc samen 9 A+B 11
        wiezen calc --rules rupelstreek --multiplier 2 troel A+B 13
        wiezen calc --players jan,piet,mieke,lotte grote-miserie jan 0 piet 2
        wiezen calc --rules wikibooks-wiezen --over-troel open-miserie A 0
        wiezen calc --json --each deals.txt
    """
    if each is not None and deal:
        raise click.UsageError(_("give a DEAL or --each FILE, not both"))
    if each is None and not deal:
        raise click.UsageError(_("give a DEAL to score, e.g. `wiezen calc samen 9 A+B 11`, or --each FILE"))
    if as_json and each is None:  # one deal as JSON: an error is JSON too, {"error": TEXT} (English, as all JSON)
        from ..core.i18n import english

        with english():
            try:
                rules, names = _rules_and_players(ctx, rules_spec, players)
                line = deal_text(deal)
                _text, s = score_line(line, rules, names, multiplier, over_troel)
            except WiezenError as e:
                echo_json({"error": str(e)})
                ctx.exit(1)
        echo_json(_doc(line, rules, s))
        return
    rules, names = _rules_and_players(ctx, rules_spec, players)
    if each is None:
        line = deal_text(deal)
        text, s = score_line(line, rules, names, multiplier, over_troel)
        echo(table([[p, signed(v)] for p, v in s.points.items()], [_("player"), _("points")], colalign=("left", "right")))
        echo()
        echo(f"{text} ({rules.name}{f', x{multiplier}' if multiplier > 1 else ''}):")
        for step in s.explanation:
            echo(f"  {step}")
        return
    failed = _each(each, rules, names, multiplier, over_troel, as_json)
    if failed:
        ctx.exit(1)


def _rules_and_players(ctx: click.Context, rules_spec: str | None, players: str | None) -> tuple[HouseRules, list[str]]:
    """The house rules and the four players of --rules and --players, or of the open session, or the defaults."""
    session_players, session_rules = (None, None)
    if players is None or rules_spec is None:
        session_players, session_rules = _defaults(ctx)
    if rules_spec is not None:
        from .. import ledger

        rules, _text = rules_from_spec(rules_spec, ledger.rules_lookup(ctx.obj.get("db")))
    elif session_rules is not None:
        from ..core.rules import parse_rules

        rules = parse_rules(session_rules, _("the open session's house rules"))
    else:
        rules, _text = rules_from_spec(DEFAULT_RULES)
    if players is not None:
        names = [p.strip() for p in players.split(",")]
        if any(not n for n in names):
            raise WiezenError(_("--players '{players}': a name is empty").format(players=players))
        if len({n.casefold() for n in names}) != len(names):
            raise WiezenError(_("--players '{players}': a player is named twice").format(players=players))
        if len(names) != 4:
            raise WiezenError(_("a deal is played by exactly four players; --players names {count}").format(count=len(names)))
    elif session_players is not None and len(session_players) == 4:
        names = list(session_players)
    else:
        names = ["A", "B", "C", "D"]
    return rules, names


def _each(src: BinaryIO, rules: HouseRules, names: list[str], multiplier: int, over_troel: bool, as_json: bool) -> int:
    out = sys.stdout
    failed = 0
    dumps = json.dumps
    from ..core.text import decode_utf8
    from ..views.safe import safe, safe_json
    from .common import echo_line

    for no, data in enumerate(src, 1):
        try:
            # a byte-order mark some editors write is dropped (utf-8-sig)
            line = decode_utf8(data, _("the line"), one_line=True).strip().lstrip("\ufeff").strip()
            if not line or line.startswith("#"):
                continue
            text, s = score_line(line, rules, names, multiplier, over_troel)
        except WiezenError as e:
            failed += 1
            if as_json:
                out.write(safe_json(dumps({"line": no, "error": str(e)}, ensure_ascii=False)) + "\n")
            else:
                echo_line(_("Error: line {number}: {message}").format(number=no, message=e), err=True)
            continue
        if as_json:
            out.write(safe_json(dumps(_doc(line, rules, s), ensure_ascii=False)) + "\n")
        else:
            out.write("\t".join(safe(x) for x in [text, *(f"{p} {fmt(v)}" for p, v in s.points.items())]) + "\n")
    return failed
