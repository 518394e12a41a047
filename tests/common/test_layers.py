"""The house of DESIGN.md, checked on the source: dependencies point down only.

``kernels`` imports nothing of ``analyser`` or ``reports``; ``analyser`` imports ``reports``
only inside the roofs (the CLI, ``analyser/cli``, and the server, ``analyser/serve``); the
root package (``src/oddsbot``:
version, errors, input reading) imports no layer; and no two packages import each other,
directly or around a longer loop. Every ``import`` and ``from ... import`` statement
counts, also those inside functions (a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = {"oddsbot": ROOT / "src" / "oddsbot", "oddsbot.kernels": ROOT / "kernels",
           "oddsbot.analyser": ROOT / "analyser", "oddsbot.reports": ROOT / "reports"}


def modules() -> dict[str, Path]:
    """Every module of the installed names: dotted name -> source file."""
    found = {}
    for prefix, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("").parts
            if rel[-1] == "__init__":
                rel = rel[:-1]
            found[".".join((prefix, *rel))] = path
    return found


def imports(name: str, path: Path) -> set[str]:
    """The oddsbot modules (or packages) that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.add(target)
            out |= {f"{target}.{a.name}" for a in node.names}  # a submodule, maybe
    return {m for m in out if m == "oddsbot" or m.startswith("oddsbot.")}


def package_of(module: str, known: dict[str, Path]) -> str:
    """The package a module belongs to (a package is its own); the CLI is a package of
    its own, the roof."""
    if module in known and known[module].name == "__init__.py":
        return module
    return module.rpartition(".")[0] if module in known else package_of(
        module.rpartition(".")[0], known)


def graph() -> dict[str, set[str]]:
    """Module -> the existing oddsbot modules it imports."""
    known = modules()
    return {name: {m for m in imports(name, path) if m in known} for name, path in known.items()}


def layer(module: str) -> str:
    if module.startswith(("oddsbot.analyser.cli", "oddsbot.analyser.serve")):
        return "cli"  # the roofs: the command and the server (oddsbot serve)
    for name in ("kernels", "analyser", "reports"):
        if module.startswith(f"oddsbot.{name}"):
            return name
    return "root"


ALLOWED = {"root": {"root"}, "kernels": {"root", "kernels"},
           "analyser": {"root", "kernels", "analyser"},
           "reports": {"root", "kernels", "analyser", "reports"},
           "cli": {"root", "kernels", "analyser", "reports", "cli"}}


def test_the_walk_sees_the_layers():
    g = graph()
    assert len(g) > 60
    assert "oddsbot.reports.batch" in g["oddsbot.analyser.cli.reports"]  # a lazy import
    assert "oddsbot.errors" in g["oddsbot.analyser.registry"]


def test_dependencies_point_down():
    wrong = sorted(f"{m} imports {t}" for m, targets in graph().items() for t in targets
                   if layer(t) not in ALLOWED[layer(m)])
    assert wrong == []


def test_no_cycle_between_packages():
    known = modules()
    edges: dict[str, set[str]] = {}
    for m, targets in graph().items():
        src = package_of(m, known)
        for t in targets:
            dst = package_of(t, known)
            if dst != src:
                edges.setdefault(src, set()).add(dst)
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(edges.get(node, ())):
            if nxt in path:
                cycles.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif len(path) < len(edges) + 1:
                visit(nxt, path + [nxt])

    for start in sorted(edges):
        visit(start, [start])
    assert cycles == []


@pytest.mark.parametrize("bad, expected", [
    ("oddsbot.kernels.rng", "kernels"), ("oddsbot.analyser.cli.common", "cli"),
    ("oddsbot.errors", "root"), ("oddsbot.reports.batch", "reports"),
])
def test_layer_names(bad, expected):
    assert layer(bad) == expected
