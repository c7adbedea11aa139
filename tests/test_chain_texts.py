"""The hash chain writes an entry's texts straight from its stored row (a replay, an import or a check writes
thousands): they must be byte for byte what the generic way gives, the content built and dumped as canonical
JSON, or every seal and link would change."""

from __future__ import annotations

import sqlite3

from hypothesis import example, given, settings
from hypothesis import strategies as st

from _hypothesis_helpers import examples
from _ledger_helpers import ok, wz
from _record_helpers import EVENING
from wiezen_score.ledger import chain

SCHEMA = """
CREATE TABLE players (id INTEGER PRIMARY KEY, name, created_at);
CREATE TABLE entries (id INTEGER PRIMARY KEY, uid, session_id, no, kind, text, contract, dealer, multiplier,
    offender_id, round, deal_no, reason, next_dealer, next_multiplier, replaces, created_at);
CREATE TABLE entry_points (entry_id, player_id, half, taker, made);
"""

# what SQLite can hand back: text (any Unicode, quotes, backslashes, control characters), integers of any size,
# NULL, and what the tool never writes but a damaged file may hold (floats, bytes)
plain = st.one_of(st.none(), st.integers(min_value=-(2**63), max_value=2**63 - 1), st.text(max_size=12))
odd = st.one_of(plain, st.floats(allow_nan=False), st.binary(max_size=4))


def _generic(conn: sqlite3.Connection, rid: int, bulk: bool) -> object:
    got = chain.Facts(conn, bulk=bulk).content("entry", rid, 0)
    try:
        return None if got is None else (chain._dump(got[0]), chain._dump(got[1]), got[2])
    except TypeError as e:  # bytes: JSON has no such value
        return type(e)


def _texts(facts: chain.Facts, rid: int) -> object:
    try:
        return facts.texts("entry", rid, 0)
    except TypeError as e:
        return type(e)


def _fill(rows: list[list[object]], points: list[tuple[int, object, object, object, object]],
          names: list[object]) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(SCHEMA)
    conn.executemany("INSERT INTO players (id, name, created_at) VALUES (?, ?, 'x')", list(enumerate(names, 1)))
    for i, r in enumerate(rows, 1):
        conn.execute("INSERT INTO entries VALUES (" + ",".join("?" * 17) + ")", [i, *r[1:]])
    conn.executemany("INSERT INTO entry_points VALUES (?, ?, ?, ?, ?)", points)
    return conn


def _same(rows: list[list[object]], names: list[object], data: st.DataObject, values: st.SearchStrategy[object]) -> None:
    n = len(rows)
    # replaces points at another entry (its uid joins the text) or at none; offender at a player or not
    for r in rows:
        r[15] = data.draw(st.one_of(st.none(), st.integers(1, n + 1)))
        r[9] = data.draw(st.one_of(st.none(), st.integers(0, len(names) + 1)))
    points = [
        (eid, pid, data.draw(values), data.draw(values), data.draw(values))
        for eid in range(1, n + 1)
        for pid in data.draw(st.lists(st.integers(0, len(names) + 1), unique=True, max_size=5))
    ]
    conn = _fill(rows, points, names)
    bulk = chain.Facts(conn, bulk=True)
    one = chain.Facts(conn)
    one.preload("entry", list(range(1, n + 1)) * 16)  # enough row ids for a preload, as a long write has
    for rid in range(1, n + 2):  # n + 1: a row that is not there
        assert _texts(bulk, rid) == _generic(conn, rid, bulk=True)
        assert _texts(one, rid) == _generic(conn, rid, bulk=False)


@settings(max_examples=examples(200), deadline=None)
@given(
    rows=st.lists(st.lists(plain, min_size=17, max_size=17), min_size=1, max_size=5),
    names=st.lists(st.one_of(st.text(max_size=6), st.none()), min_size=0, max_size=5),
    data=st.data(),
)
def test_an_entry_written_from_its_row_is_its_dumped_content(rows, names, data):
    _same(rows, names, data, plain)


_int = st.integers(min_value=-(2**63), max_value=2**63 - 1)
_text = st.text(max_size=12)
# a row of the types the tool writes (chain._ENTRY_TYPES): the common case, written the quickest way
shaped = st.tuples(*[
    st.one_of(*([_int] if int in t else []), *([_text] if str in t else []), *([st.none()] if type(None) in t else []))
    for t in chain._ENTRY_TYPES
]).map(list)


@settings(max_examples=examples(200), deadline=None)
@given(
    rows=st.lists(shaped, min_size=1, max_size=5),
    names=st.lists(st.one_of(st.text(max_size=6), st.none()), min_size=0, max_size=5),
    data=st.data(),
)
def test_an_entry_of_the_types_the_tool_writes_is_its_dumped_content(rows, names, data):
    _same(rows, names, data, st.one_of(_int, _int, st.none()))


@settings(max_examples=examples(200), deadline=None)
@given(
    rows=st.lists(st.lists(st.one_of(plain, odd), min_size=17, max_size=17), min_size=1, max_size=5),
    names=st.lists(st.one_of(st.text(max_size=6), st.none()), min_size=0, max_size=5),
    data=st.data(),
)
def test_a_value_the_tool_never_writes_gives_what_the_generic_way_gives(rows, names, data):
    """Floats and bytes (a damaged file): the same texts, or the same error."""
    _same(rows, names, data, odd)
def test_the_texts_are_the_canonical_json_a_reader_expects():
    """Spelled out once by hand: keys sorted, no spaces, Unicode as is, points by player name."""
    conn = _fill(
        [[0, "u1", 3, 2**62, "deal", 'samen 8 jan+"piet" 9\\ \x01 \U0001F0A1', "samen", 1, 2, None, 0, None, "", 2, 1, None, "t"]],
        [(1, 2, -16, 0, None), (1, 1, 16, 1, 1)], ["Zoë", "an"],
    )
    portable, local, sid = chain.Facts(conn, bulk=True).texts("entry", 1, 0)  # type: ignore[misc]
    assert portable == (
        '{"contract":"samen","created_at":"t","deal_no":null,"dealer":1,"kind":"deal","multiplier":2,'
        '"next_dealer":2,"next_multiplier":1,"no":4611686018427387904,"offender":null,"points":[["an",-16,0,null],["zoë",16,1,1]],'
        '"reason":"","replaces":null,"round":0,"text":"samen 8 jan+\\"piet\\" 9\\\\ \\u0001 \U0001F0A1","uid":"u1"}'
    )
    assert local == '{"id":1,"offender_id":null,"players":[2,1],"replaces":null,"session_id":3}'
    assert sid == 3


def test_every_fact_of_a_real_ledger_gives_the_same_texts(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "replay", EVENING)
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    for line in ("samen 8 jan+piet 9", "alleen 5 mieke 6", "abondance 9 lotte 9") * 3:  # the same points again
        ok(db, "deal", *line.split())
    ok(db, "pass")
    ok(db, "undo")
    ok(db, "amend", "1", "samen", "8", "jan+piet", "10")
    ok(db, "session", "end")
    ok(db, "session", "start", "--players", "an,bert,carla,dirk")  # other players, the same points in seat order
    for _ in range(2):
        ok(db, "deal", "samen", "8", "an+bert", "9")
    conn = sqlite3.connect(db)
    links = conn.execute("SELECT kind, rid, sub FROM chain ORDER BY seq").fetchall()
    assert sum(k == "entry" for k, _, _ in links) >= 10
    bulk = chain.Facts(conn, bulk=True)
    for kind, rid, sub in links:
        got = chain.Facts(conn, bulk=True).content(kind, rid, sub)
        assert got is not None
        assert bulk.texts(kind, rid, sub) == (chain._dump(got[0]), chain._dump(got[1]), got[2])
    assert chain.verify(conn) == []


def _session_file(path, lines: list[str]) -> None:
    path.write_text('session "long" 2026-06-01\nplayers jan piet mieke lotte\n' + "\n".join(lines) + "\n",
                    encoding="utf-8")


def test_a_write_that_rolled_back_leaves_nothing_for_the_next_one_to_link(tmp_path):
    """A replay links the entries it wrote from the rows it gave SQLite. One that fails after thousands were
    written rolls back; the next replay is given the same row ids with other contents, and must link those."""
    db = tmp_path / "w.db"
    bad = tmp_path / "bad.txt"
    _session_file(bad, ["samen 8 jan+piet 9"] * 2500 + ["samen 8 jan+piet 14"])  # 14 tricks: refused at the end
    r = wz(db, "replay", bad)
    assert r.exit_code == 1 and "14" in r.output
    good = tmp_path / "good.txt"
    _session_file(good, ["alleen 5 mieke 6", "troel lotte+jan 9"] * 1250)
    ok(db, "replay", good)
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*), min(id) FROM entries").fetchone() == (2500, 1)
    assert conn.execute("SELECT count(*) FROM entries WHERE text LIKE 'samen%'").fetchone()[0] == 0
    assert chain.verify(conn) == []
    assert "ok:" in ok(db, "check").output


def test_one_connection_links_after_a_rolled_back_write_what_it_stored(tmp_path):
    """The same connection (a long-lived process): a replay rolled back after thousands of rows were written, then
    an entry written on its own with the first of the same row ids."""
    import pytest

    from wiezen_score.cli.common import rules_from_spec
    from wiezen_score.core.errors import WiezenError
    from wiezen_score.ledger import Ledger

    db = tmp_path / "w.db"
    head = 'session "long" 2026-06-01\nplayers jan piet mieke lotte\n'
    led = Ledger(str(db))
    try:
        with pytest.raises(WiezenError):
            led.replay(head + "samen 8 jan+piet 9\n" * 2500 + "samen 8 jan+piet 14\n", rules_from_spec, "2026-06-01")
        led.replay(head + "alleen 5 mieke 6\n", rules_from_spec, "2026-06-01", keep_open=True)
        assert chain.verify(led.conn) == []
    finally:
        led.close()


def test_entries_written_one_by_one_among_batches_are_linked_as_stored(tmp_path):
    """A replay or an import with undos writes some entries in batches (remembered, not read back) and others one
    by one between them (read back, in one read from the lowest row id to the highest when they lie close
    together). That read spans remembered entries: their points rows must not be counted twice, or the chain
    says the entries were changed by hand."""
    db = tmp_path / "u.db"
    f = tmp_path / "u.txt"
    _session_file(f, ["samen 8 jan+piet 9", "undo", "pas", "undo", "alleen 5 mieke 4", "samen 9 piet+lotte 10",
                      "undo"] * 40)
    ok(db, "replay", "--keep-open", f)
    conn = sqlite3.connect(db)
    try:
        assert chain.verify(conn) == []
    finally:
        conn.close()
    assert ok(db, "check").output.startswith("ok:")
    export = tmp_path / "u.json"
    export.write_text(ok(db, "export").output)
    copy = tmp_path / "copy.db"
    ok(copy, "import", export)
    assert ok(copy, "check").output.startswith("ok:")


@settings(max_examples=examples(60), deadline=None)
@given(sizes=st.lists(st.sampled_from([1, 1, 1, 1, 2, 2, 3, 30]), min_size=1, max_size=80))
@example(sizes=[1, 1, 2] * 20)  # entries on their own close together, a read of them spans batches
def test_any_mix_of_batches_and_single_entries_in_one_write_links_as_stored(tmp_path_factory, sizes):
    """One write of entries in batches of these sizes (a batch of one is written on its own and read back, a
    larger one is remembered as given): whatever the mix, the chain verifies and `check` finds it whole."""
    from wiezen_score.ledger import Ledger
    from wiezen_score.ledger.bulk import insert_entries
    from wiezen_score.ledger.rows import NewEntry

    db = tmp_path_factory.mktemp("mix") / "m.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte")
    led = Ledger(str(db))
    try:
        conn = led.conn
        sid = conn.execute("SELECT id FROM sessions").fetchone()[0]
        pids = [r[0] for r in conn.execute("SELECT player_id FROM seats WHERE session_id = ? ORDER BY seat", (sid,))]
        no = 0

        def entry() -> NewEntry:  # rondjes pas, so that the dealer and the doubling follow as `check` re-scores them
            nonlocal no
            no += 1
            return NewEntry(uid=f"mix-{no}", session_id=sid, no=no, kind="pass", text="pas", contract=None,
                            dealer=(no - 1) % 4, multiplier=1, offender_id=None, round=False, deal_no=None, reason="",
                            next_dealer=no % 4, next_multiplier=2, replaces=None, created_at="2026-12-02T06:00:00",
                            halves=[(p, 0, None) for p in pids])

        with led.write():
            for size in sizes:
                insert_entries(conn, [entry() for _ in range(size)])
        assert chain.verify(conn) == []
    finally:
        led.close()
    out = wz(db, "check").output
    assert "chain" not in out, out
