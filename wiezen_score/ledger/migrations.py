"""The registry of migrations: the functions that build the schema, in the order they are applied.

sqlite-utils ``Migrations`` applies them; ``PRAGMA user_version`` holds how many were applied. This module
imports the migration functions only (schema, precedents, standings), never the Ledger that applies them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database
    from sqlite_utils.migrations import Migrations


def _migration_list() -> list[tuple[str, Callable[[Database], None]]]:
    """The registry, in order. Append only: a released migration is never changed or removed.

    Each function gets a sqlite_utils.Database and runs inside the migration's transaction. (Imported here, when
    a migration is due: the everyday path reads SCHEMA_VERSION only.)
    """
    from . import schema
    from .people import m013_players
    from .precedents import m002_precedents, m008_rulings_view
    from .sixths import m014_sixths
    from .standings import club_views_migration

    return [
        ("m001_initial", schema.m001_initial),
        ("m002_precedents", m002_precedents),
        ("m003_club_views", club_views_migration),
        ("m004_session_totals", schema.m004_session_totals),
        ("m005_no_replace", schema.m005_no_replace),
        ("m006_chain", schema.m006_chain),
        ("m007_evening_length", schema.m007_evening_length),
        ("m008_rulings_view", m008_rulings_view),
        ("m009_competitions", schema.m009_competitions),
        ("m010_rounds_index", schema.m010_rounds_index),
        ("m011_tables", schema.m011_tables),
        ("m012_scorer_links", schema.m012_scorer_links),
        ("m013_players", m013_players),
        ("m014_sixths", m014_sixths),
        ("m014_night_rounds", schema.m014_night_rounds),
        ("m015_session_voids", schema.m015_session_voids),
        ("m016_seat_entries", schema.m016_seat_entries),
    ]


# The schema version is the number of migrations; PRAGMA user_version holds the applied count, so the
# everyday path checks one integer and never imports sqlite-utils.
# The names of _migration_list(), in order (tests/ledger/test_datasette.py checks it).
MIGRATION_NAMES = (
    "m001_initial", "m002_precedents", "m003_club_views", "m004_session_totals", "m005_no_replace", "m006_chain",
    "m007_evening_length", "m008_rulings_view", "m009_competitions", "m010_rounds_index", "m011_tables",
    "m012_scorer_links", "m013_players", "m014_sixths", "m014_night_rounds", "m015_session_voids", "m016_seat_entries",
)
SCHEMA_VERSION = len(MIGRATION_NAMES)


def _migrations() -> Migrations:
    from sqlite_utils.migrations import Migrations

    m = Migrations("wiezen")
    for name, fn in _migration_list():
        m(name=name)(fn)
    return m
