"""``mock-account chat``: the quickest way to try the account, in a terminal.

Each answer shows which agent answered, the runner-up, and any hand-off ("used
conv.trip from BookBusinessTrip") and suggested follow-ups written from what was saved.
Asks are asked field by field. ``/new`` starts a
new conversation, ``/state`` prints the conversation's variables, ``/quit`` leaves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mock_account.conversations.account import ExecResult, MockAccount
from mock_account.conversations.followups import Followups
from mock_account.users import User

MIN_QUERY = 8
Ask = Callable[[str], str]
Say = Callable[[str], None]


def _answers(ask_input: dict[str, Any], ask: Ask, say: Say) -> dict[str, Any]:
    say(ask_input["message"])
    answers: dict[str, Any] = {}
    for spec in ask_input["inputs"]:
        options = spec.get("options") or []
        hint = f" [{'/'.join(options)}]" if options else ""
        default = spec.get("default")
        shown_default = f" (default: {default})" if default not in (None, "", []) else ""
        raw = ask(f"  {spec['label']}{hint}{shown_default}: ").strip()
        if not raw and default is not None:
            answers[spec["name"]] = default
        elif spec.get("type") == "chooseMany":
            answers[spec["name"]] = [part.strip() for part in raw.split(",") if part.strip()]
        else:
            answers[spec["name"]] = raw
    return answers


def _show(result: ExecResult, hits: list[Any], say: Say) -> None:
    if not result.success:
        say(f"[{result.result_code}] {result.error}")
        return
    dept = next((h.tag for h in hits if h.agent_name == result.agent_name), "")
    say(f"-- {result.agent_name} ({dept}) answered --")
    runner_up = [h for h in hits if h.agent_name != result.agent_name][:1]
    for part in result.parts or []:
        say(part["text"])
    for handoff in result.handoffs:
        say(f"   handed off from {handoff['from']} via {handoff['variable']}")
    if runner_up:
        say(f"   (runner-up: {runner_up[0].agent_name}, score {runner_up[0].score:.2f})")


def _suggest(
    account: MockAccount,
    user: User,
    followups: Followups,
    result: ExecResult,
    ran: set[str],
    say: Say,
) -> None:
    if not result.convid:
        return
    state = account.state_view(user, result.convid)["state"]
    runs = state.get("runs") or []
    written = list(runs[-1].get("writes", [])) if runs else []
    found = followups.suggest(
        result.agent_name,
        written=written,
        conv=state.get("conv", {}),
        already_ran=ran,
        user=user.email,
    )
    for suggestion in found:
        say(f"   next: {suggestion.request}  [{suggestion.agent}, {suggestion.department}]")


def run_chat(account: MockAccount, user: User, ask: Ask = input, say: Say = print) -> int:
    say(f"Chatting as {user.email}. Ask for anything; /new, /state, /quit.")
    account.warm_up()
    convid: str | None = None
    followups = Followups(account.agents.values(), account.index)
    ran: set[str] = set()
    while True:
        try:
            query = ask("you> ").strip()
        except (EOFError, KeyboardInterrupt):
            say("")
            return 0
        if query in ("/quit", "/exit"):
            return 0
        if query == "/new":
            convid = None
            ran.clear()
            say("Started a new conversation.")
            continue
        if query == "/state":
            if convid:
                view = account.state_view(user, convid)
                say(json.dumps({"conv": view["state"]["conv"]}, indent=2))
            else:
                say("No conversation yet.")
            continue
        if len(query) < MIN_QUERY:
            say(f"Please write at least {MIN_QUERY} characters.")
            continue
        agent, hits = account.route(user, query, convid)
        if agent is None:
            say("No agent matches that request; try describing it differently.")
            continue
        result = account.exec_agent(user, agent, {"query": query}, convid)
        _show(result, hits, say)
        while result.success and result.result_code == "ask" and result.ask_input:
            try:
                answers = _answers(result.ask_input, ask, say)
            except (EOFError, KeyboardInterrupt):
                say("")
                return 0
            result = account.exec_agent(user, agent, answers, result.convid)
            _show(result, hits, say)
        if result.success:
            convid = result.convid
            ran.add(result.agent_name)
            if result.result_code == "success":
                _suggest(account, user, followups, result, ran, say)
