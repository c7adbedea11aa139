"""The Dutch catalogue against the code: every msgid the program can show has a Dutch text with the same
{placeholders}, the .po reads cleanly (no duplicate msgid), and the committed .mo is the compiled .po.

The msgids are extracted as tools/i18n.py does it (babel over ``_``/``N_``/``ngettext`` in wiezen_score, the
help texts of the click command tree, click's own messages), so adding a message without its Dutch text
fails here, naming the message and where it is used.
"""

from __future__ import annotations

import gettext
import importlib.util
import io
import sys
from pathlib import Path

import pytest

pytest.importorskip("babel")

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("wiezen_i18n_tool", ROOT / "tools" / "i18n.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool
_spec.loader.exec_module(tool)


@pytest.fixture(scope="module")
def found():
    return tool.extract()


@pytest.fixture(scope="module")
def entries():
    entries, problems = tool.read_po(tool.PO)
    assert problems == []
    return entries


def _show(messages):
    return "\n".join(f"  {m.msgid!r}  ({', '.join(m.places[:2])})" for m in messages)


def test_the_extraction_finds_every_kind_of_message(found):
    # one of each source, so that an extraction that silently finds nothing cannot pass the tests below
    assert "Error: {message}" in found  # click's own, with its {placeholder}
    assert "Show this message and exit." in found and "Usage:" in found
    assert found["Got unexpected extra argument ({args})"].msgid_plural == "Got unexpected extra arguments ({args})"
    assert "Score one deal without recording it." in found  # the group's command table (N_)
    assert "Error: interrupted" in found  # _() in cli/__init__.py
    assert "Score one deal under house rules, without recording anything." in found  # calc's docstring
    assert any(p.startswith("help: wiezen calc") for p in found["Score one deal under house rules, without recording anything."].places)
    assert len(found) > 250


#: help texts still being translated (their Dutch comes in the next step of issue 16): only these may be missing
HELP_PENDING = False


def test_every_message_has_a_dutch_text(found, entries):
    report = tool.check(tool.PO, found)
    if HELP_PENDING:
        report.missing = [m for m in report.missing if not all(p.startswith("help: ") for p in m.places)]
    assert not report.missing, f"{len(report.missing)} messages without Dutch (python tools/i18n.py missing):\n" + _show(report.missing)


def test_the_dutch_texts_keep_the_placeholders(found):
    report = tool.check(tool.PO, found)
    assert report.placeholder_errors == []


def test_the_committed_mo_is_the_compiled_po(entries):
    """Compared as catalogues (what gettext reads), so `pybabel compile` (which rewrites the header) and
    `python tools/i18n.py compile` both satisfy it; a .po changed without recompiling does not."""
    fresh = gettext.GNUTranslations(io.BytesIO(tool.compile_mo(entries)))
    committed = gettext.GNUTranslations(io.BytesIO(tool.MO.read_bytes()))
    want = {k: v for k, v in fresh._catalog.items() if k != ""}
    got = {k: v for k, v in committed._catalog.items() if k != ""}
    assert set(want) - set(got) == set(), "in the .po, not in the .mo: run python tools/i18n.py compile"
    assert set(got) - set(want) == set(), "in the .mo, not in the .po: run python tools/i18n.py compile"
    assert {k for k in want if want[k] != got[k]} == set(), "the .mo has other texts: run python tools/i18n.py compile"
    assert committed.plural(1) == fresh.plural(1) == 0 and committed.plural(2) == fresh.plural(2) == 1


def test_compile_is_deterministic_and_readable_by_gettext(entries):
    a, b = tool.compile_mo(entries), tool.compile_mo(entries)
    assert a == b
    t = gettext.GNUTranslations(io.BytesIO(a))
    assert t.gettext("Error: {message}") == "Fout: {message}"
    assert t.ngettext("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})", 2).startswith("te veel")


def test_no_function_hides_the_translation_function():
    """`x, _ = pair` in a function that also calls `_()` makes that call an UnboundLocalError."""
    assert tool.shadowed_underscore() == []


def test_no_message_is_built_before_it_is_translated():
    assert tool.untracked_calls() == []


# --- the checks themselves can fail -----------------------------------------------------------------------

def _po(tmp_path, body):
    p = tmp_path / "wiezen.po"
    p.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n' + body, encoding="utf-8")
    return p


def test_check_names_a_missing_a_fuzzy_and_an_obsolete_message(tmp_path):
    found = {m: tool.Message(m, None, ["here.py:1"]) for m in ("Usage:", "Options", "Aborted!")}
    po = _po(tmp_path, 'msgid "Usage:"\nmsgstr "Gebruik:"\n\n#, fuzzy\nmsgid "Options"\nmsgstr "Opties"\n\n'
                       'msgid "Gone"\nmsgstr "Weg"\n')
    report = tool.check(po, found)
    assert sorted(m.msgid for m in report.missing) == ["Aborted!", "Options"]
    assert [e.msgid for e in report.obsolete] == ["Gone"]
    assert report.failed


def test_check_names_other_placeholders(tmp_path):
    found = {"Error: {message}": tool.Message("Error: {message}", None, ["x"]),
             "{n} deal": tool.Message("{n} deal", "{n} deals", ["y"])}
    po = _po(tmp_path, 'msgid "Error: {message}"\nmsgstr "Fout: {bericht}"\n\n'
                       'msgid "{n} deal"\nmsgid_plural "{n} deals"\nmsgstr[0] "{n} spel"\nmsgstr[1] "{n} spellen"\n')
    report = tool.check(po, found)
    assert len(report.placeholder_errors) == 1 and "Error: {message}" in report.placeholder_errors[0]


def test_a_duplicate_msgid_is_a_problem(tmp_path):
    po = _po(tmp_path, 'msgid "Usage:"\nmsgstr "Gebruik:"\n\nmsgid "Usage:"\nmsgstr "Gebruik"\n')
    _entries, problems = tool.read_po(po)
    assert len(problems) == 1 and "duplicate" in problems[0]


def test_po_strings_round_trip():
    for text in ("plain", 'a "quoted" \\ text', "two\nlines\n", "tab\there", "\b\nkept block"):
        quoted = tool.quote(text)
        assert "".join(tool.unquote(line, "t") for line in quoted.splitlines()) == text
