"""No English word in a Dutch message (issue 25, item 7): every msgstr of the catalogue is scanned for the words of
the English msgids that are not Dutch.

The English words are those of every msgid, less the words that the Dutch messages use more often than the English
ones (Dutch words an English text quotes: ``rondje``, ``huisregels``), less :data:`ALLOWED`: words that are Dutch as well (``in``, ``over``,
``week``), names, the grammar's and the commands' own words (a Dutch table may type ``redeal`` or ``penalty``, and
the house-rules keys are English in every language), and the words of computing that Dutch uses as they are
(``json``, ``server``). What a message quotes as literal input is not scanned: `code`, {placeholders}, --options,
"strings" and 'strings', paths and addresses, indented example lines, and the parentheses that give the English
words ("in het Engels: ...").

A failure names the catalogue line, the word and the Dutch text: translate the word, or, when it is right as it
is in Dutch (a name, a command, a Dutch word that English has too), add it to :data:`ALLOWED`.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("wiezen_i18n_tool_scan", ROOT / "tools" / "i18n.py")
assert _spec and _spec.loader
tool = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = tool
_spec.loader.exec_module(tool)

#: what a message shows as it is typed or stored, in any language: not scanned
LITERAL = re.compile(
    r"`[^`\n]*`"  # `code`
    r"|\{[^}\n]*\}|%\([a-z_]+\)[sd]"  # placeholders
    r"|\"[^\"\n]*\"|(?<![\w])'[^'\n]*'(?![\w])"  # "strings" and 'strings'
    r"|(?<![\w-])--?[a-z][\w-]*"  # --options
    r"|https?://\S+|\S+\.(?:toml|csv|json|txt|html|md|db|py|bak)\b|\S*/\S*"  # addresses and paths
    r"|\[\[?[a-z_.-]+\]\]?"  # [house-rules tables]
    r"|\b\w+_\w+\b|\b[0-9A-Z]{4}(?:-[0-9A-Z]{1,4})+\b"  # identifiers (play_history) and seals (7KQ2-M9XD-4TPA-R)
    r"|\bwiezen(?: [a-z][a-z-]*)+"  # a command (wiezen precedent add)
    r"|\b[a-z_]+ = \S+"  # key = value
    r"|\b[A-Z][A-Z_]{2,}\b"  # METAVARS and ENVIRONMENT_VARIABLES
    r"|^ {4,}[^\n]*"  # an indented example line of a help text
    r"|(?:ook )?in het Engels:? *\([^)]*\)|\(in het Engels[^)]*\)",  # the English words, said to be English
    re.M,
)
WORD = re.compile(r"[A-Za-z]{3,}")

#: words of the msgids that are right in a Dutch message
_ALLOWED_WORDS = """
    abondance alleen apart argument avond best bonus byte caches club code computer conflict contract contracts
    december details dialect document even export extra hand half import in is kind labels lang later letter letters
    link links live mail menu metadata minimums miserie miseries november object online over per plus precedent
    precedenten prompt scan schema score scores september server site socket start status stop team teams terminal
    toernooi trigger triggers upgrade upgrades usb was week won apps views version
    jan piet mieke lotte kris an bert carla dirk eva frans greet hans ilse yves rene zeno segno
    whisthub rupelstreek iwwa wikibooks kleurenwiezen hemiksem gesves lantaarn kroon cafe caf
    samen troel troela piccolo solo slim grote kleine open pas rondje renonce carte blanche troef
    session rules players dealer deals rounds target tag round table pass penalty redeal undo amend explain sheet
    settle end play help quit precedent join leave
    test terras offline people
    aliases description doubling doublings double levels made lost points promote guests name since until period
    placement prizes tiebreak team true false null multi overtrick wins evenings
    text csv json markdown html toml sql sqlite datasette bash shell pip install readline toolkit fifo named pipe
    stdin stdout stderr locale utc utf uid uids uuid stick backup excel prog wiezen wal ctrl token windows english
    friday last month today yesterday deal house ruling renon
    april parameter gisteren vrijdag spelletje rode kampioenschap
"""  # by kind: Dutch too; names; contract words; commands; house-rules keys; computing; quoted Dutch
ALLOWED = frozenset(_ALLOWED_WORDS.split())


def _count(texts) -> Counter[str]:
    return Counter(w.lower() for text in texts for w in WORD.findall(LITERAL.sub(" ", text)))


def english_words(entries) -> set[str]:
    """The words of the msgids, less those the msgstrs use more often than the msgids (Dutch words that English
    texts quote: een, rondje, huisregels) and less :data:`ALLOWED`."""
    english = _count(t for e in entries for t in (e.msgid, e.msgid_plural or ""))
    dutch = _count(t for e in entries for t in e.msgstr)
    return {w for w, n in english.items() if n >= dutch[w]} - ALLOWED


def english_in(text: str, english: set[str]) -> list[str]:
    return sorted({w for w in WORD.findall(LITERAL.sub(" ", text)) if w.lower() in english})


@pytest.fixture(scope="module")
def entries():
    entries, problems = tool.read_po(tool.PO)
    assert problems == []
    return [e for e in entries if e.msgid]


def test_no_dutch_message_holds_an_english_word(entries):
    english = english_words(entries)
    found = []
    for e in entries:
        for text in e.msgstr:
            words = english_in(text, english)
            if words:
                found.append(f"wiezen.po line {e.line}: {', '.join(words)} in {text[:160]!r}")
    assert not found, ("English words in Dutch messages (translate them, or add a word that is right in Dutch to "
                       "ALLOWED in this file):\n" + "\n".join(found))


def test_the_scan_finds_what_it_is_for(entries):
    """The words issue 25 found are English here, and would be reported; quoted input and names are not."""
    english = english_words(entries)
    assert english_in("meerdere miseries (alone): elk afgerekend", english) == ["alone"]
    assert english_in("zegel: zegel ... geschrapt (amend) 2026", english) == []  # amend: a command a table types
    assert english_in("eerdere versies, voided by undo", english) == ["voided"]
    assert english_in("Typ of tik een spel (penalty jan renonce)", english) == []
    assert english_in("4 tot 6 spelers, required", english) == ["required"]
    assert english_in("geef 'players jan piet' of `wiezen check --seal CODE`", english) == []
    assert {"seal", "required", "voided", "alone", "the"} <= english
