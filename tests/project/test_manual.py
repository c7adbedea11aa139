"""The front door and the manual: README.md is short and starts with the two commands a newcomer needs; the
manual in docs/ (built by mkdocs, mkdocs.yml) has a Dutch twin for every page (docs/PAGE.nl.md), lists every page
in its nav, and sends nobody to a shared/ folder or to a file that is not there."""

from __future__ import annotations

import re

from _ledger_helpers import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
ENGLISH = sorted(p.name for p in DOCS.glob("*.md") if not p.name.endswith(".nl.md"))
DUTCH = sorted(p.name for p in DOCS.glob("*.nl.md"))
# Pages whose Dutch translation is still to be written (none now): the site would show the English page in their
# place (mkdocs-static-i18n's fallback_to_default). A page leaves this set when its docs/PAGE.nl.md is written.
UNTRANSLATED: set[str] = set()


def test_readme_is_a_front_door():
    assert len(README.splitlines()) <= 250


def test_readme_starts_with_the_two_commands():
    lines = README.splitlines()
    assert lines[0] == "# wiezen" and lines[2] == "```sh"
    block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert block[1].startswith("pip install . && wiezen replay examples/cafe-de-kroon-rupelstreek.txt")
    assert block[2].startswith('pip install ".[test]" && python -m pytest -q')
    assert "Voor de spelers" in "\n".join(lines[:30])  # the Dutch paragraph near the top


def test_every_page_has_its_dutch_twin_and_back():
    for twin in DUTCH:
        assert twin.removesuffix(".nl.md") + ".md" in ENGLISH, f"{twin} has no English page"
    missing = {page for page in ENGLISH if page.removesuffix(".md") + ".nl.md" not in DUTCH}
    assert missing == UNTRANSLATED, (sorted(missing - UNTRANSLATED), sorted(UNTRANSLATED - missing))


def test_the_nav_lists_every_page():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = config.split("\nnav:\n", 1)[1]
    listed = re.findall(r":\s*([\w.-]+\.md)\s*$", nav, flags=re.M)
    assert sorted(listed) == ENGLISH
    assert "docs_structure: suffix" in config


def test_no_page_names_a_shared_folder_or_a_missing_file():
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text, path.name
        for target in re.findall(r"\]\(([^)\s]+)\)", text) + re.findall(r'src="([^"]+)"', text):
            assert "://" not in target, f"{path.name} links outside the repository: {target}"
            file = target.split("#")[0]
            assert not file or (path.parent / file).exists(), f"{path.name} links to a missing file: {target}"


def test_the_docs_extra_and_ci_build_the_manual():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^docs = \[.*"mkdocs', pyproject, flags=re.M)
    assert "mkdocs build --strict" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install ".[docs]"' in README and "mkdocs build --strict" in README
