"""The hand-computed season of the competition tests (its points: tests/core/test_competition_file.py's docstring)."""

from __future__ import annotations

from _ledger_helpers import copy_ledger, ok

SEASON = [
    ("2026-09-05", "a b c d", ["samen 8 a+b 8"], "t"),
    ("2026-09-12", "a b c e", ["samen 8 a+c 9"], "t"),
    ("2026-09-19", "a b d e", ["samen 8 b+d 8"], "t"),
    ("2026-09-26", "b c d e", ["samen 8 c+e 9", "grote-miserie e 0"], "t"),
    ("2026-10-03", "a b c d", ["samen 8 a+b 9"], None),
    ("2026-10-10", "a b c d", ["samen 8 d+c 9"], "t"),
]
BASE = 'name = "Herfst 2026"\ntag = "t"\nsince = 2026-09-01\nuntil = 2026-09-30\n'


def season_ledger(ledger_template, tmp_path):
    """The season, replayed once per run into a template ledger (tests/conftest.py) and copied for each test."""
    def build(db, folder):
        for i, (date, players, deals, tag) in enumerate(SEASON):
            f = folder / f"e{i}.txt"
            head = f'session "E{i + 1}" {date}\n' + (f"tag {tag}\n" if tag else "") + f"players {players}\n"
            f.write_text(head + "\n".join(deals) + "\n", encoding="utf-8")
            ok(db, "replay", f)

    return copy_ledger(ledger_template("competition-season", build), tmp_path / "club.db")


def comp(tmp_path, extra: str = "", name: str = "c.toml"):
    p = tmp_path / name
    p.write_text(BASE + extra, encoding="utf-8")
    return p
