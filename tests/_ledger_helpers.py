"""Helpers shared by tests/test_ledger_*.py: run the CLI, read the sheet, dump the database."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from wiezen_score.cli import cli

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"


def wz(db, *args, input=None):
    """Run `wiezen --db DB ARGS...` in-process."""
    return CliRunner().invoke(cli, ["--db", str(db), *map(str, args)], input=input)


def ok(db, *args, input=None):
    r = wz(db, *args, input=input)
    assert r.exit_code == 0, f"wiezen {' '.join(map(str, args))}: exit {r.exit_code}\n{r.output}\n{r.exception!r}"
    return r


def refused(db, *args, input=None) -> str:
    """The command must exit 1 with exactly one `Error:` line on stderr (no traceback); returns that line."""
    r = wz(db, *args, input=input)
    assert r.exit_code == 1, f"wiezen {' '.join(map(str, args))}: exit {r.exit_code}\n{r.output}\n{r.exception!r}"
    assert isinstance(r.exception, SystemExit), repr(r.exception)  # a click error, not a crash
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    return lines[0]


def sheet(db, *args):
    return json.loads(ok(db, "sheet", "--json", *args).stdout)


def dump(db) -> list[str]:
    """Every row of every table (and the schema), as SQL text: equal dumps mean nothing was written."""
    conn = sqlite3.connect(str(db))
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def counting(doc):
    """The entries of a sheet that count (not voided)."""
    return [e for e in doc["entries"] if not e["voided"]]


def rules_name_of(path) -> str:
    m = re.search(r'^name\s*=\s*"([^"]+)"', Path(path).read_text(encoding="utf-8"), re.M)
    assert m, path
    return m.group(1)


def read_session_file(path):
    """(name, date, rules, players, dealer, body lines) of a session file, read by the test itself."""
    name = date = dealer = ""
    rules = "whisthub"
    players: list[str] = []
    body: list[str] = []
    for raw in Path(path).read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split()[0]
        if head == "session":
            parts = shlex.split(line[len("session"):])
            if parts and re.match(r"^\d{4}-\d{2}-\d{2}$", parts[-1]):
                date = parts.pop()
            name = " ".join(parts)
        elif head == "rules":
            rules = line.split()[1]
        elif head == "players":
            players = line.split()[1:]
            if len(players) > 2 and players[-2] == "dealer":
                dealer = players[-1]
                players = players[:-2]
        else:
            body.append(line)
    return name, date, rules, players, dealer, body


def command_for(line: str) -> list[str]:
    """The `wiezen` command that records one session-file line."""
    words = line.split()
    head = words[0].lower()
    if head in ("pas", "pass"):
        return ["pass"]
    if head == "undo":
        return ["undo"] + (["--reason", " ".join(words[1:])] if len(words) > 1 else [])
    if head == "redeal":
        return ["redeal"] + (["--reason", " ".join(words[1:])] if len(words) > 1 else [])
    if head == "penalty":
        args = ["penalty", words[1]]
        rest = words[2:]
        if rest and rest[0].lower() == "round":
            args.append("--round")
            rest = rest[1:]
        if len(rest) >= 2 and rest[0] == "deal" and rest[1].isdigit():
            args += ["--deal", rest[1]]
            rest = rest[2:]
        if rest:
            args += ["--reason", " ".join(rest)]
        return args
    return ["deal", *words]


def start(db, players, rules="whisthub", *extra):
    return ok(db, "session", "start", "--players", ",".join(players), "--rules", rules, *extra)


def record(db, *lines):
    for line in lines:
        ok(db, *command_for(line))


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


def copy_ledger(template: Path, dest: Path) -> Path:
    """Copy a ledger file and the files beside it that share its name (-wal, backups) to ``dest``. Not -shm: that
    is SQLite's index of the WAL shared between open connections, which it builds again for the copy."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    for f in template.parent.iterdir():
        if f.name == template.name + "-shm":
            continue
        if f.name == template.name or f.name.startswith(template.name + "-") or f.name.startswith(template.name + "."):
            shutil.copy2(f, dest.parent / (dest.name + f.name[len(template.name):]))
    return dest
