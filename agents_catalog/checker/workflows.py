"""Workflow and action checks: stages that are not declared, goals on values no stage collects,
stages nobody reaches, ``workflow`` commands without a workflow, and actions whose payload is
incomplete or that send a message without the user's approval.

Works on the raw data (a file with other format errors still gets these findings) and places
each finding on the line of the offending name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..graph import YamlPath, iter_raw_commands
from ..workflow_format import NAME_RE
from .context import FileCheck
from .suggest import did_you_mean

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "email": ("to", "subject", "body"),
    "im": ("to", "text"),
    "connector": ("connector", "operation"),
}
MESSAGES = ("email", "im")
_NAME = re.compile(NAME_RE)


def _stages(workflow: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    stages = workflow.get("stages")
    if not isinstance(stages, list):
        return []
    return [(i, s) for i, s in enumerate(stages) if isinstance(s, Mapping)]


def _goals(stage: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    goals = stage.get("goals")
    if not isinstance(goals, list):
        return []
    return [(i, g) for i, g in enumerate(goals) if isinstance(g, Mapping)]


def _exits(stage: Mapping[str, Any]) -> list[tuple[str, YamlPath, Any]]:
    """``(target, where of the target, condition)`` of each way out of a stage."""
    found: list[tuple[str, YamlPath, Any]] = []
    if isinstance(stage.get("next"), str):
        found.append((stage["next"], ("next",), None))
    transitions = stage.get("transitions")
    if isinstance(transitions, list):
        for i, t in enumerate(transitions):
            if isinstance(t, Mapping) and isinstance(t.get("to"), str):
                found.append((t["to"], ("transitions", i, "to"), t.get("when")))
    return found


def check_workflows(check: FileCheck, data: dict[str, Any]) -> None:
    workflow = data.get("workflow")
    collected: set[str] = set()
    if isinstance(workflow, Mapping):
        collected = _check_definition(check, workflow)
    for kind, args, where in iter_raw_commands(data):
        if not isinstance(args, Mapping):
            continue
        if kind == "workflow":
            _check_step(check, args, where, workflow, collected)
        elif kind == "action":
            _check_action(check, args, where)


def _check_definition(check: FileCheck, workflow: Mapping[str, Any]) -> set[str]:
    stages = _stages(workflow)
    declared = [s["name"] for _, s in stages if isinstance(s.get("name"), str)]
    collected = {
        g["collect"] for _, s in stages for _, g in _goals(s) if isinstance(g.get("collect"), str)
    }
    reached = {declared[0]} if declared else set()
    for i, stage in stages:
        here: YamlPath = ("workflow", "stages", i)
        name = stage.get("name", f"#{i + 1}")
        for target, at, when in _exits(stage):
            reached.add(target)
            if target not in declared:
                check.add(
                    "NS021",
                    (*here, *at),
                    f"stage '{name}' goes to '{target}', which is not a declared stage "
                    f"(declared: {', '.join(declared) or 'none'})",
                    did_you_mean(target, declared),
                )
            if isinstance(when, Mapping) and isinstance(when.get("value"), str):
                value = when["value"]
                if value not in collected:
                    check.add(
                        "NS022",
                        (*here, *at[:-1], "when", "value"),
                        f"the way from stage '{name}' to '{target}' tests '{value}', which no "
                        "stage collects: it can never open",
                        did_you_mean(value, collected),
                    )
        for g, goal in _goals(stage):
            test = goal.get("check")
            if isinstance(test, Mapping) and isinstance(test.get("value"), str):
                value = test["value"]
                if value not in collected:
                    label = goal.get("name", f"#{g + 1}")
                    check.add(
                        "NS022",
                        (*here, "goals", g, "check", "value"),
                        f"goal '{label}' of stage '{name}' checks '{value}', which no stage "
                        "collects: the goal can never be met",
                        did_you_mean(value, collected),
                    )
    for i, stage in stages:
        name = stage.get("name")
        if isinstance(name, str) and name not in reached:
            check.add(
                "NS023",
                ("workflow", "stages", i, "name"),
                f"stage '{name}' is never reached: no stage goes to it",
            )
    return collected


def _check_step(
    check: FileCheck,
    args: Mapping[str, Any],
    where: YamlPath,
    workflow: Any,
    collected: set[str],
) -> None:
    named = args.get("workflow")
    own = workflow.get("name") if isinstance(workflow, Mapping) else None
    if named is None and own is None:
        check.add(
            "NS024",
            where,
            "this 'workflow' command names no workflow and the agent declares none",
        )
        return
    if isinstance(named, str) and not _NAME.match(named):
        return  # the format check reports it
    if named is not None and named != own:
        return  # another agent's workflow: its values are checked there
    values = args.get("collect")
    if not isinstance(values, Mapping):
        return
    for value in values:
        if isinstance(value, str) and value not in collected:
            check.add(
                "NS022",
                (*where, "collect"),
                f"'{value}' is collected here but no stage of workflow '{own}' collects it: "
                "the run would refuse it",
                did_you_mean(value, collected),
                needle=f"{value}:",
            )


def _check_action(check: FileCheck, args: Mapping[str, Any], where: YamlPath) -> None:
    kind = args.get("kind")
    if kind not in ACTION_FIELDS:
        return  # the format check reports an unknown kind
    payload = args.get("payload")
    payload = payload if isinstance(payload, Mapping) else {}
    missing = [f for f in ACTION_FIELDS[kind] if f not in payload]
    if missing:
        check.add(
            "NS025",
            (*where, "kind"),
            f"a {kind} action needs {', '.join(missing)} in its payload; without, the run "
            "fails when it reaches this command",
        )
    if kind in MESSAGES and args.get("approval") is False:
        check.add(
            "NS026",
            (*where, "approval"),
            f"this {kind} action is sent without the user's approval",
            "approval: true",
        )
