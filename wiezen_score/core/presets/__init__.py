"""The built-in house-rules presets, shipped as TOML files beside this module."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

from ..errors import WiezenError
from ..i18n import NP_, _, dutch, pgettext
from ..rules import PRESETS, HouseRules, parse_rules

#: the comments in the presets' files, as written there, marked for the catalogue: `rules show` prints a preset
#: with its comments in the language spoken (tests/cli/test_dutch_penalty_redeal_files.py fails when a preset's comment is not listed)
PRESET_COMMENTS: tuple[str, ...] = (
    NP_("house-rules comment", '"alone" or "split"'),
    NP_("house-rules comment", '"multiply" or "add": how several doublings of one deal combine'),
    NP_("house-rules comment", '"none", "once", "stack" or "queue"'),
    NP_("house-rules comment", '"same" or "next"'),
    NP_("house-rules comment", "counts a gewoon spelletje double: samen's amounts, doubled"),
    NP_("house-rules comment", "four aces, played for 9"),
    NP_("house-rules comment", "gewoon spelletje, 1 v 3"),
    NP_("house-rules comment", "gewoon spelletje, 2 v 2"),
    NP_("house-rules comment", "miserie op tafel"),
    NP_("house-rules comment", "onder tafel spelen doubles"),
    NP_("house-rules comment", "open miserie bid over a troel"),
    NP_("house-rules comment", "strafpunten: the offender pays this to each other player of the deal"),
    NP_("house-rules comment", "the contract's own doublings"),
    NP_("house-rules comment", "troel for nine: the partner changed trump"),
)


def preset_text(name: str) -> str:
    if name not in PRESETS:
        raise WiezenError(_("no built-in house rules '{name}'; built in: {presets}").format(name=name, presets=", ".join(PRESETS)))
    return files(__package__).joinpath(f"{name}.toml").read_text(encoding="utf-8")


def comments_shown(text: str) -> str:
    """A house-rules file as `rules show` prints it: each comment of a preset's (PRESET_COMMENTS) in the language
    spoken; the rest, a club's own comments included, as written."""
    if not dutch():
        return text
    known = set(PRESET_COMMENTS)
    out = []
    for line in text.split("\n"):
        code, sep, comment = line.partition("# ")
        if sep and code.count('"') % 2 == 0 and comment.strip() in known:
            line = code + sep + pgettext("house-rules comment", comment.strip())
        out.append(line)
    return "\n".join(out)


@cache
def load_preset(name: str) -> HouseRules:
    return parse_rules(preset_text(name), f"preset '{name}'")
