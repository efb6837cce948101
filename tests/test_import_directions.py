"""The product's imports run one way: what must not come back, checked from the source.

Every ``import`` in a module counts, at module level or inside a function (a deferred import
is still a dependency): the product (``mock_account``, ``agents_catalog``) imports neither the
load tests nor the demo; the follow-up writer does not reach the build-time generator; the
``mock-account`` command modules import each other without a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("mock_account", "agents_catalog")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules(*packages: str) -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in packages
        for path in sorted((ROOT / package).rglob("*.py"))
    }


MODULES = _modules(*PRODUCT, "loadtests", "demo_app")


def _imports(name: str, path: Path) -> Iterator[str]:
    """The modules ``name`` imports, anywhere in it, as absolute dotted names; ``from p import
    x`` counts as ``p.x`` when that is a module of the project, else as ``p``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                origin = ".".join([*base, *([node.module] if node.module else [])])
            else:
                origin = node.module or ""
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                yield submodule if submodule in MODULES else origin


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {name: set(_imports(name, path)) for name, path in modules.items()}


GRAPH = _graph(MODULES)


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("forbidden", ["loadtests", "demo_app"])
def test_the_product_imports_neither_the_load_tests_nor_the_demo(forbidden: str) -> None:
    found = {
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if any(_under(name, package) for package in PRODUCT)
        for target in targets
        if _under(target, forbidden)
    }
    assert found == set()


def _reachable(start: str) -> set[str]:
    """Every project module ``start`` leads to, through imports of any depth."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        for target in GRAPH.get(name, ()):
            # Importing ``a.b.c`` runs ``a`` and ``a.b`` first.
            parts = target.split(".")
            for depth in range(1, len(parts) + 1):
                step = ".".join(parts[:depth])
                if step in MODULES and step not in seen:
                    seen.add(step)
                    todo.append(step)
    return seen


def test_the_follow_up_writer_does_not_reach_the_generator() -> None:
    reached = _reachable("mock_account.conversations.followups")
    assert "agents_catalog.capabilities" in reached  # the scan sees the writer's own imports
    assert "agents_catalog.generator" not in reached


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (as the path that closes it), or None."""
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> list[str] | None:
        state[node] = "open"
        for target in sorted(graph.get(node, ())):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target, [*path, target])):
                return found
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node, [node])):
            return found
    return None


def test_the_command_line_modules_have_no_cycle() -> None:
    cli = {
        name: {target for target in targets if _under(target, "mock_account.cli")} - {name}
        for name, targets in GRAPH.items()
        if _under(name, "mock_account.cli")
    }
    assert "mock_account.cli.options" in cli["mock_account.cli.commands"]
    assert _cycle(cli) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None
