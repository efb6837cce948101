"""Helpers shared by the security tests: a clock that moves on demand, a scripted conversation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from mock_account.conversations.account import ExecResult, MockAccount
from mock_account.engine.runtime import Engine
from mock_account.search.index import SearchIndex
from mock_account.users import User

NEEDLE = "Zanzibar-Quokka-4711"
TRIP = f"I need to fly to {NEEDLE} next Tuesday for a client meeting"
EXPENSES = "I want to claim back the money I spent on that trip"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@dataclass
class Base:
    agents: list[Any]
    engine: Engine
    index: SearchIndex
    users: list[User]

    def user(self, account: str, n: int = 0) -> User:
        return [u for u in self.users if u.account == account][n]


def converse(
    account: MockAccount,
    user: User,
    query: str,
    convid: str | None = None,
    *,
    validation: bool = False,
) -> ExecResult:
    """Route a request, run the agent and answer every ask with the first offered answer."""
    agent, _ = account.route(user, query, convid)
    assert agent is not None, query
    result = account.exec_agent(user, agent, {"query": query}, convid, validation=validation)
    while result.success and result.result_code == "ask":
        answers = {
            i["name"]: i.get("default")
            or (
                (i.get("options") or ["x"])[:1]
                if i["type"] == "chooseMany"
                else (i.get("options") or ["an answer"])[0]
            )
            for i in result.ask_input["inputs"]
        }
        result = account.exec_agent(user, agent, answers, result.convid, validation=validation)
    return result
