"""Inline suppressions and rule selection."""

from __future__ import annotations

import pytest

from agents_catalog.checker import select_rules
from agents_catalog.checker.suppressions import parse_suppressions

BAD_READ = "  - output: '{conv.trips.id}'"


def rules_of(report) -> list[str]:
    return [f.rule_id for f in report.findings]


def test_comment_on_the_same_line(lint, agent) -> None:
    assert rules_of(lint(agent(BAD_READ + "\n"))) == ["NS003"]
    assert rules_of(lint(agent(BAD_READ + "  # agents-catalog: ignore[NS003]\n"))) == []


def test_comment_on_the_line_above(lint, agent) -> None:
    text = agent("  # agents-catalog: ignore[NS003]\n" + BAD_READ + "\n")
    assert rules_of(lint(text)) == []


def test_comment_two_lines_above_does_not_count(lint, agent) -> None:
    text = agent("  # agents-catalog: ignore[NS003]\n  - end: {}\n" + BAD_READ + "\n")
    assert rules_of(lint(text)) == ["NS003"]


def test_only_the_named_rule_is_silenced(lint, agent) -> None:
    text = agent(BAD_READ + "  # agents-catalog: ignore[NS005]\n")
    assert rules_of(lint(text)) == ["NS003"]


def test_several_rules_by_id_or_name(lint, agent) -> None:
    text = agent(
        "  # agents-catalog: ignore[unknown-variable, NS005]\n"
        "  - var: {name: conv.trip, value: {destination: '{conv.trips.x}'}}\n"
    )
    assert rules_of(lint(text)) == []


def test_a_hash_inside_a_value_is_not_a_comment() -> None:
    assert parse_suppressions("x: 'a#agents-catalog: ignore[NS003]'\n") == {}
    assert parse_suppressions("x: 1 # agents-catalog: ignore[NS003]\n") == {
        1: frozenset({"NS003"}),
        2: frozenset({"NS003"}),
    }


def test_select_and_ignore(lint, agent) -> None:
    text = agent(BAD_READ + "\n  - output: '{conv.trip.destinaton}'\n")
    assert rules_of(lint(text, rules=select_rules("NS003"))) == ["NS003"]
    assert rules_of(lint(text, rules=select_rules("NS003,NS004", "unknown-variable"))) == ["NS004"]
    assert rules_of(lint(text, rules=select_rules("NS00", "NS003,NS006"))) == ["NS004"]


@pytest.mark.parametrize("select, ignore", [("NS999", None), (None, "nonsense")])
def test_unknown_rule_in_a_selection(select, ignore) -> None:
    with pytest.raises(ValueError, match="unknown rule"):
        select_rules(select, ignore)
