"""A run's variables: where a dotted path reads from, templates rendered over them, values
assigned to them, and which conversation and memory variables the run read and wrote.

A path's root says where it lives: ``sys`` (the run's values and what its request states),
``conv`` (the conversation), ``agent`` (this agent's own part of the state), ``user`` (the
identity's memory); any other root is a local of the frame.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from agents_catalog.graph import CONTEXT_VARIABLES
from mock_account.engine.errors import AgentError
from mock_account.engine.request import RequestReading
from mock_account.engine.setting import RunSetting
from mock_account.engine.templates import TemplateError, lookup, render_text, render_value
from mock_account.world.details import noted

#: Where a template says what the request stated that the rest of it does not.
_NOTED = "{sys.noted}"


class Variables:
    """Reads, renders and assigns a run's variables, and keeps what it read and wrote."""

    def __init__(
        self, setting: RunSetting, request: RequestReading, memory: dict[str, Any] | None
    ) -> None:
        self.setting = setting
        self.request = request
        self.reads: set[str] = set()
        # Variables read only to find that the request is about something else (a stay in
        # Lisbon, with a trip to Berlin saved): not a hand-off, so not among the run's reads.
        self.set_aside: set[str] = set()
        # Records a request names in place of saved variables, read as those variables while
        # a data command takes its values (``World.named_instead``).
        self.named: dict[str, Any] = {}
        self.writes: set[str] = set()
        # The identity's memory (``user.x``): a copy, handed back only when the run saves.
        self.memory: dict[str, Any] = copy.deepcopy(memory) if memory is not None else {}
        self.memory_reads: set[str] = set()
        self.memory_writes: set[str] = set()
        # Form answers the user left at the form's default ("answers.category"): they say
        # nothing the request did not, so the request's own facts win over them.
        self.defaulted: set[str] = set()
        # What ``{sys.noted}`` says while a template is rendered a second time (``text``).
        self._noted = ""

    def resolver(self, frame: dict[str, Any]) -> Callable[[str], Any]:
        def resolve(path: str) -> Any:
            root, _, rest = path.partition(".")
            if root == "sys":
                return self._sys(rest)
            if root == "conv":
                base = self.setting.state["conv"]
                if self.named and rest.partition(".")[0] in self.named:
                    base = self.named
                value = lookup(base, rest) if rest else base
                if rest and value is not None:
                    self.reads.add(rest.split(".")[0])
                return value
            if root == "agent":
                base = self.setting.state["agents"].get(self.setting.agent.name, {})
                return lookup(base, rest) if rest else base
            if root == "user":
                value = lookup(self.memory, rest) if rest else self.memory
                if rest and value is not None:
                    self.memory_reads.add(rest.split(".")[0])
                return value
            return lookup(frame["locals"], path)

        return resolve

    def _sys(self, rest: str) -> Any:
        if rest == "details":
            return self.request.details().as_json()
        if rest == "noted":
            return self._noted
        if rest == "stated.record_name":
            # The name the request gives the record this agent makes ("a Black Friday email
            # campaign"), read only when a template asks for it.
            return self.request.name_said()
        if rest.startswith("stated.record."):
            # What the request states of the record this agent makes, as its recipe reads it
            # ("a webinar campaign on LinkedIn": channel social), for a form.
            return lookup(self.request.record_said(), rest.removeprefix("stated.record."))
        if rest.partition(".")[0] == "stated":
            return lookup({"stated": self.request.stated()}, rest)
        sys_vars = self.setting.sys
        return lookup(sys_vars, rest) if rest else sys_vars

    def render(self, frame: dict[str, Any], value: Any) -> Any:
        try:
            return render_value(value, self.resolver(frame))
        except TemplateError as exc:
            raise AgentError(str(exc)) from exc

    def text(self, frame: dict[str, Any], template: str) -> str:
        try:
            if _NOTED not in template:
                return render_text(template, self.resolver(frame))
            # What the answer adds of the request's details depends on what the rest of it
            # says: rendered without them first, then with what it left out.
            self._noted = ""
            said = render_text(template, self.resolver(frame))
            self._noted = noted(self.request.details(), said)
            try:
                return render_text(template, self.resolver(frame))
            finally:
                self._noted = ""
        except TemplateError as exc:
            raise AgentError(str(exc)) from exc

    def present(self, frame: dict[str, Any], values: dict[str, Any] | None) -> dict[str, Any]:
        """Render each entry; an entry whose template refers to a missing value is left
        out, so ``given: {currency: "{conv.trip.currency}"}`` says nothing without a trip."""
        out: dict[str, Any] = {}
        resolve = self.resolver(frame)
        for key, template in (values or {}).items():
            missing = False

            def tracking(path: str) -> Any:
                nonlocal missing
                value = resolve(path)
                if value is None:
                    missing = True
                return value

            try:
                value = render_value(template, tracking)
            except TemplateError as exc:
                raise AgentError(str(exc)) from exc
            if not missing:
                out[key] = value
        return out

    def assign(self, frame: dict[str, Any], target: str, value: Any) -> None:
        try:
            value = copy.deepcopy(value)
        except RecursionError as exc:
            # A loop that wraps a variable in itself nests it one level per turn.
            raise AgentError(f"{target}: the value is nested too deeply") from exc
        parts = target.split(".")
        if parts[0] == "conv":
            container = self.setting.state["conv"]
            if parts[1] not in CONTEXT_VARIABLES:
                # The request's details carry on every turn: a run's writes are the records
                # it hands on (hand-offs, suggestions, "the run that made it").
                self.writes.add(parts[1])
            parts = parts[1:]
        elif parts[0] == "agent":
            container = self.setting.state["agents"].setdefault(self.setting.agent.name, {})
            parts = parts[1:]
        elif parts[0] == "user" and len(parts) > 1:
            container = self.memory
            self.memory_writes.add(parts[1])
            parts = parts[1:]
        else:
            container = frame["locals"]
        for part in parts[:-1]:
            nested = container.get(part)
            if not isinstance(nested, dict):
                nested = {}
                container[part] = nested
            container = nested
        container[parts[-1]] = value
