"""Workflow definitions: stages, their goals (values to collect, checks to pass) and transitions.

Part of the agent file format (``agent_format``); the per-identity progress through them is
kept by ``mock_account.workflows``. An agent declares one in its file under ``workflow``::

    workflow:
      name: new_hire_onboarding
      title: New-hire onboarding
      stages:
      - name: paperwork
        goals:
        - collect: legal_name
        - collect: start_date
          type: date
        - name: contract_signed
          check: {value: contract_signed, op: isTrue}
        next: equipment
      - name: equipment
        goals:
        - collect: laptop
          type: choice
          options: [mac, windows, linux]
        transitions:
        - to: first_day
      - name: first_day
        goals: [...]

Goals are ``required`` unless they say ``required: false``. A ``collect`` goal is met when its value
has been collected (and has the declared type); a ``check`` goal when its comparison holds on the
collected values (every value collected so far, from this stage or an earlier one). Transitions
are tried in order, the first whose ``when`` holds (or that has none) is taken; ``next: X`` is
``transitions: [{to: X}]``. A stage without transitions is the last one.

Nothing is evaluated as code: checks are a fixed set of comparisons.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

NAME_RE = r"^[a-z][a-z0-9_]{0,47}$"
VALUE_TYPES = ("str", "int", "number", "bool", "date", "email", "choice")
CheckOp = Literal[
    "exists",
    "isTrue",
    "equals",
    "notEquals",
    "in",
    "atLeast",
    "atMost",
    "greaterThan",
    "lessThan",
]
CHECK_OPS: tuple[str, ...] = get_args(CheckOp)
_EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,255}\.[A-Za-z]{2,}$")
MAX_TEXT = 2000

Name = Annotated[str, Field(pattern=NAME_RE)]


class WorkflowDefinitionError(ValueError):
    """A workflow definition is invalid (the message says where and why)."""


class InvalidValue(ValueError):
    """A value given for a workflow does not fit what the workflow collects."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Check(_Strict):
    value: Name
    op: CheckOp = "exists"
    to: Any = None

    @model_validator(mode="after")
    def _operand(self) -> Check:
        if self.op in ("exists", "isTrue"):
            if self.to is not None:
                raise ValueError(f"'{self.op}' takes no 'to'")
        elif self.to is None:
            raise ValueError(f"'{self.op}' needs 'to'")
        if self.op == "in" and not isinstance(self.to, list):
            raise ValueError("'in' needs a list in 'to'")
        if self.op in ("atLeast", "atMost", "greaterThan", "lessThan") and (
            isinstance(self.to, bool) or not isinstance(self.to, int | float | str)
        ):
            raise ValueError(f"'{self.op}' needs a number or an ISO date in 'to'")
        return self

    def holds(self, values: dict[str, Any]) -> bool:
        if self.value not in values:
            return False
        v = values[self.value]
        if self.op == "exists":
            return v is not None and v != ""
        if self.op == "isTrue":
            return v is True
        if self.op == "equals":
            return v == self.to
        if self.op == "notEquals":
            return v != self.to
        if self.op == "in":
            return v in self.to
        try:
            if self.op == "atLeast":
                return v >= self.to
            if self.op == "atMost":
                return v <= self.to
            if self.op == "greaterThan":
                return v > self.to
            return v < self.to
        except TypeError:
            return False

    def describe(self) -> str:
        return f"{self.value} {self.op}" + ("" if self.to is None else f" {self.to!r}")


class Goal(_Strict):
    name: Name | None = None
    collect: Name | None = None
    type: Literal["str", "int", "number", "bool", "date", "email", "choice"] = "str"
    options: list[str] | None = None
    check: Check | None = None
    required: bool = True
    label: str | None = Field(default=None, max_length=200)

    @model_validator(mode="after")
    def _one_kind(self) -> Goal:
        if (self.collect is None) == (self.check is None):
            raise ValueError("a goal has exactly one of 'collect' or 'check'")
        if self.check is not None and self.name is None:
            raise ValueError("a 'check' goal needs a 'name'")
        if self.type == "choice" and not self.options:
            raise ValueError("a 'choice' goal needs 'options'")
        if self.type != "choice" and self.options is not None:
            raise ValueError("'options' only go with type 'choice'")
        return self

    @property
    def goal_name(self) -> str:
        return self.name or self.collect or ""

    def met(self, values: dict[str, Any]) -> bool:
        if self.collect is not None:
            return self.collect in values
        assert self.check is not None
        return self.check.holds(values)

    def coerce(self, raw: Any) -> Any:
        """``raw`` as this goal's type, or ``InvalidValue`` saying what was expected."""
        name = self.collect
        kind = self.type
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in ("yes", "true", "no", "false"):
                return raw.strip().lower() in ("yes", "true")
            raise InvalidValue(f"'{name}' must be yes or no, not {raw!r}")
        if kind in ("int", "number"):
            if isinstance(raw, bool):
                raise InvalidValue(f"'{name}' must be a number, not {raw!r}")
            try:
                number = int(raw) if kind == "int" else float(raw)
            except (TypeError, ValueError):
                raise InvalidValue(f"'{name}' must be a number, not {raw!r}") from None
            if kind == "int" and isinstance(raw, float) and raw != int(raw):
                raise InvalidValue(f"'{name}' must be a whole number, not {raw!r}")
            if (
                isinstance(number, float)
                and number != number
                or number
                in (
                    float("inf"),
                    float("-inf"),
                )
            ):
                raise InvalidValue(f"'{name}' must be a finite number")
            return number
        if not isinstance(raw, str):
            raise InvalidValue(f"'{name}' must be text, not {type(raw).__name__}")
        text = raw.strip()
        if not text:
            raise InvalidValue(f"'{name}' is empty")
        if len(text) > MAX_TEXT:
            raise InvalidValue(f"'{name}' is longer than {MAX_TEXT} characters")
        if kind == "date":
            try:
                return date.fromisoformat(text).isoformat()
            except ValueError:
                raise InvalidValue(
                    f"'{name}' must be a date like 2026-12-01, not {raw!r}"
                ) from None
        if kind == "email" and not _EMAIL.match(text):
            raise InvalidValue(f"'{name}' must be an email address, not {raw!r}")
        if kind == "choice" and text not in (self.options or []):
            raise InvalidValue(f"'{name}' must be one of {', '.join(self.options or [])}")
        return text


class Transition(_Strict):
    to: Name
    when: Check | None = None


class Stage(_Strict):
    name: Name
    title: str | None = Field(default=None, max_length=120)
    goals: list[Goal] = Field(default_factory=list)
    next: Name | None = None
    transitions: list[Transition] | None = None

    @model_validator(mode="after")
    def _exits(self) -> Stage:
        if self.next is not None and self.transitions is not None:
            raise ValueError("a stage has 'next' or 'transitions', not both")
        names = [g.goal_name for g in self.goals]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"goal names repeat in stage '{self.name}': {', '.join(dupes)}")
        return self

    @property
    def exits(self) -> list[Transition]:
        if self.next is not None:
            return [Transition(to=self.next)]
        return list(self.transitions or [])

    @property
    def final(self) -> bool:
        return not self.exits


class WorkflowDefinition(_Strict):
    name: Name
    title: str = Field(default="", max_length=120)
    stages: list[Stage] = Field(min_length=1, max_length=50)

    @model_validator(mode="after")
    def _consistent(self) -> WorkflowDefinition:
        names = [s.name for s in self.stages]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"stage names repeat: {', '.join(dupes)}")
        return self

    def stage(self, name: str) -> Stage:
        for stage in self.stages:
            if stage.name == name:
                return stage
        raise KeyError(name)

    @property
    def first(self) -> Stage:
        return self.stages[0]

    def collector(self, value: str) -> Stage | None:
        """The first stage that collects ``value``."""
        for stage in self.stages:
            if any(g.collect == value for g in stage.goals):
                return stage
        return None

    def collected(self) -> set[str]:
        return {g.collect for s in self.stages for g in s.goals if g.collect is not None}


def definition_problems(definition: WorkflowDefinition) -> list[tuple[str, str, str]]:
    """``(severity, rule, message)`` of what is wrong with a definition's wiring.

    Errors: a transition to a stage that is not declared. Warnings: a check or a transition
    condition on a value no stage collects, a stage no transition reaches."""
    declared = {s.name for s in definition.stages}
    collected = definition.collected()
    problems: list[tuple[str, str, str]] = []
    reached = {definition.first.name}
    for stage in definition.stages:
        for exit_ in stage.exits:
            reached.add(exit_.to)
            if exit_.to not in declared:
                problems.append(
                    (
                        "error",
                        "workflow-undeclared-stage",
                        f"stage '{stage.name}' goes to '{exit_.to}', which is not a declared "
                        f"stage (declared: {', '.join(sorted(declared))})",
                    )
                )
            if exit_.when is not None and exit_.when.value not in collected:
                problems.append(
                    (
                        "warning",
                        "workflow-uncollected-value",
                        f"the transition of stage '{stage.name}' to '{exit_.to}' tests "
                        f"'{exit_.when.value}', which no stage collects",
                    )
                )
        for goal in stage.goals:
            if goal.check is not None and goal.check.value not in collected:
                problems.append(
                    (
                        "warning",
                        "workflow-uncollected-value",
                        f"goal '{goal.goal_name}' of stage '{stage.name}' checks "
                        f"'{goal.check.value}', which no stage collects",
                    )
                )
    for stage in definition.stages:
        if stage.name not in reached:
            problems.append(
                (
                    "warning",
                    "workflow-unreachable-stage",
                    f"stage '{stage.name}' is never reached: no transition leads to it",
                )
            )
    return problems


def parse_workflow(raw: Any, *, strict: bool = True) -> WorkflowDefinition:
    """A definition from parsed YAML / JSON; ``WorkflowDefinitionError`` saying what is wrong.

    ``strict`` also refuses wiring errors (a transition to an undeclared stage); the checker
    reads definitions loosely and reports those as findings instead."""
    try:
        definition = WorkflowDefinition.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        raise WorkflowDefinitionError(
            f"invalid workflow{' at ' + where if where else ''}: {message}"
        ) from None
    if strict:
        for severity, _rule, message in definition_problems(definition):
            if severity == "error":
                raise WorkflowDefinitionError(f"invalid workflow '{definition.name}': {message}")
    return definition
