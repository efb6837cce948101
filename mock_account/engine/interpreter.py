"""The interpreter: runs an agent's compiled instructions over a stack of frames ``{function,
pc, locals, into}``, one step at a time within the run's limits, and hands each command to the
part of the run that does it.

The parts, each made once a run over the same ``RunSetting``: ``RequestReading`` (what the
request says), ``Variables`` (paths, templates, assignments), ``Prompts``, ``AgentHistory``
(what this agent did here before), ``Forms`` (``ask``), ``DataCommand`` (``data``) and
``EffectCommands`` (``workflow``, ``action``).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agents_catalog.agent_format import (
    ActionArgs,
    AgentDefinition,
    AskArgs,
    Condition,
    DataArgs,
    EndArgs,
    FailArgs,
    FuncArgs,
    LlmArgs,
    OutputArgs,
    PromptArgs,
    ReturnArgs,
    VarArgs,
    WorkflowStepArgs,
)
from mock_account.engine.data_command import DataCommand
from mock_account.engine.effects import EffectCommands
from mock_account.engine.errors import AgentError, RunStopped, RunTimedOut
from mock_account.engine.forms import Forms
from mock_account.engine.history import AgentHistory
from mock_account.engine.program import compiled
from mock_account.engine.prompts import Prompts
from mock_account.engine.request import RequestReading
from mock_account.engine.setting import RunSetting
from mock_account.engine.variables import Variables

if TYPE_CHECKING:
    from mock_account.engine.runtime import Engine

MAX_CALL_DEPTH = 32

#: Called with each output part as a run produces it.
PartListener = Callable[[dict[str, Any]], None]


class Run:
    """The mutable context of one run (or one resumption of a paused run)."""

    def __init__(
        self,
        engine: Engine,
        agent: AgentDefinition,
        state: dict[str, Any],
        sys_vars: dict[str, Any],
        deadline: float,
        stop: threading.Event | None,
        memory: dict[str, Any] | None = None,
        account: str | None = None,
    ) -> None:
        self.setting = setting = RunSetting(engine, agent, state, sys_vars, account)
        self.deadline = deadline
        self.stop = stop
        self.parts: list[dict[str, Any]] = []
        self.on_part: PartListener | None = None
        self.steps = 0
        self.request = RequestReading(setting)
        self.variables = Variables(setting, self.request, memory)
        self.prompts = Prompts(setting, self.variables)
        self.history = AgentHistory(setting, self.request)
        self.forms = Forms(self.variables, self.request, self.history)
        self.data = DataCommand(setting, self.variables, self.request, self.prompts, self.history)
        self.effects = EffectCommands(setting, self.variables)

    def emit(self, part: dict[str, Any]) -> None:
        """Add an output part, telling the listener (a stream) at once."""
        self.parts.append(part)
        if self.on_part is not None:
            self.on_part(part)

    def check_limits(self) -> None:
        self.steps += 1
        engine = self.setting.engine
        if self.steps > engine.limits.max_steps:
            raise RunTimedOut()
        if engine.clock() > self.deadline:
            raise RunTimedOut()
        if self.stop is not None and self.stop.is_set():
            raise RunStopped()

    def execute(self, stack: list[dict[str, Any]]) -> tuple[str, Any]:
        """Run until the stack empties or a command ends / pauses the run."""
        agent = self.setting.agent
        while stack:
            frame = stack[-1]
            code = compiled(agent, frame["function"])
            if frame["pc"] >= len(code):
                self._return(stack, None)
                continue
            self.check_limits()
            op, arg = code[frame["pc"]]
            frame["pc"] += 1
            if op == "jump":
                frame["pc"] = arg
            elif op == "jump_unless":
                if not self.holds(frame, arg[0]):
                    frame["pc"] = arg[1]
            elif op == "for_init":
                each, slot = arg
                items = self.variables.resolver(frame)(each)
                if items is None:
                    items = []
                if not isinstance(items, list):
                    raise AgentError(f"'for' needs a list at '{each}'")
                frame["locals"][slot] = {"items": copy.deepcopy(items), "i": 0}
            elif op == "for_next":
                slot, name, end = arg
                loop = frame["locals"][slot]
                if loop["i"] < len(loop["items"]):
                    frame["locals"][name] = loop["items"][loop["i"]]
                    loop["i"] += 1
                else:
                    frame["locals"].pop(slot, None)
                    frame["pc"] = end
            else:
                outcome = self.command(stack, frame, arg)
                if outcome is not None:
                    return outcome
        return ("success", None)

    def holds(self, frame: dict[str, Any], cond: Condition) -> bool:
        resolve = self.variables.resolver(frame)
        if cond.exists is not None:
            return resolve(cond.exists) is not None
        if cond.missing is not None:
            return resolve(cond.missing) is None
        if cond.left is None or cond.op is None:
            raise AgentError("a condition needs 'exists', 'missing', or 'left', 'op' and 'right'")
        left = self.variables.render(frame, cond.left)
        right = self.variables.render(frame, cond.right)
        if cond.op in ("contains", "not_contains"):
            haystack = left if isinstance(left, list) else str(left or "").lower()
            needle = right if isinstance(left, list) else str(right or "").lower()
            found = needle in haystack
            return found if cond.op == "contains" else not found
        if cond.op in ("==", "!="):
            same = left == right or str(left) == str(right)
            return same if cond.op == "==" else not same
        try:
            a, b = float(left), float(right)
        except (TypeError, ValueError):
            a, b = str(left), str(right)  # type: ignore[assignment]
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[cond.op]

    def command(
        self, stack: list[dict[str, Any]], frame: dict[str, Any], args: Any
    ) -> tuple[str, Any] | None:
        agent = self.setting.agent
        text, render = self.variables.text, self.variables.render
        if isinstance(args, PromptArgs):
            self.prompts.declare(frame, args)
        elif isinstance(args, LlmArgs):
            history = self.prompts.history(args.prompt)
            answer = self.setting.engine.model.answer(
                agent=agent.name,
                system=history["system"],
                messages=history["messages"],
                reply=text(frame, args.reply),
            )
            history["messages"].append(
                {"role": "assistant", "content": answer, "agent": agent.name}
            )
            frame["locals"][args.into] = answer
        elif isinstance(args, VarArgs):
            self.variables.assign(frame, args.name, render(frame, args.value))
        elif isinstance(args, DataArgs):
            self.data.run(frame, args)
        elif isinstance(args, OutputArgs | str):
            spec = OutputArgs(text=args) if isinstance(args, str) else args
            part: dict[str, Any] = {"contentType": spec.contentType, "text": text(frame, spec.text)}
            if spec.mimeType:
                part["mimeType"] = spec.mimeType
            self.emit(part)
        elif isinstance(args, AskArgs):
            answers = self.forms.answered_before(frame, args)
            if answers is None:
                return ("ask", args)
            frame["locals"][args.into] = answers
        elif isinstance(args, FailArgs):
            return ("failCommand", text(frame, args.message))
        elif isinstance(args, EndArgs):
            return ("success", None)
        elif isinstance(args, ReturnArgs):
            self._return(stack, render(frame, args.value))
            return ("success", None) if not stack else None
        elif isinstance(args, FuncArgs):
            self._call(stack, frame, args)
        elif isinstance(args, WorkflowStepArgs | ActionArgs):
            frame["locals"][args.into] = self.effects.run(frame, args)
        return None

    def _call(self, stack: list[dict[str, Any]], frame: dict[str, Any], args: FuncArgs) -> None:
        if args.name not in self.setting.agent.functions:
            raise AgentError(f"function '{args.name}' is not defined in this agent")
        if len(stack) >= MAX_CALL_DEPTH:
            raise AgentError(f"calls are nested deeper than {MAX_CALL_DEPTH} levels")
        stack.append(
            {
                "function": args.name,
                "pc": 0,
                "locals": copy.deepcopy(self.variables.render(frame, args.args)),
                "into": args.into,
            }
        )

    def _return(self, stack: list[dict[str, Any]], value: Any) -> None:
        frame = stack.pop()
        if stack and frame.get("into"):
            stack[-1]["locals"][frame["into"]] = value
