"""The agent runtime: runs one agent over a conversation state.

Each function of an agent is compiled (``program``) to a flat list of instructions (``if`` and
``for`` become jumps), so a run is a stack of frames ``{function, pc, locals,
into}``. That makes a run paused on ``ask`` plain JSON: the stack is saved in the
state and the next call with the same agent resumes exactly where it stopped.

The runtime works on a deep copy of the state and only hands back a new state when
the run ends in a way that saves (``end``, ``return`` from ``main``, ``ask``); any
failure leaves the caller's state untouched.

``Engine.run`` starts, resumes and finishes runs; the run itself is ``interpreter.Run``.
"""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agents_catalog.agent_format import AgentDefinition, AskArgs
from mock_account.business.data import SOURCES, BusinessData
from mock_account.engine.effects import Effects
from mock_account.engine.errors import AgentError, RunStopped, RunTimedOut
from mock_account.engine.forms import check_answers
from mock_account.engine.interpreter import PartListener, Run
from mock_account.engine.mock_model import LanguageModel
from mock_account.engine.state import (
    PausedRun,
    ResultCode,
    empty_state,
    paused_run,
    run_record,
)
from mock_account.world import World, understand_request

MAX_STEPS = 20_000
WAITING_MESSAGE = (
    "This conversation is waiting for your answers to another agent. Continue it with that agent."
)
CHANGED_MESSAGE = (
    "This conversation was waiting for your answers to version {version} of {agent}, which has "
    "since been changed and can no longer resume it. Please start a new conversation."
)

__all__ = [
    "CHANGED_MESSAGE",
    "MAX_STEPS",
    "WAITING_MESSAGE",
    "AgentError",
    "Effects",
    "Engine",
    "PartListener",
    "RunContext",
    "RunLimits",
    "RunOutcome",
]


@dataclass
class RunOutcome:
    """What a run produced. ``state`` is set only when the run is to be saved."""

    result_code: ResultCode
    parts: list[dict[str, Any]] = field(default_factory=list)
    ask_input: dict[str, Any] | None = None
    error: str | None = None
    state: dict[str, Any] | None = None
    reads: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    # The identity's memory (``user.x``) after the run, when the run changed it and saves.
    memory: dict[str, Any] | None = None
    memory_reads: list[str] = field(default_factory=list)
    memory_writes: list[str] = field(default_factory=list)

    @property
    def saves(self) -> bool:
        return self.state is not None


@dataclass
class RunContext:
    """Who is writing, when the server knows it (``mock_account.channels``): extra ``sys``
    values (``sys.channel``, ``sys.identity``) and the identity's memory, read and written by
    agents as ``user.x``. Without a memory, ``user.x`` lives only for the run. ``account`` is
    the account the run is for: an identity is not a user of the directory, so the workflow
    progress and actions of a channel run are filed under it (not visible to agents)."""

    sys: dict[str, Any] = field(default_factory=dict)
    memory: dict[str, Any] | None = None
    account: str | None = None


@dataclass(frozen=True)
class RunLimits:
    time_limit_s: float = 5.0
    max_steps: int = MAX_STEPS


class Engine:
    """Runs agents of one catalog against conversation states."""

    def __init__(
        self,
        agents: dict[str, AgentDefinition],
        model: LanguageModel,
        data: BusinessData,
        limits: RunLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        world: World | None = None,
        effects: Effects | None = None,
    ) -> None:
        self.agents = agents
        self.effects = effects
        # Definitions replaced by a live configuration edit, by (name, version): a conversation
        # paused on an ask resumes on the version that asked.
        self.earlier: dict[tuple[str, str], AgentDefinition] = {}
        # Rebuilds an earlier version this process never held (from the configuration history).
        self.find_earlier: Callable[[str, str], AgentDefinition | None] | None = None
        self.model = model
        self.data = data
        self.world = world or World(data, understand_request(data))
        self.limits = limits or RunLimits()
        self.clock = clock
        self._warm = False
        self._warming = threading.Lock()

    def warm_up(self) -> None:
        """Build the lazily generated business data now rather than in the first runs.

        The first requests are then not slower than the rest, and no two request threads ever
        build the same data source at once (the generator is not meant to be shared mid-build).
        """
        with self._warming:
            if self._warm:
                return
            for source in SOURCES:
                self.data.lookup(source, match="warm up")
            self.world.warm_up()
            self._warm = True

    def run(
        self,
        agent_name: str,
        state: dict[str, Any] | None,
        inputs: dict[str, Any],
        *,
        user: str,
        convid: str,
        now: datetime,
        stop: threading.Event | None = None,
        owned: bool = False,
        on_part: PartListener | None = None,
        context: RunContext | None = None,
    ) -> RunOutcome:
        """Run (or resume) an agent. Never raises for anything the agent does.

        The state is copied first unless the caller hands it over (``owned=True``, for a
        state it has just parsed and will drop if the run fails). ``on_part`` is called with
        each output part as the run produces it (a resumed run first replays the parts it had
        produced before it paused), for a caller that streams them. ``context`` adds ``sys``
        values and the identity's memory (``user.x``); the sys values the engine sets win.
        """
        agent = self.agents.get(agent_name)
        if agent is None:
            return RunOutcome("callFailed", error=f"There is no agent named '{agent_name}'.")
        if state is None:
            work = empty_state()
        else:
            work = state if owned else copy.deepcopy(state)
        waiting = paused_run(work)
        if (
            waiting is not None
            and waiting["agent"] == agent.name
            and waiting["version"] != agent.version
        ):
            earlier = self.earlier.get((agent.name, waiting["version"]))
            if earlier is None and self.find_earlier is not None:
                earlier = self.find_earlier(agent.name, waiting["version"])
            if earlier is None:
                message = CHANGED_MESSAGE.format(agent=agent.name, version=waiting["version"])
                return RunOutcome("unknownConversation", error=message)
            agent = earlier
        if waiting is not None and (
            waiting["agent"] != agent.name or waiting["version"] != agent.version
        ):
            return RunOutcome("unknownConversation", error=WAITING_MESSAGE)
        query = inputs.get("query")
        sys_vars = {
            "query": query if isinstance(query, str) else "" if query is None else str(query),
            "inputs": copy.deepcopy(inputs),
            "user": user,
            "agent": agent.name,
            "convid": convid,
            "now": now.isoformat(),
            "today": now.date().isoformat(),
        }
        if context is not None:
            sys_vars = {**copy.deepcopy(context.sys), **sys_vars}
        if not self._warm:
            # Loading the data and the tables is the process's cost, not this run's: it must
            # not eat the run's time limit.
            self.warm_up()
        memory = context.memory if context is not None else None
        account = context.account if context is not None else None
        deadline = self.clock() + self.limits.time_limit_s
        run = Run(self, agent, work, sys_vars, deadline, stop, memory, account)
        run.on_part = on_part
        if waiting is not None:
            resumed = _resume(run, waiting, inputs)
            if isinstance(resumed, RunOutcome):
                return resumed
            stack, run_inputs = resumed
        else:
            stack = [{"function": "main", "pc": 0, "locals": {}, "into": None}]
            run_inputs = copy.deepcopy(inputs)
        run.request.read_in_context()
        try:
            code, detail = run.execute(stack)
        except AgentError as exc:
            return RunOutcome("errorInAgent", error=f"Agent '{agent.name}' failed: {exc}")
        except RunTimedOut:
            return RunOutcome("timedOut", error=f"Agent '{agent.name}' ran out of time.")
        except RunStopped:
            return RunOutcome("stopped", error="The run was stopped.")
        if code == "failCommand":
            return RunOutcome("failCommand", error=str(detail))
        return _finish(run, stack, run_inputs, code, detail, now)


def _resume(
    run: Run, waiting: dict[str, Any], inputs: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]] | RunOutcome:
    """Continue a run paused on ``ask`` with its answers: the stack and the run's inputs, or
    the ask again when the answers do not fit the form."""
    paused = waiting["paused"]
    problem = check_answers(paused["ask"], inputs)
    if problem:
        return RunOutcome(
            "ask",
            parts=[{"contentType": "text", "text": problem}],
            ask_input=paused["ask"],
        )
    stack = paused["stack"]
    run.prompts.local = paused.get("localPrompts", {})
    answers = {i["name"]: inputs.get(i["name"], i.get("default")) for i in paused["ask"]["inputs"]}
    run.variables.defaulted = {
        f"{paused['into']}.{i['name']}"
        for i in paused["ask"]["inputs"]
        if i.get("default") not in (None, "", []) and answers[i["name"]] == i.get("default")
    }
    stack[-1]["locals"][paused["into"]] = answers
    run.setting.sys["query"] = waiting["inputs"].get("query", "")
    run.variables.reads.update(waiting.get("reads", []))
    run.variables.writes.update(waiting.get("writes", []))
    for part in waiting.get("output", {}).get("parts", []):
        run.emit(part)
    run.setting.state["runs"].pop()
    # Passwords reach the agent as locals but are never written into the run record.
    kept = {
        i["name"]: ("********" if i.get("type") == "password" else answers[i["name"]])
        for i in paused["ask"]["inputs"]
    }
    return stack, {**waiting["inputs"], "answers": kept}


def _finish(
    run: Run,
    stack: list[dict[str, Any]],
    run_inputs: dict[str, Any],
    code: ResultCode,
    detail: Any,
    now: datetime,
) -> RunOutcome:
    """Append the record of a run that ended with ``end``, ``return`` or ``ask``."""
    agent, state, variables = run.setting.agent, run.setting.state, run.variables
    ask_input = None
    paused: PausedRun | None = None
    if code == "ask":
        ask: AskArgs = detail
        ask_input = {
            "message": variables.text(stack[-1], ask.message),
            "inputs": [run.forms.shown(stack[-1], i) for i in ask.inputs],
        }
        paused = {
            "stack": stack,  # type: ignore[typeddict-item]
            "ask": ask_input,
            "into": ask.into,
            "localPrompts": run.prompts.local,
        }
    record = run_record(
        agent=agent.name,
        version=agent.version,
        inputs=run_inputs,
        parts=run.parts,
        ran_at=now.isoformat(),
        result_code=code,
        reads=sorted(variables.reads - variables.set_aside),
        writes=sorted(variables.writes),
        paused=paused,
    )
    state["runs"].append(record)
    return RunOutcome(
        code,
        parts=run.parts,
        ask_input=ask_input,
        state=state,
        reads=sorted(variables.reads - variables.set_aside),
        writes=sorted(variables.writes),
        memory=variables.memory if variables.memory_writes else None,
        memory_reads=sorted(variables.memory_reads),
        memory_writes=sorted(variables.memory_writes),
    )
