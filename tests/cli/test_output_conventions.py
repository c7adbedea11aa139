"""The output conventions every command follows: --json and --csv on every listing command, one options
decorator, a CSV dialect for spreadsheets set to Dutch (';' and a decimal comma), `replay FILE...`, `-` for
standard input wherever a file is read, `--db` after the command name, progress bars only on a terminal."""

from __future__ import annotations

import csv
import io
import json

import click
import pytest
from _club_helpers import TOTALS, WEEK1, WEEK2, WEEK3
from _ledger_helpers import dump, ok, refused, start, wz
from click.testing import CliRunner

from wiezen_score.cli import COMMANDS, cli

# Every command that lists: (args) -> it takes --json, --csv, --format and --csv-dialect.
LISTING = [
    ("sessions",),
    ("sheet",),
    ("standings",),
    ("rules", "list"),
    ("precedent", "list"),
    ("precedent", "search", "renonce"),
]


@pytest.fixture
def club(club_db):
    db = club_db  # the three club evenings (tests/conftest.py)
    ok(db, "precedent", "add", "Renonce in troef", "--ruling", "The offender pays 5 to each", "--session", "2",
       "--deal", "3", "--tag", "renonce", "--player", "piet")
    return db


def csv_rows(text: str, delimiter: str = ",") -> list[list[str]]:
    return list(csv.reader(io.StringIO(text), delimiter=delimiter))


@pytest.mark.parametrize("args", LISTING, ids=" ".join)
def test_every_listing_command_gives_json_and_csv(club, args):
    as_json = json.loads(ok(club, *args, "--json").stdout)
    assert as_json == json.loads(ok(club, *args, "--format", "json").stdout)
    rows = csv_rows(ok(club, *args, "--csv").stdout)
    assert ok(club, *args, "--format", "csv").stdout == ok(club, *args, "--csv").stdout
    assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), rows
    if isinstance(as_json, list):
        assert len(rows) - 1 == len(as_json)  # one CSV row per JSON item, after the header


@pytest.mark.parametrize("args", LISTING, ids=" ".join)
def test_two_outputs_at_once_are_a_usage_error(club, args):
    r = wz(club, *args, "--json", "--csv")
    assert r.exit_code == 2 and "--json and --csv" in r.stderr
    r = wz(club, *args, "--csv-dialect", "excel-nl")  # a dialect without CSV
    assert r.exit_code == 2 and "--csv-dialect" in r.stderr


def test_the_listing_commands_share_one_decorator():
    from wiezen_score.cli import common

    ctx = click.Context(cli)
    for args in LISTING:
        cmd = cli.get_command(ctx, args[0])
        if len(args) > 1 and isinstance(cmd, click.Group):
            cmd = cmd.get_command(ctx, args[1])
        helps = {p.name: p.help for p in cmd.params if isinstance(p, click.Option)}  # (an argument has help from click 8.5)
        for name in ("out_format", "as_json", "as_csv", "csv_dialect"):
            assert name in helps, (args, name)
        assert helps["csv_dialect"] == common.CSV_DIALECT_HELP


def test_standings_json_flag(club):
    items = json.loads(ok(club, "standings", "--json").stdout)
    assert [(d["player"], d["points"]) for d in items] == [
        ("lotte", 42), ("bert", 0), ("jan", -2), ("mieke", -10), ("piet", -30)]  # fmt: skip


def test_sheet_csv_columns_sum_to_the_totals(club):
    rows = csv_rows(ok(club, "sheet", "--session", "2", "--csv").stdout)
    assert rows[0] == ["no", "kind", "entry", "reason", "dealer", "multiplier", "voided", "jan", "piet", "mieke", "lotte"]
    by_no = {r[0]: r for r in rows[1:] if r[6] == "0"}
    assert by_no["2"][1:3] == ["deal", "samen 8 mieke+lotte 8"] and by_no["2"][5] == "2"
    voided = [r for r in rows[1:] if r[6] == "1"]
    assert [r[2] for r in voided] == ["alleen 6 jan 6"] and voided[0][7:] == ["", "", "", ""]
    sums = {p: sum(float(r[7 + i] or 0) for r in rows[1:]) for i, p in enumerate(rows[0][7:])}
    assert sums == TOTALS[1]  # Week 2: jan -11, piet -31, mieke 21, lotte 21


def test_sheet_csv_leaves_who_sat_out_empty(club):
    rows = csv_rows(ok(club, "sheet", "--session", "3", "--csv").stdout)
    first = rows[1]  # samen 8 piet+mieke 10: jan deals and sits out
    assert dict(zip(rows[0][7:], first[7:], strict=False)) == {"jan": "", "piet": "14", "mieke": "14", "lotte": "-14", "bert": "-14"}


def test_csv_dialect_excel_nl(club):
    text = ok(club, "standings", "--csv", "--csv-dialect", "excel-nl").stdout
    assert text.splitlines()[0].startswith('"rank";"player";"points"')
    rows = csv_rows(text, delimiter=";")
    mieke = next(r for r in rows if r[1] == "mieke")
    col = rows[0].index
    assert mieke[col("success_rate")] == "0,6667"  # 2 made of 3 taken (rounded to 4 places), with a decimal comma
    assert mieke[col("average")] == "-3,33"  # -10 over 3 evenings, rounded to cents
    assert "." not in "".join(c for r in rows[1:] for c in r[2:])
    # the same data as the default dialect, only the marks differ
    plain = csv_rows(ok(club, "standings", "--csv").stdout)
    assert [[c.replace(",", ".") for c in r] for r in rows] == plain


def test_csv_dialect_from_the_environment(club):
    r = CliRunner().invoke(cli, ["--db", str(club), "sessions", "--csv"], env={"WIEZEN_CSV_DIALECT": "excel-nl"})
    assert r.exit_code == 0 and r.stdout.splitlines()[0] == '"id";"date";"weekday";"name";"players";"deals";"leader";"rules";"open";"void"'


def test_precedent_list_json_has_every_column_the_table_shows(club):
    table = ok(club, "precedent", "list").stdout.splitlines()
    assert table[0].split() == ["id", "date", "title", "tags", "from", "players"]
    (item,) = json.loads(ok(club, "precedent", "list", "--json").stdout)
    assert item["players"] == ["piet"] and item["session"] == 2 and item["deal"] == 3 and item["tags"] == ["renonce"]
    assert item["origin"] == "ruling"
    row = csv_rows(ok(club, "precedent", "list", "--csv").stdout)
    assert row[0] == ["id", "date", "title", "ruling", "tags", "session", "deal", "players", "origin"]
    assert row[1][2:] == ["Renonce in troef", "The offender pays 5 to each", "renonce", "2", "3", "piet", "ruling"]


# ------------------------------------------------------------------------------------------- replay FILE...


def test_replay_several_files(tmp_path):
    db = tmp_path / "w.db"
    files = []
    for i, text in enumerate((WEEK1, WEEK2, WEEK3), 1):
        f = tmp_path / f"week{i}.txt"
        f.write_text(text, encoding="utf-8")
        files.append(f)
    docs = json.loads(ok(db, "replay", *files, "--json").stdout)
    assert [d["totals"] for d in docs] == list(TOTALS)
    again = wz(db, "replay", *files)
    assert again.exit_code == 0 and again.stderr.count("already recorded") == 3
    assert len(json.loads(ok(db, "sessions", "--json").stdout)) == 3


def test_replay_several_files_all_or_nothing(tmp_path):
    db = tmp_path / "w.db"
    start(db, ["a", "b", "c", "d"])
    ok(db, "session", "end")
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_text(WEEK1, encoding="utf-8")
    bad.write_text(WEEK2.replace("samen 8 mieke+lotte 8", "samen 8 mieke+x 8"), encoding="utf-8")
    before = dump(db)
    line = refused(db, "replay", good, bad)
    assert str(bad) in line and "line 4" in line and "nothing was recorded" in line
    assert dump(db) == before


def test_replay_from_stdin(tmp_path):
    db = tmp_path / "w.db"
    doc = json.loads(ok(db, "replay", "-", "--json", input=WEEK1).stdout)
    assert doc["totals"] == TOTALS[0] and doc["session"]["name"] == "Week 1"


# ---------------------------------------------------------------------------------------- '-' for stdin


def test_rules_add_from_stdin(tmp_path):
    db = tmp_path / "w.db"
    toml = ok(db, "rules", "show", "rupelstreek").stdout.replace('name = "rupelstreek"', 'name = "ons-cafe"', 1)
    assert 'name = "ons-cafe"' in toml
    ok(db, "rules", "add", "-", input=toml)
    names = [r["name"] for r in json.loads(ok(db, "rules", "list", "--json").stdout)]
    assert "ons-cafe" in names
    line = refused(tmp_path / "x.db", "rules", "add", "-", input="name = \n")
    assert "stdin" in line


def test_house_rules_from_stdin_for_calc(tmp_path):
    toml = ok(tmp_path / "w.db", "rules", "show", "rupelstreek").stdout
    doc = json.loads(ok(tmp_path / "w.db", "calc", "--rules", "-", "--json", "samen", "A+B", "8", input=toml).stdout)
    rup = json.loads(ok(tmp_path / "w.db", "calc", "--rules", "rupelstreek", "--json", "samen", "A+B", "8").stdout)
    assert doc["points"] == rup["points"]


# ---------------------------------------------------------------------------------- --db after the command


def test_db_after_the_command_name(club):
    runner = CliRunner()
    after = runner.invoke(cli, ["sessions", "--db", str(club), "--json"], env={"WIEZEN_DB": None})
    before = runner.invoke(cli, ["--db", str(club), "sessions", "--json"])
    assert after.exit_code == 0, after.output
    assert after.stdout == before.stdout and len(json.loads(after.stdout)) == 3
    sub = runner.invoke(cli, ["precedent", "list", "--db", str(club), "--json"])
    assert sub.exit_code == 0 and json.loads(sub.stdout)[0]["title"] == "Renonce in troef"
    # after the command, it wins over the one before it
    other = club.parent / "other.db"
    r = runner.invoke(cli, ["--db", str(other), "sessions", "--db", str(club), "--json"])
    assert len(json.loads(r.stdout)) == 3 and not other.exists()


def test_every_command_takes_db_after_its_name():
    ctx = click.Context(cli)

    def walk(cmd, path):
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), path + [name])

    for name in COMMANDS:
        for path, cmd in walk(cli.get_command(ctx, name), [name]):
            assert "--db" in [o for p in cmd.params for o in getattr(p, "opts", [])], path


# ------------------------------------------------------------------------------------------------ progress


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_and_over_the_threshold():
    from wiezen_score.cli.common import progress

    term = FakeTerminal()
    with progress(1000, "importing", file=term) as bar:
        for _ in range(10):
            bar.update(100)
    assert "importing" in term.getvalue() and "1000/1000" in term.getvalue()
    small = FakeTerminal()
    with progress(10, "importing", file=small) as bar:
        bar.update(10)
    assert small.getvalue() == ""
    pipe = io.StringIO()
    with progress(1000, "importing", file=pipe) as bar:
        bar.update(1000)
    assert pipe.getvalue() == ""


def test_no_progress_output_when_not_on_a_terminal(tmp_path):
    db = tmp_path / "w.db"
    long = WEEK1 + "".join("pas\n" if i % 7 else "samen 8 jan+piet 9\n" for i in range(700))
    r = ok(db, "replay", "-", input=long)
    assert "recording" not in r.stderr and r.stderr == f"new ledger: {db}\n"  # a new ledger says so, nothing more
    assert ok(db, "check").stderr == ""
    r = ok(db, "export")
    assert r.stderr == ""


def test_progress_bars_on_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    import sys

    db = tmp_path / "w.db"
    f = tmp_path / "long.txt"
    f.write_text(WEEK1 + "".join("pas\n" if i % 7 else "samen 8 jan+piet 9\n" for i in range(700)), encoding="utf-8")

    def run(*args):
        c = pexpect.spawn(sys.executable, ["-m", "wiezen_score", "--db", str(db), *map(str, args)],
                          encoding="utf-8", timeout=60, dimensions=(24, 120))
        c.expect(pexpect.EOF)
        c.close()
        return c.before, c.exitstatus

    out, status = run("replay", f)
    assert status == 0 and "recording" in out and "session 1" in out
    out, status = run("check")
    assert status == 0 and "checking" in out and "ok:" in out
    out, status = run("export", "-o", tmp_path / "x.json")
    assert status == 0  # one session: under the threshold, no bar
    assert "exporting" not in out
    out, status = run("--db", tmp_path / "other.db", "import", tmp_path / "x.json")
    assert status == 0 and "importing" in out and "imported" in out
