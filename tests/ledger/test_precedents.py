"""The precedents log (issue 4): add/list/search/show/edit, linking with entries, safe search, the automatic
precedent when house rules are replaced, and refusals that write nothing.

Expected points are worked out by hand from tests/data-free house rules (rupelstreek, SCORING.md):
samen 8 made = 2 per player (+1 per overtrick), the penalty is 5 to each other player, a rondje pas doubles
the next deal once.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sqlite3

import pytest
from _hypothesis_helpers import examples
from _ledger_helpers import DATA, copy_ledger, dump, ok, refused, start, wz
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiezen_score.core.rulediff import diff_rules
from wiezen_score.core.rules import parse_rules
from wiezen_score.ledger import Ledger
from wiezen_score.ledger import precedents as P

ITEM_KEYS = {"id", "date", "title", "ruling", "tags", "session", "deal", "players", "origin"}
PLAYERS = ["jan", "piet", "mieke", "lotte"]


def jout(r):
    return json.loads(r.stdout)


@pytest.fixture
def db(ledger_template, tmp_path):
    """An evening under rupelstreek: 1 samen made with 9, 2 rondje pas, 3 samen made exactly (doubled); recorded
    once per run into a template ledger (tests/conftest.py) and copied for each test."""
    def build(path, _):
        start(path, PLAYERS, "rupelstreek", "--name", "Café De Kroon", "--date", "2026-11-27")
        ok(path, "deal", "samen", "8", "jan+piet", "9")
        ok(path, "pass")
        ok(path, "deal", "samen", "8", "mieke+lotte", "8")

    return copy_ledger(ledger_template("precedents-evening", build), tmp_path / "w.db")


def add(db, title, ruling, *extra):
    r = ok(db, "precedent", "add", title, "--ruling", ruling, "--json", *extra)
    item = jout(r)
    assert set(item) == ITEM_KEYS
    return item["id"]


# ---------------------------------------------------------------------------
# add / list / show / JSON shape


def test_add_list_show_json_items(db):
    pid = add(db, "Renonce in troef", "De overtreder betaalt de straf aan iedereen", "--session", "1", "--deal", "3",
              "--tag", "renonce", "--tag", "Troef, straf", "--player", "mie")
    items = jout(ok(db, "precedent", "list", "--json"))
    assert items == [{
        "id": pid, "date": "2026-11-27",  # the session's date when none is given
        "title": "Renonce in troef", "ruling": "De overtreder betaalt de straf aan iedereen",
        "tags": ["renonce", "troef", "straf"], "session": 1, "deal": 3, "players": ["mieke"], "origin": "ruling",
    }]
    shown = jout(ok(db, "precedent", "show", str(pid), "--json"))
    assert {k: shown[k] for k in ITEM_KEYS} == items[0]
    assert shown["players"] == ["mieke"]  # a prefix, resolved at that session's table


def test_precedent_without_session_and_with_date(db):
    pid = add(db, "Troel met vier azen", "De vierde aas komt uit", "--date", "2026-10-02")
    (item,) = jout(ok(db, "precedent", "list", "--json"))
    assert (item["id"], item["date"], item["session"], item["deal"], item["tags"]) == (pid, "2026-10-02", None, None, [])
    out = ok(db, "precedent", "show", str(pid)).stdout
    assert "Troel met vier azen" in out and "De vierde aas komt uit" in out and "arose from" not in out


def test_list_since_until_and_filters(db, today):
    days = {"d0": today, "d3": today - dt.timedelta(days=3), "d7": today - dt.timedelta(days=7),
            "d8": today - dt.timedelta(days=8), "old": dt.date(2020, 5, 1)}
    ids = {k: add(db, f"Regel {k}", f"Uitspraak {k}", "--date", d.isoformat(), "--tag", k) for k, d in days.items()}
    # last-week = today minus 7 days, inclusive; newest first
    got = [i["id"] for i in jout(ok(db, "precedent", "list", "--since", "last-week", "--json"))]
    assert got == [ids["d0"], ids["d3"], ids["d7"]]
    got = [i["id"] for i in jout(ok(db, "precedent", "list", "--until", "yesterday", "--json"))]
    assert got == [ids["d3"], ids["d7"], ids["d8"], ids["old"]]
    got = [i["id"] for i in jout(ok(db, "precedent", "list", "--since", "2020-05-01", "--until", "2020-05-01", "--json"))]
    assert got == [ids["old"]]
    assert [i["id"] for i in jout(ok(db, "precedent", "list", "--tag", "D3", "--json"))] == [ids["d3"]]
    assert "no precedents match" in ok(db, "precedent", "list", "--since", "today", "--until", "yesterday").stdout
    assert "not a date" in refused(db, "precedent", "list", "--since", "volgende-week")


def test_list_on_a_fresh_ledger_writes_nothing(tmp_path):
    path = tmp_path / "none.db"
    assert jout(ok(path, "precedent", "list", "--json")) == []
    assert jout(ok(path, "precedent", "search", "renonce", "--json")) == []
    assert not path.exists()


# ---------------------------------------------------------------------------
# Refusals: nothing is written


@pytest.mark.parametrize(
    "args, words",
    [
        (["precedent", "add", "", "--ruling", "De straf geldt"], "title"),
        (["precedent", "add", "   ", "--ruling", "De straf geldt"], "title"),
        (["precedent", "add", "--ruling", "De straf geldt"], "title"),
        (["precedent", "add", "Renonce"], "ruling"),
        (["precedent", "add", "Renonce", "--ruling", ""], "ruling"),
        (["precedent", "add", "Renonce", "--ruling", " \n\t "], "ruling"),
        (["precedent", "add", "Renonce", "--ruling", "x", "--deal", "9"], "no entry 9"),
        (["precedent", "add", "Renonce", "--ruling", "x", "--session", "7"], "no session 7"),
        (["precedent", "add", "Renonce", "--ruling", "x", "--deal", "1", "--player", "karel"], "karel"),
        (["precedent", "add", "Renonce", "--ruling", "x", "--date", "overmorgen"], "not a date"),
        (["penalty", "jan", "--precedent"], "--reason"),
        (["penalty", "jan", "--reason", "  ", "--precedent"], "--reason"),
        (["penalty", "jan", "--reason", "renonce", "--ruling", "   "], "ruling"),
    ],
)
def test_refused_and_nothing_written(db, args, words):
    before = dump(db)
    msg = refused(db, *args)
    assert words in msg
    assert dump(db) == before


def test_empty_title_refused_before_a_ledger_exists(tmp_path):
    path = tmp_path / "new.db"
    assert "title" in refused(path, "precedent", "add", " ", "--ruling", "x")
    assert "ruling" in refused(path, "precedent", "add", "Renonce", "--ruling", " ")
    assert not path.exists()


def test_edit_refusals_write_nothing(db):
    pid = add(db, "Renonce", "De straf geldt")
    before = dump(db)
    assert "title" in refused(db, "precedent", "edit", str(pid), "--title", "  ")
    assert "ruling" in refused(db, "precedent", "edit", str(pid), "--ruling", "")
    assert "nothing changed" in refused(db, "precedent", "edit", str(pid), "--ruling", "De straf geldt")
    assert "what should change" in refused(db, "precedent", "edit", str(pid))
    assert "no precedent 99" in refused(db, "precedent", "edit", "99", "--title", "x")
    assert dump(db) == before


def test_history_tables_are_append_only(db):
    pid = add(db, "Renonce", "De straf geldt")
    ok(db, "precedent", "edit", str(pid), "--ruling", "Dubbele straf")
    before = dump(db)
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        for sql in ("UPDATE precedents SET date = '2000-01-01'", "DELETE FROM precedents",
                    "UPDATE precedent_versions SET ruling = 'x'", "DELETE FROM precedent_versions",
                    "INSERT INTO precedent_versions (precedent_id, version, title, ruling, edited_at) "
                    "VALUES (1, 5, 'x', 'y', 'now')",
                    "INSERT INTO precedent_versions (precedent_id, version, title, ruling, edited_at) "
                    "VALUES (1, 3, ' ', 'y', 'now')"):
            with pytest.raises(sqlite3.IntegrityError):
                conn.execute(sql)
    finally:
        conn.close()
    assert dump(db) == before


# ---------------------------------------------------------------------------
# Edit keeps the earlier text


def test_edit_keeps_history_and_search_follows_current_text(db):
    pid = add(db, "Kaarten tonen", "Wie zijn kaarten toont verliest het spel", "--tag", "tonen")
    ok(db, "precedent", "edit", str(pid), "--title", "Kaarten laten zien", "--ruling", "Wie toont betaalt de straf",
       "--tag", "straf", "--reason", "beslist op de clubavond")
    shown = jout(ok(db, "precedent", "show", str(pid), "--json"))
    assert (shown["title"], shown["ruling"], shown["tags"]) == ("Kaarten laten zien", "Wie toont betaalt de straf", ["straf"])
    assert [(v["version"], v["title"], v["ruling"], v["tags"]) for v in shown["history"]] == [
        (1, "Kaarten tonen", "Wie zijn kaarten toont verliest het spel", ["tonen"]),
        (2, "Kaarten laten zien", "Wie toont betaalt de straf", ["straf"]),
    ]
    assert shown["history"][1]["note"] == "beslist op de clubavond"
    text = ok(db, "precedent", "show", str(pid)).stdout
    assert "earlier versions" in text and "Wie zijn kaarten toont verliest het spel" in text
    assert "beslist op de clubavond" in text
    # the search index holds the current text only
    assert [i["id"] for i in jout(ok(db, "precedent", "search", "betaalt", "--json"))] == [pid]
    assert jout(ok(db, "precedent", "search", "verliest", "--json")) == []
    ok(db, "precedent", "edit", str(pid), "--no-tags")
    assert jout(ok(db, "precedent", "show", str(pid), "--json"))["tags"] == []


# ---------------------------------------------------------------------------
# Search


@pytest.fixture
def searchable(db):
    ids = {
        "spel": add(db, "Het spel telt", "Na een renonce telt 't spel toch", "--tag", "renonce"),
        "pas": add(db, "Rondje pas na troel", "Bij een rondje-pas telt het volgende spel dubbel", "--tag", "rondje-pas"),
        "een": add(db, "Één troef te weinig", "Wie één slag mist betaalt", "--tag", "troef"),
        "cafe": add(db, "Café-regel", "In het café beslist de waard", "--tag", "café"),
        "ster": add(db, "Sterretje", "Het teken * betekent een open miserie"),
    }
    return db, ids


def search_ids(db, *query):
    r = wz(db, "precedent", "search", "--json", *query)
    assert r.exit_code == 0, (query, r.output, r.exception)
    return [i["id"] for i in json.loads(r.stdout)]


@pytest.mark.parametrize(
    "query",
    ['"', '""', '"""', "'", "'t spel", "rondje-pas", "-", "--", "*", "**", "renon*", "AND", "OR", "NOT", "NEAR(",
     "NEAR(troel pas, 3)", "a AND OR NOT", "(", ")", "^", ":", "title:spel", "{ruling} : x", "+", "\\", "%", "_",
     "één", "Café", "CAFE", "😀", "troel\"pas", "'t\"", "'; DROP TABLE precedents; --", "spel*\"", "NEAR", "*spel", "-spel", "--spel", "-"],
)
def test_any_query_is_safe(searchable, query):
    db, _ = searchable
    before = dump(db)
    assert isinstance(search_ids(db, query), list)
    r = wz(db, "precedent", "search", query)
    assert r.exit_code == 0 and "Error" not in r.output
    assert dump(db) == before


def test_search_results(searchable):
    db, ids = searchable
    assert search_ids(db, "'t spel") == [ids["spel"]]           # apostrophe: "'t" is the word t
    assert search_ids(db, "rondje-pas")[0] == ids["pas"]        # hyphen: the phrase "rondje pas"
    assert set(search_ids(db, "rondje-pas")) == {ids["pas"]}
    with_een = {ids["spel"], ids["pas"], ids["een"], ids["ster"]}  # "een" or "één" in them
    assert search_ids(db, "één")[0] == ids["een"] and set(search_ids(db, "één")) == with_een
    assert set(search_ids(db, "een")) == with_een               # accents do not matter, both ways
    assert search_ids(db, "Cafe") == [ids["cafe"]]
    assert search_ids(db, "CAFÉ") == [ids["cafe"]]
    assert search_ids(db, "renon*") == [ids["spel"]]            # a prefix
    assert search_ids(db, "*") == []                            # nothing to search for: nothing, no error
    # alone, AND / OR / NEAR( are searched as words (no ruling here has them): nothing, no error
    assert search_ids(db, "AND") == [] and search_ids(db, "OR") == [] and search_ids(db, "NEAR(") == []
    assert search_ids(db, "troel AND pas") == [ids["pas"]]      # the operator is dropped, both words required
    assert search_ids(db, "NEAR(troel pas)") == [ids["pas"]]
    assert search_ids(db, '"rondje pas"') == [ids["pas"]]       # a phrase
    assert search_ids(db, '"pas rondje"') == []                 # ... in that order only
    assert search_ids(db, "waard") == [ids["cafe"]]             # the ruling is searched
    assert search_ids(db, "-waard") == [ids["cafe"]]            # a leading hyphen is not an option
    assert search_ids(db, "troef") == [ids["een"]]              # and the tags


def test_any_word_when_none_has_all(searchable):
    db, ids = searchable
    r = ok(db, "precedent", "search", "waard", "sterretje")
    assert "some of them" in r.stdout
    assert set(search_ids(db, "waard", "sterretje")) == {ids["cafe"], ids["ster"]}


def test_best_match_first(db):
    in_ruling = add(db, "Slagen tellen", "Een troef telt niet dubbel")
    in_title = add(db, "Troef bekennen", "Wie kan moet bekennen")
    in_both = add(db, "Troef troef", "Troef boven troef")
    assert search_ids(db, "troef") == [in_both, in_title, in_ruling]


def test_highlight_only_in_a_terminal(searchable, monkeypatch):
    db, ids = searchable
    plain = ok(db, "precedent", "search", "waard").stdout
    assert "\x1b[" not in plain and "\x02" not in plain and "\x03" not in plain
    assert "In het café beslist de waard" in plain
    from wiezen_score.cli import precedent as cmd

    monkeypatch.setattr(cmd, "_colour", lambda: True)
    coloured = ok(db, "precedent", "search", "waard").stdout
    assert "de \x1b[1;33mwaard\x1b[0m" in coloured
    assert cmd.highlight("a \x02b\x03 c", False) == "a b c"


@pytest.fixture(scope="module")
def fuzz_ledger(tmp_path_factory):
    path = tmp_path_factory.mktemp("fts") / "w.db"
    led = Ledger(str(path))
    for title, ruling, tags in [("Renonce in troef", "Wie één keer renonce doet, betaalt", ["straf"]),
                                ("Rondje pas", "'t Volgende spel telt dubbel", ["rondje-pas"])]:
        P.add(led, title, ruling, date="2026-11-27", tags=tags)
    yield led
    led.close()


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40) | st.lists(st.sampled_from(
    ['"', "'", "*", "-", "(", ")", "AND", "OR", "NOT", "NEAR(", "NEAR", "^", ":", "+", "{", "}", "een", "é", " ",
     "troef", "renon", "pas"]), max_size=8).map("".join))
def test_search_never_fails(fuzz_ledger, text):
    hits, _ = P.search(fuzz_ledger, text)
    assert all(h.precedent.id in (1, 2) for h in hits)


# ---------------------------------------------------------------------------
# Linking both ways


def test_ruling_attached_to_entry_3_shows_in_explain_3(db):
    pid = add(db, "Dubbel na rondje pas", "Na een rondje pas telt het volgende spel dubbel", "--deal", "3")
    text = ok(db, "explain", "3").stdout
    assert f"precedent {pid}" in text and "Dubbel na rondje pas" in text
    assert jout(ok(db, "explain", "3", "--json"))["precedents"] == [{"id": pid, "title": "Dubbel na rondje pas"}]
    # not on the other entries
    assert "precedent" not in ok(db, "explain", "1").stdout
    assert jout(ok(db, "explain", "1", "--json"))["precedents"] == []
    entries = {e["no"]: e for e in jout(ok(db, "sheet", "--json"))["entries"]}
    assert entries[3]["precedents"] == [pid]
    assert "precedents" not in entries[1] and "precedents" not in entries[2]
    row3 = [line for line in ok(db, "sheet").stdout.splitlines() if "mieke+lotte" in line]
    assert len(row3) == 1 and f"[precedent {pid}]" in row3[0]


def test_explain_without_any_precedent(db):
    doc = jout(ok(db, "explain", "3", "--json"))
    assert doc["precedents"] == []
    assert doc["points"] == {"jan": -4, "piet": -4, "mieke": 4, "lotte": 4}  # 2 x doubled after the rondje pas
    assert "precedent" not in ok(db, "explain", "3").stdout


def test_show_gives_the_entry_as_scored_even_after_an_amendment(db):
    pid = add(db, "Dubbel na rondje pas", "Het telt dubbel", "--deal", "3")
    shown = ok(db, "precedent", "show", str(pid)).stdout
    assert "samen 8 mieke+lotte 8 (x2)" in shown                       # the deal line and the doubling
    assert "jan -4, piet -4, mieke +4, lotte +4" in shown             # the points it gave
    assert "rupelstreek" in shown and "penalty 5" in shown             # that session's house rules
    assert "Café De Kroon" in shown
    doc = jout(ok(db, "precedent", "show", str(pid), "--json"))
    assert doc["entry"]["points"] == {"jan": -4, "piet": -4, "mieke": 4, "lotte": 4}
    assert doc["session_info"]["rules"] == "rupelstreek"
    ok(db, "amend", "3", "samen", "8", "mieke+lotte", "10")          # 2 + 2 overtricks = 4, doubled: 8
    shown = ok(db, "precedent", "show", str(pid)).stdout
    assert "jan -4, piet -4, mieke +4, lotte +4" in shown              # still as it was scored then
    assert "since amended" in shown and "jan -8, piet -8, mieke +8, lotte +8" in shown
    # the ruling stays with entry 3 on the sheet and in explain
    assert f"precedent {pid}" in ok(db, "explain", "3").stdout
    rows = [e for e in jout(ok(db, "sheet", "--json"))["entries"] if e["no"] == 3]
    assert [e.get("precedents") for e in rows] == [None, [pid]]        # on the row that counts


# ---------------------------------------------------------------------------
# Penalty --precedent, and the hint


def test_penalty_with_precedent(db):
    before_rows = len(jout(ok(db, "sheet", "--json"))["entries"])
    r = ok(db, "penalty", "jan", "--reason", "renonce in troef", "--precedent")
    assert "kept as precedent 1" in r.stdout
    (item,) = jout(ok(db, "precedent", "list", "--json"))
    assert (item["title"], item["session"], item["deal"], item["tags"]) == ("renonce in troef", 1, before_rows + 1, ["penalty"])
    assert "jan pays the penalty (5 to each other player" in item["ruling"] and "15 in all" in item["ruling"]
    assert jout(ok(db, "precedent", "show", "1", "--json"))["players"] == ["jan"]
    assert "precedent 1" in ok(db, "explain", "4").stdout
    ok(db, "penalty", "piet", "--round", "--reason", "te laat", "--ruling", "Wie te laat komt geeft een rondje")
    assert jout(ok(db, "precedent", "show", "2", "--json"))["ruling"] == "Wie te laat komt geeft een rondje"


def test_penalty_hint_only_in_a_terminal(db, monkeypatch):
    r = ok(db, "penalty", "jan", "--reason", "renonce in troef")
    assert "hint" not in r.output                                     # not a terminal: no hint, no prompt
    assert jout(ok(db, "precedent", "list", "--json")) == []
    from wiezen_score.cli import precedent as cmd

    monkeypatch.setattr(cmd, "_interactive", lambda: True)
    r = ok(db, "penalty", "piet", "--reason", "renonce in troef")
    assert "hint: " in r.stdout
    assert "wiezen precedent add 'renonce in troef' --session 1 --deal 5" in r.stdout
    r = ok(db, "penalty", "mieke")                                     # no reason: nothing to offer
    assert "hint" not in r.stdout


# ---------------------------------------------------------------------------
# House rules replaced: an automatic precedent with what changed


RULES_V1 = """name = "ons-cafe"
penalty = 5
[contracts.samen]
team = true
levels = [8]
made = [2]
lost = [3]
"""
RULES_V2 = RULES_V1.replace("penalty = 5", "penalty = 10").replace("made = [2]", "made = [3]")


def test_rules_add_records_a_precedent_with_old_and_new_values(tmp_path, today):
    path = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(RULES_V1, encoding="utf-8")
    ok(path, "rules", "add", str(f))
    assert jout(ok(path, "precedent", "list", "--json")) == []        # new house rules: no change to record
    f.write_text(RULES_V2, encoding="utf-8")
    r = ok(path, "rules", "add", str(f), "--reason", "beslist op de clubavond")
    assert "precedent 1" in r.stdout
    (item,) = jout(ok(path, "precedent", "list", "--json"))
    assert item["ruling"] == "penalty: 5 -> 10; contracts.samen.made: [2] -> [3]. Reason: beslist op de clubavond"
    assert item["tags"] == ["house-rules", "ons-cafe"] and item["session"] is None
    assert item["date"] == today.isoformat()
    assert "ons-cafe" in item["title"]
    # the same file again: nothing added; only a comment changed: new house-rules row, no precedent
    ok(path, "rules", "add", str(f))
    f.write_text("# opmerking\n" + RULES_V2, encoding="utf-8")
    ok(path, "rules", "add", str(f))
    assert len(jout(ok(path, "precedent", "list", "--json"))) == 1
    assert [i["id"] for i in jout(ok(path, "precedent", "search", "house-rules", "--json"))] == [1]


def test_rules_diff_names_every_change():
    v1 = parse_rules(RULES_V1)
    v3 = parse_rules(
        RULES_V1.replace("penalty = 5", 'penalty = 5\nmulti_miserie = "split"\n[all_pass]\ndouble = "stack"')
        .replace("lost = [3]", "lost = [3]\novertrick = 1\n[contracts.miserie]\nmiserie = 0\npoints = 5")
    )
    assert diff_rules(v1, v3) == [
        'multi_miserie: "alone" -> "split"',
        'all_pass.double: "none" -> "stack"',
        "contracts.samen.overtrick: 0 -> 1",
        "contracts.miserie: added",
    ]
    assert diff_rules(v3, v1)[-1] == "contracts.miserie: removed"
    assert diff_rules(v1, v1) == []


def test_rules_change_and_precedent_are_one_transaction(tmp_path, monkeypatch):
    path = tmp_path / "w.db"
    f = tmp_path / "ons-cafe.toml"
    f.write_text(RULES_V1, encoding="utf-8")
    ok(path, "rules", "add", str(f))
    before = dump(path)

    def boom(*a, **k):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(P, "rules_changed", boom)
    f.write_text(RULES_V2, encoding="utf-8")
    r = wz(path, "rules", "add", str(f))
    assert r.exit_code == 1
    assert dump(path) == before


# ---------------------------------------------------------------------------
# Migration from a ledger written before the precedents log


def test_schema1_ledger_gains_precedents(tmp_path):
    path = tmp_path / "old.db"
    shutil.copy(DATA / "ledger-schema1.db", path)
    pid = add(path, "Oude avond", "Een uitspraak over een oude avond", "--session", "1", "--deal", "2")
    assert jout(ok(path, "explain", "2", "--session", "1", "--json"))["precedents"] == [{"id": pid, "title": "Oude avond"}]
    assert jout(ok(path, "explain", "1", "--session", "1", "--json"))["precedents"] == []
    assert search_ids(path, "uitspraak") == [pid]


def test_ruling_on_an_undone_entry_stays_visible(db):
    pid = add(db, "Verkeerd gedeeld", "Opnieuw delen", "--deal", "3")
    ok(db, "undo", "--reason", "verkeerd genoteerd")
    (row3,) = [e for e in jout(ok(db, "sheet", "--json"))["entries"] if e["no"] == 3]
    assert row3["voided"] and row3["precedents"] == [pid]
    assert f"precedent {pid}" in ok(db, "explain", "3").stdout
    assert "since undone: verkeerd genoteerd" in ok(db, "precedent", "show", str(pid)).stdout
