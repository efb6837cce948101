"""The agent file format: typed models for one agent.

An agent file is YAML. Each command in ``main`` (and in a named function) is a
mapping with exactly one key, the command's name::

    main:
      - prompt: {name: chat, scope: conversation, system: "You book trips.", user: "{sys.query}"}
      - data: {source: flights, match: "{sys.query}", into: flight}
      - var: {name: conv.trip, value: {destination: "{flight.destination}"}}
      - llm: {prompt: chat, reply: "Booked {conv.trip.destination}."}
      - output: "{result}"
      - end: {}

Values are templates: ``{dotted.path}`` is replaced by the value at that path
(``sys.query``, ``conv.trip.destination``, ``agent.notes``, ``result``, a local).
There is no expression language: nothing in an agent file is evaluated as code.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Union, get_args

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag

from agents_catalog.workflow_format import WorkflowDefinition

NAME_PATTERN = r"^[A-Za-z][A-Za-z0-9_]*[A-Za-z0-9]$"
TAG_PATTERN = r"^[a-z0-9]+(_[a-z0-9]+)*$"
IDENT_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
# A variable target: `conv.x`, `agent.x` or a local `x`, optionally with a sub-path.
VAR_TARGET_PATTERN = r"^(?:(?:conv|agent)\.)?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*$"

PromptScope = Literal["conversation", "agent", "local"]
InputType = Literal["str", "password", "text", "chooseOne", "chooseMany"]
CompareOp = Literal["==", "!=", "<", "<=", ">", ">=", "contains", "not_contains"]
DataSource = Literal[
    "customers",
    "orders",
    "employees",
    "flights",
    "hotels",
    "invoices",
    "expenses",
    "tickets",
    "incidents",
    "contracts",
    "vendors",
    "campaigns",
    "candidates",
    "products",
    "assets",
    "car_rentals",
]
DATA_SOURCES: tuple[str, ...] = get_args(DataSource)
DataAction = Literal["match", "find", "create", "update"]
DATA_ACTIONS: tuple[str, ...] = get_args(DataAction)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- command arguments -------------------------------------------------------


class PromptArgs(_Strict):
    """Declare a named prompt (and its system text) and optionally add a user turn."""

    name: str = Field(pattern=IDENT_PATTERN, max_length=64)
    scope: PromptScope = "conversation"
    system: str | None = Field(default=None, max_length=5000)
    user: str | None = Field(default=None, max_length=5000)


class LlmArgs(_Strict):
    """Ask the model to answer the named prompt; the answer goes to `into`."""

    prompt: str = Field(pattern=IDENT_PATTERN, max_length=64)
    reply: str = Field(
        max_length=5000,
        description="The agent's reply template; the mock model fills it and adds what it recalls.",
    )
    into: str = Field(default="result", pattern=IDENT_PATTERN)


class AskInput(_Strict):
    name: str = Field(pattern=IDENT_PATTERN, max_length=64)
    type: InputType = "str"
    label: str = Field(max_length=200)
    description: str | None = Field(default=None, max_length=1000)
    options: list[str] | None = None
    default: str | list[str] | None = None
    hidden: bool = False


class AskArgs(_Strict):
    """Pause the run and ask the user; answers are stored in the local `into`."""

    message: str = Field(max_length=5000)
    inputs: list[AskInput] = Field(min_length=1)
    into: str = Field(default="answers", pattern=IDENT_PATTERN)


class VarArgs(_Strict):
    """Set `conv.x`, `agent.x` or a local `x` to a (templated) value."""

    name: str = Field(pattern=VAR_TARGET_PATTERN, max_length=200)
    value: Any = None


class Condition(_Strict):
    """`exists: path`, `missing: path`, or `left` `op` `right` (templates)."""

    exists: str | None = None
    missing: str | None = None
    left: str | None = None
    op: CompareOp | None = None
    right: Any = None


class IfArgs(_Strict):
    when: Condition
    then: list[Command] = Field(default_factory=list)
    else_: list[Command] = Field(default_factory=list, alias="else")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ForArgs(_Strict):
    """Run `do` once per item of the list at `each`, with the item in local `as`."""

    each: str = Field(max_length=200)
    as_: str = Field(alias="as", pattern=IDENT_PATTERN)
    do: list[Command] = Field(default_factory=list)

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class DataArgs(_Strict):
    """Work with mock business records; the record (or a list) goes to `into`.

    ``action`` says what the agent does with the request:

    - ``match`` (default): the records that share the most words with ``match`` (and
      satisfy ``where``), best first; a text that shares none still gets a record.
    - ``find``: the record the request names (an id, a name, a place). When it names one
      that does not exist, `into` is null and `outcome.message` says so with the closest
      names; it never answers with another record. When the request names none, the
      record in ``base`` (what the conversation holds), else the best ``match``.
    - ``create``: a new record built from the facts the request states, then ``given``
      (values the conversation holds), Faker filling only what is left open.
    - ``update``: the record found as for ``find`` (or ``base``), changed by what the
      request states (new dates, a shift, an amount...) and by ``fixed``.

    ``fixed`` always wins (answers given in a form, constants such as ``status:
    cancelled``); facts stated in the request win over ``given`` and ``base``. An entry of
    ``given`` or ``fixed`` whose template refers to a missing value is left out.

    A constant in ``where`` (no template: ``direction: receivable``; a list is any of its
    values) is the kind of record a find or an update works on: a record of another kind,
    saved or named, is not worked on, and ``outcome.message`` says why.
    """

    source: DataSource
    action: DataAction = "match"
    match: str | None = Field(default=None, max_length=5000)
    where: dict[str, Any] | None = None
    request: str | None = Field(
        default=None,
        max_length=5000,
        description="The text whose stated facts are used (find, create, update); "
        "default: the user's request.",
    )
    base: str | None = Field(
        default=None,
        max_length=200,
        description="find / update: the record the conversation already holds, e.g. '{conv.trip}'.",
    )
    given: dict[str, Any] | None = Field(
        default=None,
        description="Fields taken from what the conversation holds; the request's own facts "
        "win over them.",
    )
    fixed: dict[str, Any] | None = Field(
        default=None,
        description="Fields that win over everything: form answers, constants.",
    )
    requester: bool = Field(
        default=False,
        description="find / update of people: when the request speaks of the user ('I', "
        "'my') and names nobody else, the record is the user's own. create: the record is "
        "the user's own (their trip), and one the request makes for someone else is refused.",
    )
    others: bool = Field(
        default=False,
        description="find / update for someone else (a manager approving a claim): a record "
        "that is the user's own is not worked on, and outcome.message says who does.",
    )
    sample: bool = Field(
        default=False,
        description="find: one record stands for many (an audience segment, the suppliers "
        "asked for quotes), so a request that names none is not asked which one.",
    )
    makes: bool = Field(
        default=False,
        description="find for an agent that acts on what it finds (issue a key, chase a "
        "supplier): a record the request names that the data lacks is made from what the "
        "request states, as a create would, instead of reported missing.",
    )
    requires: dict[str, dict[str, Any]] | None = Field(
        default=None,
        description="The kind of saved record the command takes values from, by variable: "
        "{expense: {category: meals}} (a list is any of its values). From a saved record of "
        "another kind nothing is taken, and outcome.message says why.",
    )
    limit: int = Field(default=1, ge=1, le=50)
    into: str = Field(default="record", pattern=IDENT_PATTERN)
    outcome: str = Field(
        default="outcome",
        pattern=IDENT_PATTERN,
        description="find / create / update: the local that receives {found, asked, kind, "
        "closest, message, stated, changed}.",
    )
    prompt: str | None = Field(
        default=None,
        pattern=IDENT_PATTERN,
        description="Record the lookup as a tool call and its result in this prompt's history.",
    )


class OutputArgs(_Strict):
    text: str = Field(max_length=100_000)
    contentType: Literal["text", "html", "image"] = "text"  # noqa: N815 - wire name
    mimeType: str | None = None  # noqa: N815 - wire name


class EndArgs(_Strict):
    pass


class ReturnArgs(_Strict):
    value: Any = None


class FailArgs(_Strict):
    message: str = Field(max_length=5000)


class FuncArgs(_Strict):
    """Call a named function of this agent; its return value goes to `into`."""

    name: str = Field(pattern=IDENT_PATTERN)
    args: dict[str, Any] = Field(default_factory=dict)
    into: str | None = Field(default=None, pattern=IDENT_PATTERN)


class WorkflowStepArgs(_Strict):
    """Move the user through a workflow: collect values (templates), then optionally try to
    advance. The progress view (stage, values, goals, history, ``advanced``, ``unmet``,
    ``error``) goes to the local `into`."""

    workflow: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]{0,47}$",
        description="The workflow's name; by default the one this agent declares.",
    )
    collect: dict[str, Any] = Field(default_factory=dict)
    advance: bool = False
    into: str = Field(default="workflow", pattern=IDENT_PATTERN)


ActionKind = Literal["email", "im", "connector"]


class ActionArgs(_Strict):
    """An effect outside (an email, an IM message, a connector write). With ``approval`` (the
    default) it waits for the user's approval and then runs once; without, it runs at once.
    Either way it runs at most once, and it stands even if the rest of the run fails. The
    action (id, status) goes to the local `into`."""

    kind: ActionKind
    payload: dict[str, Any] = Field(default_factory=dict)
    approval: bool = True
    into: str = Field(default="action", pattern=IDENT_PATTERN)


# --- commands (one key each) -------------------------------------------------


class PromptCommand(_Strict):
    prompt: PromptArgs


class LlmCommand(_Strict):
    llm: LlmArgs


class AskCommand(_Strict):
    ask: AskArgs


class VarCommand(_Strict):
    var: VarArgs


class IfCommand(_Strict):
    if_: IfArgs = Field(alias="if")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class ForCommand(_Strict):
    for_: ForArgs = Field(alias="for")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class DataCommand(_Strict):
    data: DataArgs


class OutputCommand(_Strict):
    output: str | OutputArgs


class EndCommand(_Strict):
    end: EndArgs | None = None


class ReturnCommand(_Strict):
    return_: ReturnArgs | None = Field(default=None, alias="return")

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class FailCommand(_Strict):
    fail: FailArgs


class FuncCommand(_Strict):
    func: FuncArgs


class WorkflowCommand(_Strict):
    workflow: WorkflowStepArgs


class ActionCommand(_Strict):
    action: ActionArgs


COMMAND_NAMES = (
    "prompt",
    "llm",
    "ask",
    "var",
    "if",
    "for",
    "data",
    "output",
    "end",
    "return",
    "fail",
    "func",
    "workflow",
    "action",
)
_BY_ATTR = {
    "prompt": "prompt",
    "llm": "llm",
    "ask": "ask",
    "var": "var",
    "if_": "if",
    "for_": "for",
    "data": "data",
    "output": "output",
    "end": "end",
    "return_": "return",
    "fail": "fail",
    "func": "func",
    "workflow": "workflow",
    "action": "action",
}


def command_kind(value: Any) -> str | None:
    """The command name of a raw mapping or a parsed command (the discriminator)."""
    if isinstance(value, dict):
        if len(value) == 1:
            key = next(iter(value))
            return key if key in COMMAND_NAMES else None
        return None
    if isinstance(value, BaseModel):
        for attr in type(value).model_fields:
            return _BY_ATTR.get(attr)
    return None


Command = Annotated[
    Union[  # noqa: UP007 - the discriminated union reads best as a list
        Annotated[PromptCommand, Tag("prompt")],
        Annotated[LlmCommand, Tag("llm")],
        Annotated[AskCommand, Tag("ask")],
        Annotated[VarCommand, Tag("var")],
        Annotated[IfCommand, Tag("if")],
        Annotated[ForCommand, Tag("for")],
        Annotated[DataCommand, Tag("data")],
        Annotated[OutputCommand, Tag("output")],
        Annotated[EndCommand, Tag("end")],
        Annotated[ReturnCommand, Tag("return")],
        Annotated[FailCommand, Tag("fail")],
        Annotated[FuncCommand, Tag("func")],
        Annotated[WorkflowCommand, Tag("workflow")],
        Annotated[ActionCommand, Tag("action")],
    ],
    Discriminator(
        command_kind,
        custom_error_type="invalid_command",
        custom_error_message=(
            "a command is a mapping with exactly one key, one of: " + ", ".join(COMMAND_NAMES)
        ),
    ),
]

IfArgs.model_rebuild()
ForArgs.model_rebuild()


def command_args(command: BaseModel) -> Any:
    """The argument object of a parsed command (``{"llm": {...}}`` -> the LlmArgs)."""
    attr = next(iter(type(command).model_fields))
    args = getattr(command, attr)
    if args is None and isinstance(command, EndCommand):
        return EndArgs()
    if args is None and isinstance(command, ReturnCommand):
        return ReturnArgs()
    return args


class AgentDefinition(_Strict):
    """One agent of the account, as written in its YAML file."""

    name: str = Field(min_length=2, max_length=32, pattern=NAME_PATTERN)
    title: str = Field(min_length=1, max_length=80)
    tag: str = Field(min_length=1, max_length=16, pattern=TAG_PATTERN)
    description: str = Field(min_length=1, max_length=5000)
    examples: list[str] = Field(default_factory=list)
    version: str = Field(default="1.0.0", pattern=r"^[0-9]+(\.[0-9]+){0,2}$")
    main: list[Command] = Field(min_length=1)
    functions: dict[str, list[Command]] = Field(default_factory=dict)
    followups: dict[str, str] = Field(
        default_factory=dict,
        description="Suggested follow-ups: for a conversation variable this agent continues "
        "from, what a user would type to reach it once another agent saved it (a template "
        "over conv.*, e.g. 'File my expenses for the {conv.trip.destination} trip').",
    )

    workflow: WorkflowDefinition | None = Field(
        default=None,
        description="A workflow of stages this agent takes users through (progress is kept "
        "per user: stage, collected values, goal results, history).",
    )

    def function(self, name: str) -> list[Any]:
        return list(self.main) if name == "main" else list(self.functions[name])

    @property
    def acts(self) -> bool:
        """Whether the agent does something (makes or changes a record, works on the user's own,
        acts on what it finds, or takes a form) rather than only answers a question."""
        for command in walk_commands(list(self.main)):
            args = command_args(command)
            if isinstance(args, AskArgs):
                return True
            if isinstance(args, DataArgs) and (
                args.action in ("create", "update") or args.requester or args.makes
            ):
                return True
        return False

    @property
    def creates(self) -> bool:
        """Whether the agent makes a new record (places an order, opens a case)."""
        return any(
            isinstance(args, DataArgs) and args.action == "create"
            for args in map(command_args, walk_commands(list(self.main)))
        )


def walk_commands(commands: list[Any]) -> Any:
    """Yield every command of a block, depth first, including nested if/for bodies."""
    for command in commands:
        yield command
        args = command_args(command)
        if isinstance(args, IfArgs):
            yield from walk_commands(list(args.then))
            yield from walk_commands(list(args.else_))
        elif isinstance(args, ForArgs):
            yield from walk_commands(list(args.do))


TEMPLATE_PATH_RE = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}(?!\})")


def agent_json_schema() -> dict[str, Any]:
    """The published JSON Schema of an agent file."""
    schema = AgentDefinition.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://search2o.example/schemas/agent.json"
    schema["title"] = "Agent definition"
    return schema
