"""The account facade on the real 200-agent account: hand-offs, routing, ownership, saves."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mock_account.conversations.account import ExecResult
from mock_account.conversations.vault import title_from_query
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.errors import UnknownConversation

TRIP = "I need to fly to Berlin next Tuesday for a client meeting"
EXPENSES = "I want to claim back the money I spent on that trip"


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Deployment:
    tmp: Path = tmp_path_factory.mktemp("account")
    deployment = build_deployment(AccountConfig(data_dir=tmp, store_url="memory://"))
    yield deployment
    deployment.close()


def _answer(result: ExecResult) -> dict:
    """What the caller learns from a result (everything but the timings)."""
    return {k: v for k, v in dataclasses.asdict(result).items() if k != "timings"}


def users(deployment: Deployment):
    acme = [u for u in deployment.users.users if u.account == "acme"]
    globex = [u for u in deployment.users.users if u.account == "globex"]
    return acme[0], acme[1], globex[0]


def run(deployment: Deployment, user, query: str, convid: str | None = None):
    agent, hits = deployment.account.route(user, query, convid)
    assert agent is not None, query
    result = deployment.account.exec_agent(user, agent, {"query": query}, convid)
    while result.success and result.result_code == "ask":
        # What a person types: the default, an option, or something fitting (an amount paid
        # is a number).
        answers = {
            i["name"]: i.get("default")
            or (
                (i.get("options") or ["x"])[:1]
                if i["type"] == "chooseMany"
                else (i.get("options") or ["84.50" if i["name"] == "amount" else "an answer"])[0]
            )
            for i in result.ask_input["inputs"]
        }
        result = deployment.account.exec_agent(user, agent, answers, result.convid)
    return result, hits


def test_travel_then_expenses_hands_off_through_conv_trip(deployment: Deployment) -> None:
    alice, _, _ = users(deployment)
    first, hits = run(deployment, alice, TRIP)
    assert first.success and hits[0].tag == "travel"
    second, hits2 = run(deployment, alice, EXPENSES, first.convid)
    assert second.success, second.error
    assert second.agent_name != first.agent_name
    assert {"variable": "conv.trip", "from": first.agent_name} in second.handoffs
    state = deployment.account.state_view(alice, first.convid)["state"]
    trip = state["conv"]["trip"]
    assert trip["destination"] in second.parts[0]["text"]


def test_three_agent_chain_keeps_every_variable(deployment: Deployment) -> None:
    alice, _, _ = users(deployment)
    convid = None
    agents = []
    for query in (
        "Pull up the account for Hoffmann Logistics",
        "I want to buy 20 chairs for this customer, place the order",
        "The delivery from that order arrived damaged, open a case",
    ):
        result, _ = run(deployment, alice, query, convid)
        assert result.success, (query, result.error)
        convid = result.convid
        agents.append(result.agent_name)
    assert len(set(agents)) == 3
    conv = deployment.account.state_view(alice, convid)["state"]["conv"]
    assert {"customer", "order"} <= set(conv)


def test_follow_up_with_no_match_goes_to_the_previous_agent(deployment: Deployment) -> None:
    alice, _, _ = users(deployment)
    first, _ = run(deployment, alice, TRIP)
    agent, hits = deployment.account.route(alice, "qwertyuiop zxcvbnm", first.convid)
    assert hits == [] and agent == first.agent_name


def test_another_user_or_account_sees_nothing(deployment: Deployment) -> None:
    alice, bob, carol = users(deployment)
    first, _ = run(deployment, alice, TRIP)
    account = deployment.account
    for intruder in (bob, carol):
        with pytest.raises(UnknownConversation):
            account.get_conversation(intruder, first.convid)
        with pytest.raises(UnknownConversation):
            account.state_view(intruder, first.convid)
        with pytest.raises(UnknownConversation):
            account.delete(intruder, first.convid)
        result = account.exec_agent(intruder, first.agent_name, {"query": TRIP}, first.convid)
        missing = account.exec_agent(intruder, first.agent_name, {"query": TRIP}, "A" * 22)
        assert _answer(result) == _answer(missing)  # exactly what a missing conversation gets
        assert result.result_code == "unknownConversation"
        assert all(v.convid != first.convid for v in account.list_recent(intruder)[0])
    assert account.get_conversation(alice, first.convid).title == TRIP


def test_failed_save_keeps_the_previous_state(deployment: Deployment) -> None:
    alice, _, _ = users(deployment)
    first, _ = run(deployment, alice, TRIP)
    before = deployment.account.state_view(alice, first.convid)
    deployment.account.vault.max_state_bytes = 100
    try:
        second = deployment.account.exec_agent(
            alice, first.agent_name, {"query": TRIP}, first.convid
        )
    finally:
        deployment.account.vault.max_state_bytes = 4 * 1024 * 1024
    assert second.result_code == "errorInAgent" and "over the limit" in second.error
    assert second.convid is None and second.parts is None
    assert deployment.account.state_view(alice, first.convid) == before


def test_conversation_operations(deployment: Deployment) -> None:
    alice, _, _ = users(deployment)
    first, _ = run(deployment, alice, TRIP)
    account = deployment.account
    account.set_title(alice, first.convid, "Berlin workshop")
    account.set_pinned(alice, first.convid, True)
    assert [v.title for v in account.list_pinned(alice)].count("Berlin workshop") == 1
    assert all(v.convid != first.convid for v in account.list_recent(alice)[0])
    account.delete(alice, first.convid)
    with pytest.raises(UnknownConversation):
        account.get_conversation(alice, first.convid)


def test_title_is_cut_at_a_word_boundary() -> None:
    query = ("word " * 60).strip()
    title = title_from_query(query)
    assert len(title) <= 200 and title.endswith("word") and query.startswith(title)


def test_going_back_to_the_previous_agent_reads_the_entry_not_the_state(
    deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, _ = users(deployment)
    first, _ = run(deployment, alice, TRIP)

    def no_decryption(*args: object, **kwargs: object) -> None:
        raise AssertionError("the state was restored to find the previous agent")

    monkeypatch.setattr(deployment.account.vault, "restore", no_decryption)
    agent, _ = deployment.account.route(alice, EXPENSES, first.convid, "executePrevious")
    assert agent == first.agent_name
    assert deployment.account.last_agent(bob, first.convid) is None  # nothing leaks to another
