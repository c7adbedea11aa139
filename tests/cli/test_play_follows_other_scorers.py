"""`wiezen play` follows what another device records at its table (issue 25, item 6): a deal from the scorer's
phone (`wiezen serve`), or from another prompt, is shown above the prompt, and the prompt moves on to the next
entry and dealer while a line is being typed; another table's deals and other writes are no news."""

from __future__ import annotations

import os
import re
import sys

import pytest
from _ledger_helpers import ok, sheet

from wiezen_score.cli.play import Table
from wiezen_score.ledger.store import open_ledger


def test_a_deal_recorded_by_another_connection_is_news_once(tmp_path, capsys):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    with open_ledger(str(db)) as led:
        table = Table(led, True, 6, False)
        table.looked()
        assert table.news() is None  # nothing happened
        assert table.prompt() == "[#1 jan deals] > "
        ok(db, "deal", "samen", "8", "mieke+lotte", "9")  # another process: the phone's server, another prompt
        news = table.news()
        assert news is not None
        news()
        out = capsys.readouterr().out
        assert "recorded elsewhere" in out and "samen 8 mieke+lotte 9" in out
        assert "totals: jan -3, piet -3, mieke +3, lotte +3" in out
        assert table.news() is None  # said once
        assert table.prompt() == "[#2 piet deals] > "
        ok(db, "precedent", "add", "renonce in troef", "--ruling", "de overtreder betaalt")
        assert table.news() is None  # a write that changes nothing at the table
        ok(db, "session", "end")
        news = table.news()
        assert news is not None
        news()
        assert "session 1 was ended elsewhere" in capsys.readouterr().out
        assert table.prompt() == "[no session] > "


def test_the_prompt_follows_a_deal_from_the_phone_while_a_line_is_typed(tmp_path):
    """Under a pseudo-terminal with prompt_toolkit: the prompt said #1 jan deals; another process records a deal;
    without a key pressed the sheet is shown and the prompt says #2 piet deals, with the half-typed line kept."""
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    env = {**os.environ, "TERM": "xterm", "XDG_DATA_HOME": str(tmp_path), "NO_COLOR": "1"}
    for k in ("WIEZEN_DB", "WIEZEN_PROMPT", "PROMPT_TOOLKIT_NO_CPR", "WIEZEN_LANG"):
        env.pop(k, None)
    c = pexpect.spawn(sys.executable, ["-m", "wiezen_score", "--db", str(db), "play", "--no-history"],
                      env=env, cwd=str(tmp_path), encoding="utf-8", timeout=20, dimensions=(40, 120))

    def expect(pattern):
        """Wait for ``pattern``, answering the terminal's cursor-position requests as a terminal does."""
        while c.expect([pattern, re.escape("\x1b[6n")]) == 1:
            c.send("\x1b[20;1R")

    try:
        expect(re.escape("next: #1, jan deals"))  # the toolbar
        c.send("pas")  # typed, not entered
        ok(db, "deal", "samen", "8", "mieke+lotte", "9")
        expect(re.escape("recorded elsewhere"))
        expect(re.escape("next: #2, piet deals"))
        c.send("\r")  # the half-typed line is still there: entered now, as #2
        expect(re.escape("next: #3, mieke deals, counts x2"))
        c.send("quit\r")
        c.expect(pexpect.EOF)
    finally:
        c.close(force=True)
    doc = sheet(db)
    assert [(e["no"], e["text"]) for e in doc["entries"]] == [(1, "samen 8 mieke+lotte 9"), (2, "pas")]
