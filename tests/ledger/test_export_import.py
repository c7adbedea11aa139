"""`wiezen export` and `wiezen import`: stable ids, merging tables' ledgers, refusing conflicts with nothing written."""

from __future__ import annotations

import json
import sqlite3

import pytest
from _club_helpers import ALL, WEEK1, WEEK2, WEEK3, record_weeks, standings
from _ledger_helpers import DATA, dump, ok, refused, sheet


@pytest.fixture
def db(make_club):
    return make_club("table.db")  # the three club evenings (tests/conftest.py)


def export(db, *args):
    return json.loads(ok(db, "export", *args).stdout)


def write(tmp_path, doc, name="export.json"):
    f = tmp_path / name
    f.write_text(json.dumps(doc), encoding="utf-8")
    return f


def rows(db, sql):
    conn = sqlite3.connect(str(db))
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def sheets(db):
    """Every session's sheet, without the local ids (which may differ between ledgers)."""
    out = []
    for (sid,) in rows(db, "SELECT id FROM sessions ORDER BY date, id"):
        doc = sheet(db, "--session", sid)
        doc["session"].pop("id")
        out.append(doc)
    return out


def test_export_document(db):
    doc = export(db)
    assert doc["format"] == "wiezen-export" and doc["version"] == 2
    assert [s["name"] for s in doc["sessions"]] == ["Week 1", "Week 2", "Week 3"]
    s2 = doc["sessions"][1]
    assert s2["rules_name"] == "whisthub" and "[contracts.samen]" in s2["rules_toml"]
    assert s2["players"] == ["jan", "piet", "mieke", "lotte"]
    assert [(e["no"], e["kind"], e["void"] and e["void"]["action"]) for e in s2["entries"]] == [
        (1, "pass", None), (2, "deal", None), (3, "deal", "undo"), (4, "penalty", None)
    ]
    assert s2["entries"][1]["points"] == {"jan": -16, "piet": -16, "mieke": 16, "lotte": 16}
    assert s2["entries"][1]["takers"] == {"mieke": True, "lotte": True}
    uids = [s["uid"] for s in doc["sessions"]] + [e["uid"] for s in doc["sessions"] for e in s["entries"]]
    assert len(uids) == len(set(uids)) == 3 + 3 + 4 + 3
    assert export(db) ["sessions"] == doc["sessions"]  # stable: the same ids every time


def test_export_selection(db):
    assert [s["name"] for s in export(db, "--since", "2026-02-01")["sessions"]] == ["Week 2", "Week 3"]
    assert [s["name"] for s in export(db, "--until", "2026-02-14")["sessions"]] == ["Week 1", "Week 2"]
    assert [s["name"] for s in export(db, "--session", "3")["sessions"]] == ["Week 3"]
    assert "no session 7" in refused(db, "export", "--session", "7")


def test_export_import_into_an_empty_ledger_gives_identical_standings(db, tmp_path):
    f = write(tmp_path, export(db))
    club = tmp_path / "club.db"
    out = ok(club, "import", f).stdout
    assert "3 sessions, 10 entries" in out
    assert standings(club) == standings(db)
    assert standings(club, "--since", "2026-02-01") == standings(db, "--since", "2026-02-01")
    assert [{k: d[k] for k in ALL[0]} for d in standings(club)] == ALL
    assert sheets(club) == sheets(db)  # voided entries, dealers, multipliers, totals: all kept
    # the house-rules snapshots, byte for byte
    assert rows(club, "SELECT uid, rules_name, rules_toml FROM sessions ORDER BY uid") == rows(
        db, "SELECT uid, rules_name, rules_toml FROM sessions ORDER BY uid"
    )
    assert rows(club, "SELECT e.uid, v.action, v.reason, v.created_at FROM voids v JOIN entries e ON e.id = v.entry_id") == rows(
        db, "SELECT e.uid, v.action, v.reason, v.created_at FROM voids v JOIN entries e ON e.id = v.entry_id"
    )
    assert "ok:" in ok(club, "check").stdout


def test_importing_twice_adds_nothing(db, tmp_path):
    f = write(tmp_path, export(db))
    club = tmp_path / "club.db"
    ok(club, "import", f)
    before = dump(club)
    out = ok(club, "import", f).stdout
    assert "nothing new" in out
    assert dump(club) == before
    ok(club, "import", db)  # the table's ledger itself: the same data
    assert dump(club) == before
    assert json.loads(ok(club, "import", f, "--json").stdout)["entries_added"] == 0


def test_import_another_ledger_file(db, tmp_path):
    club = tmp_path / "club.db"
    out = ok(club, "import", db).stdout
    assert "imported from the ledger" in out
    assert standings(club) == standings(db)
    before = dump(db)
    assert "this ledger itself" in refused(db, "import", db)
    assert dump(db) == before


def test_an_old_schema_ledger_can_be_imported(tmp_path):
    src = tmp_path / "old.db"
    src.write_bytes((DATA / "ledger-schema1.db").read_bytes())
    club = tmp_path / "club.db"
    ok(club, "import", src)
    assert (DATA / "ledger-schema1.db").read_bytes() == src.read_bytes()  # opened read-only: untouched
    n = rows(src, "SELECT count(*) FROM sessions")[0][0]
    assert rows(club, "SELECT count(*) FROM sessions")[0][0] == n


def test_two_tables_merge_into_the_club(tmp_path):
    table1, table2, club = tmp_path / "t1.db", tmp_path / "t2.db", tmp_path / "club.db"
    record_weeks(table1, tmp_path, (WEEK1, WEEK2), prefix="a")
    record_weeks(table2, tmp_path, (WEEK3,), prefix="b")
    ok(club, "import", write(tmp_path, export(table1), "t1.json"))
    ok(club, "import", table2)
    assert [{k: d[k] for k in ALL[0]} for d in standings(club)] == ALL
    assert rows(club, "SELECT count(*) FROM players")[0][0] == 5  # jan, piet, mieke, lotte shared by name
    # and again, in the other order, into another club ledger: the same standings
    club2 = tmp_path / "club2.db"
    ok(club2, "import", table2)
    ok(club2, "import", table1)
    assert standings(club2) == standings(club)


def test_players_match_case_insensitively(tmp_path, db):
    club = tmp_path / "club.db"
    f = tmp_path / "x.txt"
    f.write_text('session "Elders" 2026-01-01\nplayers Jan Piet Mieke Lotte\npas\n', encoding="utf-8")
    ok(club, "replay", f)
    ok(club, "import", db)
    assert sorted(r[0] for r in rows(club, "SELECT name FROM players")) == ["Jan", "Lotte", "Mieke", "Piet", "bert"]
    got = {d["player"].lower(): d for d in standings(club)}
    assert got["jan"]["points"] == -2 and got["jan"]["sessions"] == 4
    ok(club, "check")  # deal lines that spell a name in another case still re-score as stored


@pytest.mark.parametrize(
    "change, what",
    [
        (lambda d: d["sessions"][0].__setitem__("date", "2026-01-11"), "another date"),
        (lambda d: d["sessions"][2]["entries"][1].__setitem__("text", "abondance 9 bert 10"), "another text"),
        (lambda d: d["sessions"][0]["entries"][0]["points"].update(jan=12, mieke=-12), "another points"),
        (lambda d: d["sessions"][1]["entries"][2]["void"].__setitem__("reason", "other"), "voided differently"),
        (lambda d: d["sessions"][1].__setitem__("rules_toml", d["sessions"][1]["rules_toml"] + "\n# changed\n"),
         "another rules_toml"),
        (lambda d: d["sessions"][0].__setitem__("players", ["piet", "jan", "mieke", "lotte"]), "another players"),
    ],
)
def test_a_conflicting_import_is_refused_with_nothing_written(db, tmp_path, change, what):
    doc = export(db)
    club = tmp_path / "club.db"
    ok(club, "import", write(tmp_path, doc, "good.json"))
    # the conflicting file also brings a new session: it must not be written either
    extra = tmp_path / "extra.db"
    f = tmp_path / "w4.txt"
    f.write_text('session "Week 4" 2026-04-04\nplayers jan piet mieke lotte\nsamen 8 jan+piet 8\n', encoding="utf-8")
    ok(extra, "replay", f)
    doc["sessions"] += export(extra)["sessions"]
    change(doc)
    before = dump(club)
    msg = refused(club, "import", write(tmp_path, doc, "bad.json"))
    assert "import refused, nothing was written" in msg and "conflict" in msg
    assert what in msg
    assert dump(club) == before


def test_the_same_session_file_replayed_at_two_tables_is_a_conflict(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    record_weeks(a, tmp_path, (WEEK1,), prefix="x")
    record_weeks(b, tmp_path, (WEEK1,), prefix="y")  # same text: same evening, recorded twice under two ids
    before = dump(a)
    assert "same session file" in refused(a, "import", b)
    assert dump(a) == before


def test_growing_history_merges_and_diverging_history_is_refused(tmp_path):
    table, club = tmp_path / "table.db", tmp_path / "club.db"
    ok(table, "session", "start", "--players", "jan,piet,mieke,lotte", "--date", "2026-05-01")
    ok(table, "deal", "samen", "8", "jan+piet", "9")
    ok(club, "import", table)  # mid-evening: the session is still open
    ok(table, "deal", "alleen", "5", "mieke", "4")
    ok(table, "undo")
    ok(table, "amend", "1", "samen", "8", "jan+piet", "10")
    ok(table, "session", "end")
    out = ok(club, "import", table).stdout
    assert "2 entries" in out and "2 undo/amends" in out and "1 session end" in out
    assert sheets(club) == sheets(table)
    assert rows(club, "SELECT count(*) FROM sessions WHERE ended_at IS NULL")[0][0] == 0
    # a second table starts from the same export but records another evening's deal 2 differently
    fork = tmp_path / "fork.db"
    other = tmp_path / "other.db"
    ok(fork, "session", "start", "--players", "an,bo,cy,di", "--date", "2026-06-01")
    ok(fork, "deal", "samen", "8", "an+bo", "9")
    ok(other, "import", fork)
    ok(fork, "pass")
    ok(other, "deal", "samen", "8", "cy+di", "9")  # the open session was imported: recorded here too
    before = dump(other)
    assert "diverged" in refused(other, "import", fork)
    assert dump(other) == before


def test_an_open_session_cannot_meet_another_open_session(tmp_path):
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    ok(a, "session", "start", "--players", "jan,piet,mieke,lotte")
    ok(b, "session", "start", "--players", "an,bo,cy,di")
    before = dump(b)
    assert "still open" in refused(b, "import", a)
    assert dump(b) == before


def test_precedents_travel_with_their_session(db, tmp_path):
    ok(db, "precedent", "add", "Renonce in troef", "--ruling", "Strafpunten", "--session", "2", "--deal", "2",
       "--tag", "renonce")  # fmt: skip
    ok(db, "precedent", "add", "Te laat", "--ruling", "Een rondje geven")
    ok(db, "precedent", "edit", "2", "--ruling", "Twee rondjes geven", "--reason", "vergadering")
    doc = export(db)
    assert [p["versions"][-1]["ruling"] for p in doc["precedents"]] == ["Strafpunten", "Twee rondjes geven"]
    assert doc["precedents"][0]["session"] == doc["sessions"][1]["uid"]
    assert doc["precedents"][0]["entry"] == doc["sessions"][1]["entries"][1]["uid"]
    club = tmp_path / "club.db"
    f = write(tmp_path, doc)
    assert "2 precedents" in ok(club, "import", f).stdout
    listed = json.loads(ok(club, "precedent", "list", "--json").stdout)
    original = json.loads(ok(db, "precedent", "list", "--json").stdout)
    assert [(p["title"], p["ruling"], p["tags"], p["deal"]) for p in listed] == [
        (p["title"], p["ruling"], p["tags"], p["deal"]) for p in original
    ]
    assert "Renonce" in ok(club, "precedent", "search", "renonce").stdout
    before = dump(club)
    ok(club, "import", f)
    assert dump(club) == before
    # with --session only that session's precedents go along
    assert [p["versions"][0]["title"] for p in export(db, "--session", "2")["precedents"]] == ["Renonce in troef"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json at all", "bad JSON"),
        ('{"a": 1}', "not a wiezen export"),
        ('{"format": "wiezen-export", "version": 99, "sessions": []}', "newer wiezen"),
        ('{"format": "wiezen-export", "version": 1, "sessions": [{"uid": "x"}]}', "lacks"),
    ],
)
def test_malformed_files_are_refused(tmp_path, content, message):
    club = tmp_path / "club.db"
    f = tmp_path / "bad.json"
    f.write_text(content, encoding="utf-8")
    assert message in refused(club, "import", f)


def test_bad_content_is_refused(db, tmp_path):
    club = tmp_path / "club.db"
    ok(club, "import", db)
    before = dump(club)
    doc = export(db)
    doc["sessions"][0]["uid"] = "new-session"
    for e in doc["sessions"][0]["entries"]:
        e["uid"] = "new-" + e["uid"]
    bad = json.loads(json.dumps(doc))
    bad["sessions"][0]["entries"][0]["points"]["jan"] = 99
    assert "do not add up to 0" in refused(club, "import", write(tmp_path, bad, "b1.json"))
    bad = json.loads(json.dumps(doc))
    bad["sessions"][0]["players"][0] = '=HYPERLINK("x")'
    assert "usable player name" in refused(club, "import", write(tmp_path, bad, "b2.json"))
    # points that add up to 0 but are not what the deal line scores, and a deal line that cannot be scored
    deal_no = next(i for i, e in enumerate(doc["sessions"][0]["entries"]) if e["kind"] == "deal" and not e["void"])
    doc["sessions"][0]["source_hash"] = None  # not the same session file as the one already imported
    bad = json.loads(json.dumps(doc))
    pts = bad["sessions"][0]["entries"][deal_no]["points"]
    for p in pts:
        pts[p] = pts[p] * 2
    assert "re-scored" in refused(club, "import", write(tmp_path, bad, "b4.json"))
    bad = json.loads(json.dumps(doc))
    bad["sessions"][0]["entries"][deal_no]["text"] = "gibberish words here"
    assert "cannot be re-scored" in refused(club, "import", write(tmp_path, bad, "b5.json"))
    bad = json.loads(json.dumps(doc))
    bad["sessions"][0]["rules_toml"] = "this is [not toml"
    assert "session new-session" in refused(club, "import", write(tmp_path, bad, "b3.json"))
    assert dump(club) == before
    # a database that is not a wiezen ledger
    other = tmp_path / "other.db"
    conn = sqlite3.connect(str(other))
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    assert "not a wiezen ledger" in refused(club, "import", other)
    assert dump(club) == before


def test_dry_run_writes_nothing(db, tmp_path):
    club = tmp_path / "club.db"
    ok(club, "import", write(tmp_path, {"format": "wiezen-export", "version": 1, "sessions": []}))
    before = dump(club)
    out = ok(club, "import", db, "--dry-run").stdout
    assert "would import" in out and "3 sessions" in out
    assert dump(club) == before


def test_export_from_stdin_round_trip(db, tmp_path):
    club = tmp_path / "club.db"
    ok(club, "import", "-", input=ok(db, "export", "--session", "1").stdout)
    assert [(d["player"], d["points"]) for d in standings(club)] == [("lotte", 29), ("jan", 3), ("piet", 3), ("mieke", -35)]
    out = tmp_path / "w.json"
    ok(db, "export", "-o", out)
    assert json.loads(out.read_text(encoding="utf-8"))["sessions"] == export(db)["sessions"]


def test_streamed_export_equals_the_document(db, tmp_path):
    """`export` writes session by session; it must be the same JSON as the document built in memory."""
    from wiezen_score.ledger.exchange import export_doc

    ok(db, "precedent", "add", "Te laat", "--ruling", "Een rondje geven")
    conn = sqlite3.connect(str(db))
    try:
        for args, kw in ((), {}), (("--since", "2026-02-01"), {"since": "2026-02-01"}), (("--session", "2"), {"session_id": 2}):
            streamed = export(db, *args)
            built = export_doc(conn, generator=streamed["generator"], **kw)
            assert streamed == json.loads(json.dumps(built))
    finally:
        conn.close()
    empty = export(tmp_path / "none.db")
    assert empty["sessions"] == [] and empty["format"] == "wiezen-export"


def test_a_refused_or_dry_run_import_leaves_no_new_ledger_behind(db, tmp_path):
    fresh = tmp_path / "fresh.db"
    ok(fresh, "import", db, "--dry-run")
    assert not fresh.exists()
    refused(fresh, "import", write(tmp_path, {"format": "something else"}, "x.json"))
    assert not fresh.exists()
    ok(fresh, "import", db)
    assert fresh.exists()
