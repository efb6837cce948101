"""Fixtures of the checker tests: the scheme, agent texts and a lint helper."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from checker_samples import HEADER, LOCAL_RULES

from agents_catalog.checker import CompiledScheme, Report, check_sources
from agents_catalog.checker.source import parse_source
from agents_catalog.scheme import load_scheme

Lint = Callable[..., Report]


@pytest.fixture(scope="session")
def scheme() -> CompiledScheme:
    return CompiledScheme(load_scheme())


@pytest.fixture
def agent() -> Callable[[str], str]:
    """An agent text: the fixed header, then the given commands (first on line 7)."""

    def make(commands: str, header: str = HEADER) -> str:
        return header + commands

    return make


@pytest.fixture
def lint(scheme: CompiledScheme) -> Lint:
    """Check texts: ``lint(text)`` or ``lint({"a.yaml": text, ...}, rules=...)``."""

    def run(texts: str | dict[str, str], rules: frozenset[str] | None = LOCAL_RULES) -> Report:
        files = {"agent.yaml": texts} if isinstance(texts, str) else texts
        sources = [(name, parse_source(text, name)) for name, text in files.items()]
        return check_sources(sources, scheme, None, rules)

    return run
