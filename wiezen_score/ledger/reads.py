"""The ledger's reads for the club and its keepers: standings, competitions, the export, the checks.

Each method opens nothing of its own: it hands this ledger's connection to the module that knows the SQL, so
that the command line and the server never touch a connection (and the modules load only when used).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .base import LedgerBase

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from ..core.competition import Competition
    from ..core.documents import StandingRow
    from ..core.ranking import PairRow, TableRow
    from .check import CheckResult
    from .seals import SealResult

Progress = Callable[[int, int], None]


class ClubReads(LedgerBase):
    """What the club commands read: season standings, a competition's tables, an export, a check."""

    def data_version(self) -> int:
        """A number that changes whenever another connection commits a change to the ledger (PRAGMA
        data_version): a reader that keeps the ledger open knows when to read again."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # -- season standings (ledger/standings.py) ---------------------------------------------------
    def standings(self, since: str | None = None, until: str | None = None) -> list[StandingRow]:
        from .standings import standings

        return standings(self.conn, since, until)

    def season_series(self, since: str | None = None, until: str | None = None) -> dict[str, list[tuple[str, int | float]]]:
        from .standings import season_series

        return season_series(self.conn, since, until)

    # -- competitions (ledger/competition.py) --------------------------------------------------------
    def table_rows(self, c: Competition, night: str | None = None,
                   before: tuple[str, int] | None = None) -> list[TableRow]:
        from .competition import table_rows

        return table_rows(self.conn, c, night, before)

    def night_rounds(self, c: Competition, night: str) -> dict[int, list[str]]:
        from .competition import night_rounds

        return night_rounds(self.conn, c, night)

    def last_night(self, c: Competition) -> str | None:
        from .competition import last_night

        return last_night(self.conn, c)

    def honours_figures(self, c: Competition) -> tuple[dict[str, int], list[PairRow], list[PairRow]]:
        from .competition import honours_figures

        return honours_figures(self.conn, c)

    # -- export (ledger/exchange.py) -------------------------------------------------------------------
    def write_export(self, out: SupportsWrite[str], since: str | None = None, until: str | None = None,
                     session_id: int | None = None, generator: str = "", progress: Progress | None = None) -> int:
        """The export document of the selected sessions, written to ``out``; returns how many were written."""
        from .exchange import write_export

        return write_export(self.conn, out, since, until, session_id, generator=generator, progress=progress)

    # -- checks (ledger/check.py, ledger/chain.py) ---------------------------------------------------------
    def check_ledger(self, progress: Progress | None = None) -> CheckResult:
        from .check import check_ledger

        return check_ledger(self.conn, progress=progress)

    def check_seal(self, code: str, session_id: int | None) -> SealResult:
        from .seals import check_seal

        return check_seal(self.conn, code, session_id)
