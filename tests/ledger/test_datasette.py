"""The ledger in Datasette: the `standings` and `scoresheet` views, and `wiezen db datasette-metadata`."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from _club_helpers import ALL, standings
from _ledger_helpers import ROOT, ok

from wiezen_score.ledger import MIGRATION_NAMES, _migration_list


@pytest.fixture
def db(make_club):
    return make_club("wiezen-club.db")  # the three club evenings (tests/conftest.py)


def query(db, sql):
    conn = sqlite3.connect(str(db))
    conn.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in conn.execute(sql)]
    finally:
        conn.close()


def test_migration_registered_in_order():
    assert [n for n, _ in _migration_list()] == list(MIGRATION_NAMES)
    assert "m003_club_views" in MIGRATION_NAMES


def test_standings_view_matches_the_command(db):
    view = query(db, "SELECT * FROM standings")
    cmd = standings(db)
    assert [r["player"] for r in view] == [d["player"] for d in ALL]
    for v, c in zip(view, cmd, strict=True):
        for k, x in v.items():
            assert c[k] == pytest.approx(x), k


def test_scoresheet_view(db):
    rows = query(db, "SELECT * FROM scoresheet")
    n = query(db, "SELECT count(*) AS n FROM entry_points")[0]["n"]
    assert len(rows) == n
    week2 = [r for r in rows if r["session"] == "Week 2"]
    voided = {r["entry"] for r in week2 if r["voided"]}
    assert voided == {"alleen 6 jan 6"}
    counted = {}
    for r in week2:
        if not r["voided"]:
            counted[r["player"]] = counted.get(r["player"], 0) + r["points"]
    assert counted == {"jan": -11, "piet": -31, "mieke": 21, "lotte": 21}
    samen = [r for r in week2 if r["entry"] == "samen 8 mieke+lotte 8"]
    assert {r["player"]: (r["taker"], r["made"], r["multiplier"], r["dealer"]) for r in samen} == {
        "mieke": (1, 1, 2, "jan"), "lotte": (1, 1, 2, "jan"), "jan": (0, None, 2, "jan"), "piet": (0, None, 2, "jan"),
    }


def test_metadata_labels_what_is_there(db):
    meta = json.loads(ok(db, "db", "datasette-metadata").stdout)
    assert list(meta["databases"]) == ["wiezen-club"]  # Datasette names a database after its file
    tables = meta["databases"]["wiezen-club"]["tables"]
    conn = sqlite3.connect(str(db))
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    for name in names - {"sqlite_sequence", "sqlite_stat1"}:
        assert name in tables, f"{name} has no label"
        assert tables[name].get("description") or tables[name].get("hidden"), name
    for name, t in tables.items():
        if name not in names:
            continue  # e.g. a table of a later migration
        cols = {r[1] for r in conn.execute(f"PRAGMA table_info({name})")}
        assert set(t.get("columns", {})) <= cols, (name, set(t.get("columns", {})) - cols)
        if name in ("standings", "scoresheet", "entries", "entry_points", "sessions", "players", "voids"):
            assert set(t["columns"]) == cols, name  # every column labelled
        for c in ("label_column", "sort_desc"):
            if c in t:
                assert t[c] in cols
        for f in t.get("facets", []):
            assert f in cols
    conn.close()


def test_manual_documents_datasette():
    club = (ROOT / "docs" / "club.md").read_text(encoding="utf-8")  # the manual's club page (once in the README)
    assert 'datasette "$(wiezen db path)"' in club
    assert "wiezen db datasette-metadata" in club


def test_example_metadata_file_is_current():
    example = ROOT / "examples" / "datasette-metadata.json"
    if not example.exists():
        pytest.skip("no example metadata file")
    from wiezen_score.ledger.datasette import datasette_metadata

    assert json.loads(example.read_text(encoding="utf-8")) == datasette_metadata("wiezen")


def test_views_exist_in_an_upgraded_old_ledger(tmp_path):
    old = tmp_path / "old.db"
    old.write_bytes((Path(ROOT) / "tests" / "data" / "ledger-schema1.db").read_bytes())
    cmd = standings(old)  # a ledger of schema 1 is upgraded (views included) before it is read
    view = query(old, "SELECT player, points FROM standings")
    assert [(d["player"], d["points"]) for d in cmd] == [(r["player"], r["points"]) for r in view]
    assert len(view) > 0


# ------------------------------------------------------------------------------------ a real Datasette


def test_column_descriptions_are_short():
    from wiezen_score.ledger.datasette import datasette_metadata

    for name, t in datasette_metadata("w")["databases"]["w"]["tables"].items():
        for col, text in t.get("columns", {}).items():
            assert len(text) <= 40, (name, col, text)  # long ones push the data below the fold
        assert len(t.get("description", "")) <= 160, name


def test_metadata_links_to_the_views_and_queries():
    from wiezen_score.ledger.datasette import datasette_metadata

    meta = datasette_metadata("wiezen-club")
    html = meta["description_html"]
    for target in ("standings", "scoresheet", "rulings", "sheet", "season_standings", "search_precedents"):
        assert f'href="/wiezen-club/{target}"' in html, target
    assert set(meta["databases"]["wiezen-club"]["queries"]) == {"sheet", "season_standings", "search_precedents",
                                                                "competition", "competition_placement"}
    for target in ("competition", "competition_placement"):
        assert f'href="/wiezen-club/{target}"' in html, target
    tables = meta["databases"]["wiezen-club"]["tables"]
    assert tables["precedents"]["fts_table"] == tables["rulings"]["fts_table"] == "precedents_fts"


@pytest.fixture
def served(db):
    """The club ledger with two precedents, and a function that GETs a path from a real Datasette on it."""
    datasette_app = pytest.importorskip("datasette.app")
    import asyncio

    ok(db, "precedent", "add", "Renonce in troef", "--ruling", "De overtreder betaalt vijf aan iedereen",
       "--session", "2", "--deal", "3", "--tag", "renonce")
    ok(db, "precedent", "add", "Troel met vier azen", "--ruling", "De vierde aas komt uit", "--tag", "troel")
    meta = json.loads(ok(db, "db", "datasette-metadata").stdout)
    ds = datasette_app.Datasette([str(db)], metadata=meta, settings={"num_sql_threads": 1})

    def get(path):
        async def go():
            r = await ds.client.get(path)
            return r.status_code, r.text

        return asyncio.run(go())

    return get


def test_datasette_search_on_precedents_and_rulings(served):
    status, text = served("/wiezen-club/rulings.json?_search=overtreder&_shape=array")
    assert status == 200, text
    rows = json.loads(text)
    assert [r["title"] for r in rows] == ["Renonce in troef"]
    assert rows[0]["ruling"] == "De overtreder betaalt vijf aan iedereen"
    status, text = served("/wiezen-club/precedents.json?_search=azen&_shape=array")
    assert status == 200 and [r["id"] for r in json.loads(text)] == [2]
    # a query with FTS syntax in it is searched as words, not an error
    status, text = served('/wiezen-club/rulings.json?_search=troel+"AND&_shape=array')
    assert status == 200, text
    # the search box is on the page
    status, html = served("/wiezen-club/rulings")
    assert status == 200 and 'name="_search"' in html


def test_datasette_canned_queries(served):
    status, text = served("/wiezen-club/sheet.json?session=2&_shape=array")
    assert status == 200, text
    rows = json.loads(text)
    # Week 2 (tests/_club_helpers.py): pas, samen (x2), alleen (undone: it keeps its number), penalty (the next)
    assert [(r["no"], r["entry"], r["voided"]) for r in rows] == [
        (1, "pas", 0), (2, "samen 8 mieke+lotte 8", 0), (3, "alleen 6 jan 6", 1), (4, "penalty piet", 0)]
    assert rows[1]["x"] == 2 and "mieke +16" in rows[1]["points"] and "jan -16" in rows[1]["points"]
    status, text = served("/wiezen-club/season_standings.json?since=2026-02-01&until=2026-03-31&_shape=array")
    assert status == 200, text
    season = {r["player"]: r["points"] for r in json.loads(text)}
    assert season == {"jan": -11 + 6, "piet": -31 - 2, "mieke": 21 + 4, "lotte": 21 - 8, "bert": 0}
    status, text = served("/wiezen-club/season_standings.json?since=&until=&_shape=array")
    assert {r["player"]: r["points"] for r in json.loads(text)}["lotte"] == 42  # blank: every session
    status, text = served("/wiezen-club/search_precedents.json?q=vierde+aas&_shape=array")
    assert status == 200 and [r["title"] for r in json.loads(text)] == ["Troel met vier azen"]
    status, text = served("/wiezen-club/search_precedents.json?q=%22%27t+spel&_shape=array")
    assert status == 200 and json.loads(text) == []  # quotes and apostrophes are words, not syntax
    status, html = served("/")
    assert status == 200 and 'href="/wiezen-club/standings"' in html
