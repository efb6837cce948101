"""The hand-off graph: which agents write and which read each conversation variable.

An agent **writes** ``conv.X`` with a ``var`` command whose name is ``conv.X`` or a
sub-path ``conv.X.field``. It **reads** ``conv.X`` wherever a path ``conv.X...`` is used:
in a template anywhere in its commands (``{conv.trip.destination}``, including ``var``
values), in an ``if`` condition (``exists``, ``missing``, ``left``) and in a ``for`` ``each``.
The details of a request (``{sys.details}``, ``{sys.noted}``) carry over those of the request
before it, kept in ``conv.request``: an agent that uses them reads ``conv.request``.

    graph = build_handoff_graph(load_account("agents_catalog/account"))
    graph.writers("trip")                 # ['BookBusinessTrip', ...]   (sorted agent names)
    graph.readers("trip")                 # ['FileTravelExpense', ...]
    graph.edges()                         # [('BookBusinessTrip', 'trip', 'FileTravelExpense'), ...]
    graph.agents["BookBusinessTrip"].writes   # frozenset({'trip'})
    graph.to_dict(), graph.to_dot()       # for JSON output and Graphviz

Variables are named without the ``conv.`` prefix (``"trip"``); the query methods accept
either spelling. ``variable_refs`` gives every located read and write of one agent's raw
YAML data; the conformance checker builds on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel

from .agent_format import TEMPLATE_PATH_RE

YamlPath = tuple[str | int, ...]
Access = Literal["read", "write"]

_BARE_PATH_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*")
# Condition / loop fields that hold a path rather than a template.
_PATH_FIELDS = {"if": ("exists", "missing", "left"), "for": ("each",)}
_NESTED_BLOCKS = {"if": ("then", "else"), "for": ("do",)}


@dataclass(frozen=True)
class VarRef:
    """One read or write of a conversation variable, located in the agent's YAML data.

    ``where`` is the YAML path of the string holding the reference; ``occurrence`` is,
    for a ``{placeholder}`` inside a template, which occurrence of that exact placeholder
    in the string it is (0-based), and -1 when the whole value is the path.
    """

    access: Access
    path: str
    where: YamlPath
    occurrence: int = -1
    # The placeholder as written, when it reads the variable through another path
    # (``{sys.details}`` reads ``conv.request.details``).
    written: str | None = None

    @property
    def variable(self) -> str:
        return self.path.split(".")[1]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(self.path.split(".")[2:])

    @property
    def placeholder(self) -> str | None:
        """The text to look for in the file (``{conv.x}``), or None for a whole value."""
        return None if self.occurrence < 0 else "{" + (self.written or self.path) + "}"


# Template paths that read a conversation variable through the engine.
IMPLICIT_READS = {"sys.details": "conv.request.details", "sys.noted": "conv.request.details"}
# Variables that carry the conversation's context from one request to the next rather than a
# record from one agent to another: every agent keeps and reads them, so they are no hand-off
# (no edge of the graph, no suggested follow-up), though the checker counts their reads.
CONTEXT_VARIABLES = frozenset(path.split(".")[1] for path in IMPLICIT_READS.values())


def _is_conv_path(path: str) -> bool:
    parts = path.split(".")
    return len(parts) >= 2 and parts[0] == "conv" and bool(parts[1])


def _bare_conv_path(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = value.strip()
    return text if _BARE_PATH_RE.fullmatch(text) and _is_conv_path(text) else None


def _scan_templates(value: Any, where: YamlPath, out: list[VarRef]) -> None:
    if isinstance(value, str):
        seen: dict[str, int] = {}
        for match in TEMPLATE_PATH_RE.finditer(value):
            path = match.group(1)
            occurrence = seen.get(path, 0)
            seen[path] = occurrence + 1
            if _is_conv_path(path):
                out.append(VarRef("read", path, where, occurrence))
            elif path in IMPLICIT_READS:
                out.append(VarRef("read", IMPLICIT_READS[path], where, occurrence, path))
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _scan_templates(item, (*where, key), out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _scan_templates(item, (*where, index), out)


def iter_raw_commands(data: Any) -> Iterator[tuple[str, Any, YamlPath]]:
    """Every ``(kind, args, where)`` of raw agent data, depth first, through if/for bodies.

    Tolerates malformed data (skips what is not a one-key command mapping), so it can be
    used on a file that failed validation. ``where`` is the YAML path of ``args``.
    """
    if not isinstance(data, Mapping):
        return
    blocks: list[tuple[YamlPath, Any]] = [(("main",), data.get("main"))]
    functions = data.get("functions")
    if isinstance(functions, Mapping):
        blocks.extend((("functions", name), body) for name, body in functions.items())
    for where, body in blocks:
        yield from _iter_block(body, where)


def _iter_block(body: Any, where: YamlPath) -> Iterator[tuple[str, Any, YamlPath]]:
    if not isinstance(body, list):
        return
    for index, command in enumerate(body):
        if not isinstance(command, Mapping) or len(command) != 1:
            continue
        kind, args = next(iter(command.items()))
        here = (*where, index, kind)
        yield str(kind), args, here
        if isinstance(args, Mapping):
            for block in _NESTED_BLOCKS.get(str(kind), ()):
                yield from _iter_block(args.get(block), (*here, block))


def _raw(agent: Mapping[str, Any] | BaseModel) -> Mapping[str, Any]:
    if isinstance(agent, BaseModel):
        return agent.model_dump(by_alias=True, exclude_none=True)
    return agent


def variable_refs(agent: Mapping[str, Any] | BaseModel) -> list[VarRef]:
    """Every read and write of a ``conv.*`` variable in one agent (raw data or model)."""
    out: list[VarRef] = []
    for kind, args, where in iter_raw_commands(_raw(agent)):
        if not isinstance(args, Mapping):
            _scan_templates(args, where, out)
            continue
        path_fields = _PATH_FIELDS.get(kind, ())
        nested = _NESTED_BLOCKS.get(kind, ())
        for key, value in args.items():
            if key in nested:
                continue  # visited as commands of their own
            here = (*where, key)
            if kind == "var" and key == "name":
                if isinstance(value, str) and _is_conv_path(value):
                    out.append(VarRef("write", value, here))
            elif kind == "if" and key == "when" and isinstance(value, Mapping):
                for field, item in value.items():
                    path = _bare_conv_path(item) if field in path_fields else None
                    if path:
                        out.append(VarRef("read", path, (*here, field)))
                    else:
                        _scan_templates(item, (*here, field), out)
            elif key in path_fields and (path := _bare_conv_path(value)):
                out.append(VarRef("read", path, here))
            else:
                _scan_templates(value, here, out)
    return out


@dataclass(frozen=True)
class AgentIO:
    """The conversation variables one agent reads and writes (names without ``conv.``), and
    those it writes whole (``replaces``: a new one in place of the saved one, where a write
    of some fields only adds to the saved one)."""

    name: str
    reads: frozenset[str]
    writes: frozenset[str]
    replaces: frozenset[str] = frozenset()


def agent_io(agent: Mapping[str, Any] | BaseModel, name: str | None = None) -> AgentIO:
    """Reads and writes of one agent; ``name`` defaults to the agent's own ``name``."""
    raw = _raw(agent)
    refs = [r for r in variable_refs(raw) if r.variable not in CONTEXT_VARIABLES]
    agent_name = name or str(raw.get("name", "?"))
    return AgentIO(
        agent_name,
        frozenset(r.variable for r in refs if r.access == "read"),
        frozenset(r.variable for r in refs if r.access == "write"),
        frozenset(r.variable for r in refs if r.access == "write" and not r.fields),
    )


def _bare(variable: str) -> str:
    return variable[5:] if variable.startswith("conv.") else variable


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class HandoffGraph:
    """Agents and the conversation variables they hand to each other."""

    agents: Mapping[str, AgentIO]

    def variables(self) -> list[str]:
        """Every variable some agent reads or writes, sorted."""
        found: set[str] = set()
        for io in self.agents.values():
            found |= io.reads | io.writes
        return sorted(found)

    def writers(self, variable: str) -> list[str]:
        name = _bare(variable)
        return sorted(a.name for a in self.agents.values() if name in a.writes)

    def readers(self, variable: str) -> list[str]:
        name = _bare(variable)
        return sorted(a.name for a in self.agents.values() if name in a.reads)

    def edges(self) -> list[tuple[str, str, str]]:
        """``(writer agent, variable, reader agent)`` for every hand-off, sorted."""
        return [
            (writer, variable, reader)
            for variable in self.variables()
            for writer in self.writers(variable)
            for reader in self.readers(variable)
            if writer != reader
        ]

    def to_dict(self, variables: Iterable[str] = ()) -> dict[str, Any]:
        """A JSON-ready view; ``variables`` (e.g. the scheme's) are listed even when unused."""
        names = sorted({*self.variables(), *(_bare(v) for v in variables)})
        return {
            "variables": {
                v: {"writers": self.writers(v), "readers": self.readers(v)} for v in names
            },
            "agents": {
                name: {"reads": sorted(io.reads), "writes": sorted(io.writes)}
                for name, io in sorted(self.agents.items())
            },
            "edges": [list(edge) for edge in self.edges()],
        }

    def to_dot(self, variables: Iterable[str] = ()) -> str:
        """Graphviz: agent boxes, variable ellipses, writer -> variable -> reader."""
        names = sorted({*self.variables(), *(_bare(v) for v in variables)})
        lines = ["digraph handoffs {", "  rankdir=LR;", "  node [shape=box];"]
        for variable in names:
            lines.append(f"  {_dot_id('conv.' + variable)} [shape=ellipse];")
        for variable in names:
            for writer in self.writers(variable):
                lines.append(f"  {_dot_id(writer)} -> {_dot_id('conv.' + variable)};")
            for reader in self.readers(variable):
                lines.append(f"  {_dot_id('conv.' + variable)} -> {_dot_id(reader)};")
        lines.append("}")
        return "\n".join(lines) + "\n"


def build_handoff_graph(agents: Iterable[Mapping[str, Any] | BaseModel]) -> HandoffGraph:
    """The hand-off graph of agents (AgentDefinition models or raw YAML mappings).

    Two agents with the same name are merged (their reads and writes united).
    """
    by_name: dict[str, AgentIO] = {}
    for agent in agents:
        io = agent_io(agent)
        known = by_name.get(io.name)
        if known:
            io = AgentIO(
                io.name,
                known.reads | io.reads,
                known.writes | io.writes,
                known.replaces | io.replaces,
            )
        by_name[io.name] = io
    return HandoffGraph(by_name)
