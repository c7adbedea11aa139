"""A second process for `wiezen check`: verifies the hash chain of a ledger file while the first re-scores it.

    python -m wiezen_score.ledger.verify_worker PATH LANG

Prints the chain's problems as JSON (a list of [message, session id, entry number, entry id]) and exits 0; on
anything else it exits 1 and `wiezen check` verifies the chain itself (check.py).
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    path, lang = argv
    from ..core.i18n import set_language
    from .chain import verify
    from .connection import _connect

    set_language(lang)
    conn = _connect(path, readonly=True)  # the one way a ledger is opened ('?', '#' or '%' in its path quoted)
    try:
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
