"""Errors of the agent catalog.

    CatalogError
    ├── SchemeError        the naming scheme file is missing or malformed
    └── AgentFileError     one agent file is unreadable or invalid (carries every problem)

Every error's ``str()`` is a readable message with the file (and line where known);
the CLIs print it and exit 2, never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One problem of a file, at a place."""

    file: str
    line: int
    column: int
    message: str
    path: str = ""

    def __str__(self) -> str:
        where = f" (at {self.path})" if self.path else ""
        return f"{self.file}:{self.line}:{self.column}: {self.message}{where}"


class CatalogError(Exception):
    """Base of the catalog's errors."""


class SchemeError(CatalogError):
    """The naming scheme cannot be used."""


class AgentFileError(CatalogError):
    """An agent file is unreadable or does not follow the agent format."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))
