"""The package's import graph: no import cycles (function-local imports included) and the layers import one way.

core <- views <- ledger <- service <- web <- cli: core imports none of the others, views only core, ledger core and
views, service those three (never web or cli), web the service and below (never cli), cli anything. The service
(the table's state machine that the prompt and the phone share) never imports click and never reads or prints.
Read from the source with ast, so an import hidden inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
import pathlib
import textwrap

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "wiezen_score"
LAYERS = ("core", "views", "ledger", "service", "web", "cli")  # each may import only those before it (and itself)


def modules(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Dotted module name -> file, for every .py file under the package ``root``."""
    out = {}
    for p in root.rglob("*.py"):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _imports(tree: ast.AST, runtime_only: bool) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (inside functions too); without those under ``if TYPE_CHECKING:``
    when ``runtime_only`` (they never run, so they cannot make a cycle)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if runtime_only and isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.orelse:
                    visit_one(stmt)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        visit(node)

    visit(tree)
    return found


def import_graph(root: pathlib.Path, runtime_only: bool = True) -> dict[str, set[str]]:
    """Module -> the package's modules it imports. ``from . import x`` counts as importing the submodule x;
    a module's own parent packages are left out (importing a submodule always runs them first)."""
    mods = modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, path in mods.items():
        package = m.split(".") if path.name == "__init__.py" else m.split(".")[:-1]
        for node in _imports(ast.parse(path.read_text(encoding="utf-8")), runtime_only):
            targets = []
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in mods]
                targets += subs
                if len(subs) < len(node.names):
                    targets.append(mod)
            else:
                targets += [a.name for a in node.names]
            edges[m] |= {t for t in targets if t in mods and t != m and not m.startswith(t + ".")}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in LAYERS else None


def layer_violations(edges: dict[str, set[str]]) -> list[str]:
    out = []
    for m, targets in sorted(edges.items()):
        lm = layer(m)
        for t in sorted(targets):
            lt = layer(t)
            if lm is not None and lt is not None and LAYERS.index(lt) > LAYERS.index(lm):
                out.append(f"{m} ({lm}) imports {t} ({lt})")
    return out


def test_no_import_cycles() -> None:
    assert cycles(import_graph(PACKAGE)) == []


def test_layers_import_one_way() -> None:
    # TYPE_CHECKING imports count here: a type from a higher layer is still a dependency on it
    assert layer_violations(import_graph(PACKAGE, runtime_only=False)) == []


def test_the_ledger_imports_nothing_from_views_or_cli() -> None:
    # stricter than the layers: what the ledger shares with the views (markers, JSON escaping) lives in core
    edges = import_graph(PACKAGE, runtime_only=False)
    found = sorted(f"{m} imports {t}" for m, targets in edges.items() if layer(m) == "ledger"
                   for t in targets if layer(t) in ("views", "cli"))
    assert found == []


def test_the_ledger_modules_import_each_other_in_no_circle() -> None:
    # stricter than test_no_import_cycles: an import for the type checker only counts too (store -> precedents ->
    # store through a type was one); the registry of migrations imports no store
    edges = import_graph(PACKAGE, runtime_only=False)
    ledger = {m: {t for t in targets if layer(t) == "ledger"} for m, targets in edges.items() if layer(m) == "ledger"}
    assert cycles(ledger) == []
    assert "wiezen_score.ledger.store" not in ledger["wiezen_score.ledger.migrations"]


# modules other work of issue 26 splits (their own helpers): the rule holds for every other module
LONG_FOR_NOW = {"wiezen_score.ledger.chain", "wiezen_score.ledger.check", "wiezen_score.cli.play"}


def test_rooms_of_a_readable_size() -> None:
    # the project's rule: a module under 600 lines, a class under 30 methods of its own
    long = sorted(m for m, path in modules(PACKAGE).items()
                  if len(path.read_text(encoding="utf-8").splitlines()) >= 600 and m not in LONG_FOR_NOW)
    big = sorted(f"{m}.{node.name}" for m, path in modules(PACKAGE).items()
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)
                 and sum(isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for f in node.body) >= 30)
    assert (long, big) == ([], [])


def test_every_layer_is_there() -> None:
    found = {layer(m) for m in modules(PACKAGE)}
    assert set(LAYERS) <= found


# -- the checks above can fail: the same functions on small packages written for the purpose


def _package(tmp_path: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    root = tmp_path / "wiezen_score"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_a_cycle_hidden_in_a_function_is_found(tmp_path: pathlib.Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "cli/__init__.py": "",
        "cli/a.py": "from .b import g\n",
        "cli/b.py": "def g():\n    from .a import f\n    return f\n",
        "cli/c.py": "from . import a\n",
    })
    assert cycles(import_graph(root)) == [["wiezen_score.cli.a", "wiezen_score.cli.b"]]


def test_a_type_checking_import_makes_no_cycle_but_counts_for_the_layers(tmp_path: pathlib.Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "views/__init__.py": "",
        "views/v.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..ledger.l import L\n",
        "ledger/__init__.py": "",
        "ledger/l.py": "from ..views import v\nL = 1\n",
    })
    assert cycles(import_graph(root)) == []
    assert layer_violations(import_graph(root, runtime_only=False)) == [
        "wiezen_score.views.v (views) imports wiezen_score.ledger.l (ledger)"]


@pytest.mark.parametrize("source, target", [
    ("core/x.py", "from ..views import y"),
    ("views/x.py", "def f():\n    from .. import ledger"),
    ("ledger/x.py", "import wiezen_score.cli.y"),
    ("ledger/x.py", "from ..service import y"),
    ("service/x.py", "def f():\n    from ..web import y"),
    ("service/x.py", "from ..cli.y import z"),
    ("web/x.py", "from ..cli import y"),
])
def test_an_import_against_the_layers_is_found(tmp_path: pathlib.Path, source: str, target: str) -> None:
    files = {"__init__.py": "", source: target + "\n"}
    for lay in LAYERS:
        files[f"{lay}/__init__.py"] = ""
        files.setdefault(f"{lay}/y.py", "")
    root = _package(tmp_path, files)
    assert len(layer_violations(import_graph(root, runtime_only=False))) == 1


def front_end_calls(root: pathlib.Path, layer_name: str) -> list[str]:
    """Where the modules of ``layer_name`` import click or call input() or print(): a front end's business."""
    found = []
    for name, path in sorted(modules(root).items()):
        if layer(name) != layer_name:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _imports(tree, runtime_only=False):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [f"{name} imports {n}" for n in names if n.split(".")[0] == "click"]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("input", "print"):
                found.append(f"{name} calls {node.func.id}()")
    return found


def test_the_service_neither_asks_nor_prints() -> None:
    assert front_end_calls(PACKAGE, "service") == []


def test_a_service_that_prints_is_found(tmp_path: pathlib.Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "service/__init__.py": "",
        "service/t.py": "import click\ndef f():\n    if input('sure? ') == 'y':\n        print('done')\n",
    })
    assert front_end_calls(root, "service") == [
        "wiezen_score.service.t imports click", "wiezen_score.service.t calls input()", "wiezen_score.service.t calls print()"]


def test_every_module_says_in_its_first_line_what_lives_there() -> None:
    missing = []
    for name, path in sorted(modules(PACKAGE).items()):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        lines = (doc or "").splitlines()
        # one line that stands alone: a sentence of its own, then nothing or a blank line
        if not lines or not lines[0].strip() or len(lines[0]) > 120 or (len(lines) > 1 and lines[1].strip()):
            missing.append(name)
    assert missing == []
