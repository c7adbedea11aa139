"""Shared test fixtures: a clean environment for every test, the Hypothesis profiles, and template ledgers built
once per test session and copied into each test's tmp_path.

Template ledgers: `ledger_template(name, build)` builds a ledger once per session (per xdist worker) with
``build(db, folder)`` and returns its path; `copy_ledger(template, dest)` copies it (with any file beside it,
such as the WAL) so a test may change its copy freely. `club_db` is the three hand-computed club evenings of
tests/_club_helpers.py, a fresh copy per test.
"""

from __future__ import annotations

import datetime
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# The tests are laid out like the code (tests/core, views, ledger, service, cli, web; e2e for end-to-end and stress
# tests, project for the docs, the packaging and the layout). A test module may import another's helpers by name
# (`from test_deal_words import ok`), wherever it lies: every folder is on the path, as this one is for the
# shared helpers (tests/_*.py).
for _folder in ("core", "views", "ledger", "service", "cli", "web", "e2e", "project"):
    sys.path.insert(0, str(Path(__file__).parent / _folder))

from _ledger_helpers import copy_ledger  # noqa: E402 (after the path)
from hypothesis import settings  # noqa: E402

# Hypothesis: the default run ("dev") tries fewer examples than .ci/run ("ci", WIEZEN_HYPOTHESIS=ci). Tests that
# ask for a number of examples take it through _hypothesis_helpers.examples(n), scaled by the same ratio.
settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=25)
settings.load_profile(os.environ.get("WIEZEN_HYPOTHESIS", "dev"))

# Variables a developer's shell may set that change what wiezen prints or where it writes. Every test starts
# without them (a test that needs one sets it), so the run does not depend on the terminal or on pytest-xdist.
_AMBIENT = ("COLUMNS", "LINES", "WIEZEN_DB", "WIEZEN_TABLE", "WIEZEN_DEBUG", "WIEZEN_CSV_DIALECT", "NO_COLOR", "FORCE_COLOR")


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in _AMBIENT:
        monkeypatch.delenv(name, raising=False)
    # the suite speaks English whatever the developer's locale: a test that wants Dutch says so (--lang nl, or
    # WIEZEN_LANG/LANG in the environment it passes)
    monkeypatch.setenv("WIEZEN_LANG", "en")


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """In-process commands and the `nl` fixture set the language module-wide; every test ends in English."""
    yield
    from wiezen_score.core import i18n

    i18n.set_language("en")


@pytest.fixture
def nl() -> Iterator[None]:
    """The test renders in Dutch (in process); English again afterwards."""
    from wiezen_score.core import i18n

    i18n.set_language("nl")
    yield
    i18n.set_language("en")


#: a fixed week, Monday 30 November to Sunday 6 December 2026: date tests run once for each of its days
WEEK = [datetime.date(2026, 11, 30) + datetime.timedelta(days=i) for i in range(7)]


@pytest.fixture(params=WEEK, ids=lambda d: d.strftime("%a"))
def today(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> datetime.date:
    """A fixed "today" for the commands run in this process (core.dates.today), once for each day of the week: a
    date test depends neither on the day nor on the hour it runs (a run across midnight, a Friday)."""
    from wiezen_score.core import dates

    day = request.param
    monkeypatch.setattr(dates, "today", lambda: day)
    return day


_TEMPLATES: dict[str, Path] = {}


@pytest.fixture(scope="session")
def ledger_template(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, Callable[[Path, Path], object]], Path]:
    """``ledger_template(name, build)``: the path of a ledger built once per session by ``build(db, folder)``."""

    def get(name: str, build: Callable[[Path, Path], object]) -> Path:
        if name not in _TEMPLATES:
            folder = tmp_path_factory.mktemp(f"template-{name}")
            db = folder / "template.db"
            build(db, folder)
            conn = sqlite3.connect(str(db))  # fold the WAL into the file, so the copy is the file alone
            try:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            finally:
                conn.close()
            _TEMPLATES[name] = db
        return _TEMPLATES[name]

    return get


def _build_club(db: Path, folder: Path) -> None:
    from _club_helpers import record_weeks

    record_weeks(db, folder)


@pytest.fixture(scope="session")
def club_template(ledger_template: Callable[[str, Callable[[Path, Path], object]], Path]) -> Path:
    """The three club evenings of tests/_club_helpers.py (WEEK1-3), recorded once per session. Do not change it."""
    return ledger_template("club", _build_club)


@pytest.fixture
def club_db(club_template: Path, tmp_path: Path) -> Iterator[Path]:
    """A fresh copy of the three club evenings at tmp_path/club.db."""
    yield copy_ledger(club_template, tmp_path / "club.db")


@pytest.fixture
def make_club(club_template: Path, tmp_path: Path) -> Callable[[str], Path]:
    """``make_club(name)``: a fresh copy of the three club evenings at tmp_path/name (the name shows in Datasette)."""
    return lambda name: copy_ledger(club_template, tmp_path / name)


@pytest.fixture
def season(ledger_template: Callable[[str, Callable[[Path, Path], object]], Path], tmp_path: Path) -> Path:
    """The competition tests' hand-computed season (tests/_competition_helpers.py), a fresh copy per test."""
    from _competition_helpers import season_ledger

    return season_ledger(ledger_template, tmp_path)
