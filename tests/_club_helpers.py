"""Three dated evenings for tests/test_club_*.py, with their points computed by hand from shared/SCORING.md
(whisthub, the default house rules).

Week 1 (2026-01-10), jan piet mieke lotte:
  samen 8 jan+piet 9     made with 1 overtrick: 8 + 3 = 11        jan +11 piet +11 mieke -11 lotte -11
  alleen 5 mieke 4       lost, 1 short: 4; solo x3               jan +4  piet +4  mieke -12 lotte +4
  grote-miserie lotte 0  made: 12; solo x3                        jan -12 piet -12 mieke -12 lotte +36
  totals                                                          jan 3   piet 3   mieke -35 lotte 29
Week 2 (2026-02-14), same four:
  pas                    whisthub: same dealer, next deal x2
  samen 8 mieke+lotte 8  made: 8, x2 = 16                         jan -16 piet -16 mieke +16 lotte +16
  alleen 6 jan 6         made: 4, x3 = 12 ... then undone: does not count
  penalty piet renonce   5 to each of the other three             jan +5  piet -15 mieke +5  lotte +5
  totals                                                          jan -11 piet -31 mieke 21  lotte 21
Week 3 (2026-03-21), five: jan piet mieke lotte bert (the dealer sits out; jan deals first)
  samen 8 piet+mieke 10  jan out; 8 + 2 x 3 = 14                  piet +14 mieke +14 lotte -14 bert -14
  abondance 9 bert 9     piet out; made: 10, x3                   jan -10 mieke -10 lotte -10 bert +30
  troel jan+lotte 8      mieke out; made: 16                      jan +16 piet -16 lotte +16 bert -16
  totals                                                          jan 6 piet -2 mieke 4 lotte -8 bert 0
"""

from __future__ import annotations

import json
from pathlib import Path

from _ledger_helpers import ok

WEEK1 = """session "Week 1" 2026-01-10
players jan piet mieke lotte
samen 8 jan+piet 9
alleen 5 mieke 4
grote-miserie lotte 0
"""
WEEK2 = """session "Week 2" 2026-02-14
players jan piet mieke lotte
pas
samen 8 mieke+lotte 8
alleen 6 jan 6
undo
penalty piet renonce
"""
WEEK3 = """session "Week 3" 2026-03-21
players jan piet mieke lotte bert
samen 8 piet+mieke 10
abondance 9 bert 9
troel jan+lotte 8
"""
WEEKS = (WEEK1, WEEK2, WEEK3)
TOTALS = (
    {"jan": 3, "piet": 3, "mieke": -35, "lotte": 29},
    {"jan": -11, "piet": -31, "mieke": 21, "lotte": 21},
    {"jan": 6, "piet": -2, "mieke": 4, "lotte": -8, "bert": 0},
)

# All three evenings, best first (hand-computed: see the module docstring).
# deals: played deals that count (a player who sat out did not play it); taken/made: as taker.
ALL = [
    {"player": "lotte", "points": 42, "sessions": 3, "deals": 7, "taken": 3, "made": 3, "best": 29, "worst": -8},
    {"player": "bert", "points": 0, "sessions": 1, "deals": 3, "taken": 1, "made": 1, "best": 0, "worst": 0},
    {"player": "jan", "points": -2, "sessions": 3, "deals": 6, "taken": 2, "made": 2, "best": 6, "worst": -11},
    {"player": "mieke", "points": -10, "sessions": 3, "deals": 6, "taken": 3, "made": 2, "best": 21, "worst": -35},
    {"player": "piet", "points": -30, "sessions": 3, "deals": 6, "taken": 2, "made": 2, "best": 3, "worst": -31},
]


def record_weeks(db, tmp_path: Path, weeks=WEEKS, prefix="week") -> None:
    for i, text in enumerate(weeks, 1):
        f = tmp_path / f"{prefix}{i}.txt"
        f.write_text(text, encoding="utf-8")
        ok(db, "replay", f)


def standings(db, *args):
    return json.loads(ok(db, "standings", "--format", "json", *args).stdout)
