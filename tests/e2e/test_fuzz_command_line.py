"""Fuzzing the command line with hypothesis: arbitrary deal lines, session files and house-rules files.

Whatever comes in: no traceback (no exception escapes the command), exit status 0, 1 or 2, and a refused
command writes nothing (the database dump is the same before and after).
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from _reliability_helpers import ROOT, dump, make_evening
from click.testing import CliRunner
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from wiezen_score.cli import cli

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PLAYERS = ["jan", "piet", "mieke", "lotte"]
CONTRACTS = [
    "samen", "vraag", "alleen", "abondance", "abondance-troef", "troel", "troela", "solo", "solo-slim",
    "kleine-miserie", "grote-miserie", "miserie", "open-miserie", "miserie-op-tafel", "piccolo",
    "pas", "pass", "redeal", "penalty", "undo", "amend", "session", "rules", "players", "dealer", "round", "deal",
]
NAMES = PLAYERS + ["j", "pi", "m", "lo", "JAN", "an", "bert", "x", "jan+piet", "mieke+lotte", "j+m", "jan+jan", "+", "jan+"]
NUMBERS = [str(n) for n in range(-2, 16)] + ["08", "1e3", "9.5", "½", "١٠", "", "nan", "inf", "99999999999999999999"]
ODD = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)

word = st.one_of(st.sampled_from(CONTRACTS), st.sampled_from(NAMES), st.sampled_from(NUMBERS), ODD)
# lines that are often valid (so that recording is reached too), with a mutation now and then
VALID = [line for line in make_evening(99, 300, rules="rupelstreek").text.splitlines()[4:] if line != "undo"]
DEALS = [line for line in VALID if line.split()[0] not in ("pas", "redeal", "penalty")]


@st.composite
def plausible(draw, pool: list[str] = DEALS) -> list[str]:
    words = draw(st.sampled_from(pool)).split()
    for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2]))):
        i = draw(st.integers(0, len(words)))
        op = draw(st.sampled_from(["replace", "insert", "drop"]))
        if op == "insert":
            words.insert(i, draw(word))
        elif words and i < len(words):
            if op == "replace":
                words[i] = draw(word)
            elif len(words) > 1:
                words.pop(i)
    return words


deal_words = st.one_of(plausible(), plausible(), plausible(), st.lists(word, min_size=1, max_size=7))


def run(db: Path, *args: str):
    return CliRunner().invoke(cli, ["--db", str(db), *args], catch_exceptions=True)


def assert_sane(r, before: list[str], db: Path, args) -> None:
    out = r.output
    event(f"exit {r.exit_code}")
    assert "Traceback" not in out, (args, out)
    # an exception escaping the command would be a traceback for the user (main() would only mask it)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, repr(r.exception), out)
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, out)
    if r.exit_code != 0:
        assert dump(db) == before, f"refused, yet written: {args}\n{out}"


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """A ledger with an open session of four and a few entries, copied for each test."""
    db = tmp_path_factory.mktemp("fuzzbase") / "wiezen.db"
    for args in (
        ["session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek"],
        ["deal", "samen", "8", "jan+piet", "9"], ["pass"], ["deal", "alleen", "5", "lotte", "6"],
    ):
        r = run(db, *args)
        assert r.exit_code == 0, r.output
    conn = sqlite3.connect(str(db))
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return db


def fresh(base: Path) -> Path:
    d = Path(tempfile.mkdtemp(prefix="wiezen-fuzz-"))
    shutil.copy(base, d / "wiezen.db")
    return d / "wiezen.db"


@pytest.mark.slow
def test_fuzz_deal_lines(base):
    db = fresh(base)
    try:
        @SETTINGS
        @given(words=deal_words, cmd=st.sampled_from(["deal", "calc", "amend"]), over_troel=st.booleans())
        @example(words=["over-troel"], cmd="deal", over_troel=False)  # found: IndexError (issue 13)
        @example(words=[" "], cmd="amend", over_troel=False)
        @example(words=["samen", "²", "jan+piet", "9"], cmd="calc", over_troel=False)
        def check(words, cmd, over_troel):
            args = [cmd] + (["2"] if cmd == "amend" else []) + (["--over-troel"] if over_troel and cmd != "amend" else [])
            args += ["--"] + words
            before = dump(db)
            assert_sane(run(db, *args), before, db, args)

        check()
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


def session_lines() -> st.SearchStrategy[str]:
    header = st.one_of(
        st.builds(lambda n, d: f'session "{n}" {d}', ODD, st.sampled_from(["2026-11-27", "2026-02-30", "27/11/2026", "", "yesterday"])),
        st.builds(lambda r: f"rules {r}", st.sampled_from(["rupelstreek", "whisthub", "iwwa", "nope", "a b", "../../etc/passwd", ""])),
        st.builds(lambda ps, d: "players " + " ".join(ps) + (f" dealer {d}" if d else ""),
                  st.lists(st.sampled_from(NAMES + ["an", "bert", "carla", "dirk", "eva", "fien"]), min_size=0, max_size=8),
                  st.sampled_from(["", "jan", "piet", "zorro"])),
    )
    body = st.builds(" ".join, deal_words)
    return st.one_of(header, body, st.sampled_from(["", "# comment", "undo", "pas", "redeal carte blanche", "penalty jan renonce",
                                                    "penalty piet round te laat", "amend 1 pas", "penalty jan deal 1 renonce"]))


@st.composite
def session_files(draw) -> bytes:
    lines = draw(st.lists(session_lines() if draw(st.booleans()) else st.builds(" ".join, plausible(VALID)), max_size=25))
    if draw(st.booleans()):  # often a plausible start, so that the body is reached
        lines = ['session "fuzz" 2026-11-27', "rules " + draw(st.sampled_from(["rupelstreek", "whisthub"])),
                 "players jan piet mieke lotte"] + lines
    text = "\n".join(lines)
    data = text.encode("utf-8")
    how = draw(st.sampled_from(["utf-8", "utf-8", "bom", "latin-1", "junk"]))
    if how == "bom":
        data = b"\xef\xbb\xbf" + data
    elif how == "latin-1":
        data = text.encode("latin-1", errors="replace") + b"\xe9\n"
    elif how == "junk":
        data += draw(st.binary(max_size=40))
    return data


@pytest.mark.slow
def test_fuzz_session_files(base):
    db = fresh(base)
    f = db.parent / "avond.txt"
    try:
        @SETTINGS
        @given(data=session_files(), keep_open=st.booleans(), as_json=st.booleans())
        def check(data, keep_open, as_json):
            f.write_bytes(data)
            args = ["replay", str(f)] + (["--keep-open"] if keep_open else []) + (["--json"] if as_json else [])
            before = dump(db)
            assert_sane(run(db, *args), before, db, args)

        check()
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)


PRESET = (ROOT / "wiezen_score" / "core" / "presets" / "rupelstreek.toml").read_text(encoding="utf-8").replace(
    'name = "rupelstreek"', 'name = "fuzz"'
)
TOML_VALUES = st.one_of(
    st.integers(-10, 100).map(str), st.sampled_from(['"same"', '"next"', '"once"', '"stack"', '"none"', "true", "[]",
                                                   "[1, 2]", '["a"]', "1.5", '"x"', "{}", "nan", '"\\u0000"']),
)


@st.composite
def rules_files(draw) -> bytes:
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "random", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "random":
        return draw(st.text(max_size=200)).encode("utf-8", errors="surrogatepass")
    lines = PRESET.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["drop", "value", "dup", "insert"]))
        if op == "drop":
            lines.pop(i)
        elif op == "value" and "=" in lines[i]:
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {draw(TOML_VALUES)}"
        elif op == "dup":
            lines.insert(i, lines[i])
        else:
            lines.insert(i, draw(st.sampled_from(["[contracts.nieuw]", "levels = [8]", "made = [1]", "lost = [1]", "miserie = 0",
                                                  "points = 3", "penalty = -1", 'name = ""', "[all_pass]", "team = true"])))
        if not lines:
            lines = [""]
    return ("\n".join(lines) + "\n").encode("utf-8")


@pytest.mark.slow
def test_fuzz_house_rules_files(base):
    db = fresh(base)
    f = db.parent / "huisregels.toml"
    try:
        @SETTINGS
        @given(data=rules_files(), cmd=st.sampled_from(["add", "calc", "show", "start"]))
        def check(data, cmd):
            f.write_bytes(data)
            if cmd == "add":
                args = ["rules", "add", str(f)]
            elif cmd == "show":
                args = ["rules", "show", str(f)]
            elif cmd == "calc":
                args = ["calc", "--rules", str(f), "samen", "8", "A+B", "9"]
            else:  # a second session while one is open: must be refused whatever the rules, nothing written
                args = ["session", "start", "--players", "an,bert,carla,dirk", "--rules", str(f)]
            before = dump(db)
            r = run(db, *args)
            assert_sane(r, before, db, args)
            if cmd == "start":
                assert r.exit_code != 0

        check()
    finally:
        shutil.rmtree(db.parent, ignore_errors=True)
