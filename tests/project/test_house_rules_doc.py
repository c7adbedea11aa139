"""docs/house-rules.md: every key the loader accepts is documented there, with the presets that use it, and
its worked examples give what `wiezen calc` gives. Its Dutch twin docs/house-rules.nl.md documents every key
alike, shows the same worked examples and the error as the tool says it in Dutch. The README links to the page
and to nothing outside the repository.
"""

from __future__ import annotations

import json
import re
import shlex
from fractions import Fraction

import pytest
from _ledger_helpers import DATA, ROOT
from click.testing import CliRunner

from wiezen_score.cli import cli
from wiezen_score.core import rulekeys
from wiezen_score.core import rules as rules_mod
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import PRESETS, load_toml, parse_rules

DOC = ROOT / "docs" / "house-rules.md"
TEXT = DOC.read_text(encoding="utf-8")
DUTCH = (ROOT / "docs" / "house-rules.nl.md").read_text(encoding="utf-8")
# the words of a key's section, in English and in Dutch
WORDS = {TEXT: ("Presets: ", "all five", ("Default", "Required"), "Example"),
         DUTCH: ("Voorinstellingen: ", "alle vijf", ("Standaard", "Verplicht"), "Voorbeeld")}

# the files the examples name: the same as a preset with the one line the page says changed
FILES = {"optellen.toml": DATA / "rules-add.toml", **{name: DATA / "house-rules-doc" / name for name in (
    "duur-verliezen.toml", "over-troel-duur.toml", "per-niveau.toml", "pot.toml", "pot-als-team.toml")}}
FILES["gedeeld.toml"] = DATA / "rules-shared.toml"  # payment = "shared" (issue 30)
FILES["strafcafe.toml"] = DATA / "rules-penalties.toml"  # [penalties] (issue 30)


def _sections(text: str = TEXT) -> dict[str, str]:
    """Each `### `key`` heading with the text under it (up to the next heading). A key that has a section
    already (`dealer` of `[redeal]`, `lost` of a miserie) is named by its part of the page: `redeal.dealer`,
    `miserie.lost` (the English and the Dutch page alike)."""
    out: dict[str, str] = {}
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.M)
    part = ""
    for head, body in zip(parts[1::2], parts[2::2], strict=False):
        if head.startswith("## "):
            part = "redeal" if "[redeal]" in head else "miserie" if head.startswith("## Miserie") else ""
        for key in re.findall(r"`([a-z_]+)`", head) if head.startswith("### ") else []:
            out[f"{part}.{key}" if key in out else key] = body
    return out


SECTIONS = _sections()


def _accepted_keys() -> dict[str, set[str]]:
    """Every key the loader accepts, by where it goes (read from the loader, not copied here)."""
    return {
        "top": set(rules_mod._TOP_KEYS) - {"all_pass", "contracts", "redeal"},
        "all_pass": set(rules_mod._ALL_PASS_KEYS),
        "redeal": {f"redeal.{k}" for k in rulekeys.REDEAL_KEYS},
        "trick": set(rules_mod._TRICK_KEYS),
        # a miserie key that means something else for a trick contract has its own section: miserie.lost
        # (aliases and payment mean the same for both: one section)
        "miserie": {f"miserie.{k}" if k in rules_mod._TRICK_KEYS - {"aliases", "payment"} else k
                    for k in rules_mod._MISERIE_KEYS},
    }


def _all_keys() -> list[str]:
    return sorted(set().union(*_accepted_keys().values()))


def test_the_loader_accepts_what_the_test_thinks():
    # if the loader grows a key, this test grows with it: a new key must get its own section
    keys = _accepted_keys()
    assert {"doubling"} <= keys["top"] and {"double", "dealer"} == keys["all_pass"]
    assert {"doublings", "all_tricks_times"} <= keys["trick"] and "over_troel" in keys["miserie"]


@pytest.mark.parametrize("text", [TEXT, DUTCH], ids=["en", "nl"])
@pytest.mark.parametrize("key", _all_keys())
def test_every_key_has_a_section(key, text):
    presets, _all, default, example = WORDS[text]
    sections = _sections(text)
    assert key in sections, f"the page has no '### `{key}`' section"
    body = sections[key]
    assert re.search(rf"^{presets}", body, re.M), f"{key}: no '{presets}' line"
    assert any(w in body for w in default), f"{key}: no default given"
    assert example in body, f"{key}: no worked example"


def _presets_setting(key: str) -> set[str]:
    out = set()
    part, _dot, key = key.rpartition(".")
    for name in PRESETS:
        d = load_toml(preset_text(name))
        contracts = d.get("contracts", {}).values()
        tables = {
            "": [d, d.get("all_pass", {}), *contracts],
            "redeal": [d.get("redeal", {})],
            "miserie": [c for c in contracts if "miserie" in c],
        }[part]
        if any(key in t for t in tables):
            out.add(name)
    return out


@pytest.mark.parametrize("text", [TEXT, DUTCH], ids=["en", "nl"])
@pytest.mark.parametrize("key", _all_keys())
def test_the_presets_named_are_those_that_use_the_key(key, text):
    presets, all_five, _default, _example = WORDS[text]
    line = re.search(rf"^{presets}(.*(?:\n(?!\n).*)*)", _sections(text)[key], re.M).group(1)
    named = set(PRESETS) if line.startswith(all_five) else {p for p in re.findall(r"`([a-z-]+)`", line) if p in PRESETS}
    assert named == _presets_setting(key), f"{key}: the page names {sorted(named)}"


def _examples(text: str = TEXT) -> list[tuple[str, list[str], dict[str, Fraction]]]:
    out = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("$ wiezen calc "):
            args = shlex.split(line[len("$ wiezen calc "):])
            want = {}
            for part in lines[i + 1].split(", "):
                p, v = part.split()
                want[p] = Fraction(v)
            out.append((line, args, want))
    return out


EXAMPLES = _examples()


def test_there_are_worked_examples():
    assert len(EXAMPLES) >= 25


def test_the_dutch_page_shows_the_same_worked_examples():
    """The Dutch page's `$ wiezen calc` lines and their points are the English page's, which run below."""
    assert _examples(DUTCH) == EXAMPLES


@pytest.mark.parametrize("line,args,want", EXAMPLES, ids=[e[0][len("$ wiezen calc "):] for e in EXAMPLES])
def test_worked_example(line, args, want, tmp_path):
    args = [str(FILES.get(a, a)) for a in args]
    opts, deal = [], list(args)
    while deal and deal[0].startswith("--"):
        n = 1 if deal[0] == "--over-troel" else 2
        opts += deal[:n]
        deal = deal[n:]
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "none.db"), "calc", "--json", *opts, "--", *deal])
    assert r.exit_code == 0, r.output
    # every amount is a whole number of sixths; a third comes as the nearest JSON number (docs/json.md)
    got = {p: Fraction(round(v * 6), 6) for p, v in json.loads(r.stdout)["points"].items()}
    assert got == want, line


def test_the_example_files_are_one_line_from_their_preset():
    from wiezen_score.core.presets import load_preset
    from wiezen_score.core.rulediff import diff_rules

    new = parse_rules(FILES["optellen.toml"].read_text(encoding="utf-8"))
    changes = [c for c in diff_rules(load_preset("rupelstreek"), new) if not c.startswith(("name:", "description:"))]
    assert changes == ['doubling: "multiply" -> "add"']
    assert "optellen.toml` is the rupelstreek preset with one line changed, `doubling = \"add\"`" in TEXT


@pytest.mark.parametrize("heading", ["## A whole file", "## Een heel bestand"])
def test_the_whole_file_example_is_valid_house_rules(heading):
    block = re.search(rf"{heading}\n.*?```toml\n(.*?)```", TEXT + DUTCH, re.S).group(1)
    r = parse_rules(block, "docs/house-rules.md")
    assert r.all_pass_double == "queue" and r.contract("troel").doublings == 1


def test_the_dutch_error_shown_is_the_error_given(tmp_path):
    m = re.search(r"^\$ wiezen --lang nl rules add cafe.toml\nFout: cafe.toml: (regel (\d+): .*)$", DUTCH, re.M)
    text = preset_text("rupelstreek").replace('double = "once"', 'double = "twice"')
    path = tmp_path / "cafe.toml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["--lang", "nl", "--db", str(tmp_path / "w.db"), "rules", "add", str(path)])
    assert r.exit_code == 1
    assert r.stderr.strip() == f"Fout: {path}: {m.group(1)}"


def test_the_error_shown_is_the_error_given(tmp_path):
    m = re.search(r"^\$ wiezen rules add cafe.toml\nError: cafe.toml: (line (\d+): .*)$", TEXT, re.M)
    text = preset_text("rupelstreek").replace('double = "once"', 'double = "twice"')
    assert int(m.group(2)) == next(i for i, x in enumerate(text.splitlines(), 1) if "twice" in x)
    path = tmp_path / "cafe.toml"
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(cli, ["--db", str(tmp_path / "w.db"), "rules", "add", str(path)])
    assert r.exit_code == 1
    assert r.stderr.strip() == f"Error: {path}: {m.group(1)}"


# ---------------------------------------------------------------------------
# The README


README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_readme_links_to_the_house_rules_page():
    assert "(docs/house-rules.md)" in README


def test_readme_sends_nobody_outside_the_repository():
    assert "shared/" not in README and "SCORING.md" not in README and "INTERFACE.md" not in README
    assert "../" not in README
    for target in re.findall(r"\]\(([^)]+)\)", README):
        assert "://" not in target, f"the README links outside the repository: {target}"
        assert (ROOT / target.split("#")[0]).exists(), f"the README links to a missing file: {target}"
    for target in re.findall(r"\]\(([^)]+)\)", TEXT):
        assert "://" not in target and (DOC.parent / target.split("#")[0]).exists(), target


def test_the_source_distribution_carries_the_page(tmp_path):
    """The README's link holds in the sdist too (the page is not only in the git checkout)."""
    import os
    import tarfile

    from setuptools import build_meta

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        name = build_meta.build_sdist(str(tmp_path))
    finally:
        os.chdir(cwd)
    with tarfile.open(tmp_path / name) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"README.md", "docs/house-rules.md"} <= names
