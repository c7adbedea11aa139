"""Datasette metadata: labels for the ledger's tables, views and columns."""

from __future__ import annotations

from typing import Any



# ------------------------------------------------------------------------------------- Datasette metadata


def datasette_metadata(db_name: str) -> dict[str, Any]:
    """Labels for the ledger's tables and columns, in Datasette's metadata format."""
    t: dict[str, Any] = {
        "standings": {
            "title": "Standings (all sessions)",
            "description": "Per player over every session: points, evenings, deals played, contracts taken and made "
            "(as taker), best and worst evening, average per evening. Best first. "
            "`wiezen standings --since DATE` gives a period.",
            "columns": {
                "player": "Player", "points": "Total points over all sessions", "sessions": "Evenings played",
                "deals": "Deals played (a player who sat out a deal did not play it)",
                "taken": "Contracts played as taker (bidder, partner or on miserie)",
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
                "entry": "The entry as typed (canonical deal line)", "contract": "Contract of a deal",
                "multiplier": "x2 after a rondje pas ...", "dealer": "Who dealt", "player": "Player",
                "points": "Points of this entry for this player", "taker": "1: bidder, partner or on miserie",
                "made": "Takers: 1 made, 0 lost", "voided": "1: undone or amended (does not count)",
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
                "first_dealer": "Seat of the first dealer (0 = first player)", "started_at": "Started (UTC)",
                "ended_at": "Ended (UTC); empty while open", "source_hash": "Session file it was replayed from (hash)",
                "plan": "The evening's length: deals N, rounds N or target N (empty: not said)",
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
                "no": "Entry number on the sheet (an amendment keeps it)", "kind": "deal, pass, redeal or penalty",
                "text": "Canonical line", "contract": "Contract of a deal", "dealer": "Seat of the dealer",
                "multiplier": "Multiplier of the deal", "offender_id": "Penalty: the offender",
                "round": "Penalty: 1 = een rondje geven instead of points", "deal_no": "Penalty: linked deal",
                "reason": "Reason", "next_dealer": "Seat of the next dealer after this entry",
                "next_multiplier": "Multiplier of the next played deal", "replaces": "Amendment: the entry it corrects",
                "created_at": "Recorded (UTC)",
            },
        },
        "entry_points": {
            "description": "Points per entry and player of the deal in play (who sat out has no row). The column "
            "points (whole or half points) is half of half, the integer stored: exact in every sum.",
            "columns": {
                "entry_id": "Entry", "player_id": "Player", "half": "Twice the points, an integer",
                "taker": "1: bidder, partner or on miserie", "made": "Takers: 1 made, 0 lost",
            },
        },
        "seals": {
            "description": "A session's seals: the first when it ended, one more after each correction made after "
            "the evening. The seal's code is the session chain's hash at that point (see `wiezen check --seal`).",
            "columns": {"id": "Seal id", "session_id": "Session", "n": "1 at the end, 2, 3 ... after corrections",
                        "sealed_at": "When (UTC)"},
        },
        "chain": {
            "description": "The hash chain: one link per stored fact, each hash covering the one before it; "
            "`wiezen check` holds every row to its link.",
            "columns": {"seq": "Link number", "kind": "What the link covers", "rid": "Its row id",
                        "sub": "Version number (precedent versions)", "session_id": "Session of the fact",
                        "hash": "SHA-256 over the previous link and the fact",
                        "shash": "The session chain's hash (a seal at a seal link)"},
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
            "description": "The precedents log: rulings the table made (the text is in precedent_versions).",
            "label_column": "date",
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
        "precedents_fts": {"description": "Full-text index of the current precedents (search it here)."},
        **{f"precedents_fts_{x}": {"hidden": True} for x in ("data", "idx", "content", "docsize", "config")},
        "_sqlite_migrations": {"hidden": True},
    }
    return {
        "title": "wiezen ledger",
        "description": "Flemish whist (wiezen, kleurenwiezen) scores kept with wiezen. Start with the standings "
        "and scoresheet views.",
        "databases": {db_name: {"tables": t}},
    }
