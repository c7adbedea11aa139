"""core/plaintoml.py: where it reads a text it gives exactly tomllib's dict (same keys in the same order, same
types); every other text is left to tomllib (None), whose errors the house-rules loader reports as before."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _hypothesis_helpers import examples

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: tomli, as core/rules.py reads house rules there
    import tomli as tomllib  # type: ignore[no-redef]
from wiezen_score.core import plaintoml
from wiezen_score.core.presets import preset_text
from wiezen_score.core.rules import PRESETS, parse_rules, to_toml

DATA = Path(__file__).resolve().parent / "data"


def same(text: str) -> None:
    """plaintoml reads ``text`` as tomllib does, or leaves it to tomllib."""
    got = plaintoml.loads(text)
    if got is None:
        return
    try:
        want = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        raise AssertionError(f"plaintoml read a text tomllib refuses: {text!r} -> {got!r}") from None
    # json.dumps keeps the order of keys and tells true from 1
    assert json.dumps(got) == json.dumps(want), text


@pytest.mark.parametrize("name", PRESETS)
def test_the_presets_are_plain_and_read_as_tomllib_reads_them(name: str) -> None:
    text = preset_text(name)
    got = plaintoml.loads(text)
    assert got is not None  # the everyday path: no tomllib
    assert json.dumps(got) == json.dumps(tomllib.loads(text))
    assert parse_rules(text) == parse_rules(to_toml(parse_rules(text)))


@pytest.mark.parametrize("path", sorted(DATA.glob("*.toml")), ids=lambda p: p.name)
def test_the_test_files(path: Path) -> None:
    same(path.read_text(encoding="utf-8"))


def test_canonical_toml_is_plain() -> None:
    for name in PRESETS:
        text = to_toml(parse_rules(preset_text(name)))
        assert plaintoml.loads(text) is not None
        same(text)
    empty = to_toml(parse_rules(preset_text("whisthub")).__class__("x", parse_rules(preset_text("iwwa")).contracts))
    assert 'description = ""' in empty and plaintoml.loads(empty) is not None
    same(empty)


@pytest.mark.parametrize("text", [
    'a = 1\na = 2\n',  # a key twice
    '[t]\nx = 1\n[t]\ny = 2\n',  # a table twice
    '[t.u]\nx = 1\n[t]\ny = 2\n',  # a table made on the way, given later (valid TOML: left to tomllib)
    'a = 1\n[a.b]\n',  # a table over a key
    'a = 007\n', 'a = +7\n', 'a = 1_000\n', 'a = 0x1f\n', 'a = 1.5\n', 'a = 1e3\n', 'a = inf\n',
    'a = "x\\ty"\n', "a = 'x'\n", 'a = """x"""\n', 'a = "x\n', 'a = [1,\n2]\n', 'a = [[1]]\n', 'a = {b = 1}\n',
    'a.b = 1\n', '"a" = 1\n', 'a b = 1\n', '[[t]]\n', '[ t ]\n', '[t] x\n', 'a = 1 2\n', 'a = True\n',
    'name = "Caf\u00e9"\n', 'a = 1\r\n', 'a = 1 # \x01\n', 'a = "\x7f"\n', 'a =\n', '= 1\n', 'a\n',
    'a = 1' + '0' * 200 + '\n', 'a = [1 2]\n', 'a = [,]\n',
])
def test_what_is_not_plain_is_left_to_tomllib(text: str) -> None:
    assert plaintoml.loads(text) is None


@pytest.mark.parametrize("text", [
    'a = 1\nb = -0\nc = -12\nd = true\ne = false\nf = "x # y ] , \' z"\ng = [1, "a", true, ]\nh = []\ni = ""\n',
    'a = 5#c\nb = [1,2]# c\n\t[t]\t# c\n\tx\t=\t"y"\t\n[t.u]\n[t.v]\nz = 1\n[w]\n',
    '# only a comment\n\n   \n',
    '',
])
def test_plain_texts_as_tomllib(text: str) -> None:
    assert plaintoml.loads(text) is not None
    same(text)


ALPHABET = ' \t\n#[]=".,-_+0123456789abcdefxyz\'\\{}:'


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.4:
            text = text[:i] + rng.choice(ALPHABET) + text[i:]
        elif op < 0.8:
            text = text[:i] + text[i + 1:]
        else:  # a line again, elsewhere
            lines = text.split("\n")
            text = "\n".join(lines[:rng.randrange(len(lines) + 1)] + [rng.choice(lines)] + lines[rng.randrange(len(lines) + 1):])
    return text


def test_thousands_of_altered_presets() -> None:
    rng = random.Random(11)
    texts = [preset_text(name) for name in PRESETS]
    read = 0
    for _ in range(4000):
        t = mutate(rng, rng.choice(texts))
        same(t)
        read += plaintoml.loads(t) is not None
    assert read > 500  # the alterations do not all leave the subset


@settings(max_examples=examples(400), deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_any_short_text(text: str) -> None:
    same(text)
