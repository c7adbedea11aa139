"""A long session: replay sums the sheet up (--full shows it all), and play shows the end of the sheet with the
right running totals while reading only the end of it (issue 11)."""

from __future__ import annotations

import re

from _ledger_helpers import wz

HEAD = 'session "Lang" 2026-11-27\nrules whisthub\nplayers jan piet mieke lotte\n'
DEALS = ["samen 8 jan+piet 9", "alleen 5 mieke 4", "samen 8 mieke+lotte 8", "samen 9 piet+lotte 10"]


def long_file(tmp_path, n: int, extra: str = "") -> str:
    p = tmp_path / "lang.txt"
    p.write_text(HEAD + "".join(DEALS[i % 4] + "\n" for i in range(n)) + extra)
    return str(p)


def rows(out: str) -> list[str]:
    """The sheet's table rows (they start with an entry number)."""
    return [line for line in out.splitlines() if re.match(r"^\s*\d+\s{2}", line)]


def test_a_long_replay_prints_its_last_rows_and_totals_and_full_prints_all(tmp_path):
    db = tmp_path / "l.db"
    f = long_file(tmp_path, 60)
    out = wz(db, "replay", f).stdout
    shown = rows(out)
    assert [int(r.split()[0]) for r in shown] == list(range(51, 61))
    assert "50 earlier rows not shown" in out and "--full" in out
    # 15 rounds of the four deals: jan gets +11 +4 -8 -14 each round
    assert "totals: jan -105, piet +315, mieke -435, lotte +225" in out
    full = wz(db, "sheet", "--session", "1").stdout
    assert rows(full)[-10:] == shown  # the same rows, with the same running totals, as the whole sheet's end
    db2 = tmp_path / "l2.db"
    out = wz(db2, "replay", "--full", f).stdout
    assert [int(r.split()[0]) for r in rows(out)] == list(range(1, 61))
    assert "earlier rows not shown" not in out


def test_a_short_replay_prints_the_whole_sheet(tmp_path):
    out = wz(tmp_path / "s.db", "replay", long_file(tmp_path, 12)).stdout
    assert [int(r.split()[0]) for r in rows(out)] == list(range(1, 13))
    assert "earlier rows not shown" not in out


def test_play_shows_the_end_of_a_long_sheet_with_its_running_totals(tmp_path):
    db = tmp_path / "p.db"
    # voided entries and an undo in the middle: the running totals before the window must skip them
    f = long_file(tmp_path, 40, "undo\npas\n" + "".join(DEALS[i % 4] + "\n" for i in range(9)))
    wz(db, "replay", "--keep-open", f)
    out = wz(db, "play", input="s 8 j+p 9\n").stdout
    shown = rows(out)
    assert len(shown) == 6
    sheet = wz(db, "sheet", "--last", "6").stdout
    assert rows(sheet) == shown
    assert shown[-1].split()[0] == "51"  # 40 deals (the last voided), pas, 9 deals, then the one typed
