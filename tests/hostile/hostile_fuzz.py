"""Drive every operation of the OpenAPI document with generated requests, in process.

``fuzz_operation`` runs one operation's generated cases (positive: valid per the schema;
negative: invalid on purpose) with a fixed seed, calls the ASGI app directly and records
every problem instead of stopping at the first, so one run reports all of them at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from hostile_env import refusal_problem
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance


@dataclass
class FuzzTally:
    """What a fuzzing run did: cases per operation, statuses seen, and every problem."""

    cases: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.cases.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


def _describe(case: Any) -> str:
    body = case.body if not isinstance(case.body, type(schemathesis.core.NOT_SET)) else None
    return f"{case.method} {case.path} body={str(body)[:200]!r}"


def fuzz_operation(
    operation: Any,
    mode: GenerationMode,
    examples: int,
    headers: dict[str, str],
    tally: FuzzTally,
    session: Any = None,
) -> None:
    """Run ``examples`` generated cases of ``operation`` and record what went wrong.

    ``session`` (``schemathesis.python.asgi.get_client(app)``) is reused across calls when
    given, instead of a new in-process client per call.
    """
    label = f"{operation.method.upper()} {operation.path}"
    checks = [not_a_server_error]
    if mode is GenerationMode.POSITIVE:
        checks.append(response_schema_conformance)

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: Any) -> None:
        response = case.call(headers=headers, session=session)
        tally.cases[label] += 1
        tally.statuses[response.status_code] += 1
        content_type = response.headers.get("content-type", [""])
        if isinstance(content_type, list):
            content_type = content_type[0] if content_type else ""
        problem = refusal_problem(response.status_code, response.text, content_type)
        if problem:
            tally.problems.append(f"{_describe(case)}: {problem}")
        try:
            case.validate_response(response, checks=checks)
        except AssertionError as exc:  # schemathesis' failures are assertion errors
            tally.problems.append(f"{_describe(case)}: {str(exc)[:500]}")

    run()
