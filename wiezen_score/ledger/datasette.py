"""Datasette metadata: labels for the ledger's tables, views and columns."""

from __future__ import annotations

from urllib.parse import quote

# ------------------------------------------------------------------------------------- Datasette metadata


def datasette_metadata(db_name: str) -> dict[str, object]:
    """Labels for the ledger's tables and columns, in Datasette's metadata format."""
    t: dict[str, object] = {
        "standings": {
            "title": "Standings (all sessions)",
            "description": "Per player over every session, best first. For a season, use the season_standings "
            "query.",
            "columns": {
                "player": "Player", "points": "Total points over all sessions", "sessions": "Evenings played",
                "deals": "Deals played (not those sat out)",
                "taken": "Contracts played as taker",
                "made": "Contracts made as taker", "success_rate": "made / taken (0 to 1)",
                "best": "Best evening (points)", "worst": "Worst evening (points)", "average": "Average points per evening",
            },
        },
        "scoresheet": {
            "title": "Scoresheet",
            "description": "One row per entry and player, voided entries included (voided = 1; they do not count).",
            "facets": ["session", "player", "kind", "contract"],
            "columns": {
                "session_id": "Session id", "date": "Date of the evening", "session": "Name of the evening",
                "rules": "House rules", "no": "Entry number on the sheet", "kind": "deal, pass, redeal or penalty",
                "entry": "The deal line", "contract": "Contract of a deal",
                "multiplier": "x2 after a rondje pas ...", "dealer": "Who dealt", "player": "Player",
                "points": "Points of this entry for this player", "taker": "1: bidder, partner or on miserie",
                "made": "Takers: 1 made, 0 lost", "voided": "1: undone or amended",
                "voided_by": "undo or amend", "reason": "Reason (penalties, redeals)", "entry_id": "Entry id",
            },
        },
        "players": {
            "description": "Every player ever recorded (names match case-insensitively).",
            "label_column": "name",
            "columns": {"id": "Player id", "name": "Name as first recorded", "created_at": "First recorded (UTC)"},
        },
        "sessions": {
            "description": "One row per evening, with a snapshot of the exact house rules it was played under.",
            "label_column": "date",
            "sort_desc": "date",
            "columns": {
                "id": "Session id", "uid": "Stable unique id (export/import)", "name": "Name of the evening",
                "date": "Date", "rules_name": "House rules", "rules_toml": "The house rules as they were (TOML)",
                "first_dealer": "Seat of the first dealer (0-based)", "started_at": "Started (UTC)",
                "ended_at": "Ended (UTC); empty while open", "source_hash": "Hash of the replayed file",
                "plan": "Length: deals N, rounds N or target N",
                "tag": "Competition tag (session start --tag)",
                "round": "Round, on a night of several tables", "table_no": "Table number in that round",
            },
        },
        "seats": {
            "description": "Who sat where in each session (seat 0 first, clockwise).",
            "columns": {"session_id": "Session", "seat": "Seat (0-based, clockwise)", "player_id": "Player"},
        },
        "entries": {
            "description": "Every entry of every sheet, append-only: undo and amend add voids and new rows.",
            "label_column": "text",
            "columns": {
                "id": "Entry id", "uid": "Stable unique id (export/import)", "session_id": "Session",
                "no": "Number on the sheet", "kind": "deal, pass, redeal or penalty",
                "text": "Canonical line", "contract": "Contract of a deal", "dealer": "Seat of the dealer",
                "multiplier": "Multiplier of the deal", "offender_id": "Penalty: the offender",
                "round": "Penalty: 1 = a round, not points", "deal_no": "Penalty: linked deal",
                "reason": "Reason", "next_dealer": "Seat of the next dealer",
                "next_multiplier": "Multiplier of the next played deal", "replaces": "Amendment: the entry it corrects",
                "created_at": "Recorded (UTC)",
            },
        },
        "entry_points": {
            "description": "Points per entry and player of the deal in play (who sat out has no row); `sixth` is "
            "six times the points, stored exactly (whole, half and third points).",
            "columns": {
                "entry_id": "Entry", "player_id": "Player", "sixth": "Six times the points, an integer",
                "taker": "1: bidder, partner or on miserie", "made": "Takers: 1 made, 0 lost",
            },
        },
        "scorer_links": {
            "description": "The scorer's link of each table for `wiezen serve` (table 0: an evening without a table), "
            "kept so that printed cards stay valid; not part of the record.",
            "columns": {"token": "The link's secret", "table_no": "Table (0: none)", "made_at": "Made (UTC)",
                        "replaced_at": "Replaced by `serve --new-links` (UTC)"},
        },
        "session_voids": {
            "description": "Sessions taken out of every count (`wiezen session void`): kept, sealed, counted nowhere.",
            "columns": {"session_id": "Session", "reason": "Why", "voided_at": "When (UTC)"},
        },
        "player_facts": {
            "description": "What the club said about its players (`wiezen players rename|merge|split`), in "
            "recorded order; the names recorded at the tables never change.",
            "columns": {"id": "Fact id", "uid": "Stable unique id (export/import)", "action": "rename, merge or split",
                        "name": "Old name; merge, split: who stays",
                        "other": "New name; merge: his too; split: leaves",
                        "date": "Said on", "created_at": "Recorded (UTC)"},
        },
        "night_rounds": {
            "description": "How many rounds a club night was started with (`wiezen night start --rounds N`).",
            "columns": {"date": "The night's date", "name": "The night's name", "tag": "Its competition",
                        "rounds": "Rounds", "created_at": "Said at (UTC)"},
        },
        "people": {
            "description": "Each recorded player's person (kept from player_facts): the standings count a person once.",
            "columns": {"player_id": "Player as recorded", "person_id": "Person (his lowest player id)",
                        "name": "The name the person goes by"},
        },
        "seals": {
            "description": "A session's seals: one when it ended, one more after each later correction "
            "(`wiezen check --seal CODE`).",
            "columns": {"id": "Seal id", "session_id": "Session", "n": "1 at the end, then 2, 3 ...",
                        "sealed_at": "When (UTC)"},
        },
        "chain": {
            "description": "The hash chain: one link per stored fact, each hash covering the one before it; "
            "`wiezen check` holds every row to its link.",
            "columns": {"seq": "Link number", "kind": "What the link covers", "rid": "Its row id",
                        "sub": "Version number (precedent versions)", "session_id": "Session of the fact",
                        "hash": "SHA-256 of previous link + fact",
                        "shash": "Session chain hash (seal links)"},
        },
        "voids": {
            "description": "Entries that no longer count: undone, or replaced by an amendment.",
            "columns": {
                "entry_id": "The voided entry", "action": "undo or amend", "by_entry": "Amendment: the new entry",
                "reason": "Reason", "created_at": "When (UTC)",
            },
        },
        "house_rules": {
            "description": "House rules added with `wiezen rules add` (the newest row of a name is current).",
            "columns": {"name": "Name", "toml": "The house-rules file", "reason": "Why", "added_at": "Added (UTC)"},
        },
        "player_evenings": {
            "description": "Per session and player, the entries that count summed up (kept in step by triggers); "
            "the standings add these up.",
            "columns": {
                "session_id": "Session", "player_id": "Player", "points": "Points that evening",
                "deals": "Deals played", "taken": "Contracts played as taker", "made": "... and made",
            },
        },
        "session_totals": {
            "description": "Each player's total per session (entries that count), kept in step by triggers.",
            "columns": {"session_id": "Session", "player_id": "Player", "points": "Total points"},
        },
        "precedents": {
            "description": "The precedents log: rulings the table made (the text is in precedent_versions; "
            "the rulings view has both).",
            "label_column": "date",
            "fts_table": "precedents_fts", "fts_pk": "id", "searchmode": "escaped",
            "columns": {
                "id": "Precedent id", "uid": "Stable unique id (export/import)", "date": "Day of the ruling",
                "session_id": "Session it arose from", "entry_no": "Entry number on that sheet",
                "entry_id": "The entry row that counted then", "players": "Players involved (JSON list)",
                "origin": "ruling, penalty or house-rules", "created_at": "Written down (UTC)",
            },
        },
        "precedent_versions": {
            "description": "The text of each precedent; an edit adds a version, the highest is current.",
            "columns": {
                "precedent_id": "Precedent", "version": "1, 2, 3 ...", "title": "Title", "ruling": "The ruling",
                "tags": "Tags (JSON list)", "note": "Why it was edited", "edited_at": "When (UTC)",
            },
        },
        "rulings": {
            "title": "Rulings",
            "description": "Every precedent with its current text, newest first. Search it with the box above.",
            "fts_table": "precedents_fts", "fts_pk": "id", "searchmode": "escaped",
            "label_column": "title",
            "facets": ["origin"],
            "columns": {
                "id": "Precedent id", "date": "Day of the ruling", "title": "Title", "ruling": "The ruling",
                "tags": "Tags (JSON list)", "session_id": "Session it arose from", "entry_no": "Entry on that sheet",
                "players": "Players involved (JSON list)", "origin": "ruling, penalty or house-rules",
                "version": "Current version (1 = never edited)",
            },
        },
        "precedents_fts": {"description": "Full-text index of the current precedents (search the rulings view)."},
        **{f"precedents_fts_{x}": {"hidden": True} for x in ("data", "idx", "content", "docsize", "config")},
        "_sqlite_migrations": {"hidden": True},
    }
    base = "/" + quote(db_name)
    return {
        "title": "wiezen ledger",
        "description_html": (
            "Flemish whist (wiezen, kleurenwiezen) scores kept with wiezen. Start with the views: "
            f'<a href="{base}/standings">standings</a>, <a href="{base}/scoresheet">scoresheet</a> and '
            f'<a href="{base}/rulings">rulings</a> (searchable); or the queries '
            f'<a href="{base}/sheet">sheet of a session</a>, <a href="{base}/season_standings">a season\'s '
            f'standings</a> and <a href="{base}/search_precedents">search precedents</a>; a competition\'s ranking: '
            f'<a href="{base}/competition">by points</a> or <a href="{base}/competition_placement">by placement</a>.'
        ),
        "databases": {db_name: {
            "description_html": (
                f'Views: <a href="{base}/standings">standings</a>, <a href="{base}/scoresheet">scoresheet</a>, '
                f'<a href="{base}/rulings">rulings</a>. Queries: <a href="{base}/sheet">sheet</a>, '
                f'<a href="{base}/season_standings">season_standings</a>, '
                f'<a href="{base}/search_precedents">search_precedents</a>.'
            ),
            "tables": t,
            "queries": canned_queries(),
        }},
    }


def canned_queries() -> dict[str, object]:  # (JSON, written out as it is)
    """Datasette's canned queries: the sheet of a session, a season's standings, a search of the precedents."""
    from .competition import COMPETITION_PLACEMENT_SQL, COMPETITION_POINTS_SQL
    from .standings import _STANDINGS

    # Datasette passes a parameter left blank as '': blank means "no bound", as NULL does for the command line
    season = _STANDINGS.replace(":since IS NULL", "coalesce(:since, '') = ''").replace(
        ":until IS NULL", "coalesce(:until, '') = ''")
    return {
        "sheet": {
            "title": "The sheet of a session",
            "description": "One row per entry (voided ones marked): the points each player got. "
            "Give the session's id (see the sessions table).",
            "sql": (
                "SELECT no, dealer, entry, multiplier AS x, voided, "
                "group_concat(player || ' ' || CASE WHEN points > 0 THEN '+' ELSE '' END || points, ', ') AS points, "
                "reason FROM scoresheet WHERE session_id = :session "
                "GROUP BY entry_id ORDER BY no, entry_id"
            ),
        },
        "season_standings": {
            "title": "A season's standings",
            "description": "Per player over the sessions from :since to :until (YYYY-MM-DD, both included; "
            "blank: no bound), best first.",
            "sql": season,
        },
        "search_precedents": {
            "title": "Search the precedents",
            "description": "Every word must occur in the title, the ruling or the tags (accents do not matter).",
            "sql": (
                "SELECT r.id, r.date, r.title, r.ruling, r.tags, r.session_id, r.entry_no FROM rulings r "
                "JOIN precedents_fts f ON f.rowid = r.id "
                "WHERE precedents_fts MATCH '\"' || replace(replace(replace(trim(:q), '\"', '\"\"'), '  ', ' '), ' ', "
                "'\" \"') || '\"' ORDER BY bm25(precedents_fts, 10.0, 1.0, 5.0), r.id DESC"
            ),
        },
        "competition": {
            "title": "Competition ranking (points)",
            "description": "A competition's ranking: the sessions with the tag (and dates) given, each player's "
            "evening the sum of his tables' points, his best N evenings counted; fewer than the minimum of "
            "evenings: no rank, listed after. Leave a parameter empty for none. The tie-breaks of a competition "
            "file: `wiezen standings --competition FILE`.",
            "sql": COMPETITION_POINTS_SQL,
        },
        "competition_placement": {
            "title": "Competition ranking (placement)",
            "description": "As the points ranking, but each table scores by place: p1 for first, p2 for "
            "second ... (players on equal points share the average of their places; an empty place scores 0).",
            "sql": COMPETITION_PLACEMENT_SQL,
        },
    }
