"""Migration m014: points stored in sixths, so that thirds (a solo paid as one sum, payment = "shared") are exact.

Until m014 ``entry_points.half`` held twice the points (whole and half points, the split miseries). From m014 on
``entry_points.sixth`` holds six times the points: whole, half and third points, each an integer, so that every
deal, total and export sums to exactly 0. Every recorded row keeps its value (``sixth = 3 * half``), and the chained
text of an entry (ledger/facts.py) still writes twice the points for a whole or half point, so that every link and
seal made before m014 still verifies, and a session without thirds hashes as it always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlite_utils import Database

_ENTRY_POINTS_SIXTHS = """
CREATE TABLE entry_points_sixths (    -- one row per player of the deal in play (not who sat out)
    entry_id INTEGER NOT NULL REFERENCES entries(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    sixth INTEGER NOT NULL CHECK (typeof(sixth) = 'integer' AND abs(sixth) <= {bound}),  -- six times the points, exactly
    points REAL GENERATED ALWAYS AS (sixth / 6.0) VIRTUAL,  -- whole, half or third points (a third: the nearest REAL)
    taker INTEGER NOT NULL DEFAULT 0, -- 1: bidder, partner or on miserie
    made INTEGER,                     -- takers: 1 made, 0 lost
    PRIMARY KEY (entry_id, player_id)
) WITHOUT ROWID
"""


def m014_sixths(db: Database) -> None:
    """Points in sixths: ``entry_points.half`` (twice the points) becomes ``entry_points.sixth`` (six times them),
    every row keeping its value; the table's indexes and triggers are made again as they were."""
    from .rows import POINTS_BOUND
    from .schema import rebuild_entry_points

    rebuild_entry_points(
        db, _ENTRY_POINTS_SIXTHS.format(bound=6 * POINTS_BOUND), "entry_points_sixths",
        "INSERT INTO entry_points_sixths (entry_id, player_id, sixth, taker, made) "
        "SELECT entry_id, player_id, 3 * half, taker, made FROM entry_points",
    )
