"""Start-up (issue 11): `wiezen deal` loads only what recording a deal needs. Measured in a new process, as a user
runs it: the modules it imported, once the command is done."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from _ledger_helpers import ok

PROBE = """
import atexit, sys
OUT = sys.argv[1]
def report():
    modules = sorted(sys.modules)  # (before the probe's own json)
    import json
    with open(OUT, "w") as f:
        json.dump({"modules": modules}, f)
atexit.register(report)
sys.argv = ["wiezen"] + sys.argv[2:]
from wiezen_score.cli import main
main()
"""

#: modules recording a deal never needs (each costs a millisecond or more to import)
NOT_ON_THE_DEAL_PATH = [
    "textwrap", "shlex", "click.shell_completion", "importlib.resources", "fractions",
    "sqlite_utils", "tabulate", "platformdirs", "wiezen_score.views.render", "wiezen_score.views.formats",
    "wiezen_score.ledger.check", "wiezen_score.ledger.exchange", "wiezen_score.core.dates", "wiezen_score.ledger.documents", "wiezen_score.core.presets",
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


def test_house_rules_from_a_file_in_any_toml_form(tmp_path):
    """House rules written in any form TOML allows (here a literal string) give the same rules."""
    from wiezen_score.core.presets import preset_text

    rules = tmp_path / "ons.toml"
    text = preset_text("whisthub").replace('name = "whisthub"', "name = 'ons'")  # a literal string: not plain
    rules.write_text(text, encoding="utf-8")
    db = tmp_path / "w.db"
    ok(db, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", str(rules))
    ok(db, "deal", "samen", "8", "jan+piet", "9")
    preset = tmp_path / "p.db"
    ok(preset, "session", "start", "--players", "jan,piet,mieke,lotte", "--rules", "whisthub")
    ok(preset, "deal", "samen", "8", "jan+piet", "9")
    assert ok(db, "sheet").stdout.splitlines()[-2:] == ok(preset, "sheet").stdout.splitlines()[-2:]


# ------------------------------------------------------------------------------------------------------
# patterns that were compiled at import, now string methods: they say what the patterns said

import re  # noqa: E402

from _hypothesis_helpers import examples  # noqa: E402
from hypothesis import example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

WORDS = st.text(alphabet=st.sampled_from(list("az09-_ \t\n\r\x0b\x0c\x1c\x85\xa0\u2003Zé²١~\x7f\x00+")), max_size=12)


@settings(max_examples=examples(600), deadline=None)
@given(WORDS)
@example("ab\n")
@example("ab\n\n")
@example("\n")
@example("²")
@example(" \u2003s 8 j+p 9\n")
def test_string_tests_say_what_their_patterns_said(s: str) -> None:
    from wiezen_score.core import abbrev, rules, text
    from wiezen_score.views import safe

    assert text.is_digits(s) == bool(re.match(r"[0-9]+\Z", s))
    assert rules._is_name(s) == bool(re.match(r"^[a-z][a-z0-9-]*$", s))
    assert safe._plain(s) == bool(re.match(r"[\x20-\x7e]*\Z", s))
    preset = rules.parse_rules(__import__("wiezen_score.core.presets", fromlist=["x"]).preset_text("whisthub"))
    m = re.match(r"^(\s*)(\S+)(.*)$", s, re.DOTALL)
    for word in ("s", "gm", "samen", "x"):
        line = s.replace("~", word, 1)
        m = re.match(r"^(\s*)(\S+)(.*)$", line, re.DOTALL)
        if m is None:
            want = line
        else:
            lead, w, rest = m.groups()
            full = abbrev.expand_word(w, preset) if w.lower() != "amend" else None
            want = line if w.lower() == "amend" or full is None else f"{lead}{full}{rest}"
        if m is not None and m.group(2).lower() == "amend":
            continue  # (amend lines keep their own pattern)
        assert abbrev.expand_line(line, preset) == want, repr(line)


def test_lazy_patterns_match_as_compiled_ones() -> None:
    from wiezen_score.core.sessionfile import TAG_RE, check_tag

    for tag in ("gesves-2026", "a.b_c", "-x", "x" * 60, "x" * 61, "é2", "a b", "a\n", ""):
        assert bool(TAG_RE.match(tag)) == bool(re.match(r"^[\w][\w.-]{0,59}$", tag)), tag
    assert check_tag("gesves-2026") == "gesves-2026"


@settings(max_examples=examples(400), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab ~\n\t\r\x1b\x7f\x85\u2028\u200b\u00ade")), max_size=30))
@example("jan  +11\n  #  dealer\tx\n")
def test_safe_lines_quick_path_escapes_as_before(s: str) -> None:
    """safe_lines returns plain text with line breaks and tabs as it is, and escapes as before otherwise."""
    from wiezen_score.views import safe

    slow = "".join(safe._escape(ch) if safe.is_unsafe(ch) and ch not in "\n\t" else ch for ch in s)
    assert safe.safe_lines(s) == slow
