"""A second process for `wiezen check`: verifies the hash chain of a ledger file while the first re-scores it.

    python -m wiezen_score.ledger.verify_worker PATH LANG

Prints the chain's problems as JSON (a list of [message, session id, entry number, entry id]) and exits 0; on
anything else it exits 1 and `wiezen check` verifies the chain itself (check.py).
"""

from __future__ import annotations

import json
import sqlite3
import sys


def main(argv: list[str]) -> int:
    path, lang = argv
    from ..core.i18n import set_language
    from .chain import verify

    set_language(lang)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout = 5000")
        found = verify(conn)
    finally:
        conn.close()
    json.dump([[f.message, f.session_id, f.entry_no, f.entry_id] for f in found], sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    except Exception:  # noqa: BLE001 - any failure: the parent verifies the chain itself
        code = 1
    sys.exit(code)
