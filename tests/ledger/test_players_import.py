"""Players across ledgers: three laptops' "Rene", "rené" and "René" merged into the club's ledger, counted once;
the players' facts travel with export and import; `import --same A=B`."""

from __future__ import annotations

import json

import pytest
from _ledger_helpers import dump, ok, refused, sheet, start, wz


def play(db, players, date, *deals):
    start(db, players, "whisthub", "--date", date)
    for d in deals:
        ok(db, "deal", *d.split())
    ok(db, "session", "end")


@pytest.fixture
def laptops(tmp_path):
    """Three tables' ledgers of one season: Rene typed three ways."""
    l1, l2, l3 = (tmp_path / f"tafel{i}.db" for i in (1, 2, 3))
    play(l1, ["Rene", "jan", "piet", "mieke"], "2026-11-06", "samen 8 rene+jan 9")
    play(l2, ["rené", "an", "bert", "carla"], "2026-11-13", "alleen 5 rené 6")
    play(l3, ["René ", "dirk", "eva", "frans"], "2026-11-20", "abondance 9 rené 9")
    exports = []
    for db in (l2, l3):
        f = tmp_path / (db.stem + ".json")
        f.write_text(ok(db, "export").stdout, encoding="utf-8")
        exports.append(f)
    return l1, *exports


def points(db, *sessions):
    """Each player's points from the sheets of ``sessions`` (the names as recorded)."""
    out: dict[str, float] = {}
    for s in sessions:
        for p, v in sheet(db, "--session", s)["totals"].items():
            out[p] = out.get(p, 0) + v
    return out


def standings(db):
    return {d["player"]: d for d in json.loads(ok(db, "standings", "--json").stdout)}


def test_import_lists_the_players_it_adds_and_warns_of_look_alikes(laptops, tmp_path):
    l1, e2, _e3 = laptops
    club = tmp_path / "club.db"
    r = ok(club, "import", l1)
    assert "Rene, jan, piet, mieke" in r.stdout
    r = ok(club, "import", e2)
    assert "rené, an, bert, carla" in r.stdout
    warning = [line for line in r.stderr.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "'rené'" in warning[0] and "'Rene'" in warning[0] and "--same rené=Rene" in warning[0]
    doc = json.loads(ok(club, "import", e2, "--json").stdout)  # the second time: nothing added, nothing to warn of
    assert doc["players_added"] == [] and doc["look_alikes"] == []


def test_three_laptops_one_rene(laptops, tmp_path):
    l1, e2, e3 = laptops
    club = tmp_path / "club.db"
    ok(club, "import", l1)
    ok(club, "import", e2, "--same", "rené=Rene")
    r = ok(club, "import", e3)
    assert "warning" not in r.stderr  # René is rené (the same letters but for case): no new player
    st = standings(club)
    assert [p for p in st if "ren" in p.casefold()] == ["Rene"]
    by_sheet = points(club, 1, 2, 3)
    assert st["Rene"]["points"] == by_sheet["Rene"] + by_sheet["rené"]
    assert (st["Rene"]["evenings"], st["Rene"]["deals"]) == (3, 3)
    ok(club, "check")
    again = dump(club)
    ok(club, "import", e2, "--same", "rené=Rene")  # the same file and merge twice: nothing new
    assert dump(club) == again


def test_the_merge_travels_with_export_and_import(laptops, tmp_path):
    l1, e2, e3 = laptops
    club = tmp_path / "club.db"
    for f in (l1, e2, e3):
        ok(club, "import", f)
    ok(club, "players", "merge", "Rene", "rené")
    doc = json.loads(ok(club, "export").stdout)
    assert [(f["action"], f["name"], f["other"]) for f in doc["player_facts"]] == [("merge", "Rene", "rené")]
    copy = tmp_path / "copy.db"
    out = tmp_path / "club.json"
    out.write_text(json.dumps(doc), encoding="utf-8")
    r = json.loads(ok(copy, "import", out, "--json").stdout)
    assert r["player_facts_added"] == 1
    assert standings(copy) == standings(club)
    ok(club, "import", out)  # back again: the fact is known by its uid
    assert len(json.loads(ok(club, "export").stdout)["player_facts"]) == 1
    other = tmp_path / "other.db"  # another wiezen ledger as the source
    ok(other, "import", club)
    assert standings(other) == standings(club)


@pytest.mark.parametrize(("same", "words"), [
    ("rené=nobody", "no player 'nobody'"),
    ("rené", "A=B"),
    ("jan=Rene", "same table"),
])
def test_bad_same_writes_nothing(laptops, tmp_path, same, words):
    l1, e2, _e3 = laptops
    club = tmp_path / "club.db"
    ok(club, "import", l1)
    before = dump(club)
    r = wz(club, "import", e2, "--same", same)
    assert r.exit_code in (1, 2) and words in r.stderr and r.stderr.count("Error") == 1
    assert dump(club) == before


def test_a_file_with_bad_player_facts_is_refused(laptops, tmp_path):
    l1, e2, _e3 = laptops
    doc = json.loads(e2.read_text(encoding="utf-8"))
    doc["player_facts"] = [{"uid": "x", "action": "swap", "name": "a", "other": "b", "date": "2026-11-01",
                            "created_at": "2026-11-01T20:00:00+00:00"}]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    club = tmp_path / "club.db"
    ok(club, "import", l1)
    before = dump(club)
    assert "action" in refused(club, "import", bad)
    assert dump(club) == before
