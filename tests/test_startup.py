"""Start-up (issue 11): `wiezen deal` loads only what recording a deal needs. Measured in a new process, as a user
runs it: the modules it imported and the classes whose code it made, once the command is done."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from _ledger_helpers import ok

PROBE = """
import atexit, json, sys
OUT = sys.argv[1]
def report():
    from wiezen_score.core import frozen
    lazy_left = sorted(c.__module__ + "." + c.__qualname__ for c in frozen._LAZY)
    with open(OUT, "w") as f:
        json.dump({"modules": sorted(sys.modules), "lazy_left": lazy_left}, f)
atexit.register(report)
sys.argv = ["wiezen"] + sys.argv[2:]
from wiezen_score.cli import main
main()
"""

#: modules recording a deal never needs (each costs a millisecond or more to import)
NOT_ON_THE_DEAL_PATH = [
    "tomllib", "tomli", "textwrap", "shlex", "click.shell_completion", "importlib.resources", "hashlib", "fractions",
    "sqlite_utils", "tabulate", "platformdirs", "string", "wiezen_score.views.render", "wiezen_score.views.formats",
    "wiezen_score.ledger.check", "wiezen_score.ledger.exchange", "wiezen_score.core.presets",
]


def run_probe(tmp_path, *args: str) -> dict:
    out = tmp_path / "probe.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("WIEZEN_")}
    r = subprocess.run([sys.executable, "-c", PROBE, str(out), *args], capture_output=True, text=True, env=env)
    assert r.returncode == 0 and out.exists(), r.stderr
    return json.loads(out.read_text())


def test_deal_imports_only_what_it_needs(tmp_path):
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "rupelstreek")
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    probe = run_probe(tmp_path, "--db", str(db), "deal", "alleen", "5", "mieke", "6")
    loaded = [m for m in NOT_ON_THE_DEAL_PATH if m in probe["modules"]]
    assert loaded == [], loaded
    assert "wiezen_score.ledger.chain" in probe["modules"]  # (the probe sees the deal path: the link was written)
    # a check's findings, a seal and the rows of a sheet: declared, their code never made
    for cls in ("wiezen_score.ledger.rows.EntryRow", "wiezen_score.ledger.chain.Finding",
                "wiezen_score.ledger.chain.Seal", "wiezen_score.ledger.chain.SealResult"):
        assert cls in probe["lazy_left"], (cls, probe["lazy_left"])


def test_house_rules_from_a_file_still_read_with_tomllib(tmp_path):
    """A house-rules text outside the plain subset (core/plaintoml.py) is read by tomllib, with the same rules."""
    from wiezen_score.core.presets import preset_text

    rules = tmp_path / "ons.toml"
    text = preset_text("whisthub").replace('name = "whisthub"', "name = 'ons'")  # a literal string: not plain
    rules.write_text(text, encoding="utf-8")
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", str(rules))
    probe = run_probe(tmp_path, "--db", str(db), "deal", "samen", "8", "jan+piet", "9")
    assert "tomllib" in probe["modules"] or "tomli" in probe["modules"]
    preset = tmp_path / "p.db"
    ok(preset, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "whisthub")
    ok(preset, "deal", "samen", "8", "jan+piet", "9")
    assert ok(db, "sheet").stdout.splitlines()[-2:] == ok(preset, "sheet").stdout.splitlines()[-2:]
