"""Hostile agent files and templates: only the documented errors, never code execution.

``parse_agent_text`` may only return an agent or raise ``AgentFileError``; ``check_text`` may
only return a report (an unreadable file is a finding); template rendering may only return a
value or raise ``TemplateError``. Every example has a 2 s deadline; the alias bomb runs under
a thread guard. Each test prints the figure it proves (``HOSTILE ...``).
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_env import build_app, deployment_in, signed_in, token_of
from hostile_strategies import (
    VALID_AGENT,
    agent_documents,
    dump,
    json_values,
    roots,
    templates,
    yamlish_text,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents_catalog.checker import FORMATS, CompiledScheme, Report, check_text, render
from agents_catalog.errors import AgentFileError
from agents_catalog.loader import parse_agent_text
from agents_catalog.scheme import load_scheme
from mock_account.engine.templates import TemplateError, lookup, render_text, render_value

FUZZ = settings(
    deadline=2000,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
SCHEME = CompiledScheme(load_scheme())
#: How long a hostile document may keep the parser busy before the guard calls it a hang.
GUARD_S = 2.0


def parse_outcome(text: str) -> str:
    """``valid`` or ``refused``; any other exception propagates and fails the test."""
    try:
        parse_agent_text(text, "hostile.yaml")
    except AgentFileError as exc:
        assert exc.problems, "an AgentFileError names at least one problem"
        assert "Traceback" not in str(exc)
        return "refused"
    return "valid"


def check_outcome(text: str) -> str:
    report = check_text(text, "hostile.yaml", scheme=SCHEME)
    assert isinstance(report, Report)
    for name in FORMATS:
        assert isinstance(render(report, name), str)
    return "findings" if report.findings else "clean"


def run_guarded(work: Callable[[], Any], limit_s: float = GUARD_S) -> tuple[Any, float]:
    """``work()`` in a daemon thread; fails when it has not finished within ``limit_s``."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:  # handed to the test thread below
            outcome["error"] = exc

    started = time.perf_counter()
    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    worker.join(limit_s)
    elapsed = time.perf_counter() - started
    assert not worker.is_alive(), f"still running after {limit_s:g} s: a hang"
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value"), elapsed


# --- parse_agent_text ---------------------------------------------------------------------


def test_random_yamlish_text_is_an_agent_or_an_agent_file_error() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=300)
    @given(text=yamlish_text)
    def run(text: str) -> None:
        seen[parse_outcome(text)] += 1

    run()
    print(
        f"\nHOSTILE parse_agent_text yaml-ish text: {sum(seen.values())} examples "
        f"{dict(seen)}, 0 other exceptions"
    )
    assert seen["refused"] > 0


def test_random_structures_dumped_to_yaml_are_validated_not_crashed() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=250)
    @given(document=agent_documents())
    def run(document: dict[str, Any]) -> None:
        seen[parse_outcome(dump(document))] += 1

    run()
    print(
        f"\nHOSTILE parse_agent_text random structures: {sum(seen.values())} examples "
        f"{dict(seen)}, 0 other exceptions"
    )
    assert seen["refused"] > 0 and seen["valid"] > 0


def test_arbitrary_unicode_text_is_handled() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=200)
    @given(text=st.text(max_size=200))
    def run(text: str) -> None:
        seen[parse_outcome(text)] += 1

    run()
    print(f"\nHOSTILE parse_agent_text unicode text: {sum(seen.values())} examples {dict(seen)}")
    assert seen["refused"] > 0


def _alias_bomb(levels: int = 9, width: int = 10) -> str:
    """The "billion laughs": each level refers to the previous one ``width`` times."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, levels):
        refs = ", ".join([f"*a{level - 1}"] * width)
        lines.append(f"a{level}: &a{level} [{refs}]")
    return "\n".join(lines) + "\n"


HOSTILE_DOCUMENTS = {
    "alias bomb (10^9 leaves)": _alias_bomb(),
    "alias bomb under main": "name: Bomb\nmain:\n  - output: "
    + _alias_bomb().replace("\n", " ").replace("a0: ", "{a0: ", 1).replace(" a", ", a").rstrip()
    + "}\n",
    "self-referencing alias": "name: &n [*n]\nmain: &m {x: *m}\n",
    "10k-deep flow nesting": "main: " + "[" * 10_000 + "]" * 10_000 + "\n",
    "10k-deep block nesting": "".join("  " * i + f"k{i}:\n" for i in range(2_000)),
    "5 MB scalar": "name: BookTrip\ndescription: " + "x" * 5_000_000 + "\n",
    "100k list items": "examples: [" + ", ".join(["e"] * 100_000) + "]\n",
    "impossible date": "name: 2001-02-30\n",
    "integer over the digit limit": "version: " + "9" * 5000 + "\n",
    "an integer's tag on nothing": "!!int",
    "a float's tag on nothing": "version: !!float\n",
    "many documents": "---\nname: a\n---\nname: b\n",
}


@pytest.mark.parametrize("name", list(HOSTILE_DOCUMENTS))
def test_bombs_and_giants_are_refused_within_the_guard(name: str) -> None:
    text = HOSTILE_DOCUMENTS[name]
    outcome, parse_s = run_guarded(lambda: parse_outcome(text), limit_s=GUARD_S * 5)
    finding, check_s = run_guarded(lambda: check_outcome(text), limit_s=GUARD_S * 5)
    print(
        f"\nHOSTILE {name}: parse {outcome} in {parse_s:.2f} s, check {finding} in {check_s:.2f} s"
    )
    assert outcome == "refused"
    assert finding == "findings"


def test_the_alias_bomb_finishes_under_the_two_second_guard() -> None:
    outcome, elapsed = run_guarded(lambda: parse_outcome(_alias_bomb()), limit_s=GUARD_S)
    print(f"\nHOSTILE alias bomb: {outcome} in {elapsed:.2f} s (guard {GUARD_S:g} s)")
    assert outcome == "refused"


PYTHON_TAGS = [
    "!!python/object/apply:os.system [{cmd}]",
    "!!python/object/apply:subprocess.check_output [[sh, -c, {cmd}]]",
    "!!python/object/new:subprocess.Popen [[sh, -c, {cmd}]]",
    "!!python/object:__main__.Anything {{x: 1}}",
    "!!python/name:os.system",
    "!!python/module:os",
    "!python/object/apply:os.system [{cmd}]",
    "!<tag:yaml.org,2002:python/object/apply:os.system> [{cmd}]",
]


@pytest.mark.parametrize("tag", PYTHON_TAGS)
def test_python_tags_are_refused_and_never_run(tag: str, tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    payload = tag.format(cmd=json.dumps(f"touch {marker}"))
    documents = [
        f"name: {payload}\n",
        dump(VALID_AGENT) + f"version: {payload}\n",
        dump({**VALID_AGENT, "main": []}).replace("main: []", f"main:\n  - output: {payload}"),
        payload + "\n",
    ]
    outcomes = [parse_outcome(text) for text in documents]
    checks = [check_outcome(text) for text in documents]
    print(
        f"\nHOSTILE python tag {tag.split()[0]}: {len(documents)} documents "
        f"{Counter(outcomes)}, checker {Counter(checks)}, executed: {marker.exists()}"
    )
    assert outcomes == ["refused"] * len(documents)
    assert checks == ["findings"] * len(documents)
    assert not marker.exists()


# --- check_text ---------------------------------------------------------------------------


def test_the_checker_reports_findings_for_any_text() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=150)
    @given(text=yamlish_text | agent_documents().map(dump))
    def run(text: str) -> None:
        seen[check_outcome(text)] += 1

    run()
    print(
        f"\nHOSTILE check_text: {sum(seen.values())} examples {dict(seen)} "
        f"(rendered in {len(FORMATS)} formats), 0 exceptions"
    )
    assert seen["findings"] > 0


# --- templates ----------------------------------------------------------------------------


def resolver(root: dict[str, Any]) -> Callable[[str], Any]:
    return lambda path: lookup(root, path)


def test_random_templates_render_to_text_or_a_template_error() -> None:
    seen: Counter[str] = Counter()

    @settings(FUZZ, max_examples=400)
    @given(template=templates, root=roots)
    def run(template: str, root: dict[str, Any]) -> None:
        try:
            first = render_text(template, resolver(root))
        except TemplateError:
            seen["TemplateError"] += 1
            return
        assert isinstance(first, str)
        assert render_text(template, resolver(root)) == first  # deterministic
        if "{" not in template and "}" not in template:
            assert first == template  # nothing to substitute: unchanged
        seen["rendered"] += 1

    run()
    print(f"\nHOSTILE render_text: {sum(seen.values())} examples {dict(seen)}, 0 other exceptions")
    assert seen["rendered"] > 0


def test_random_nested_values_render_or_raise_a_template_error() -> None:
    seen: Counter[str] = Counter()
    values = st.recursive(
        templates | json_values(4),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=40,
    )

    @settings(FUZZ, max_examples=300)
    @given(value=values, root=roots)
    def run(value: Any, root: dict[str, Any]) -> None:
        try:
            render_value(value, resolver(root))
        except TemplateError:
            seen["TemplateError"] += 1
            return
        seen["rendered"] += 1

    run()
    print(f"\nHOSTILE render_value: {sum(seen.values())} examples {dict(seen)}, 0 other exceptions")
    assert seen["rendered"] > 0


def _nested(levels: int) -> Any:
    value: Any = "bottom"
    for _ in range(levels):
        value = [value]
    return value


def test_hostile_values_in_templates_are_template_errors(tmp_path: Path) -> None:
    marker = tmp_path / "executed"
    deep = _nested(10_000)
    circular: list[Any] = []
    circular.append(circular)
    cases: dict[str, Callable[[], Any]] = {
        "10k-deep value inside text": lambda: render_text("x {a} y", lambda _: deep),
        "circular value inside text": lambda: render_text("x {a} y", lambda _: circular),
        "10k-deep value rendered": lambda: render_value(deep, lambda _: None),
        "output over the size limit": lambda: render_text("{a}" * 20, lambda _: "x" * 100_000),
    }
    refused = []
    for name, work in cases.items():
        with pytest.raises(TemplateError):
            run_guarded(work)
        refused.append(name)
    code = f"{{__import__('os').system('touch {marker}')}}"
    assert render_text(code, lambda _: "never") == code  # not a placeholder: kept as written
    assert render_text("{a.__class__.__mro__}", resolver({"a": {}})) == ""
    print(
        f"\nHOSTILE template values: {len(refused)} hostile cases refused with TemplateError, "
        f"code in braces kept as text, executed: {marker.exists()}"
    )
    assert not marker.exists()


# --- agents that build hostile values at run time -------------------------------------------

SELF_NESTING = {
    "NestForever": """
name: NestForever
title: Nest a variable in itself
tag: finance
description: Wrap a conversation variable in itself once per record, in two nested loops.
examples: ["nest the customers in themselves"]
main:
  - data: {source: customers, limit: 50, into: outer}
  - var: {name: conv.x, value: {v: start}}
  - for:
      each: outer
      as: a
      do:
        - for: {each: outer, as: b, do: [{var: {name: conv.x, value: {v: "{conv.x}"}}}]}
  - output: "{conv.x}"
  - end: {}
""",
    "NestLocal": """
name: NestLocal
title: Nest a local in itself
tag: finance
description: Wrap a local in itself four hundred times, then save it in a variable.
examples: ["nest the local in itself"]
main:
  - data: {source: customers, limit: 20, into: outer}
  - var: {name: x, value: {v: start}}
  - for:
      each: outer
      as: a
      do:
        - for: {each: outer, as: b, do: [{var: {name: x, value: {v: "{x}"}}}]}
  - var: {name: conv.y, value: "{x}"}
  - end: {}
""",
}


def test_an_agent_nesting_a_value_without_end_fails_cleanly(tmp_path: Path) -> None:
    with deployment_in(tmp_path, SELF_NESTING) as deployment:
        app = build_app(deployment)
        with signed_in(app, token_of(deployment, deployment.users.users[0])) as client:
            codes = {}
            for name in SELF_NESTING:
                reply = client.post(
                    "/api/exec/execAgent",
                    json={"agentName": name, "inputs": {"query": "nest the values in themselves"}},
                )
                assert reply.status_code == 200, reply.text
                codes[name] = reply.json()["resultCode"]
                assert reply.json()["convid"] is None
    print(f"\nHOSTILE self-nesting agents (2500 and 400 levels): result codes {codes}")
    assert codes == {"NestForever": "errorInAgent", "NestLocal": "errorInAgent"}
