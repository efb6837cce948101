"""Each rule: a minimal failing agent (rule id, line, column, suggestion) and its fix."""

from __future__ import annotations

import re

import pytest
from checker_samples import HEADER, HR_AGENT, VALID_AGENT

from agents_catalog.checker import RULES, Report, Severity, check_text, load_account_index


def only(report: Report, rule_id: str) -> list[tuple[int, int, str | None]]:
    return [(f.line, f.column, f.suggestion) for f in report.findings if f.rule_id == rule_id]


def test_the_example_agent_is_clean(lint) -> None:
    assert lint(VALID_AGENT).findings == ()


def test_every_rule_is_documented() -> None:
    ids = [rule.id for rule in RULES]
    assert ids == sorted(set(ids))
    for rule in RULES:
        assert rule.id.startswith("NS") and rule.name and rule.summary
        assert rule.checks and rule.why and rule.example and rule.fix
        assert rule.id in rule.doc() and "Example:" in rule.doc()


# --- NS001 unknown-prompt ------------------------------------------------------


@pytest.mark.parametrize("name", ["Chat", "chat_v2", "chats", "CHAT"])
def test_near_miss_of_the_standard_prompt(lint, agent, name: str) -> None:
    bad = agent(f"  - prompt: {{name: {name}, user: hi}}\n  - llm: {{prompt: {name}, reply: ok}}\n")
    assert only(lint(bad), "NS001") == [(7, 20, "chat")]
    fixed = agent("  - prompt: {name: chat, user: hi}\n  - llm: {prompt: chat, reply: ok}\n")
    assert lint(fixed).findings == ()


@pytest.mark.parametrize("scope", ["agent", "local"])
def test_near_miss_is_reported_whatever_the_scope(lint, agent, scope: str) -> None:
    bad = agent(f"  - prompt: {{name: Chats, scope: {scope}}}\n")
    assert only(lint(bad), "NS001") == [(7, 20, "chat")]


@pytest.mark.parametrize("name, scope", [("notes", "agent"), ("draft", "local")])
def test_own_agent_and_local_prompts_are_allowed(lint, agent, name: str, scope: str) -> None:
    text = agent(
        f"  - prompt: {{name: {name}, scope: {scope}, system: Take notes.}}\n"
        f"  - llm: {{prompt: {name}, reply: noted}}\n"
    )
    assert lint(text).findings == ()


def test_conversation_prompt_outside_the_scheme(lint, agent) -> None:
    report = lint(agent("  - prompt: {name: summary, user: hi}\n"))
    assert only(report, "NS001") == [(7, 20, None)]
    assert "conversation-scoped prompt 'summary'" in report.findings[0].message
    fixed = agent("  - prompt: {name: summary, scope: local, user: hi}\n")
    assert lint(fixed).findings == ()


def test_llm_using_an_undeclared_unknown_prompt(lint, agent) -> None:
    report = lint(agent("  - prompt: {name: chat}\n  - llm: {prompt: chta, reply: ok}\n"))
    assert only(report, "NS001") == [(8, 19, "chat")]
    assert lint(agent("  - llm: {prompt: chat, reply: ok}\n")).findings == ()


# --- NS002 prompt-scope --------------------------------------------------------


def test_standard_prompt_with_another_scope(lint, agent) -> None:
    report = lint(agent("  - prompt: {name: chat, scope: local}\n"))
    assert only(report, "NS002") == [(7, 33, "scope: conversation")]
    assert "scope local" in report.findings[0].message
    assert lint(agent("  - prompt: {name: chat, scope: conversation}\n")).findings == ()


def test_local_prompt_shadowing_the_standard_one(lint, agent) -> None:
    report = lint(agent("  - prompt: {name: chat}\n  - prompt: {name: chat, scope: agent}\n"))
    assert only(report, "NS002") == [(8, 33, "scope: conversation")]
    assert "shadows" in report.findings[0].message


# --- NS003 unknown-variable ----------------------------------------------------


def test_unknown_variable_written(lint, agent) -> None:
    report = lint(agent("  - var: {name: conv.trips, value: {destination: Rome}}\n"))
    assert only(report, "NS003") == [(7, 17, "conv.trip")]
    assert "'conv.trips' written" in report.findings[0].message
    fixed = agent(
        "  - var: {name: conv.trip, value: {destination: Rome, start_date: '2025-01-02',"
        " end_date: '2025-01-05'}}\n"
    )
    assert lint(fixed).findings == ()


def test_unknown_variable_in_a_template_points_at_the_placeholder(lint, agent) -> None:
    text = agent('  - llm: {prompt: chat, reply: "Off to {conv.trips.destination}!"}\n')
    # `{conv.trips...}` starts at column 40 of line 7.
    assert only(lint(text), "NS003") == [(7, 40, "conv.trip")]
    fixed = text.replace("conv.trips", "conv.trip")
    assert lint(fixed).findings == ()


def test_each_occurrence_of_a_placeholder_is_located(lint, agent) -> None:
    text = agent('  - output: "{conv.Trip.origin} and {conv.Trip.origin}"\n')
    assert only(lint(text), "NS003") == [(7, 14, "conv.trip"), (7, 37, "conv.trip")]


@pytest.mark.parametrize(
    "command, line, column",
    [
        ("  - if: {when: {exists: conv.employe}, then: []}\n", 7, 25),
        ("  - if: {when: {missing: conv.employe}}\n", 7, 26),
        ("  - if: {when: {left: '{conv.employe.name}', op: '==', right: x}}\n", 7, 24),
        ("  - for: {each: conv.employes, as: e, do: []}\n", 7, 17),
        ("  - var: {name: who, value: {id: '{conv.employe.id}'}}\n", 7, 35),
        ("  - output: {text: 'Hi {conv.employe.name}'}\n", 7, 24),
    ],
)
def test_unknown_variable_in_conditions_loops_and_values(
    lint, agent, command: str, line: int, column: int
) -> None:
    assert only(lint(agent(command)), "NS003") == [(line, column, "conv.employee")]
    fixed = agent(re.sub(r"employes?\b", "employee", command))
    assert only(lint(fixed), "NS003") == []


def test_no_suggestion_for_a_name_close_to_nothing(lint, agent) -> None:
    assert only(lint(agent("  - output: '{conv.weather}'\n")), "NS003") == [(7, 14, None)]


def test_variable_inside_a_function_and_a_nested_block(lint) -> None:
    text = HEADER + (
        "  - func: {name: helper}\n"
        "functions:\n"
        "  helper:\n"
        "    - for:\n"
        "        each: conv.trip.stops\n"
        "        as: stop\n"
        "        do:\n"
        "          - output: '{conv.orders.id}'\n"
    )
    assert only(lint(text), "NS003") == [(14, 22, "conv.order")]


# --- NS004 unknown-variable-field ----------------------------------------------


def test_misspelt_field_read(lint, agent) -> None:
    report = lint(agent("  - output: 'Flying to {conv.trip.destinaton}'\n"))
    assert only(report, "NS004") == [(7, 24, "conv.trip.destination")]
    assert report.findings[0].severity is Severity.WARNING
    assert lint(agent("  - output: 'Flying to {conv.trip.destination}'\n")).findings == ()


def test_field_of_a_plain_value(lint, agent) -> None:
    report = lint(agent("  - output: '{conv.trip.destination.city}'\n"))
    assert only(report, "NS004") == [(7, 14, None)]
    assert "holds a string" in report.findings[0].message


def test_extra_field_written(lint, agent) -> None:
    text = agent("  - var: {name: conv.employee, value: {id: '{r.id}', name: Ann, titel: CFO}}\n")
    assert only(lint(text), "NS004") == [(7, 72, "title")]
    assert lint(text.replace("titel", "title")).findings == ()


# --- NS005 variable-schema -----------------------------------------------------


def test_missing_required_field(lint, agent) -> None:
    text = agent("  - var:\n      name: conv.trip\n      value: {destination: '{record.city}'}\n")
    report = lint(text)
    assert [(f.rule_id, f.line, f.column) for f in report.findings] == [
        ("NS005", 9, 14),
        ("NS005", 9, 14),
    ]
    messages = sorted(f.message for f in report.findings)
    assert "at $: 'end_date' is a required property" in messages[0]
    assert "at $: 'start_date' is a required property" in messages[1]
    fixed = agent(
        "  - var:\n      name: conv.trip\n      value: {destination: '{record.city}',"
        " start_date: '{record.start}', end_date: '{record.end}'}\n"
    )
    assert lint(fixed).findings == ()


def test_bad_enum_and_type_give_the_json_path(lint, agent) -> None:
    text = agent(
        "  - var:\n"
        "      name: conv.order\n"
        "      value:\n"
        "        id: ORD-000001\n"
        "        status: shipping\n"
        "        quantity: two\n"
    )
    report = lint(text)
    assert [(f.rule_id, f.line, f.column) for f in report.findings] == [
        ("NS005", 11, 17),
        ("NS005", 12, 19),
    ]
    assert "at $.status: 'shipping' is not one of" in report.findings[0].message
    assert "at $.quantity: 'two' is not of type 'integer'" in report.findings[1].message
    fixed = text.replace("shipping", "shipped").replace("two", "2")
    assert lint(fixed).findings == ()


def test_a_whole_placeholder_has_unknown_type(lint, agent) -> None:
    text = agent(
        "  - var: {name: conv.order, value: {id: '{r.id}', status: '{r.status}',"
        " quantity: '{r.qty}', total: '{r.total}'}}\n"
    )
    assert lint(text).findings == ()


def test_text_around_a_placeholder_is_a_string(lint, agent) -> None:
    text = agent(
        "  - var: {name: conv.order, value: {id: '{r.id}', status: paid, total: '{r.total} EUR'}}\n"
    )
    report = lint(text)
    assert only(report, "NS005") == [(7, 72, None)]
    assert "$.total" in report.findings[0].message
    assert lint(text.replace(" EUR", "")).findings == ()


def test_literal_pattern_checked_but_not_a_templated_one(lint, agent) -> None:
    bad = agent("  - var: {name: conv.customer, value: {id: C-1, name: Acme}}\n")
    assert only(lint(bad), "NS005") == [(7, 44, None)]
    templated = agent("  - var: {name: conv.customer, value: {id: 'CUS-{r.n}', name: Acme}}\n")
    assert lint(templated).findings == ()


def test_sub_path_write_is_checked_against_the_sub_schema(lint, agent) -> None:
    bad = agent("  - var: {name: conv.trip.start_date, value: next week}\n")
    report = lint(bad)
    assert only(report, "NS005") == [(7, 46, None)]
    assert "value written to conv.trip.start_date" in report.findings[0].message
    assert (
        lint(agent("  - var: {name: conv.trip.start_date, value: '2025-03-01'}\n")).findings == ()
    )
    placeholder = agent("  - var: {name: conv.trip.cost, value: '{record.cost}'}\n")
    assert lint(placeholder).findings == ()


def test_unquoted_yaml_date_is_explained(lint, agent) -> None:
    report = lint(agent("  - var: {name: conv.trip.start_date, value: 2025-03-01}\n"))
    assert len(report.findings) == 1
    assert "read by YAML as a date" in report.findings[0].message


def test_null_value_clears_and_is_not_checked(lint, agent) -> None:
    assert lint(agent("  - var: {name: conv.trip, value: null}\n")).findings == ()


# --- NS006 / NS007 hand-offs -----------------------------------------------------


def test_read_that_nobody_writes(lint, agent) -> None:
    reader = agent(
        "  - if: {when: {exists: conv.campaign}, then: [{output: '{conv.campaign.name}'}]}\n"
    )
    report = lint({"reader.yaml": reader}, rules=None)
    assert [(f.rule_id, f.line, f.column, f.severity) for f in report.findings] == [
        ("NS006", 7, 25, Severity.WARNING)
    ]
    writer = HEADER.replace("BookBusinessTrip", "LaunchCampaign") + (
        "  - var: {name: conv.campaign, value: {name: Spring, channel: email}}\n"
    )
    assert lint({"reader.yaml": reader, "writer.yaml": writer}, rules=None).findings == ()


def test_write_that_nobody_reads(lint, agent) -> None:
    writer = agent("  - var: {name: conv.vendor, value: {id: VEN-0001, name: Acme}}\n")
    report = lint({"writer.yaml": writer}, rules=None)
    assert [(f.rule_id, f.line, f.severity) for f in report.findings] == [
        ("NS007", 7, Severity.INFO)
    ]
    reader = HEADER.replace("BookBusinessTrip", "PayVendor") + "  - output: '{conv.vendor.name}'\n"
    assert lint({"writer.yaml": writer, "reader.yaml": reader}, rules=None).findings == ()


def test_account_index_counts_the_account_folder(tmp_path, scheme) -> None:
    alone = check_text(VALID_AGENT, "trip.yaml", scheme)
    assert {f.rule_id for f in alone.findings} == {"NS006"}
    (tmp_path / "hr.yaml").write_text(HR_AGENT, encoding="utf-8")
    index = load_account_index(tmp_path)
    assert check_text(VALID_AGENT, "trip.yaml", scheme, index).findings == ()


# --- NS008 / NS009 / NS010 agent fields -------------------------------------------


@pytest.mark.parametrize(
    "name, suggestion",
    [("book-trip", "BookTrip"), ("1BookTrip", "BookTrip"), ("B", None), ("Book_", "Book")],
)
def test_agent_name(lint, name: str, suggestion: str | None) -> None:
    report = lint(HEADER.replace("BookBusinessTrip", name) + "  - end: {}\n")
    assert only(report, "NS008") == [(1, 7, suggestion)]
    assert [f.rule_id for f in report.findings] == ["NS008"]  # not also invalid-agent-file


def test_agent_name_too_long_and_not_text(lint) -> None:
    long_name = "Book" * 9
    report = lint(HEADER.replace("BookBusinessTrip", long_name) + "  - end: {}\n")
    assert only(report, "NS008") == [(1, 7, long_name[:32])]
    report = lint(HEADER.replace("BookBusinessTrip", "[1, 2]") + "  - end: {}\n")
    assert [(f.rule_id, f.line) for f in report.findings] == [("NS008", 1)]
    assert "must be text" in report.findings[0].message


def test_agent_name_fixed(lint) -> None:
    assert lint(HEADER + "  - end: {}\n").findings == ()


def test_agent_title(lint) -> None:
    title = "Book a business trip " * 5
    report = lint(HEADER.replace("Book a business trip", title.strip()) + "  - end: {}\n")
    assert only(report, "NS009") == [(2, 8, None)]
    assert "104 characters" in report.findings[0].message
    assert [f.rule_id for f in report.findings] == ["NS009"]
    empty = lint(HEADER.replace("Book a business trip", "''") + "  - end: {}\n")
    assert only(empty, "NS009") == [(2, 8, None)]


@pytest.mark.parametrize(
    "tag, suggestion",
    [
        ("Travel-Dept", "travel_dept"),
        ("customer_support_team", "customer_support"),
        ("travel__desk", "travel_desk"),
    ],
)
def test_agent_tag(lint, tag: str, suggestion: str) -> None:
    report = lint(HEADER.replace("tag: travel", f"tag: {tag}") + "  - end: {}\n")
    assert only(report, "NS010") == [(3, 6, suggestion)]
    assert [f.rule_id for f in report.findings] == ["NS010"]


# --- NS011 invalid-agent-file ----------------------------------------------------


def test_bad_yaml_is_a_finding_with_its_line(lint, agent) -> None:
    report = lint(agent("  - llm: {prompt: chat, reply: [unclosed}\n"))
    assert [(f.rule_id, f.line) for f in report.findings] == [("NS011", 7)]
    assert report.findings[0].message.startswith("not valid YAML")


def test_format_error_is_a_finding_at_the_command(lint, agent) -> None:
    report = lint(agent("  - end: {}\n  - llm: {prompt: chat}\n"))
    assert [(f.rule_id, f.line) for f in report.findings] == [("NS011", 8)]
    assert "missing required field 'reply'" in report.findings[0].message
    assert lint(agent("  - end: {}\n  - llm: {prompt: chat, reply: ok}\n")).findings == ()


def test_missing_name_is_a_format_error(lint) -> None:
    report = lint(HEADER.replace("name: BookBusinessTrip\n", "") + "  - end: {}\n")
    assert [f.rule_id for f in report.findings] == ["NS011"]
    assert "'name'" in report.findings[0].message


@pytest.mark.parametrize("text", ["", "- just\n- a list\n", "plain text\n", "a: 1\n---\nb: 2\n"])
def test_not_an_agent_mapping(lint, text: str) -> None:
    report = lint(text)
    assert report.findings and {f.rule_id for f in report.findings} == {"NS011"}


def test_naming_findings_still_come_with_format_errors(lint, agent) -> None:
    report = lint(agent("  - llm: {prompt: chat}\n  - output: '{conv.trips.id}'\n"))
    assert sorted(f.rule_id for f in report.findings) == ["NS003", "NS011"]


def test_self_referencing_yaml_does_not_hang(lint) -> None:
    report = lint("a: &x [*x]\n")
    assert [f.rule_id for f in report.findings] == ["NS011"]


# --- NS012 duplicate-agent-name ----------------------------------------------------


def test_duplicate_agent_names(lint) -> None:
    text = HEADER + "  - end: {}\n"
    report = lint({"a.yaml": text, "b.yaml": text})
    assert [(f.file, f.rule_id, f.line) for f in report.findings] == [
        ("a.yaml", "NS012", 1),
        ("b.yaml", "NS012", 1),
    ]
    assert "also used by b.yaml" in report.findings[0].message
    renamed = text.replace("BookBusinessTrip", "RebookTrip")
    assert lint({"a.yaml": text, "b.yaml": renamed}).findings == ()
