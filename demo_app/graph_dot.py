"""Readable Graphviz views of the hand-off graph (the full graph has ~200 nodes).

Two views: departments -> variables -> departments (how many agents each way), and one
variable with its writer and reader agents grouped by department.
"""

from __future__ import annotations

from collections import Counter

from .catalog import Catalog


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def departments_dot(catalog: Catalog) -> str:
    """Department boxes around variable ellipses; edge labels count the agents."""
    lines = [
        "digraph departments {",
        "  rankdir=LR; node [fontname=Helvetica, fontsize=11];",
        '  node [shape=box, style=filled, fillcolor="#e8f0fe"];',
    ]
    for variable in catalog.graph.variables():
        lines.append(f'  {_q("conv." + variable)} [shape=ellipse, fillcolor="#fff4d6"];')
        writers = Counter(catalog.department(a) for a in catalog.graph.writers(variable))
        readers = Counter(catalog.department(a) for a in catalog.graph.readers(variable))
        for dept, count in sorted(writers.items()):
            lines.append(f'  {_q("w:" + dept)} -> {_q("conv." + variable)} [label="{count}"];')
        for dept, count in sorted(readers.items()):
            lines.append(f'  {_q("conv." + variable)} -> {_q("r:" + dept)} [label="{count}"];')
    for dept in catalog.departments():
        lines.append(f"  {_q('w:' + dept)} [label={_q(dept)}];")
        lines.append(f"  {_q('r:' + dept)} [label={_q(dept)}];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def variable_dot(catalog: Catalog, variable: str) -> str:
    """One variable: writer agents (left) -> conv.x -> reader agents (right), by department."""
    name = variable.removeprefix("conv.")
    center = _q("conv." + name)
    lines = [
        "digraph variable {",
        "  rankdir=LR; node [fontname=Helvetica, fontsize=11, shape=box, style=filled];",
        f'  {center} [shape=ellipse, fillcolor="#fff4d6"];',
    ]
    for role, agents, colour in (
        ("writes", catalog.graph.writers(name), "#e6f4ea"),
        ("reads", catalog.graph.readers(name), "#e8f0fe"),
    ):
        by_dept: dict[str, list[str]] = {}
        for agent in agents:
            by_dept.setdefault(catalog.department(agent), []).append(agent)
        for dept, members in sorted(by_dept.items()):
            cluster = _q(f"cluster_{role}_{dept}")
            lines.append(f"  subgraph {cluster} {{ label={_q(dept)}; style=rounded;")
            for agent in members:
                lines.append(
                    f'    {_q(role + ":" + agent)} [label={_q(agent)}, fillcolor="{colour}"];'
                )
            lines.append("  }")
            for agent in members:
                node = _q(role + ":" + agent)
                edge = f"{node} -> {center}" if role == "writes" else f"{center} -> {node}"
                lines.append(f"  {edge};")
    lines.append("}")
    return "\n".join(lines) + "\n"
