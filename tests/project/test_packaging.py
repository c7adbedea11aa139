"""Packaging: the metadata says what is true, and the sdist carries what its own tests and README need."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile

import pytest
from _ledger_helpers import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_metadata_classifiers_keywords_readme():
    p = project()
    assert p["readme"] == "README.md" and p["requires-python"] == ">=3.10"
    assert "wiezen" in p["keywords"] and "kleurenwiezen" in p["keywords"]
    pythons = {c.rsplit(" ", 1)[1] for c in p["classifiers"] if c.startswith("Programming Language :: Python :: 3.")}
    assert pythons == {"3.10", "3.11", "3.12", "3.13"}  # the versions .ci/run tests where present
    assert f"{sys.version_info[0]}.{sys.version_info[1]}" in pythons
    # the licence the project chose (Apache-2.0, the standard text in LICENSE); no public home page yet
    assert p["license"] == {"text": "Apache-2.0"} and "urls" not in p
    assert "Apache License" in (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()[0]
    assert "Version 2.0, January 2004" in (ROOT / "LICENSE").read_text(encoding="utf-8")


def test_optional_play_extra_and_windows_readline():
    p = project()
    assert any(d.startswith("prompt_toolkit") for d in p["optional-dependencies"]["play"])
    assert "pyreadline3; sys_platform == 'win32'" in p["dependencies"]
    assert {"datasette", "cogapp"} <= set(p["optional-dependencies"]["test"])


LOWEST = ROOT / ".ci" / "lowest-constraints.txt"


def lowest_pins() -> dict[str, str]:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    pins = {}
    for line in LOWEST.read_text(encoding="utf-8").splitlines():
        line = line.partition("#")[0].strip()
        if not line:
            continue
        req = Requirement(line)
        specs = list(req.specifier)
        assert len(specs) == 1 and specs[0].operator == "==" and not req.marker and not req.extras, line
        name = canonicalize_name(req.name)
        assert name not in pins, line
        pins[name] = specs[0].version
    return pins


def test_the_lowest_constraints_pin_the_declared_lower_bounds():
    """.ci/run runs the tests once more on the lowest versions declared: .ci/lowest-constraints.txt pins each
    dependency's ">=" bound in pyproject.toml with "==", so that the versions tested and declared cannot drift."""
    pytest.importorskip("packaging")
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    from packaging.version import Version

    bounds, unbounded = {}, set()
    for dep in project()["dependencies"]:
        req = Requirement(dep)
        lower = [s.version for s in req.specifier if s.operator == ">="]
        assert len(lower) <= 1 and all(s.operator == ">=" for s in req.specifier), dep  # no upper bound, no pin
        if lower:
            bounds[canonicalize_name(req.name)] = lower[0]
        else:
            unbounded.add(canonicalize_name(req.name))
    assert unbounded == {"pyreadline3"}  # Windows only: the lowest run (on Linux) could not install it
    pins = lowest_pins()
    assert pins.keys() == bounds.keys()
    for name, version in pins.items():
        assert version == bounds[name] and Version(version) == Version(bounds[name]), name  # written alike too
    assert "-c .ci/lowest-constraints.txt" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_readme_first_command_makes_a_virtual_environment():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first = readme.split("```sh\n", 1)[1].splitlines()[0]
    assert first.startswith("python3 -m venv .venv && . .venv/bin/activate")


def _tracked(folder: str) -> set[str]:
    out = set()
    for base, dirs, files in os.walk(ROOT / folder):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".hypothesis", ".pytest_cache")]
        for f in files:
            if f.endswith((".pyc", ".db-wal", ".db-shm")):
                continue
            out.add(os.path.relpath(os.path.join(base, f), ROOT).replace(os.sep, "/"))
    return out


@pytest.mark.slow
def test_sdist_carries_examples_tests_and_docs(tmp_path):
    pytest.importorskip("setuptools")
    if not (ROOT / "MANIFEST.in").exists():
        pytest.skip("not a source tree")
    code = ("import sys; from setuptools import build_meta as b; "
            "print(b.build_sdist(sys.argv[1]))")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    name = r.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name and m.isfile()}
    for folder in ("examples", "tests", "docs"):
        wanted = _tracked(folder)
        assert wanted, folder
        assert wanted <= members, sorted(wanted - members)
    assert {"README.md", "LICENSE", "mkdocs.yml", "docs/index.nl.md", "pyproject.toml", "docs/cli.md", "docs/json.md",
            "tests/data/ledger-schema1.db",
            ".ci/run", ".ci/lowest-constraints.txt"} <= members
    assert "wiezen_score/core/presets/whisthub.toml" in members
