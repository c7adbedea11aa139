"""The manual (mkdocs.yml, docs/): every page is in the nav, every nav entry is a page."""

from __future__ import annotations

import re

from _ledger_helpers import ROOT


def nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text.split("\nnav:\n", 1)[1]
    return re.findall(r"^\s+- [^:\n]+: (\S+\.md)\s*$", nav, flags=re.M)


def test_nav_lists_every_page_and_only_pages():
    pages = nav_pages()
    assert pages and len(pages) == len(set(pages))
    on_disk = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    assert sorted(pages) == on_disk


def test_pyproject_has_the_docs_extra():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^docs = \["mkdocs', text, flags=re.M)
