"""Dutch from the ledger: its errors, `check`'s report lines and import refusals (issue 16).

The ledger is made through the English command line; the Dutch is then asked of the ledger itself, in
process. The expected Dutch is written by hand.
"""

from __future__ import annotations

import sqlite3

import pytest
from _ledger_helpers import ok

from wiezen_score.core.errors import WiezenError
from wiezen_score.ledger.check import check_ledger
from wiezen_score.ledger.exchange import import_doc, validate_header
from wiezen_score.ledger.store import open_ledger


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "club.db"
    ok(path, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-11-27")
    ok(path, "deal", "samen", "8", "jan+piet", "9")
    ok(path, "session", "end")
    return path


def test_no_open_session_in_dutch(db, nl):
    with open_ledger(str(db), readonly=True) as led:
        with pytest.raises(WiezenError) as e:
            led.require_open()
        assert str(e.value) == (
            "geen open sessie: begin er een met `wiezen session start --players jan,piet,mieke,lotte`"
        )
        with pytest.raises(WiezenError) as e:
            led.session(99)
        assert str(e.value) == "geen sessie 99 (zie `wiezen sessions`)"


def test_no_ledger_yet_in_dutch(tmp_path, nl):
    with pytest.raises(WiezenError) as e, open_ledger(str(tmp_path / "nieuw.db"), readonly=True):
        pass
    assert str(e.value) == (
        f"nog geen register op '{tmp_path / 'nieuw.db'}': begin eerst een sessie (`wiezen session start --players ...`)"
    )


def test_check_reports_a_dropped_trigger_in_dutch(db, nl):
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.commit()
    result = check_ledger(conn)
    conn.close()
    lines = [p.line() for p in result.problems]
    assert (
        "triggers: de trigger die alleen toevoegen toelaat entries_no_update ontbreekt: rijen kunnen achter de "
        "rug van het register veranderd worden"
    ) in lines


def test_check_report_stays_english_in_english(db):
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER entries_no_update")
    conn.commit()
    lines = [p.line() for p in check_ledger(conn).problems]
    conn.close()
    assert (
        "triggers: the append-only trigger entries_no_update is missing: rows can be changed behind the ledger's back"
    ) in lines


def test_import_refusals_in_dutch(db, nl):
    with pytest.raises(WiezenError) as e:
        validate_header([])
    assert str(e.value) == "kan niet importeren: het bestand is geen export van wiezen (een JSON-object werd verwacht)"
    with open_ledger(str(db)) as led, pytest.raises(WiezenError) as e:
        import_doc(led, {"format": "wiezen-export", "version": 1, "sessions": [{"uid": ""}]})
    assert str(e.value).startswith("kan niet importeren: ")
