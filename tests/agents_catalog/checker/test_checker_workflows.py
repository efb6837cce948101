"""Workflow and action rules (NS021-NS026): each with a failing agent, its line, and its fix."""

from __future__ import annotations

from checker_samples import HEADER

from agents_catalog.checker import Report, select_rules

# The HEADER's six lines, then a workflow (stages from line 9), then main's commands.
WORKFLOW = """\
workflow:
  name: onboarding
  stages:
  - name: paperwork
    goals:
    - {collect: signed, type: bool}
    - {name: contract_ok, check: {value: CHECKED, op: isTrue}}
    next: NEXT
  - name: equipment
    goals:
    - {collect: laptop, type: choice, options: [mac, linux]}
"""


def make(checked: str = "signed", nxt: str = "equipment", commands: str = "") -> str:
    header = HEADER.removesuffix("main:\n")
    body = WORKFLOW.replace("CHECKED", checked).replace("NEXT", nxt)
    main = "main:\n  - prompt: {name: chat, user: '{sys.query}'}\n" + commands + "  - end: {}\n"
    return header + body + main


def found(report: Report) -> list[tuple[str, int]]:
    return [(f.rule_id, f.line) for f in report.findings]


def test_a_clean_workflow_agent(lint) -> None:
    clean = make(commands="  - workflow: {collect: {laptop: mac}, advance: true}\n")
    assert lint(clean).findings == ()


def test_a_transition_to_an_undeclared_stage(lint) -> None:
    report = lint(make(nxt="equipmnet"))
    assert found(report) == [("NS021", 13), ("NS023", 14)]
    first = report.findings[0]
    assert "'equipmnet', which is not a declared stage" in first.message
    assert first.suggestion == "equipment"


def test_a_goal_on_a_value_no_stage_collects(lint) -> None:
    report = lint(make(checked="contract_signed"))
    assert found(report) == [("NS022", 12)]
    assert "can never be met" in report.findings[0].message


def test_a_workflow_command_collecting_an_unknown_value(lint) -> None:
    report = lint(make(commands="  - workflow: {collect: {laptops: mac}}\n"))
    assert [(f.rule_id, f.line, f.suggestion) for f in report.findings] == [("NS022", 19, "laptop")]


def test_a_workflow_command_without_a_workflow(lint, agent) -> None:
    report = lint(agent("  - workflow: {collect: {laptop: mac}}\n  - end: {}\n"))
    assert found(report) == [("NS024", 7)]
    named = agent("  - workflow: {workflow: onboarding, collect: {laptop: mac}}\n  - end: {}\n")
    assert lint(named).findings == ()


def test_action_rules(lint, agent) -> None:
    incomplete = agent("  - action: {kind: email, payload: {to: a@b.example}}\n  - end: {}\n")
    report = lint(incomplete)
    assert found(report) == [("NS025", 7)]
    assert "needs subject, body" in report.findings[0].message
    unapproved = agent(
        "  - action: {kind: im, approval: false, payload: {to: u1, text: hi}}\n  - end: {}\n"
    )
    assert [(f.rule_id, f.severity.value) for f in lint(unapproved).findings] == [
        ("NS026", "warning")
    ]
    connector = agent(
        "  - action:\n      kind: connector\n      approval: false\n"
        "      payload: {connector: crm, operation: logCall}\n  - end: {}\n"
    )
    assert lint(connector).findings == ()


def test_a_malformed_workflow_is_an_invalid_file_not_a_crash(lint) -> None:
    text = make().replace("    next: equipment\n", "    next: [1, 2]\n")
    report = lint(text)
    assert {f.rule_id for f in report.findings} == {"NS011", "NS023"}


# --- NS027 standard-prompt-unused ---------------------------------------------------


def test_an_agent_with_only_its_own_prompt_is_a_finding(lint, agent) -> None:
    # Every rule but NS028: the samples' BookBusinessTrip keeps no trip (it has tests of its own).
    every_rule = select_rules(None, "NS028")
    own = agent(
        "  - prompt: {name: summary, scope: agent, user: '{sys.query}'}\n"
        "  - llm: {prompt: summary, reply: Done.}\n  - end: {}\n"
    )
    report = lint(own, every_rule)
    assert [(f.rule_id, f.line) for f in report.findings] == [("NS027", 1)]
    assert "talks through 'summary' only" in report.findings[0].message
    standard = agent(
        "  - prompt: {name: chat, scope: conversation, user: '{sys.query}'}\n"
        "  - llm: {prompt: chat, reply: Done.}\n  - end: {}\n"
    )
    assert lint(standard, every_rule).findings == ()
    # The standard name in another scope, or a near miss of it, is another rule's finding.
    wrong_scope = agent("  - prompt: {name: chat, scope: local, user: hi}\n  - end: {}\n")
    assert [f.rule_id for f in lint(wrong_scope, every_rule).findings] == ["NS002"]
    near = agent("  - prompt: {name: Chat, user: hi}\n  - end: {}\n")
    assert [f.rule_id for f in lint(near, every_rule).findings] == ["NS001"]
    no_prompt = agent("  - output: hello\n  - end: {}\n")
    assert lint(no_prompt, every_rule).findings == ()
