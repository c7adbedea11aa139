"""Careless and hostile input, case by case: paths, escape sequences in every output, Unicode names, the same
evening twice, imported precedents; and a hypothesis fuzz over every command's arguments and file formats
(found cases kept as @example, so they are replayed for ever). Heavy fuzzing runs under the `slow` marker."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest
from _hypothesis_helpers import examples
from _ledger_helpers import copy_ledger
from _reliability_helpers import dump
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wiezen_score.cli import cli
from wiezen_score.core.errors import WiezenError
from wiezen_score.core.names import check_name, confusable, name_key, skeleton
from wiezen_score.views.safe import is_unsafe, safe, safe_json, safe_lines

PLAYERS = "jan,piet,mieke,lotte"


def run(db, *args, input=None, env=None):
    return CliRunner(env=env).invoke(cli, ["--db", str(db), *map(str, args)], input=input, catch_exceptions=True)


def ok(db, *args, input=None):
    r = run(db, *args, input=input)
    assert r.exit_code == 0, r.output
    return r


def error_line(r) -> str:
    assert r.exit_code == 1, (r.exit_code, r.output)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [ln for ln in r.output.strip().splitlines() if ln]
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "unexpected" not in lines[0], r.output
    return lines[0]


def no_unsafe(text: str) -> None:
    bad = [f"U+{ord(c):04X}" for c in text if is_unsafe(c) and c not in "\n\t"]
    assert not bad, (bad, text[:300])


# ------------------------------------------------------------------------------------------ the escaping itself


def test_safe_shows_every_terminal_control_as_a_visible_escape():
    assert safe("\x1b[2J") == "\\x1b[2J"
    assert safe("\x1b]52;c;aGk=\x07") == "\\x1b]52;c;aGk=\\x07"
    assert safe("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert safe("\x9b2J\x7f\u202e\u2028\ufeff\u200b") == "\\x9b2J\\x7f\\u202e\\u2028\\ufeff\\u200b"
    assert safe("caf\udce9") == "caf\\udce9"  # a byte that was not UTF-8 can be printed too
    assert safe("Café De Kroon, één, Ωμέγα, 日本, 👍🏽, ‍") == "Café De Kroon, één, Ωμέγα, 日本, 👍🏽, ‍"
    assert safe_lines("one\ntwo\t\x1b[2J") == "one\ntwo\t\\x1b[2J"


@given(st.text())
def test_safe_json_is_valid_json_for_the_same_value_and_prints_safely(s):
    text = safe_json(json.dumps({"k": s, "list": [s]}, ensure_ascii=False))
    no_unsafe(text)
    assert json.loads(text) == {"k": s, "list": [s]}


@given(st.text())
def test_safe_is_one_printable_line(s):
    out = safe(s)
    assert "\n" not in out and "\r" not in out
    no_unsafe(out)


# ------------------------------------------------------------------------------------ escapes in every output

HOSTILE = "x\x1b[2J\x1b]52;c;aGk=\x07\u202e\nfake  1  row\x9b"


@pytest.fixture
def hostile_db(ledger_template, tmp_path):
    """HOSTILE in every text a ledger keeps: built once per run (tests/conftest.py), copied for each test."""
    def build(db, _):
        ok(db, "session", "start", "--players", PLAYERS, "--name", HOSTILE)
        ok(db, "deal", "samen", "8", "jan+piet", "9")
        ok(db, "penalty", "jan", "--reason", HOSTILE)
        ok(db, "redeal", "--reason", HOSTILE)
        ok(db, "amend", "1", "samen", "8", "jan+piet", "10", "--reason", HOSTILE)
        ok(db, "precedent", "add", HOSTILE.replace("\n", " "), "--ruling", HOSTILE, "--tag", HOSTILE, "--deal", "2")

    return copy_ledger(ledger_template("hostile-texts", build), tmp_path / "h.db")


OUTPUTS = [
    ["sheet"], ["sheet", "--json"], ["sheet", "--format", "html"], ["explain", "2"], ["explain", "1", "--json"],
    ["explain", "3"], ["sessions"], ["sessions", "--json"], ["precedent", "list"], ["precedent", "list", "--json"],
    ["precedent", "show", "1"], ["precedent", "show", "1", "--json"], ["precedent", "search", "fake"],
    ["standings"], ["standings", "--format", "csv"], ["standings", "--format", "json"],
    ["standings", "--format", "markdown"], ["standings", "--format", "html"], ["export"], ["settle"], ["check"],
    ["undo", "--reason", HOSTILE], ["session", "end"],
]


@pytest.mark.parametrize("args", OUTPUTS, ids=lambda a: "-".join(a[:3]))
def test_user_text_cannot_steer_the_terminal_in_any_output(hostile_db, args):
    r = run(hostile_db, *args)
    assert r.exit_code == 0, r.output
    no_unsafe(r.output)
    if "--json" in args or "json" in args or args == ["export"]:
        json.loads(r.output)  # still valid JSON
    if args == ["sheet"]:
        rows = [ln for ln in r.output.splitlines() if ln.strip()[:1].isdigit()]
        assert len(rows) == 4, r.output  # 3 entries and the amended version: a newline in a reason adds no row
        assert "fake  1  row" in r.output and "\\n" in r.output


def test_json_keeps_the_text_as_given(hostile_db):
    doc = json.loads(run(hostile_db, "sheet", "--json").output)
    assert doc["session"]["name"] == HOSTILE
    assert [e.get("reason") for e in doc["entries"] if e["kind"] == "penalty"] == [HOSTILE]


def test_html_is_escaped(hostile_db):
    out = run(hostile_db, "sheet", "--format", "html").output
    assert "<script" not in HOSTILE or "<script" not in out
    r = run(hostile_db, "precedent", "edit", "1", "--title", "<script>alert(1)</script>")
    assert r.exit_code == 0
    ok(hostile_db, "session", "end")
    ok(hostile_db, "session", "start", "--players", PLAYERS, "--name", "<b>&amp;</b>")
    html = run(hostile_db, "sheet", "--format", "html").output
    assert "<b>&amp;</b>" not in html and "&lt;b&gt;&amp;amp;&lt;/b&gt;" in html


def test_csv_cells_are_escaped_and_formula_safe(tmp_path):
    db = tmp_path / "c.db"
    ok(db, "session", "start", "--players", PLAYERS)
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    out = run(db, "standings", "--format", "csv").output
    no_unsafe(out)
    from wiezen_score.views.render import csv_safe

    assert csv_safe("a\x1b[2Jb") == "a\\x1b[2Jb" and csv_safe("=1+1\n") == "'=1+1\\n"


def test_error_messages_show_user_text_escaped(tmp_path):
    db = tmp_path / "e.db"
    ok(db, "session", "start", "--players", PLAYERS)
    line = error_line(run(db, "deal", "--", "\x1b]52;c;aGk=\x07", "jan", "9"))
    assert "\\x1b]52" in line
    r = run(db, "--bogus\x1b[2J")
    assert r.exit_code == 2 and "\x1b" not in r.output and "\\x1b" in r.output


# ------------------------------------------------------------------------------------------------------ paths


def test_an_empty_db_is_refused_and_the_default_ledger_untouched(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for args in (["sessions"], ["session", "start", "--players", PLAYERS], ["db", "path"]):
        assert "--db is empty" in error_line(run("", *args))
    assert not (tmp_path / "xdg").exists()


@pytest.mark.parametrize("kind", ["folder", "fifo", "device"])
@pytest.mark.parametrize("args", [["sessions"], ["check"], ["db", "backup", "copy.db"], ["sheet"],
                                  ["session", "start", "--players", PLAYERS], ["precedent", "list"]])
def test_a_ledger_path_that_is_not_a_file_is_refused_at_once(tmp_path, monkeypatch, kind, args):
    monkeypatch.chdir(tmp_path)
    if kind == "folder":
        path = tmp_path / "d.db"
        path.mkdir()
    elif kind == "fifo":
        path = tmp_path / "p.db"
        os.mkfifo(path)
    else:
        path = Path("/dev/null")
    line = error_line(run(path, *args))  # a FIFO would make SQLite wait for ever for a writer
    assert {"folder": "a folder", "fifo": "a named pipe", "device": "a device"}[kind] in line
    assert sorted(p.name for p in tmp_path.iterdir()) == ([path.name] if kind != "device" else [])


def test_a_missing_folder_is_an_error_unless_the_command_creates_a_ledger_and_says_so(tmp_path):
    db = tmp_path / "no" / "such" / "x.db"
    for args in (["deal", "samen", "8", "jan+piet", "9"], ["sheet"], ["pass"], ["undo"], ["sessions"]):
        r = run(db, *args)
        if args == ["sessions"]:
            assert r.exit_code == 0 and "no sessions" in r.output
        else:
            assert "does not exist either" in error_line(r) or "no ledger" in error_line(r)
        assert not (tmp_path / "no").exists()
    r = run(db, "session", "start", "--players", "an,bert,carla,\x1b")  # refused: nothing created
    assert r.exit_code == 1 and not (tmp_path / "no").exists()
    r = run(db, "session", "start", "--players", PLAYERS)
    assert r.exit_code == 0 and f"new ledger: {db}" in r.output and db.exists()


def test_a_read_on_a_full_disk_does_not_speak_of_a_change(tmp_path):
    from wiezen_score.ledger.connection import db_error

    for msg in ("disk I/O error", "database or disk is full"):
        read = str(db_error(sqlite3.OperationalError(msg), "x.db", reading=True))
        assert "not recorded" not in read and "was not changed" in read
        assert "not" in str(db_error(sqlite3.OperationalError(msg), "x.db"))


# ------------------------------------------------------------------------------------------------ Unicode names


@given(st.text(max_size=12))
@example(" Jan\t")
@example("JAN\u0301")
def test_a_name_key_is_nfc_folded_nfc_whatever_the_quick_way_for_ascii(name):
    import unicodedata

    assert name_key(name) == unicodedata.normalize("NFC", unicodedata.normalize("NFC", name.strip()).casefold())
    assert name_key(name.encode("ascii", "ignore").decode()) == unicodedata.normalize(
        "NFC", unicodedata.normalize("NFC", name.encode("ascii", "ignore").decode().strip()).casefold())


def test_names_compare_by_nfc_and_unicode_case_folding(tmp_path):
    assert name_key("Émile") == name_key("émile") == name_key("E\u0301MILE")
    db = tmp_path / "n.db"
    ok(db, "session", "start", "--players", "Émile,jan,mieke,lotte")
    ok(db, "deal", "samen", "8", "émile+jan", "9")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "E\u0301MILE,JAN,mieke,lotte")  # NFD and capitals: the same players
    ok(db, "deal", "samen", "8", "emile+jan", "9")
    doc = json.loads(run(db, "standings", "--format", "json").output)
    rows = doc if isinstance(doc, list) else doc.get("standings", doc.get("players", []))
    names = [r["player"] for r in rows]
    assert sorted(names) == sorted(["Émile", "jan", "mieke", "lotte"]), names
    assert "a player is named twice" in error_line(run(tmp_path / "m.db", "session", "start", "--players",
                                                       "Émile,émile,a,b"))


def test_a_name_mixing_scripts_or_looking_like_another_is_refused(tmp_path):
    with pytest.raises(WiezenError, match="mixes Cyrillic and Latin"):
        check_name("j\u0430n")
    check_name("Ωμέγα")
    check_name("山田たろう")  # kanji and kana are written together
    assert skeleton("раре") == skeleton("pape") and confusable("раре", ["jan", "pape"]) == "pape"
    assert confusable("Pape", ["pape"]) is None  # the same player, not a look-alike
    db = tmp_path / "c.db"
    line = error_line(run(db, "session", "start", "--players", "jan,j\u0430n,mieke,lotte"))
    assert "mixes" in line and not db.exists()
    assert "look the same" in error_line(run(db, "session", "start", "--players", "pape,раре,mieke,lotte"))
    ok(db, "session", "start", "--players", "pape,jan,mieke,lotte")
    ok(db, "session", "end")
    assert "a player this ledger knows" in error_line(run(db, "session", "start", "--players", "раре,an,b,c"))
    r = run(db, "replay", "-", input="players jan j\u0430n mieke lotte\nsamen 8 jan+mieke 9\n")
    assert "mixes" in error_line(r)


# --------------------------------------------------------------------------------------------- same evening


def test_the_same_evening_is_recognised_by_its_content(tmp_path):
    db = tmp_path / "s.db"
    text = 'session "Kroon" 2026-11-27\nplayers jan piet mieke lotte\nsamen 8 jan+piet 9\npas\n'
    ok(db, "replay", "-", input=text)
    for variant in ("# a comment\n" + text, text.replace("jan+piet", "JAN+Piet"), text.replace(" 9", "   9\t"),
                    "\ufeff" + text + "\n\n", text.replace("\n", "\r\n")):
        r = run(db, "replay", "-", input=variant.encode("utf-8"))
        assert r.exit_code == 0 and "already recorded as session 1" in r.output, (variant, r.output)
    r = ok(db, "replay", "-", input=text.replace("samen 8 jan+piet 9", "samen 8 jan+piet 10"))
    assert "already recorded" not in r.output
    assert len(json.loads(run(db, "sessions", "--json").output)) == 2


# ------------------------------------------------------------------------------------------ imported precedents


def _export(precs):
    return json.dumps({"format": "wiezen-export", "version": 1, "sessions": [], "precedents": precs})


PREC = {"uid": "p1", "date": "2026-11-27", "session": None, "entry_no": None, "entry": None, "players": [],
        "origin": "ruling", "created_at": "2026-11-27T20:00:00+00:00",
        "versions": [{"version": 1, "title": "t", "ruling": "r", "tags": [], "note": "", "edited_at": "2026-11-27"}]}


@pytest.mark.parametrize("change,needle", [
    ({"title": ""}, "needs a title"), ({"title": "  "}, "needs a title"), ({"ruling": ""}, "needs a ruling"),
    ({"title": "a\nb"}, "title is one line"), ({"title": "a\x02b"}, "control characters"),
])
def test_imported_precedents_go_through_the_same_text_checks(tmp_path, change, needle):
    db = tmp_path / "i.db"
    ok(db, "session", "start", "--players", PLAYERS)
    before = dump(db)
    doc = _export([{**PREC, "versions": [{**PREC["versions"][0], **change}]}])
    line = error_line(run(db, "import", "-", input=doc))
    assert needle in line and "CHECK constraint" not in line
    assert dump(db) == before


def test_an_imported_precedent_with_a_bad_date_is_refused(tmp_path):
    db = tmp_path / "i.db"
    ok(db, "session", "start", "--players", PLAYERS)
    assert "bad date" in error_line(run(db, "import", "-", input=_export([{**PREC, "date": "not-a-date"}])))


# ---------------------------------------------------------------------------------------------------- fuzzing

WORDS = ["samen", "8", "jan+piet", "9", "pas", "over-troel", "²", "١٠", "-1", "99999999999999999999", "9" * 5000,
         "\x1b[2J", "\udce9", "", " ", "--", "jan", "j\u0430n", "Émile", "+", "amend", "2", str(2**63)]
COMMANDS = [["deal"], ["calc"], ["amend", "2"], ["penalty"], ["redeal", "--reason"], ["undo", "--reason"],
            ["explain"], ["sheet", "--session"], ["sheet", "--last"], ["precedent", "add"], ["precedent", "search"],
            ["precedent", "show"], ["precedent", "edit", "1", "--title"], ["session", "start", "--players"],
            ["session", "start", "--players", PLAYERS, "--name"], ["sessions", "--since"], ["settle", "--cents"],
            ["standings", "--since"], ["export", "--session"], ["rules", "show"], ["play"], ["replay", "-"],
            ["import", "-"], ["calc", "--each", "-"]]
FUZZ = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def fuzz_base(tmp_path_factory):
    db = tmp_path_factory.mktemp("fuzz") / "wiezen.db"
    ok(db, "session", "start", "--players", PLAYERS)
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    ok(db, "precedent", "add", "Renonce", "--ruling", "pays")
    return db


def fuzz_once(base: Path, tmp: Path, cmd: list[str], words: list[str], stdin: str | None) -> None:
    db = tmp / "wiezen.db"
    shutil.copy(base, db)
    before = dump(db)
    data = None if stdin is None else stdin.encode("utf-8", "surrogateescape")
    r = run(db, *cmd, *words, input=data)
    out = r.output
    assert "Traceback" not in out and "unexpected" not in out.lower(), (cmd, words, out[-500:])
    assert r.exception is None or isinstance(r.exception, SystemExit), (cmd, words, repr(r.exception))
    assert r.exit_code in (0, 1, 2), (cmd, words, r.exit_code)
    no_unsafe(out)
    if r.exit_code != 0 and cmd != ["play"]:
        assert dump(db) == before, (cmd, words)


@FUZZ
@given(cmd=st.sampled_from(COMMANDS), words=st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), max_size=5),
       stdin=st.one_of(st.none(), st.sampled_from(["samen 8 jan+piet 9\n", "\ufeffpas\n", "\udce9\n", "[" * 3000])))
@example(cmd=["deal"], words=["over-troel"], stdin=None)
@example(cmd=["play"], words=["\n"], stdin=None)  # click's "Got unexpected extra argument", reworded
@example(cmd=["penalty"], words=["samen", "samen"], stdin=None)
@example(cmd=["amend", "2"], words=[" "], stdin=None)
@example(cmd=["deal"], words=["samen", "²", "jan+piet", "9"], stdin=None)
@example(cmd=["calc"], words=["samen", "8", "A+B", "9" * 5000], stdin=None)
@example(cmd=["sheet", "--session"], words=[str(2**64)], stdin=None)
@example(cmd=["precedent", "show"], words=[str(2**63)], stdin=None)
@example(cmd=["replay", "-"], words=[], stdin="\udce9\n")
@example(cmd=["import", "-"], words=[], stdin="[" * 3000)
@example(cmd=["session", "start", "--players", PLAYERS, "--name"], words=["\udce9"], stdin=None)
@example(cmd=["replay", "-"], words=["\x00"], stdin=None)  # a NUL in a file name: open() raised ValueError
def test_fuzz_every_command_quick(fuzz_base, tmp_path, cmd, words, stdin):
    fuzz_once(fuzz_base, tmp_path, cmd, words, stdin)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(cmd=st.sampled_from(COMMANDS), words=st.lists(st.one_of(st.sampled_from(WORDS), st.text()), max_size=8),
       stdin=st.one_of(st.none(), st.text(), st.binary().map(lambda b: b.decode("utf-8", "surrogateescape"))))
def test_fuzz_every_command_heavy(fuzz_base, tmp_path, cmd, words, stdin):
    fuzz_once(fuzz_base, tmp_path, cmd, words, stdin)


FILE_KINDS = ["rules", "session", "deals", "export"]


@FUZZ
@given(kind=st.sampled_from(FILE_KINDS), data=st.binary(max_size=300) | st.text(max_size=300).map(
    lambda t: t.encode("utf-8", "surrogatepass")))
@example(kind="rules", data=b'name = "x"\npenalty = ' + str(10**400).encode() + b"\n")
@example(kind="rules", data=b"x = " + b"[" * 3000 + b"]" * 3000)
@example(kind="export", data=b"[" * 50000)
@example(kind="export", data=b"9" * 5000)
@example(kind="session", data=b"\xef\xbb\xbfplayers a b c d\nsamen 8 a+b 9\n")
@example(kind="session", data=b"rules stapel.toml\nplayers a b c d\n" + b"pas\n" * 63)
def test_fuzz_every_file_format(fuzz_base, tmp_path, kind, data):
    f = tmp_path / {"rules": "r.toml", "session": "s.txt", "deals": "d.txt", "export": "e.json"}[kind]
    f.write_bytes(data)
    (tmp_path / "stapel.toml").write_text('name = "stapel"\n[all_pass]\ndouble = "stack"\n[contracts.samen]\nteam = true\n'
                                          'levels = [8]\nmade = [2]\nlost = [2]\n', encoding="utf-8")
    cmd = {"rules": ["rules", "add"], "session": ["replay"], "deals": ["calc", "--each"], "export": ["import"]}[kind]
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        fuzz_once(fuzz_base, tmp_path, cmd, [f.name], None)
    finally:
        os.chdir(cwd)
