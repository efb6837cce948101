"""Run a writer, then a reader, in one conversation; check the reader used what was saved.

Shared by the hand-off suite and by the proof that the suite bites (a reader whose
``conv.*`` read is removed must fail it). The check is on structured values, never on the
answer's text: the reader's record (the tool result in its ``chat`` history) must carry
the saved values that its data command takes from the conversation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from agents_catalog.agent_format import TEMPLATE_PATH_RE, DataArgs, command_args, walk_commands
from agents_catalog.graph import CONTEXT_VARIABLES, agent_io
from mock_account.conversations.followups import Followups, shown
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.engine.mock_model import MockModel
from mock_account.engine.templates import lookup, render_text
from mock_account.world import fits, kind_of

TODAY = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)


def pinned_deployment(tmp: Path, account_dir: Path | None = None) -> Deployment:
    config = AccountConfig(data_dir=tmp, store_url="memory://", clock=lambda: TODAY)
    if account_dir is not None:
        config.account_dir = account_dir
    return build_deployment(config)


# What a person types into a free-text field, by the field's name.
TYPED = {
    "company_name": "Northwind Traders",
    "contact_email": "buyer@northwind.example",
    "caller_name": "Jane Doe",
    "product": "standing desk",
    "quantity": "12",
    "distance_km": "120",
    "amount": "45.60",
    "item": "lab centrifuge",
    "send_date": "15 January",
    "phone": "+44 20 7946 0000",
    "campaign_name": "Winter Partner Push",
    "iban": "DE89370400440532013000",
    "account_holder": "Jane Doe",
    "username": "jdoe",
}


def answers_for(ask_input: Mapping[str, Any]) -> dict[str, Any]:
    """Plausible answers to a form: the default, else the first option, else what a
    person would type there."""
    out: dict[str, Any] = {}
    for spec in ask_input["inputs"]:
        default, options = spec.get("default"), spec.get("options") or []
        if default not in (None, "", []):
            out[spec["name"]] = default
        elif spec["type"] == "chooseMany":
            out[spec["name"]] = options[:1] or ["x"]
        elif options:
            out[spec["name"]] = options[0]
        else:
            out[spec["name"]] = TYPED.get(spec["name"], "as discussed with the team")
    return out


def run_agent(deployment: Deployment, user: Any, agent: str, query: str, convid: str | None):
    account = deployment.account
    result = account.exec_agent(user, agent, {"query": query}, convid)
    while result.success and result.result_code == "ask":
        result = account.exec_agent(user, agent, answers_for(result.ask_input), result.convid)
    return result


@dataclass
class Journey:
    writer: str
    reader: str
    variable: str
    request: str = ""
    problems: list[str] = field(default_factory=list)
    checked: int = 0


def data_command(deployment: Deployment, agent: str) -> DataArgs | None:
    definition = deployment.account.agents[agent]
    for command in walk_commands(list(definition.main)):
        args = command_args(command)
        if isinstance(args, DataArgs):
            return args
    return None


def _may_make(creator: DataArgs, kind: Mapping[str, Any]) -> bool:
    """Whether a creator's fixed values allow a record of that kind."""
    fixed = {k: v for k, v in (creator.fixed or {}).items() if k in kind}
    return fits(fixed, {k: v for k, v in kind.items() if k in fixed})


_FOLLOWUPS: dict[int, tuple[Any, Followups]] = {}


def followups_of(deployment: Deployment) -> Followups:
    """The deployment's follow-up suggester, built once (it builds the hand-off graph)."""
    account = deployment.account
    hit = _FOLLOWUPS.get(id(account))
    if hit is None:
        hit = _FOLLOWUPS[id(account)] = (account, Followups(account.agents.values(), account.index))
    return hit[1]


def reader_request(deployment: Deployment, reader: str, variable: str, conv: dict) -> str | None:
    """The reader's suggested follow-up for the variable, written from the saved values."""
    template = deployment.account.agents[reader].followups.get(variable)
    if not template:
        return None
    return render_text(template, lambda p: shown(lookup({"conv": conv}, p)))


def _references(value: Any, variable: str) -> list[str]:
    text = value if isinstance(value, str) else ""
    return [p for p in TEMPLATE_PATH_RE.findall(text) if p.split(".")[:2] == ["conv", variable]]


def expected_fields(args: DataArgs, variable: str, conv: dict) -> dict[str, Any]:
    """The record fields the reader's data command takes from the saved variable (a field
    the variable does not hold, such as the origin of a trip saved from a hotel stay, leaves
    the reader free)."""
    saved = conv[variable]
    expected: dict[str, Any] = {}
    if args.base and _references(args.base, variable):
        expected.update(saved)
    for entries in (args.where, args.given, args.fixed):
        for name, template in (entries or {}).items():
            paths = _references(template, variable)
            if not paths or any(lookup({"conv": conv}, p) is None for p in paths):
                continue
            if template == f"{{{paths[0]}}}":
                expected[name] = lookup({"conv": conv}, paths[0])
            else:
                expected[name] = render_text(template, lambda p: lookup({"conv": conv}, p))
    return expected


def answer_of(deployment: Deployment, user: Any, agent: str, query: str, convid: str | None) -> str:
    """The text of the agent's answer to ``query`` in the conversation (forms answered)."""
    return run_agent(deployment, user, agent, query, convid).parts[0]["text"]


def routed_answer(
    deployment: Deployment, user: Any, query: str, convid: str | None
) -> tuple[str, str]:
    """(agent, answer) of a request routed as the server routes it (a follow-up that matches
    no agent goes back to the one that answered last)."""
    agent, _ = deployment.account.route(user, query, convid)
    assert agent is not None, query
    return agent, answer_of(deployment, user, agent, query, convid)


def state_of(deployment: Deployment, user: Any, convid: str) -> dict:
    return deployment.account.state_view(user, convid)["state"]


def records_of(conv: Mapping[str, Any]) -> dict[str, Any]:
    """The records a conversation holds, without the context carried from request to request
    (``conv.request``: what was last asked, kept even when nothing was done)."""
    return {k: v for k, v in conv.items() if k not in CONTEXT_VARIABLES}


def last_tool_result(state: dict, agent: str) -> Any:
    for message in reversed(state["prompts"]["chat"]["messages"]):
        if message.get("role") == "tool_result" and message.get("agent") == agent:
            return message.get("content")
    return None


def _saves(deployment: Deployment, user: Any, result: Any, variable: str) -> bool:
    if not result.success:
        return False
    return variable in deployment.account.state_view(user, result.convid)["state"]["conv"]


def save_variable(
    deployment: Deployment,
    user: Any,
    writer: str,
    variable: str,
    accepts: Callable[[dict], bool] | None = None,
) -> Any:
    """The writer's run that saved the variable: the first whose saved record ``accepts``
    takes (a record the reader works from: an invoice we issued for a reminder), else the
    first. A writer that looks up or changes the saved record (find, update) continues a
    conversation where a creator saved one first, asked with its own follow-up, as a
    person would."""
    first = None
    for result in _saving_runs(deployment, user, writer, variable):
        if accepts is None or accepts(state_of(deployment, user, result.convid)["conv"][variable]):
            return result
        first = first or result
    return first


def _saving_runs(
    deployment: Deployment, user: Any, writer: str, variable: str, *, seeding: bool = False
) -> Iterator[Any]:
    agents = deployment.account.agents
    io = agent_io(agents[writer])
    if variable in io.writes and variable not in io.replaces:
        # It only adds to the variable (a rental car on the trip): asked with its own
        # follow-up once an agent that saves the variable whole saved one.
        replacers = sorted(n for n, a in agents.items() if variable in agent_io(a).replaces)
        yield from _asked_after(deployment, user, writer, variable, replacers, _wrote)
        return
    args = data_command(deployment, writer)
    if args is None or args.action == "create" or (seeding and args.action == "find"):
        for example in agents[writer].examples:
            result = run_agent(deployment, user, writer, example, None)
            if _saves(deployment, user, result, variable):
                yield result
        return
    # Creators first; then agents that look a record up, for a kind no new record is (a
    # delivered order to return: a new one is only placed).
    seeders = sorted(
        (
            (c.action != "create", name)
            for name in agents
            if name != writer
            and (c := data_command(deployment, name)) is not None
            and c.action in ("create", "find")
            and c.source == args.source
            and _may_make(c, kind_of(args.where))
        ),
    )
    creators = [name for _, name in seeders]
    yield from _asked_after(deployment, user, writer, variable, creators, _saves)


def _asked_after(
    deployment: Deployment,
    user: Any,
    writer: str,
    variable: str,
    seeders: list[str],
    saved: Callable[[Deployment, Any, Any, str], bool],
) -> Iterator[Any]:
    """The writer's runs, asked with its own follow-up for the variable, in conversations
    where one of the seeders saved it first, that ``saved`` says saved it."""
    for seeder in seeders:
        for seeded in _saving_runs(deployment, user, seeder, variable, seeding=True):
            conv = state_of(deployment, user, seeded.convid)["conv"]
            request = reader_request(deployment, writer, variable, conv)
            if request is None:
                return
            result = run_agent(deployment, user, writer, request, seeded.convid)
            if saved(deployment, user, result, variable):
                yield result


def _wrote(deployment: Deployment, user: Any, result: Any, variable: str) -> bool:
    """Whether the run wrote the variable (it was saved before)."""
    if not result.success:
        return False
    runs = state_of(deployment, user, result.convid)["runs"]
    return bool(runs) and variable in (runs[-1].get("writes") or ())


def run_journey(
    deployment: Deployment, user: Any, writer: str, reader: str, variable: str
) -> Journey:
    journey = Journey(writer, reader, variable)
    account = deployment.account
    args = data_command(deployment, reader)

    followups = followups_of(deployment)

    def refusal(saved: dict) -> str | None:
        """What the reader answers instead of working from the saved record, if it would
        not work from it (a supplier's bill for a demand letter, a cancelled trip for an
        expense claim)."""
        return followups.refusal(reader, variable, saved, user.email)

    first = save_variable(deployment, user, writer, variable, lambda saved: not refusal(saved))
    if first is None:
        journey.problems.append(f"{writer} never saved conv.{variable}")
        return journey
    conv = account.state_view(user, first.convid)["state"]["conv"]
    request = reader_request(deployment, reader, variable, conv)
    if request is None:
        journey.problems.append(f"{reader} has no follow-up for conv.{variable}")
        return journey
    journey.request = request
    second = run_agent(deployment, user, reader, journey.request, first.convid)
    if not second.success:
        journey.problems.append(f"{reader} failed: {second.result_code} {second.error}")
        return journey
    state = account.state_view(user, first.convid)["state"]
    reads = state["runs"][-1].get("reads", [])
    if args is None:
        journey.problems.append(f"{reader} has no data command")
        return journey
    required = (args.requires or {}).get(variable)
    if required and not fits(conv[variable], required):
        # Not the kind of record the reader takes values from (a flight claim for a
        # hospitality check): it takes nothing of it, and does not say it used it.
        journey.checked += 1
        if variable in reads:
            journey.problems.append(f"{reader} read conv.{variable}, which is not {required}")
        REFUSED.append((writer, variable, reader))
        return journey
    if variable not in reads:
        journey.problems.append(f"{reader} did not read conv.{variable}")
    refused = refusal(conv[variable])
    if refused:
        # As the model writes it (money with its cents).
        refused = MockModel().answer(agent=reader, system="", messages=[], reply=refused)
    if refused:
        # The writer saved what the reader does not work from (a supplier's bill for a
        # demand letter, a cancelled trip for an expense claim): the reader says why, takes
        # no other record, and the saved one stays as it was.
        journey.checked += 1
        answer = second.parts[0]["text"] if second.parts else ""
        if not answer.startswith(refused):
            journey.problems.append(f"{reader} answered {answer!r}, not {refused!r}")
        if last_tool_result(state, reader) is not None or state["conv"][variable] != conv[variable]:
            journey.problems.append(f"{reader} worked on a record it does not work from")
        REFUSED.append((writer, variable, reader))
        return journey
    expected = expected_fields(args, variable, conv)
    if not expected:
        journey.problems.append(f"{reader} takes no structured value from conv.{variable}")
    record = last_tool_result(state, reader)
    call = _call(state, reader)
    if not isinstance(record, dict):
        # None of what was saved exists in the data (no order for that customer): the
        # lookup must still have been made with the saved values, and said so.
        used = {**(call.get("where") or {}), **(call.get("given") or {})}
        for name, value in expected.items():
            journey.checked += 1
            if name in used and used[name] != value:
                journey.problems.append(f"{reader} looked up {name}={used[name]!r}, not {value!r}")
        if not any(name in used for name in expected) and not call.get("base"):
            journey.problems.append(f"{reader} found no record: {second.parts}")
        return journey
    changed = set(args.fixed or {}) | set(call.get("changed", []))
    for name, value in expected.items():
        if name in changed and name not in (args.given or {}):
            continue
        journey.checked += 1
        # An empty saved value says there is none (an internal ticket's customer).
        if record.get(name) != value and not (value == "" and not record.get(name)):
            journey.problems.append(
                f"{reader}.{name} is {record.get(name)!r}, conv.{variable} gave {value!r}"
            )
    return journey


def _call(state: dict, agent: str) -> dict[str, Any]:
    """The arguments of the agent's last data call (what it looked up, with which values)."""
    for message in reversed(state["prompts"]["chat"]["messages"]):
        if message.get("role") == "tool_call" and message.get("agent") == agent:
            return dict(message.get("arguments", {}))
    return {}


# Lines the world suites report at the end of every run, CI included (see conftest.py).
SUMMARY: list[str] = []
# The hand-offs whose reader, as foreseen, refused what the writer saved.
REFUSED: list[tuple[str, str, str]] = []
