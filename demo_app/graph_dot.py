"""Readable views of the hand-off graph (the full graph has ~200 nodes).

Two views, each fitting one screen: the overview, one row per conversation variable with the
departments that write it and those that read it (how many agents each); and one variable as
a graph, its writers and readers grouped in one box per department.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .catalog import Catalog


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _by_department(catalog: Catalog, agents: list[str]) -> str:
    counts = Counter(catalog.department(a) for a in agents)
    return ", ".join(f"{dept} ({n})" for dept, n in sorted(counts.items(), key=lambda i: -i[1]))


def overview_rows(catalog: Catalog) -> list[dict[str, Any]]:
    """One row per conversation variable: who writes it and who reads it, by department."""
    rows = []
    for variable in catalog.graph.variables():
        writers, readers = catalog.graph.writers(variable), catalog.graph.readers(variable)
        rows.append(
            {
                "variable": f"conv.{variable}",
                "written in": _by_department(catalog, sorted(writers)),
                "read in": _by_department(catalog, sorted(readers)),
                "agents": len(set(writers) | set(readers)),
            }
        )
    return rows


def variable_dot(catalog: Catalog, variable: str) -> str:
    """One variable: writers (left) -> conv.x -> readers (right), one box per department
    listing its agents; edge labels count them."""
    name = variable.removeprefix("conv.")
    center = _q("conv." + name)
    lines = [
        "digraph variable {",
        "  rankdir=LR; nodesep=0.15; ranksep=0.6;",
        '  node [fontname=Helvetica, fontsize=11, shape=box, style="rounded,filled"];',
        f'  {center} [shape=ellipse, fillcolor="#fff4d6", fontsize=13];',
    ]
    for role, agents, colour in (
        ("writes", catalog.graph.writers(name), "#e6f4ea"),
        ("reads", catalog.graph.readers(name), "#e8f0fe"),
    ):
        by_dept: dict[str, list[str]] = {}
        for agent in sorted(agents):
            by_dept.setdefault(catalog.department(agent), []).append(agent)
        for dept, members in sorted(by_dept.items()):
            node = _q(f"{role}:{dept}")
            # \l ends a left-aligned line: the department, then its agents one a line.
            label = "\\l".join([dept.upper(), *members]) + "\\l"
            lines.append(f'  {node} [label="{label}", fillcolor="{colour}"];')
            edge = f"{node} -> {center}" if role == "writes" else f"{center} -> {node}"
            lines.append(f'  {edge} [label="{len(members)}"];')
    lines.append("}")
    return "\n".join(lines) + "\n"
