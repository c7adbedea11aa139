"""The layout is the architecture (issue 11): SQL only under ledger/, one statement that inserts entries."""

from __future__ import annotations

import re
from pathlib import Path

PKG = Path(__file__).resolve().parents[2] / "wiezen_score"
SQL = re.compile(r"\b(SELECT\s+\S.*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TRIGGER|VIEW))\b")


def sources() -> list[Path]:
    return sorted(PKG.rglob("*.py"))


def test_sql_appears_only_under_ledger():
    found = [
        f"{p.relative_to(PKG)}:{n}"
        for p in sources() if "ledger" not in p.relative_to(PKG).parts
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if SQL.search(line)
    ]
    assert found == []


def test_the_grep_finds_sql_where_there_is_some():
    assert any(SQL.search(line) for line in (PKG / "ledger" / "rows.py").read_text(encoding="utf-8").splitlines())


def test_entries_are_inserted_by_exactly_one_statement():
    hits = [
        f"{p.relative_to(PKG)}:{n}"
        for p in sources()
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"INSERT\s+(OR\s+\w+\s+)?INTO\s+(main\.)?entries\b", line, re.I)
    ]
    assert len(hits) == 1 and hits[0].startswith("ledger/rows.py:"), hits
