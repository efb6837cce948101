"""One agent file parsed once: its text, raw YAML data, line map and references.

Everything the checks need comes from here, so a file is read and parsed a single time
even when it is both checked and part of the account.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import CatalogError, Problem
from ..graph import VarRef, YamlPath, variable_refs
from ..loader import MAX_AGENT_FILE_BYTES
from ..yaml_lines import LineMap, YamlProblem, line_of, load_with_lines


class InputError(CatalogError):
    """Bad usage or unreadable input: the command exits 2 with this one-line message."""


@dataclass
class SourceFile:
    """A file to check. ``problem`` is set when it could not be parsed as YAML."""

    name: str
    text: str
    data: Any = None
    lines: LineMap = field(default_factory=dict)
    problem: Problem | None = None

    @cached_property
    def _line_starts(self) -> list[int]:
        return [0, *(match.end() for match in re.finditer("\n", self.text))]

    @cached_property
    def refs(self) -> list[VarRef]:
        """Every conversation-variable read and write (empty when the YAML is bad)."""
        return variable_refs(self.data) if isinstance(self.data, dict) else []

    @property
    def agent_name(self) -> str | None:
        name = self.data.get("name") if isinstance(self.data, dict) else None
        return name if isinstance(name, str) else None

    def locate(
        self, where: YamlPath, needle: str | None = None, occurrence: int = 0
    ) -> tuple[int, int]:
        """Line and column of the value at ``where``; of ``needle`` inside it when given."""
        line, column = line_of(self.lines, where)
        if needle is None:
            return line, column
        starts = self._line_starts
        offset = starts[line - 1] + column - 1 if line - 1 < len(starts) else 0
        for _ in range(occurrence + 1):
            found = self.text.find(needle, offset)
            if found < 0:
                return line, column
            offset = found + 1
        found = offset - 1
        found_line = bisect.bisect_right(starts, found)
        return found_line, found - starts[found_line - 1] + 1


def load_yaml(text: str) -> tuple[Any, LineMap]:
    """Parse once, bounded (see ``yaml_lines``)."""
    return load_with_lines(text)


def parse_source(text: str, name: str) -> SourceFile:
    """Parse an agent file's text; a YAML error is kept as the file's problem."""
    try:
        data, lines = load_yaml(text)
    except YamlProblem as exc:
        message = f"not valid YAML: {exc.message}"
        return SourceFile(name, text, problem=Problem(name, exc.line, exc.column, message))
    return SourceFile(name, text, data, lines)


def read_source(path: Path, name: str | None = None) -> SourceFile:
    """Read and parse one file; InputError when it cannot be read at all."""
    display = name or str(path)
    try:
        raw = path.read_bytes() if path.stat().st_size <= MAX_AGENT_FILE_BYTES else None
    except OSError as exc:
        raise InputError(f"cannot read {display}: {exc.strerror or exc}") from exc
    if raw is None:
        message = f"file is over {MAX_AGENT_FILE_BYTES} bytes"
        return SourceFile(display, "", problem=Problem(display, 1, 1, message))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        problem = Problem(display, line, 1, "file is not UTF-8 text")
        return SourceFile(display, "", problem=problem)
    return parse_source(text, display)
