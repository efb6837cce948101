"""Nothing outside a backend package touches a store's private attributes: the side stores,
the API and the tools reach a store through its public seam (``cursor()``, ``transaction()``,
``client``, ``lock``, ``side_table()``...), so a backend can change its insides freely."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
STORES = ROOT / "mock_account" / "stores"
BACKENDS = [path for path in STORES.iterdir() if (path / "__init__.py").exists()]
# Public API of named tuples (``urlsplit(url)._replace(...)``), whatever a store calls its own.
NAMED_TUPLE_API = {"_replace", "_asdict", "_fields", "_make"}


def _private_names_of_stores() -> set[str]:
    """The private attributes the stores set on themselves (``self._db = ...``)."""
    names: set[str] = set()
    for path in STORES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                names.add(node.attr)
    return names - NAMED_TUPLE_API


def _outside_reads(names: set[str]) -> list[str]:
    found = []
    for path in sorted((ROOT / "mock_account").rglob("*.py")):
        if any(path.is_relative_to(backend) for backend in BACKENDS):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in names
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    return found


def test_the_stores_have_private_attributes_to_protect() -> None:
    # The check below would pass vacuously if the stores kept nothing private.
    assert {"_lock"} <= _private_names_of_stores()


def test_no_module_outside_a_backend_touches_a_store_s_private_attributes() -> None:
    assert _outside_reads(_private_names_of_stores()) == []
