"""`player_evenings`, the per-session, per-player sums that triggers keep, against the same figures computed
straight from entry_points of the entries that count: after random evenings with undo, amend and penalties, at
four and five players, after an import, and in the migration that fills it from an existing history.
"""

from __future__ import annotations

import sqlite3

from _hypothesis_helpers import examples
from _ledger_helpers import DATA, ok, wz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiezen_score.core.errors import WiezenError
from wiezen_score.core.presets import preset_text
from wiezen_score.core.session import EntryInput
from wiezen_score.ledger import Ledger
from wiezen_score.ledger.exchange import export_doc, import_doc
from wiezen_score.ledger.standings import check_player_evenings, standings

NAMES = ["an", "bo", "cy", "di", "ed"]

deal_line = st.one_of(
    st.builds(lambda a, b, t: f"samen 8 {a}+{b} {t}", st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(0, 13)),
    st.builds(lambda a, t: f"alleen 5 {a} {t}", st.sampled_from(NAMES), st.integers(0, 13)),
    st.builds(lambda a, t: f"grote-miserie {a} {t}", st.sampled_from(NAMES), st.integers(0, 2)),
    st.builds(lambda a, b, t, u: f"grote-miserie {a} {t} {b} {u}", st.sampled_from(NAMES), st.sampled_from(NAMES),
              st.integers(0, 1), st.integers(0, 1)),
    st.builds(lambda a, t: f"abondance 9 {a} {t}", st.sampled_from(NAMES), st.integers(7, 13)),
)
operation = st.one_of(
    st.tuples(st.just("deal"), deal_line),
    st.tuples(st.just("pass"), st.none()),
    st.tuples(st.just("penalty"), st.sampled_from(NAMES)),
    st.tuples(st.just("undo"), st.none()),
    st.tuples(st.just("amend"), st.tuples(st.integers(1, 12), deal_line)),
)
evening = st.tuples(st.integers(4, 5), st.lists(operation, min_size=1, max_size=14))


def play(led: Ledger, n: int, ops, date: str) -> None:
    rules = preset_text("whisthub")
    with led.write():
        led.start_session(NAMES[:n], "whisthub", rules, 0, "", date, closed=False)
    for kind, arg in ops:
        try:
            if kind == "deal":
                led.record(EntryInput("deal", arg))
            elif kind == "pass":
                led.record(EntryInput("pass"))
            elif kind == "penalty":
                led.record(EntryInput("penalty", offender=arg))
            elif kind == "undo":
                led.undo()
            else:
                led.amend(arg[0], EntryInput("deal", arg[1]))
        except WiezenError:
            pass  # a player who sits out, a bad pair, nothing to undo ...: refused, nothing written
    led.end_session()


def assert_in_step(conn: sqlite3.Connection) -> None:
    assert check_player_evenings(conn) == []
    assert standings(conn) == standings(conn, reference=True)
    for since in ("2026-01-02", "2026-01-03"):
        assert standings(conn, since) == standings(conn, since, reference=True)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(evening, min_size=1, max_size=3))
def test_player_evenings_equal_the_entries_that_count(tmp_path_factory, evenings):
    path = tmp_path_factory.mktemp("cache") / "l.db"
    led = Ledger(str(path))
    try:
        for i, (n, ops) in enumerate(evenings):
            play(led, n, ops, f"2026-01-0{i + 1}")
        assert_in_step(led.conn)
        assert sum(d["points"] for d in standings(led.conn)) == 0
        # an import writes entries, points and voids by their own path: the table follows there too
        other = Ledger(str(path.with_name("other.db")))
        try:
            import_doc(other, export_doc(led.conn))
            assert_in_step(other.conn)
            assert standings(other.conn) == standings(led.conn)
        finally:
            other.close()
    finally:
        led.close()


def test_a_broken_table_is_noticed(make_club):
    db = make_club("l.db")
    conn = sqlite3.connect(str(db))
    assert check_player_evenings(conn) == []
    conn.execute("UPDATE player_evenings SET made = made + 1 WHERE session_id = 1 AND player_id = 1")
    problems = check_player_evenings(conn)
    assert len(problems) == 1 and problems[0][0] == 1 and "of jan are 3 3 1 2; the entries give 3 3 1 1" in problems[0][1]
    assert standings(conn) != standings(conn, reference=True)
    conn.commit()
    conn.close()
    r = wz(db, "check")
    assert r.exit_code == 1 and "totals: session 1: the standings' figures" in r.stdout + r.stderr


def test_the_migration_fills_it_from_an_old_history(tmp_path):
    old = tmp_path / "old.db"
    old.write_bytes((DATA / "ledger-schema1.db").read_bytes())
    ok(old, "standings")  # upgrades the ledger
    conn = sqlite3.connect(str(old))
    try:
        assert conn.execute("SELECT count(*) FROM player_evenings").fetchone()[0] > 0
        assert_in_step(conn)
    finally:
        conn.close()
