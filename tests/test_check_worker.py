"""`wiezen check` verifies a long ledger's hash chain in a second process while it runs its other checks: the
result must be the very result of checking one after the other, tampered or not, in either language, and a
second process that fails changes nothing."""

from __future__ import annotations

import shutil
import sqlite3
import sys
from urllib.parse import quote

import pytest

from _ledger_helpers import wz
from _record_helpers import build_full_ledger
from test_record_tamper import behind_the_back, change_one
from wiezen_score.ledger import check

ALONE = 10**9  # more links than any test ledger: everything in this process


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    db = tmp_path_factory.mktemp("worker") / "full.db"
    build_full_ledger(db)
    return db


def _ro(db) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{quote(str(db))}?mode=ro", uri=True)


def _both(db, spy):
    conn = _ro(db)
    try:
        alone = check.check_ledger(conn, worker_min_links=ALONE)
        assert not spy
        together = check.check_ledger(conn, worker_min_links=0)
    finally:
        conn.close()
    return alone, together


def _answers(monkeypatch, name: str) -> list[object]:
    """What check.``name`` (a second process's result) answers, call by call (None: it failed, the work was done
    in this process)."""
    seen: list[object] = []
    real = getattr(check, name)

    def result(job):
        got = real(job)
        seen.append(got)
        return got

    monkeypatch.setattr(check, name, result)
    return seen


@pytest.fixture
def spy(monkeypatch):
    """The chain worker's answers."""
    return _answers(monkeypatch, "_worker_result")


CHANGES = [("entries", "text"), ("entries", "created_at"), ("entry_points", "half"), ("voids", "reason"),
           ("chain", "hash"), ("chain", "shash"), ("seals", "sealed_at"), ("sessions", "name"),
           ("players", "name"), ("precedent_versions", "ruling")]


@pytest.mark.parametrize("table,column", [(None, None), *CHANGES])
def test_the_second_process_finds_what_checking_alone_finds(full, tmp_path, spy, table, column):
    db = tmp_path / "w.db"
    shutil.copy(full, db)
    if table is not None:
        done: list[str | None] = []
        behind_the_back(db, lambda conn: done.append(change_one(conn, table, column)))
        assert done[0] is not None
    alone, together = _both(db, spy)
    assert together == alone
    assert len(spy) == 1 and spy[0] is not None  # the worker answered: it was not verified here after all
    assert alone.ok == (table is None)
    if table in ("entries", "chain", "seals"):
        assert any(p.check == "chain" for p in together.problems)


def test_in_dutch_too(full, tmp_path, spy, nl):
    db = tmp_path / "w.db"
    shutil.copy(full, db)
    behind_the_back(db, lambda conn: change_one(conn, "entries", "text"))
    alone, together = _both(db, spy)
    assert together == alone and spy[0] is not None
    assert any("keten" in p.message for p in together.problems)


def test_a_failing_second_process_changes_nothing(full, tmp_path, spy, monkeypatch):
    db = tmp_path / "w.db"
    shutil.copy(full, db)
    behind_the_back(db, lambda conn: change_one(conn, "entries", "text"))
    conn = _ro(db)
    try:
        alone = check.check_ledger(conn, worker_min_links=ALONE)
        monkeypatch.setattr(sys, "executable", shutil.which("false") or "/bin/false")
        together = check.check_ledger(conn, worker_min_links=0)
    finally:
        conn.close()
    assert spy == [None]  # it failed ...
    assert together == alone and not alone.ok  # ... and the chain was verified here


def test_the_command_uses_it_on_a_long_ledger(tmp_path):
    db = tmp_path / "w.db"
    f = tmp_path / "long.txt"
    f.write_text('session "long" 2026-06-01\nplayers jan piet mieke lotte\n' + "samen 8 jan+piet 9\n" * check.WORKER_MIN_LINKS,
                 encoding="utf-8")
    assert wz(db, "replay", f).exit_code == 0
    assert wz(db, "check").exit_code == 0
    behind_the_back(db, lambda conn: conn.execute("UPDATE entries SET created_at = 'x' WHERE id = 4321"))
    r = wz(db, "check")
    assert r.exit_code == 1
    assert "chain: session 1 entry #4321 (id 4321): the entry is not as it was recorded" in r.stdout


def test_a_path_with_uri_characters_is_the_ledger_checked(full, tmp_path, spy):
    """'#', '?' and '%' in the ledger's path: the second process opens that very file (an URI unquoted would
    open another one, or none)."""
    folder = tmp_path / "club #1?%20"
    folder.mkdir()
    db = folder / "w#1.db"
    shutil.copy(full, db)
    (folder / "w").write_bytes(b"")  # what an unquoted URI would open instead
    behind_the_back(db, lambda conn: change_one(conn, "entries", "text"))
    alone, together = _both(db, spy)
    assert together == alone and not alone.ok
    assert spy[0] is not None


# ---------------------------------------------------------------------------------- import's second process

IMPORT_EVENING = ('session "Week 1" 2026-01-10\nplayers jan piet mieke lotte\n'
                  + "samen 8 jan+piet 9\npas\nalleen 5 mieke 4\npenalty lotte renonce\nundo\ntroel jan+lotte 9\n" * 3)


@pytest.fixture
def rescore_spy(monkeypatch):
    """The import worker's answers."""
    return _answers(monkeypatch, "rescore_result")


def _export(tmp_path, text: str) -> dict:
    import json

    src = tmp_path / "table.db"
    f = tmp_path / "evening.txt"
    f.write_text(text, encoding="utf-8")
    assert wz(src, "replay", f).exit_code == 0
    return json.loads(wz(src, "export").stdout)


def _import_both(tmp_path, doc, monkeypatch, rescore_spy, name):
    import json

    f = tmp_path / f"{name}.json"
    f.write_text(json.dumps(doc), encoding="utf-8")
    here = wz(tmp_path / f"{name}-here.db", "import", f)
    assert rescore_spy == []
    monkeypatch.setattr(check, "RESCORE_MIN_ENTRIES", 0)
    there = wz(tmp_path / f"{name}-there.db", "import", f)
    return ((here.exit_code, here.output.replace(f"{name}-here.db", "LEDGER")),
            (there.exit_code, there.output.replace(f"{name}-there.db", "LEDGER")))


SERIALIZE = hasattr(sqlite3.Connection, "serialize")


@pytest.mark.parametrize("tamper", [None, "points", "multiplier", "text"])
def test_import_rescores_in_a_second_process_as_it_would_here(tmp_path, monkeypatch, rescore_spy, tamper):
    doc = _export(tmp_path, IMPORT_EVENING)
    e = doc["sessions"][0]["entries"][0]
    if tamper == "points":  # still adding up to 0, and no longer what the line scores
        e["points"] = {k: v * 2 for k, v in e["points"].items()}
    elif tamper == "multiplier":
        e["multiplier"] = 2
    elif tamper == "text":
        e["text"] = "samen 8 jan+piet 10"
    here, there = _import_both(tmp_path, doc, monkeypatch, rescore_spy, str(tamper))
    assert there == here
    assert here[0] == (0 if tamper is None else 1), here[1]
    if tamper is not None:
        assert "re-scored" in here[1]
    if SERIALIZE:
        assert len(rescore_spy) == 1 and rescore_spy[0] is not None  # the second process answered
    else:
        assert rescore_spy == []  # Python 3.10: no copy to hand over; re-scored here


def test_a_failing_second_process_of_import_changes_nothing(tmp_path, monkeypatch, rescore_spy):
    doc = _export(tmp_path, IMPORT_EVENING)
    doc["sessions"][0]["entries"][0]["multiplier"] = 2
    monkeypatch.setattr(sys, "executable", shutil.which("false") or "/bin/false")
    here, there = _import_both(tmp_path, doc, monkeypatch, rescore_spy, "failing")
    assert there == here and here[0] == 1
    # it failed when handed the work (nothing to ask) or when asked: re-scored here either way
    assert rescore_spy in ([None], []) if SERIALIZE else rescore_spy == []
