"""The violation injector: every injected violation is found with its rule id."""

from __future__ import annotations

import pytest

from agents_catalog.checker import check_sources
from agents_catalog.checker.source import parse_source
from agents_catalog.violations import KINDS, inject_violations

WRITER = """\
name: {name}
title: {title}
tag: {tag}
description: Looks something up for the user.
examples: [find it for me please]
version: 1.0.0
main:
- prompt:
    name: chat
    scope: conversation
    system: You help.
    user: '{{sys.query}}'
- data:
    source: orders
    match: '{{sys.query}}'
    into: record
    prompt: chat
- var:
    name: conv.order
    value:
      id: '{{record.id}}'
      status: '{{record.status}}'
- llm:
    prompt: chat
    reply: 'Order {{record.id}} is {{record.status}}.'
- output: '{{result}}'
- end: {{}}
"""

# No prompt, no var, no llm: the injector must still find a place for each kind.
BARE = """\
name: {name}
title: {title}
tag: {tag}
description: Says hello.
main:
- output: Hello
- end: {{}}
"""


@pytest.fixture
def files() -> dict[str, str]:
    texts = {}
    for index in range(12):
        template = WRITER if index % 2 else BARE
        name = f"Agent{index:02d}"
        texts[f"{name}.yaml"] = template.format(name=name, title=f"Agent {index}", tag="sales")
    return texts


def findings_by_file(texts: dict[str, str]) -> dict[str, set[str]]:
    sources = [(name, parse_source(text, name)) for name, text in sorted(texts.items())]
    report = check_sources(sources, rules=None)
    found: dict[str, set[str]] = {name: set() for name in texts}
    for finding in report.findings:
        found[finding.file].add(finding.rule_id)
    return found


def test_samples_are_clean(files: dict[str, str]) -> None:
    assert all(not rules - {"NS007"} for rules in findings_by_file(files).values())


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_every_kind_is_injected_and_found(files: dict[str, str], seed: int) -> None:
    out, injected = inject_violations(files, len(KINDS), seed)
    assert sorted(v.rule_id for v in injected) == sorted(KINDS)
    assert len({v.file for v in injected}) == len(KINDS)
    assert {name for name in files if out[name] != files[name]} == {v.file for v in injected}
    found = findings_by_file(out)
    for violation in injected:
        # hand-off rules depend on the rest of the account, not on the injected change
        assert found[violation.file] - {"NS006", "NS007"} == {violation.rule_id}, violation


def test_deterministic_for_a_seed(files: dict[str, str]) -> None:
    assert inject_violations(files, 4, seed=11) == inject_violations(files, 4, seed=11)
    runs = {tuple(v.file for v in inject_violations(files, 4, seed)[1]) for seed in range(6)}
    assert len(runs) > 1


def test_zero_changes_nothing(files: dict[str, str]) -> None:
    assert inject_violations(files, 0, seed=1) == (files, [])


def test_too_many_is_a_clear_error(files: dict[str, str]) -> None:
    with pytest.raises(ValueError, match=f"there are {len(KINDS)} kinds"):
        inject_violations(files, len(KINDS) + 1, seed=1)
    with pytest.raises(ValueError, match="into 2 files"):
        inject_violations(dict(list(files.items())[:2]), 3, seed=1)


def test_not_an_agent_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="a.yaml: not an agent file"):
        inject_violations({"a.yaml": "- a list\n"}, 1, seed=3)
