"""The agent runtime: runs one agent over a conversation state.

Each function of an agent is compiled (``program``) to a flat list of instructions (``if`` and
``for`` become jumps), so a run is a stack of frames ``{function, pc, locals,
into}``. That makes a run paused on ``ask`` plain JSON: the stack is saved in the
state and the next call with the same agent resumes exactly where it stopped.

The runtime works on a deep copy of the state and only hands back a new state when
the run ends in a way that saves (``end``, ``return`` from ``main``, ``ask``); any
failure leaves the caller's state untouched.
"""

from __future__ import annotations

import copy
import functools
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Protocol

from agents_catalog.agent_format import (
    TEMPLATE_PATH_RE,
    ActionArgs,
    AgentDefinition,
    AskArgs,
    AskInput,
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
    command_args,
    walk_commands,
)
from agents_catalog.capabilities import MADE_FROM_SOURCE, SOURCE_FIELDS, VARIABLE_SOURCES
from agents_catalog.graph import CONTEXT_VARIABLES, AgentIO, agent_io
from mock_account.business.data import SOURCES, BusinessData
from mock_account.engine.mock_model import LanguageModel
from mock_account.engine.program import compiled
from mock_account.engine.state import (
    PausedRun,
    ResultCode,
    empty_state,
    paused_run,
    prompt_key,
    run_record,
)
from mock_account.engine.templates import (
    PLACEHOLDER,
    WHOLE,
    TemplateError,
    lookup,
    render_text,
    render_value,
)
from mock_account.world import (
    Held,
    World,
    first_sentence,
    labelled_value,
    named_options,
    option_by_word,
    understand_request,
)
from mock_account.world.details import Details, carried_over, noted, points_back, word_key
from mock_account.world.units import with_units

MAX_CALL_DEPTH = 32
MAX_STEPS = 20_000
WAITING_MESSAGE = (
    "This conversation is waiting for your answers to another agent. Continue it with that agent."
)
CHANGED_MESSAGE = (
    "This conversation was waiting for your answers to version {version} of {agent}, which has "
    "since been changed and can no longer resume it. Please start a new conversation."
)


# What a request that points back is about, from the request before it, by detail key.
_CONTEXT = ("company", "person", "product")
_THERE_RE = re.compile(r"\bthere\b|\b(?:that|the same)\s+(?:city|place|office|site)\b", re.I)
_THIRD_PERSON_RE = re.compile(r"\b(?:her|his|him|she|he)\b", re.IGNORECASE)
_THAT_DAY_RE = re.compile(r"\b(?:that|the same)\s+(?:day|date)\b", re.IGNORECASE)

#: Where a template says what the request stated that the rest of it does not.
_NOTED = "{sys.noted}"

#: Called with each output part as a run produces it.
PartListener = Callable[[dict[str, Any]], None]


class AgentError(Exception):
    """An agent did something invalid at run time (becomes ``errorInAgent``)."""


class _Timeout(Exception):
    pass


class _Stopped(Exception):
    pass


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


class Effects(Protocol):
    """What agents do beyond the conversation: per-identity workflow progress and actions with
    an effect outside (``mock_account.workflows.effects`` implements it). Both are kept apart
    from the conversation state, so a run that fails later does not undo them.

    ``user`` is whose they are: the run's ``sys.user``, the conversation's owner (a user's
    email through ``execAgent`` and on ``web``, ``<channel>:<identity id>`` for a sender on
    another channel). ``account`` is the run's account when the server gave it (channels),
    else ``None`` and the effects find it from the user."""

    def workflow_step(
        self,
        *,
        user: str,
        account: str | None,
        agent: AgentDefinition,
        workflow: str | None,
        collect: dict[str, Any],
        advance: bool,
    ) -> dict[str, Any]: ...

    def action(
        self,
        *,
        user: str,
        account: str | None,
        agent: AgentDefinition,
        convid: str,
        seed: str,
        kind: str,
        payload: dict[str, Any],
        approval: bool,
    ) -> dict[str, Any]: ...


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


class _Run:
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
        self.engine = engine
        self.account = account
        self.agent = agent
        self.state = state
        self.sys = sys_vars
        self.deadline = deadline
        self.stop = stop
        self.parts: list[dict[str, Any]] = []
        self.on_part: PartListener | None = None
        self.local_prompts: dict[str, dict[str, Any]] = {}
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
        self.steps = 0
        # Form answers the user left at the form's default ("answers.category"): they say
        # nothing the request did not, so the request's own facts win over them.
        self.defaulted: set[str] = set()
        self._stated: dict[str, Any] | None = None
        self._record_stated: dict[str, Any] | None = None
        self._details: Details | None = None
        # What ``{sys.noted}`` says while a template is rendered a second time (``text``).
        self._noted = ""
        self.actions = 0  # action commands run so far: part of each action's stable id

    def read_in_context(self) -> None:
        """Read the request as the conversation says it: a value it says alone, in the unit
        of what the request before it asked ("make that 55 instead": 55 ergonomic chairs).
        Before the run's first step, so every command and template reads the same."""
        query = self.sys.get("query")
        before = self.state["conv"].get("request")
        earlier = before.get("details") if isinstance(before, dict) else None
        if not query or not isinstance(earlier, dict):
            return
        day = date.fromisoformat(self.sys["today"])
        stated = self.engine.world.understand(query, day)
        runs = [r for r in self.state["runs"] if r.get("resultCode") == "success"]
        same = bool(runs) and runs[-1].get("agent") == self.agent.name
        if same or points_back(query):
            self.sys["query"] = with_units(query, stated, earlier)

    # --- values -------------------------------------------------------------

    def resolver(self, frame: dict[str, Any]) -> Callable[[str], Any]:
        def resolve(path: str) -> Any:
            root, _, rest = path.partition(".")
            if root == "sys" and rest == "details":
                return self.details().as_json()
            if root == "sys" and rest == "noted":
                return self._noted
            if root == "sys" and rest == "stated.record_name":
                # The name the request gives the record this agent makes ("a Black Friday
                # email campaign"), read only when a template asks for it.
                return self._name_said()
            if root == "sys" and rest.startswith("stated.record."):
                # What the request states of the record this agent makes, as its recipe
                # reads it ("a webinar campaign on LinkedIn": channel social), for a form.
                return lookup(self._record_said(), rest.removeprefix("stated.record."))
            if root == "sys" and rest.partition(".")[0] == "stated":
                # What the request states, read once and only when a template asks for it.
                if self._stated is None:
                    day = date.fromisoformat(self.sys["today"])
                    parsed = self.engine.world.understand(self.sys["query"], day)
                    # What happened, as a note, without the ask around it ("Our payroll
                    # service is down", not "..., declare a sev1 incident"); whether it asks
                    # how a thing is done rather than for it (agents that act then do nothing).
                    self._stated = {
                        **parsed.summary(),
                        "note": first_sentence(self.sys["query"]),
                        **({"asks_how": True} if parsed.asks_how else {}),
                        **({"change_of_it": parsed.change_of_it} if parsed.change_of_it else {}),
                        **({"moves_days": True} if parsed.moves_days else {}),
                        **({"when_said": parsed.when_said} if parsed.when_said else {}),
                    }
                return lookup({"stated": self._stated}, rest)
            if root == "sys":
                base: Any = self.sys
            elif root == "conv":
                base = self.state["conv"]
                if self.named and rest.partition(".")[0] in self.named:
                    base = self.named
                value = lookup(base, rest) if rest else base
                if rest and value is not None:
                    self.reads.add(rest.split(".")[0])
                return value
            elif root == "agent":
                base = self.state["agents"].get(self.agent.name, {})
            elif root == "user":
                value = lookup(self.memory, rest) if rest else self.memory
                if rest and value is not None:
                    self.memory_reads.add(rest.split(".")[0])
                return value
            else:
                return lookup(frame["locals"], path)
            return lookup(base, rest) if rest else base

        return resolve

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
            self._noted = noted(self.details(), said)
            try:
                return render_text(template, self.resolver(frame))
            finally:
                self._noted = ""
        except TemplateError as exc:
            raise AgentError(str(exc)) from exc

    def details(self) -> Details:
        """What the request states, over what the request before it stated when it follows on
        from it (``conv.request``); read once a run."""
        if self._details is None:
            day = date.fromisoformat(self.sys["today"])
            stated = self.engine.world.understand(self.sys["query"], day)
            before = self.state["conv"].get("request")
            earlier = before.get("details") if isinstance(before, dict) else None
            runs = [r for r in self.state["runs"] if r.get("resultCode") == "success"]
            same = bool(runs) and runs[-1].get("agent") == self.agent.name
            self._details = carried_over(
                stated,
                earlier if isinstance(earlier, dict) else None,
                same_agent=same,
                known=_vocabulary_of(self.agent),
            )
        return self._details

    def assign(self, frame: dict[str, Any], target: str, value: Any) -> None:
        try:
            value = copy.deepcopy(value)
        except RecursionError as exc:
            # A loop that wraps a variable in itself nests it one level per turn.
            raise AgentError(f"{target}: the value is nested too deeply") from exc
        parts = target.split(".")
        if parts[0] == "conv":
            container = self.state["conv"]
            if parts[1] not in CONTEXT_VARIABLES:
                # The request's details carry on every turn: a run's writes are the records
                # it hands on (hand-offs, suggestions, "the run that made it").
                self.writes.add(parts[1])
            parts = parts[1:]
        elif parts[0] == "agent":
            container = self.state["agents"].setdefault(self.agent.name, {})
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

    # --- prompts ------------------------------------------------------------

    def prompt(self, name: str) -> dict[str, Any]:
        if name in self.local_prompts:
            return self.local_prompts[name]
        own = self.state["prompts"].get(prompt_key(name, "agent", self.agent.name))
        if own is not None:
            return own
        shared = self.state["prompts"].get(name)
        if shared is None:
            raise AgentError(f"prompt '{name}' is used before a 'prompt' command declares it")
        return shared

    def declare_prompt(self, frame: dict[str, Any], args: PromptArgs) -> None:
        if args.scope == "local":
            table, key = self.local_prompts, args.name
        else:
            table, key = self.state["prompts"], prompt_key(args.name, args.scope, self.agent.name)
        history = table.get(key)
        if history is None:
            history = {
                "name": args.name,
                "scope": args.scope,
                "agent": self.agent.name if args.scope == "agent" else None,
                "system": "",
                "messages": [],
            }
            table[key] = history
        if args.system is not None:
            history["system"] = self.text(frame, args.system)
        if args.user is not None:
            history["messages"].append(
                {"role": "user", "content": self.text(frame, args.user), "agent": self.agent.name}
            )

    # --- conditions ---------------------------------------------------------

    def holds(self, frame: dict[str, Any], cond: Condition) -> bool:
        resolve = self.resolver(frame)
        if cond.exists is not None:
            return resolve(cond.exists) is not None
        if cond.missing is not None:
            return resolve(cond.missing) is None
        if cond.left is None or cond.op is None:
            raise AgentError("a condition needs 'exists', 'missing', or 'left', 'op' and 'right'")
        left = self.render(frame, cond.left)
        right = self.render(frame, cond.right)
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

    # --- execution ----------------------------------------------------------

    def emit(self, part: dict[str, Any]) -> None:
        """Add an output part, telling the listener (a stream) at once."""
        self.parts.append(part)
        if self.on_part is not None:
            self.on_part(part)

    def check_limits(self) -> None:
        self.steps += 1
        if self.steps > self.engine.limits.max_steps:
            raise _Timeout()
        if self.engine.clock() > self.deadline:
            raise _Timeout()
        if self.stop is not None and self.stop.is_set():
            raise _Stopped()

    def execute(self, stack: list[dict[str, Any]]) -> tuple[str, Any]:
        """Run until the stack empties or a command ends / pauses the run."""
        while stack:
            frame = stack[-1]
            code = compiled(self.agent, frame["function"])
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
                items = self.resolver(frame)(each)
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

    def _return(self, stack: list[dict[str, Any]], value: Any) -> None:
        frame = stack.pop()
        if stack and frame.get("into"):
            stack[-1]["locals"][frame["into"]] = value

    def command(
        self, stack: list[dict[str, Any]], frame: dict[str, Any], args: Any
    ) -> tuple[str, Any] | None:
        if isinstance(args, PromptArgs):
            self.declare_prompt(frame, args)
        elif isinstance(args, LlmArgs):
            history = self.prompt(args.prompt)
            answer = self.engine.model.answer(
                agent=self.agent.name,
                system=history["system"],
                messages=history["messages"],
                reply=self.text(frame, args.reply),
            )
            history["messages"].append(
                {"role": "assistant", "content": answer, "agent": self.agent.name}
            )
            frame["locals"][args.into] = answer
        elif isinstance(args, VarArgs):
            self.assign(frame, args.name, self.render(frame, args.value))
        elif isinstance(args, DataArgs):
            self.data(frame, args)
        elif isinstance(args, OutputArgs | str):
            spec = OutputArgs(text=args) if isinstance(args, str) else args
            part: dict[str, Any] = {
                "contentType": spec.contentType,
                "text": self.text(frame, spec.text),
            }
            if spec.mimeType:
                part["mimeType"] = spec.mimeType
            self.emit(part)
        elif isinstance(args, AskArgs):
            if not self._asks_about_made():
                return ("ask", args)
            # A question about what this agent already made here ("What's the status?" after
            # declaring the incident), or a change of it ("Make it a sev1"), asks nothing
            # again: its data command answers it. The form's answers are those given for it
            # then, but for a fact the request states anew (the request itself, the form's
            # free-text default, describes no field of it: "What is broken: Make it a sev1").
            earlier = self._earlier_answers()
            frame["locals"][args.into] = {
                **earlier,
                **{
                    spec.name: shown["default"]
                    for spec in args.inputs
                    if "default" in (shown := _with_default(self, frame, spec))
                    # The form's own default is no answer to an earlier question: only what
                    # this request states replaces what was answered then.
                    and not (
                        spec.name in earlier
                        and (spec.default == _REQUEST_NOTE or shown["default"] == spec.default)
                    )
                },
            }
        elif isinstance(args, FailArgs):
            return ("failCommand", self.text(frame, args.message))
        elif isinstance(args, EndArgs):
            return ("success", None)
        elif isinstance(args, ReturnArgs):
            return self._command_return(stack, frame, args)
        elif isinstance(args, FuncArgs):
            if args.name not in self.agent.functions:
                raise AgentError(f"function '{args.name}' is not defined in this agent")
            if len(stack) >= MAX_CALL_DEPTH:
                raise AgentError(f"calls are nested deeper than {MAX_CALL_DEPTH} levels")
            stack.append(
                {
                    "function": args.name,
                    "pc": 0,
                    "locals": copy.deepcopy(self.render(frame, args.args)),
                    "into": args.into,
                }
            )
        elif isinstance(args, WorkflowStepArgs | ActionArgs):
            frame["locals"][args.into] = self.effect(frame, args)
        return None

    def effect(self, frame: dict[str, Any], args: WorkflowStepArgs | ActionArgs) -> dict[str, Any]:
        """Run a ``workflow`` or ``action`` command through the engine's effects."""
        effects = self.engine.effects
        if effects is None:
            raise AgentError("workflows and actions are not available in this deployment")
        try:
            if isinstance(args, WorkflowStepArgs):
                return effects.workflow_step(
                    user=self.sys["user"],
                    account=self.account,
                    agent=self.agent,
                    workflow=args.workflow,
                    collect=self.render(frame, args.collect),
                    advance=args.advance,
                )
            self.actions += 1
            # The same turn retried (same conversation, same saved runs, same command) gets
            # the same id, so its action is found rather than proposed twice.
            seed = "|".join(
                str(part)
                for part in (
                    self.sys["convid"],
                    len(self.state.get("runs") or []),
                    self.agent.name,
                    frame["function"],
                    frame["pc"],
                    self.actions,
                )
            )
            return effects.action(
                user=self.sys["user"],
                account=self.account,
                agent=self.agent,
                convid=self.sys["convid"],
                seed=seed,
                kind=args.kind,
                payload=self.render(frame, args.payload),
                approval=args.approval,
            )
        except AgentError:
            raise
        except Exception as exc:  # a store that is down, a payload the ledger refuses
            raise AgentError(str(exc)) from exc

    def _command_return(
        self, stack: list[dict[str, Any]], frame: dict[str, Any], args: ReturnArgs
    ) -> tuple[str, Any] | None:
        value = self.render(frame, args.value)
        self._return(stack, value)
        return ("success", None) if not stack else None

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

    def _saved(self, held: Held) -> dict[str, tuple[str, dict[str, Any]]]:
        """The saved records a data command takes values from: ``{variable: (data source,
        record)}``."""
        conv = self.state["conv"]
        variables = {*held.given.values(), *held.where.values()}
        if held.base:
            variables.add(held.base)
        return {
            name: (VARIABLE_SOURCES[name], conv[name])
            for name in variables
            if name in VARIABLE_SOURCES and isinstance(conv.get(name), dict)
        }

    def _name_said(self) -> str | None:
        """The name the request gives the record this agent makes, if it gives one."""
        creating = _creating(self.agent)
        if creating is None:
            return None
        today = date.fromisoformat(self.sys["today"])
        query = str(self.sys.get("query", ""))
        return self.engine.world.name_said(creating.source, query, today)

    def _record_said(self) -> dict[str, Any]:
        """What the request states of the record this agent makes ({} when it makes none),
        read once a run: a form field's opening asks for it twice (exists, then value)."""
        if self._record_stated is None:
            creating = _creating(self.agent)
            today = date.fromisoformat(self.sys["today"])
            query = str(self.sys.get("query", ""))
            self._record_stated = (
                {}
                if creating is None
                else self.engine.world.stated_fields(creating.source, query, today)
            )
        return self._record_stated

    def _asks_about_made(self) -> bool:
        """Whether the request asks about the record this agent made in the conversation."""
        creating = _creating(self.agent)
        made = self._made(creating) if creating is not None else None
        if creating is None or made is None:
            return False
        today = date.fromisoformat(self.sys["today"])
        query = str(self.sys.get("query", ""))
        return self.engine.world.asks_about_made(creating.source, query, today, made)

    def _earlier_answers(self) -> dict[str, Any]:
        """The answers this agent was last given to its form here (runs that skipped the
        form have none)."""
        for run in reversed(self.state.get("runs") or ()):
            answers = (run.get("inputs") or {}).get("answers")
            if run.get("agent") == self.agent.name and isinstance(answers, dict):
                return dict(answers)
        return {}

    def _makes(self, agent: str | None) -> bool:
        """Whether ``agent`` makes records (its data command creates), as opposed to changing
        or reading the one the conversation holds; an agent unknown here is taken to."""
        definition = self.engine.agents.get(agent or "")
        return definition is None or _creating(definition) is not None

    def _made(self, args: DataArgs) -> dict[str, Any] | None:
        """The record of ``args.source`` this agent made earlier in the conversation: the one
        it wrote, still in the conversation (no later agent wrote over it), or, for a record
        no variable holds (a laptop reserved), the last one it made here."""
        conv, runs = self.state["conv"], self.state.get("runs") or []
        held = False
        for variable in sorted(_writes_of(self.agent)):
            record = conv.get(variable)
            if VARIABLE_SOURCES.get(variable) != args.source:
                continue
            held = True
            if not isinstance(record, dict):
                continue
            writers = [r.get("agent") for r in runs if variable in (r.get("writes") or ())]
            if self.agent.name not in writers:
                continue
            later = writers[len(writers) - writers[::-1].index(self.agent.name) :]
            # Still the one it made when every agent that wrote it since only changed it ("cut
            # the budget by 20%"), none made another nor ended it (a trip cancelled since is
            # no booking to change: a new flight is a new trip).
            ended = bool(later) and str(record.get("status", "")).lower() in _ENDED
            if not ended and all(not self._makes(name) for name in later):
                return record
        if held or not args.prompt:
            return None
        history = (self.state.get("prompts") or {}).get(args.prompt) or {}
        for message in reversed(history.get("messages") or ()):
            if (
                message.get("role") == "tool_result"
                and message.get("agent") == self.agent.name
                and message.get("name") == f"data.{args.source}"
            ):
                content = message.get("content")
                # A run that made nothing (a refusal, "made already") leaves the earlier record
                # the one this agent made: asked again after it, it is still not made twice.
                if isinstance(content, dict):
                    return self._as_it_stands(args.source, content, runs)
        return None

    def _as_it_stands(
        self, source: str, made: dict[str, Any], runs: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """``made`` as the conversation holds it now: a variable this agent wrote that a later
        run of another agent wrote again (a trip moved, with the room this agent booked on it)
        changes the record too, as its recipe says (``World.as_it_stands``)."""
        since: set[str] = set()
        for run in reversed(runs):
            if run.get("agent") == self.agent.name and run.get("writes"):
                break  # the run that made it (one that only answered wrote nothing)
            if run.get("agent") != self.agent.name:
                since.update(run.get("writes") or ())
        conv = self.state["conv"]
        rewritten = since & _writes_of(self.agent)
        moved = {v: conv[v] for v in rewritten if isinstance(conv.get(v), dict)}
        return self.engine.world.as_it_stands(source, made, moved) if moved else made

    def _request(self, frame: dict[str, Any], template: str | None) -> str:
        """The text a data command reads the request's facts from. A form answer left at its
        default comes after the words typed, so a date the request states wins over the
        form's usual one ("the newsletter next Monday", with the form's default "next
        Tuesday 09:00"); one the user typed stays where the template puts it."""
        if template is None:
            return self.text(frame, "{sys.query}")
        defaulted = [
            m.group(0)
            for m in PLACEHOLDER.finditer(template)
            if m.group(1) is not None and m.group(1) in self.defaulted
        ]
        for placeholder in defaulted:
            template = template.replace(placeholder, "")
        said = self.text(frame, template).strip()
        later = " ".join(self.text(frame, p) for p in defaulted)
        return f"{said} {later}".strip()

    def _in_context(self, text: str) -> str:
        """The request with what it points back to, from the request before it: "our
        agreement with them" is with Apex Print, "my flight there for that day" to Barcelona
        on 2026-12-09 (said after it, so its own facts come first)."""
        kept = self.details()
        if not kept.carried or not points_back(text):
            return text
        values, carried = kept.values, kept.carried
        said = [
            f"with {values[k]}" if k == "company" else values[k] for k in _CONTEXT if k in carried
        ]
        place = next((values[k] for k in ("to", "place") if k in carried), None)
        if place and _THERE_RE.search(text):
            said.append(f"to {place}")
        day = next((values[k] for k in ("date", "dates") if k in carried), None)
        if day and _THAT_DAY_RE.search(text):
            said.append(f"on {day.split(' to ')[0]}")
        return f"{text} ({'; '.join(said)})" if said else text

    def _hold_known(self, frame: dict[str, Any], source: str, known: dict[str, Any]) -> None:
        """Save the existing record a create was refused for as what this agent writes of its
        source, so the next request is about it ("Check their certificates" after "Onboard
        Perez Consulting as a new supplier", which already is one)."""
        fields = SOURCE_FIELDS.get(source, ())
        for variable in sorted(_writes_of(self.agent)):
            if VARIABLE_SOURCES.get(variable) == source:
                held = {k: known[k] for k in fields if k in known}
                self.assign(frame, f"conv.{variable}", held)

    def _named_instead(
        self, request: str, source: str, held: Held, saved: dict[str, tuple[str, dict[str, Any]]]
    ) -> dict[str, Any]:
        """The records the request names in place of the variables a data command on
        ``source`` takes values from, saved or not ("bill the customer for order ORD-000021"
        in a new conversation is about that order); its own kind of record the world
        resolves itself."""
        taken = {*held.given.values(), *held.where.values()}
        candidates = {
            name: saved.get(name) or (VARIABLE_SOURCES[name], {})
            for name in taken
            if name in VARIABLE_SOURCES and name not in MADE_FROM_SOURCE
        }
        candidates = {name: pair for name, pair in candidates.items() if pair[0] != source}
        if not candidates:
            return {}
        today = date.fromisoformat(self.sys["today"])
        return self.engine.world.named_instead(request, today, candidates, self.sys["user"])

    def data(self, frame: dict[str, Any], args: DataArgs) -> None:
        match = self.text(frame, args.match) if args.match is not None else None
        call: dict[str, Any] = {"source": args.source}
        if args.action == "match":
            where = self.render(frame, args.where) if args.where is not None else None
            records = self.engine.data.lookup(
                args.source, match=match, where=where, limit=args.limit
            )
            value: Any = (records[0] if records else None) if args.limit == 1 else records
            call.update(match=match, where=where, limit=args.limit)
        else:
            request = self._request(frame, args.request)
            if args.action == "create" and _THIRD_PERSON_RE.search(request):
                # "Get the HR side of her onboarding going, her buddy is Arjun Pillai": she is
                # the person the request before named (Hannah Lim), not the buddy nor someone
                # made up.
                request = self._in_context(request)
            given_templates, fixed_templates = dict(args.given or {}), dict(args.fixed or {})
            for key, template in list(fixed_templates.items()):
                whole = WHOLE.match(template) if isinstance(template, str) else None
                if whole and whole.group(1) in self.defaulted:
                    given_templates.setdefault(key, fixed_templates.pop(key))
            held = _held_by(args)
            saved = self._saved(held)
            self.named = named = self._named_instead(request, args.source, held, saved)
            try:
                if args.base is not None:
                    base = self.render(frame, args.base)
                else:
                    # A lookup that names nothing is about what this agent found last here
                    # ("Send it to them" after a list price): "which product? there is none
                    # in this conversation" would contradict the answer just given. (The
                    # user's own records go by ``made``: the world's requester path.)
                    found_here = args.action == "find" and not args.requester
                    base = self._made(args) if found_here else None
                given = self.present(frame, given_templates)
                fixed = self.present(frame, fixed_templates)
                # Filters of missing values are left out (``present``), not matched as empty.
                where = self.present(frame, args.where) if args.where is not None else None
            finally:
                self.set_aside.update(self.named)
                self.named = {}
            try:
                act = functools.partial(
                    self.engine.world.act,
                    args.action,
                    args.source,
                    today=date.fromisoformat(self.sys["today"]),
                    user=self.sys["user"],
                    base=base if isinstance(base, dict) else None,
                    expects_base=args.base is not None,
                    given=given,
                    fixed=fixed,
                    where=where,
                    match=match,
                    requester=args.requester,
                    others=args.others,
                    sample=args.sample,
                    makes=args.makes,
                    requires=args.requires,
                    made=self._made(args) if args.action == "create" or args.requester else None,
                    held=held,
                    # The values came from the record the request named, where it named
                    # one; one the agent writes anew is replaced by a new one of its kind (a
                    # new flight for a cancelled trip), not made from it; one it only adds to
                    # (a rental car on the trip) is still the one it works from.
                    saved={
                        k: v
                        for k, v in {
                            **saved,
                            **{k: (VARIABLE_SOURCES[k], r) for k, r in named.items()},
                        }.items()
                        if (k in named or k not in self.set_aside)
                        and k not in _replaces_of(self.agent)
                    },
                )
                outcome = act(request=request)
                if outcome.record is None and outcome.message.startswith("Which "):
                    # "Which contract?" of "our agreement with them": what "them" is, the
                    # request before said (Apex Print).
                    pointed = self._in_context(request)
                    if pointed != request:
                        retried = act(request=pointed)
                        outcome = retried if retried.record is not None else outcome
            except ValueError as exc:
                raise AgentError(str(exc)) from exc
            value = outcome.record
            self.set_aside.update(outcome.set_aside)
            if value is None and outcome.known is not None:
                self._hold_known(frame, args.source, outcome.known)
            frame["locals"][args.outcome] = outcome.report()
            call.update(action=args.action, stated=outcome.stated)
            if isinstance(base, dict):
                call["base"] = base
            for key, entries in (("given", given), ("fixed", fixed), ("where", where)):
                if entries:
                    call[key] = entries
            if outcome.changed:
                call["changed"] = outcome.changed
        frame["locals"][args.into] = value
        if args.prompt:
            history = self.prompt(args.prompt)
            history["messages"].append(
                {
                    "role": "tool_call",
                    "name": f"data.{args.source}",
                    "arguments": call,
                    "agent": self.agent.name,
                }
            )
            result = {
                "role": "tool_result",
                "name": f"data.{args.source}",
                "content": value,
                "agent": self.agent.name,
            }
            if isinstance(value, dict) and value.get("email") == self.sys["user"]:
                # The user's own record: nothing the model needs to recall to them.
                result["own"] = True
            history["messages"].append(result)


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
        run = _Run(self, agent, work, sys_vars, deadline, stop, memory, account)
        run.on_part = on_part
        if waiting is not None:
            resumed = _resume(run, waiting, inputs)
            if isinstance(resumed, RunOutcome):
                return resumed
            stack, run_inputs = resumed
        else:
            stack = [{"function": "main", "pc": 0, "locals": {}, "into": None}]
            run_inputs = copy.deepcopy(inputs)
        run.read_in_context()
        try:
            code, detail = run.execute(stack)
        except AgentError as exc:
            return RunOutcome("errorInAgent", error=f"Agent '{agent.name}' failed: {exc}")
        except _Timeout:
            return RunOutcome("timedOut", error=f"Agent '{agent.name}' ran out of time.")
        except _Stopped:
            return RunOutcome("stopped", error="The run was stopped.")
        if code == "failCommand":
            return RunOutcome("failCommand", error=str(detail))
        return _finish(run, stack, run_inputs, code, detail, now)


def _resume(
    run: _Run, waiting: dict[str, Any], inputs: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]] | RunOutcome:
    """Continue a run paused on ``ask`` with its answers: the stack and the run's inputs, or
    the ask again when the answers do not fit the form."""
    paused = waiting["paused"]
    problem = _check_answers(paused["ask"], inputs)
    if problem:
        return RunOutcome(
            "ask",
            parts=[{"contentType": "text", "text": problem}],
            ask_input=paused["ask"],
        )
    stack = paused["stack"]
    run.local_prompts = paused.get("localPrompts", {})
    answers = {i["name"]: inputs.get(i["name"], i.get("default")) for i in paused["ask"]["inputs"]}
    run.defaulted = {
        f"{paused['into']}.{i['name']}"
        for i in paused["ask"]["inputs"]
        if i.get("default") not in (None, "", []) and answers[i["name"]] == i.get("default")
    }
    stack[-1]["locals"][paused["into"]] = answers
    run.sys["query"] = waiting["inputs"].get("query", "")
    run.reads.update(waiting.get("reads", []))
    run.writes.update(waiting.get("writes", []))
    for part in waiting.get("output", {}).get("parts", []):
        run.emit(part)
    run.state["runs"].pop()
    # Passwords reach the agent as locals but are never written into the run record.
    kept = {
        i["name"]: ("********" if i.get("type") == "password" else answers[i["name"]])
        for i in paused["ask"]["inputs"]
    }
    return stack, {**waiting["inputs"], "answers": kept}


_HELD_CACHE: dict[int, tuple[DataArgs, Held]] = {}
#: Where a record stands once it is over: another agent ended it.
_ENDED = frozenset(
    "cancelled canceled terminated closed returned withdrawn declined rejected".split()
)
#: The default of a free-text form field that is the request itself, as a note.
_REQUEST_NOTE = "{sys.stated.note}"


def _held_by(args: DataArgs) -> Held:
    """Which conversation variable each value of a data command comes from; found once per
    command (agent definitions are immutable), since every run of it asks. Keyed by identity,
    with the command kept alive so its id is not reused (as ``program.compiled`` does)."""
    hit = _HELD_CACHE.get(id(args))
    if hit is None:
        held = Held(
            given=_held(args.given or {}),
            where=_held(args.where or {}),
            base=_held({"base": args.base}).get("base"),
        )
        hit = _HELD_CACHE[id(args)] = (args, held)
    return hit[1]


_IO_CACHE: dict[int, tuple[AgentDefinition, AgentIO]] = {}
_CREATING_CACHE: dict[int, tuple[AgentDefinition, DataArgs | None]] = {}


def _creating(agent: AgentDefinition) -> DataArgs | None:
    """The agent's data command that creates a record, if it has one (found once per
    definition, like its writes)."""
    hit = _CREATING_CACHE.get(id(agent))
    if hit is None:
        found = None
        for command in walk_commands(list(agent.main)):
            args = command_args(command)
            if isinstance(args, DataArgs) and args.action == "create":
                found = args
                break
        hit = _CREATING_CACHE[id(agent)] = (agent, found)
    return hit[1]


_VOCABULARY_CACHE: dict[int, tuple[AgentDefinition, frozenset[str]]] = {}
_WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]*")


def _vocabulary_of(agent: AgentDefinition) -> frozenset[str]:
    """The words an agent uses of itself (title, description, examples, name), as
    ``details.word_key`` compares them: what its answer need not repeat of a request. An agent
    that only answers says what it was asked about, its own words included ("the liability
    cap" to the agent that looks up clauses)."""
    if not agent.acts:
        return frozenset()
    hit = _VOCABULARY_CACHE.get(id(agent))
    if hit is None:
        name = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", agent.name)
        # What its form asks and offers is its own too ("travel" to the agent whose form
        # asks for a claim's category, travel among them).
        asked = [
            " ".join((spec.label or spec.name, *(spec.options or ())))
            for command in walk_commands(list(agent.main))
            if isinstance(args := command_args(command), AskArgs)
            for spec in args.inputs
        ]
        said = " ".join((agent.title, agent.description, *agent.examples, name, *asked))
        words = frozenset(word_key(w) for w in _WORDS.findall(said))
        hit = _VOCABULARY_CACHE[id(agent)] = (agent, words)
    return hit[1]


def _writes_of(agent: AgentDefinition) -> frozenset[str]:
    """The conversation variables an agent writes, found once per (immutable) definition."""
    return _io_of(agent).writes


def _replaces_of(agent: AgentDefinition) -> frozenset[str]:
    """The conversation variables an agent writes whole (not only some of their fields)."""
    return _io_of(agent).replaces


def _io_of(agent: AgentDefinition) -> AgentIO:
    hit = _IO_CACHE.get(id(agent))
    if hit is None:
        hit = _IO_CACHE[id(agent)] = (agent, agent_io(agent))
    return hit[1]


def _held(templates: dict[str, Any]) -> dict[str, str]:
    """The conversation variable each template takes its value from (one variable only)."""
    held: dict[str, str] = {}
    for key, template in templates.items():
        paths = TEMPLATE_PATH_RE.findall(template) if isinstance(template, str) else []
        roots = {p.split(".")[1] for p in paths if p.startswith("conv.")}
        if len(roots) == 1:
            held[key] = roots.pop()
    return held


def _finish(
    run: _Run,
    stack: list[dict[str, Any]],
    run_inputs: dict[str, Any],
    code: ResultCode,
    detail: Any,
    now: datetime,
) -> RunOutcome:
    """Append the record of a run that ended with ``end``, ``return`` or ``ask``."""
    ask_input = None
    paused: PausedRun | None = None
    if code == "ask":
        ask: AskArgs = detail
        ask_input = {
            "message": run.text(stack[-1], ask.message),
            "inputs": [_with_default(run, stack[-1], i) for i in ask.inputs],
        }
        paused = {
            "stack": stack,  # type: ignore[typeddict-item]
            "ask": ask_input,
            "into": ask.into,
            "localPrompts": run.local_prompts,
        }
    record = run_record(
        agent=run.agent.name,
        version=run.agent.version,
        inputs=run_inputs,
        parts=run.parts,
        ran_at=now.isoformat(),
        result_code=code,
        reads=sorted(run.reads - run.set_aside),
        writes=sorted(run.writes),
        paused=paused,
    )
    run.state["runs"].append(record)
    return RunOutcome(
        code,
        parts=run.parts,
        ask_input=ask_input,
        state=run.state,
        reads=sorted(run.reads - run.set_aside),
        writes=sorted(run.writes),
        memory=run.memory if run.memory_writes else None,
        memory_reads=sorted(run.memory_reads),
        memory_writes=sorted(run.memory_writes),
    )


def _with_default(run: _Run, frame: dict[str, Any], spec: AskInput) -> dict[str, Any]:
    """An ask input as sent, its default filled from the request: the form shows what the
    user already said. A template ("{sys.stated.quantities.0.count}") is filled in; a
    choice takes the options the request names ("... to production") over its fixed
    default; a date (an input named ``*_date``) the date the request states."""
    shown = spec.model_dump(exclude_none=True)
    default = shown.get("default")
    kept = run.details()
    if spec.type == "str" and not spec.name.endswith("_date"):
        # A value typed under the field's own label ("Username r.koh") is the answer to it.
        labelled = labelled_value(str(run.sys.get("query", "")), spec.label or "", spec.name)
        if labelled:
            return shown | {"default": labelled}
    if spec.type == "str" and spec.name.endswith("_date") and isinstance(default, str):
        # A date asked for opens at the one the request states ("next Monday at 9am"), not
        # at the form's usual one ("next Tuesday 09:00", which the record did not take); a
        # follow-up that states none, at the day the conversation holds, as it moved it
        # ("push it back by a day").
        said = run.text(frame, "{sys.stated.when_said}").strip()
        if said:
            return shown | {"default": said}
        held = _held_day(kept)
        if held:
            return shown | {"default": held}
    if isinstance(default, str) and "{" in default:
        # A default of several values ("{…count} x {…item}") is shown only whole: "x" alone,
        # when the request stated no quantity, is no answer.
        paths = [m.group(0) for m in PLACEHOLDER.finditer(default) if m.group(1)]
        whole = all(run.text(frame, path).strip() for path in paths)
        value = run.text(frame, default).strip() if whole else ""
        if value and (not spec.options or value in spec.options):
            return shown | {"default": value}
        shown.pop("default")
    if spec.options and spec.type in ("chooseOne", "chooseMany"):
        named = named_options(str(run.sys.get("query", "")), spec.options)
        if not named and kept.carried:
            # What the request before said stands ("ship the same version": to production).
            carried = " ".join(kept.values[k] for k in kept.carried)
            named = named_options(carried, spec.options)
        if spec.type == "chooseMany" and named:
            shown["default"] = list(named)
        elif len(named) == 1:
            shown["default"] = named[0]
        elif not named:
            # "Locked out of Windows": the sign-in named by the one word only it has; "in
            # prod": the production environment.
            by_word = option_by_word(str(run.sys.get("query", "")), spec.options)
            if by_word:
                shown["default"] = [by_word] if spec.type == "chooseMany" else by_word
    elif "default" not in shown and spec.type in ("str", "text"):
        # A field the request (or the one it follows on from) states a fact for opens at it:
        # "Version or git tag" at "4.18.2".
        stated = _detail_for(spec.name, spec.label or "", kept)
        if stated:
            shown["default"] = stated
    return shown


# Which detail a form field takes, by the words of its name and label.
_FIELD_DETAILS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("version", ("version", "tag", "release")),
    ("environment", ("environment",)),
    ("product", ("product", "model", "sku", "item", "device")),
    ("quantity", ("quantity", "how many", "seats", "units")),
    ("amount", ("amount", "budget", "cost", "price", "value")),
    ("code", ("flag", "service", "repository", "job", "code")),
    ("company", ("company", "customer", "supplier", "vendor", "organisation")),
    ("person", ("person", "contact", "candidate", "employee", "attendee")),
    ("email", ("email", "e-mail")),
    ("phone", ("phone", "number")),
    ("duration", ("duration", "how long", "term", "length")),
    ("percentage", ("percentage", "rollout", "share", "discount")),
    ("time", ("time",)),
    ("title", ("title", "subject", "headline", "name")),
)


def _detail_for(name: str, label: str, details: Details) -> str | None:
    said = f"{name.replace('_', ' ')} {label}".casefold()
    for key, words in _FIELD_DETAILS:
        if key in details.values and any(re.search(rf"\b{w}\b", said) for w in words):
            return details.values[key]
    return None


def _held_day(details: Details) -> str | None:
    """The day (and time) a follow-up carries from the request before, as a form date."""
    keys = ("date", "dates", "due")
    if not any(k in details.carried or k in details.changed for k in keys):
        return None
    day = next((details.values[k] for k in keys if k in details.values), "")
    day = day.split(" to ", 1)[0]
    time = details.values.get("time", "")
    return f"{day} {time}".strip() or None


def _check_answers(ask: dict[str, Any], inputs: dict[str, Any]) -> str | None:
    """A readable problem with the answers to an ask, or None when they are usable."""
    for spec in ask["inputs"]:
        value = inputs.get(spec["name"], spec.get("default"))
        label = spec.get("label", spec["name"])
        options = spec.get("options") or []
        if value is None or value == "" or value == []:
            return f"Please answer '{label}'."
        if spec.get("type") == "chooseOne" and options and value not in options:
            return f"'{label}' must be one of: {', '.join(options)}."
        if spec.get("type") == "chooseMany" and options:
            if not isinstance(value, list) or any(v not in options for v in value):
                return f"'{label}' must be a list of: {', '.join(options)}."
    return None
