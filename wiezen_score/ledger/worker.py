"""Second processes for long checks: the chain of a ledger file, or the re-scoring of a ledger handed over whole.

    python -m wiezen_score.ledger.worker chain PATH LANG     # `wiezen check`: verify the hash chain of PATH
    python -m wiezen_score.ledger.worker rescore LANG        # `wiezen import`: on standard input a line with
                                                             # the session ids (JSON), then the ledger as
                                                             # SQLite serializes it (the import not committed
                                                             # yet): re-score those sessions

Each prints its problems as JSON and exits 0; on anything else it exits 1 and the caller does the work itself
(check.py), so the result never depends on the second process.
"""

from __future__ import annotations

import json
import sys


def main(argv: list[str]) -> int:
    from ..core.i18n import set_language

    job, *args = argv
    if job == "chain":
        path, lang = args
        set_language(lang)
        from .chain import verify
        from .connection import _connect

        conn = _connect(path, readonly=True)  # the one way a ledger is opened ('?', '#' or '%' in its path quoted)
        try:
            found = verify(conn)
        finally:
            conn.close()
        json.dump([[f.message, f.session_id, f.entry_no, f.entry_id] for f in found], sys.stdout, ensure_ascii=False)
        return 0
    if job == "rescore":
        (lang,) = args
        set_language(lang)
        import sqlite3

        from .check import rescore_sessions  # (imported while the importer is still writing)

        sids = json.loads(sys.stdin.buffer.readline())
        data = bytearray(sys.stdin.buffer.read())
        if not data:
            return 1  # not needed after all
        data[18] = data[19] = 1  # the copy lives in memory: not in WAL mode (the file's header bytes 18 and 19)
        conn = sqlite3.connect(":memory:", isolation_level=None)
        try:
            conn.deserialize(bytes(data))
            problems = rescore_sessions(conn, [int(s) for s in sids])
        finally:
            conn.close()
        json.dump([[p.check, p.message, p.session_id, p.entry_no, p.entry_id] for p in problems], sys.stdout,
                  ensure_ascii=False)
        return 0
    return 1


if __name__ == "__main__":
    try:
        code = main(sys.argv[1:])
    except Exception:  # noqa: BLE001 - any failure: the caller does the work itself
        code = 1
    sys.exit(code)
