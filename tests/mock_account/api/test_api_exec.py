"""``/api/exec``: search and execAgent over HTTP, every result code a client can meet."""

from __future__ import annotations

import itertools
import re

import pytest
from api_helpers import TRIP, start_trip
from fastapi.testclient import TestClient

from mock_account.api.timing import PHASES, parse_server_timing
from mock_account.deployment import Deployment
from mock_account.stores import StoreUnavailable

EXEC = "/api/exec/execAgent"
WIRE_KEYS = {"success", "convid", "agentName", "output", "resultCode", "askInput", "error"}


def test_search_lists_matches_best_first_with_scores(client: TestClient) -> None:
    reply = client.post("/api/exec/search", json={"query": TRIP})
    assert reply.status_code == 200
    body = reply.json()
    assert body["success"] is True
    assert body["searchBehavior"] == "executeTopMatch"  # the account's default setting
    assert body["followupBehavior"] == "executeTopMatch"
    results = body["searchResults"]
    assert results[0]["agentName"] == "BookTrip"
    assert results[0]["agentTitle"] == "Book a business trip"
    scores = [r["score"] for r in results]
    assert scores == sorted(scores, reverse=True) and 0 < scores[0] <= 1
    assert set(results[0]) == {"agentName", "agentTitle", "score"}


@pytest.mark.parametrize("behavior", ["showResults", "executeOnlyMatch"])
def test_search_reports_the_accounts_search_behavior(
    client: TestClient, deployment: Deployment, behavior: str
) -> None:
    deployment.config.search_behavior = behavior
    body = client.post("/api/exec/search", json={"query": TRIP}).json()
    assert body["searchBehavior"] == behavior
    assert body["searchResults"][0]["agentName"] == "BookTrip"  # search itself is unchanged


def test_search_by_tag_keeps_only_that_department(client: TestClient) -> None:
    query = "file my travel expenses for that trip"
    body = client.post("/api/exec/search", json={"query": query, "tag": "finance"}).json()
    names = {r["agentName"] for r in body["searchResults"]}
    assert names and names <= {"FileExpenses", "InvoiceStatus"}


def test_search_without_a_match_is_an_empty_success(client: TestClient) -> None:
    body = client.post("/api/exec/search", json={"query": "zxqv wvvk plorp"}).json()
    assert body == {
        "success": True,
        "searchResults": [],
        "searchBehavior": "executeTopMatch",
        "followupBehavior": "executeTopMatch",
    }


def test_ask_then_flat_answers_finish_the_run(client: TestClient) -> None:
    asked = client.post(EXEC, json={"agentName": "BookTrip", "inputs": {"query": TRIP}})
    assert asked.status_code == 200
    body = asked.json()
    assert body["success"] is True and body["resultCode"] == "ask"
    assert re.fullmatch(r"[0-9A-Za-z]{22}", body["convid"])
    assert body["askInput"]["message"] == "Which seat do you prefer?"
    seat = body["askInput"]["inputs"][0]
    assert seat["name"] == "seat" and seat["type"] == "chooseOne"
    assert seat["options"] == ["aisle", "window"]

    done = client.post(
        EXEC,
        json={"agentName": "BookTrip", "convid": body["convid"], "inputs": {"seat": "window"}},
    ).json()
    assert done["resultCode"] == "success" and done["convid"] == body["convid"]
    assert done["askInput"] is None and done["error"] is None
    assert done["output"]["agentName"] == "BookTrip"
    assert done["output"]["parts"][0]["contentType"] == "text"
    assert "Booked your trip to Berlin, window seat." in done["output"]["parts"][0]["text"]


def test_a_follow_up_to_another_agent_builds_on_the_saved_state(client: TestClient) -> None:
    convid = start_trip(client)
    reply = client.post(
        EXEC,
        json={
            "agentName": "FileExpenses",
            "convid": convid,
            "inputs": {"query": "file my travel expenses for that trip"},
        },
    ).json()
    assert reply["resultCode"] == "success" and reply["convid"] == convid
    assert "Expenses filed for your trip to Berlin." in reply["output"]["parts"][0]["text"]


def test_fail_command_is_200_with_no_convid_and_no_output(client: TestClient) -> None:
    reply = client.post(
        EXEC, json={"agentName": "IssueRefund", "inputs": {"query": "refund the last payment"}}
    )
    assert reply.status_code == 200
    body = reply.json()
    assert body == {
        "success": False,
        "convid": None,
        "agentName": "IssueRefund",
        "output": None,
        "resultCode": "failCommand",
        "askInput": None,
        "error": {
            "message": "Refunds need a manager's approval (refund the last payment).",
            "data": {},
        },
    }


def test_error_in_agent_saves_nothing(client: TestClient) -> None:
    convid = start_trip(client)
    state_before = client.post("/api/harness/getConversationState", json={"convid": convid}).json()[
        "state"
    ]
    reply = client.post(
        EXEC,
        json={
            "agentName": "QuarterlyReport",
            "convid": convid,
            "inputs": {"query": "build the quarterly sales report"},
        },
    ).json()
    assert reply["resultCode"] == "errorInAgent" and reply["success"] is False
    assert reply["convid"] is None and reply["output"] is None
    assert "missing_function" in reply["error"]["message"]
    state_after = client.post("/api/harness/getConversationState", json={"convid": convid}).json()[
        "state"
    ]
    assert state_after == state_before and "report" not in state_after["conv"]


def test_unknown_agent_is_call_failed(client: TestClient) -> None:
    reply = client.post(EXEC, json={"agentName": "NoSuchAgent", "inputs": {"query": TRIP}})
    assert reply.status_code == 200
    assert reply.json()["resultCode"] == "callFailed"
    assert "NoSuchAgent" in reply.json()["error"]["message"]


def test_unavailable_store_is_call_failed(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    convid = start_trip(client)

    def down(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("memory store: switched off for the test")

    monkeypatch.setattr(deployment.account.store, "load", down)
    reply = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": TRIP}}
    )
    assert reply.status_code == 200
    assert reply.json()["resultCode"] == "callFailed"
    assert "unavailable" in reply.json()["error"]["message"]


def test_unknown_conversation(client: TestClient) -> None:
    reply = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": "A" * 22, "inputs": {"query": TRIP}}
    )
    assert reply.status_code == 200
    body = reply.json()
    assert body["resultCode"] == "unknownConversation" and body["convid"] is None


def test_another_users_conversation_is_an_unknown_one(
    client: TestClient, other_client: TestClient
) -> None:
    convid = start_trip(client)
    mine = other_client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": TRIP}}
    ).json()
    missing = other_client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": "B" * 22, "inputs": {"query": TRIP}}
    ).json()
    assert mine["resultCode"] == missing["resultCode"] == "unknownConversation"
    assert mine["error"] == missing["error"]


def test_another_agent_while_waiting_on_an_ask_is_unknown_conversation(
    client: TestClient,
) -> None:
    asked = client.post(EXEC, json={"agentName": "BookTrip", "inputs": {"query": TRIP}}).json()
    reply = client.post(
        EXEC,
        json={
            "agentName": "FileExpenses",
            "convid": asked["convid"],
            "inputs": {"query": "file my travel expenses for that trip"},
        },
    ).json()
    assert reply["resultCode"] == "unknownConversation"
    assert reply["error"]["message"] == (
        "This conversation is waiting for your answers to another agent. "
        "Continue it with that agent."
    )


def test_running_out_of_time_is_timed_out(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticks = itertools.count()
    # Every reading of the engine's clock is ten seconds later: the first step is already late.
    monkeypatch.setattr(deployment.account.engine, "clock", lambda: 10.0 * next(ticks))
    reply = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": "show the open invoice"}}
    ).json()
    assert reply["resultCode"] == "timedOut" and reply["convid"] is None


def test_an_unexpected_failure_is_still_200_unexpected(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("internal detail that must not leak")

    monkeypatch.setattr(deployment.account, "exec_agent", explode)
    reply = client.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}})
    assert reply.status_code == 200
    body = reply.json()
    assert body["resultCode"] == "unexpected" and body["success"] is False
    assert "internal detail" not in reply.text and "Traceback" not in reply.text


def test_every_answer_has_the_wire_fields(client: TestClient) -> None:
    for agent in ("InvoiceStatus", "IssueRefund", "QuarterlyReport", "NoSuchAgent"):
        body = client.post(EXEC, json={"agentName": agent, "inputs": {"query": TRIP}}).json()
        assert set(body) == WIRE_KEYS, agent


def _timing_pattern(*phases: str) -> re.Pattern[str]:
    return re.compile(", ".join(rf"{phase};dur=\d+\.\d{{3}}" for phase in phases))


NEW_RUN_TIMING = _timing_pattern("run", "serialize", "encrypt", "write", "total")
FOLLOW_UP_TIMING = _timing_pattern("restore", "run", "serialize", "encrypt", "write", "total")


def test_server_timing_has_every_phase_in_milliseconds(client: TestClient) -> None:
    first = client.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}})
    # A new conversation reads no state: no restore phase.
    assert NEW_RUN_TIMING.fullmatch(first.headers["server-timing"]), first.headers["server-timing"]
    convid = first.json()["convid"]
    again = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": TRIP}}
    )
    timing = again.headers["server-timing"]
    assert FOLLOW_UP_TIMING.fullmatch(timing), timing


def test_server_timing_phases_add_up_to_the_handlers_wall_time(client: TestClient) -> None:
    """The phases are disjoint and cover the call: their sum is within 10 % of ``total``."""
    first = client.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}})
    convid = first.json()["convid"]
    shares = []
    for _ in range(15):
        reply = client.post(
            EXEC, json={"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": TRIP}}
        )
        phases = parse_server_timing(reply.headers["server-timing"])
        total = phases.pop("total")
        assert set(phases) == set(PHASES)
        assert sum(phases.values()) <= total * 1.001 + 0.002  # never more than the whole
        shares.append(sum(phases.values()) / total)
    # What the phases leave out (the account's bookkeeping) is under 10 % of a call: of the
    # least disturbed one, since a machine busy with other work stretches any call's gaps.
    assert max(shares) >= 0.9, shares


def test_server_timing_of_a_failed_run_has_only_the_phases_it_reached(
    client: TestClient,
) -> None:
    reply = client.post(EXEC, json={"agentName": "IssueRefund", "inputs": {"query": TRIP}})
    timing = reply.headers["server-timing"]
    assert _timing_pattern("run", "total").fullmatch(timing), timing


Q = {"query": TRIP}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"agentName": "9lives", "inputs": Q}, "agentName: must start with a letter"),
        ({"agentName": "A", "inputs": Q}, "agentName: must be at least 2 characters"),
        ({"agentName": "Ab", "convid": "x", "inputs": {}}, "convid: must be 22 letters or digits"),
        ({"agentName": "Ab", "inputs": Q, "foo": 1}, "unknown field 'foo'"),
        ({"agentName": "Ab", "inputs": Q, "stream": "maybe"}, "stream: must be true or false"),
        ({"agentName": "Ab", "inputs": [TRIP]}, "inputs: must be a JSON object"),
    ],
)
def test_bad_exec_bodies_are_422_naming_the_field(
    client: TestClient, body: dict[str, object], message: str
) -> None:
    reply = client.post(EXEC, json=body)
    assert reply.status_code == 422
    assert reply.json()["success"] is False
    assert message in reply.json()["error"]["message"]


def test_inputs_take_any_json_and_default_to_empty(client: TestClient) -> None:
    """A short answer such as "yes" is valid; ``inputs`` may be left out."""
    convid = start_trip(client)
    short = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": convid, "inputs": {"query": "yes"}}
    )
    assert short.status_code == 200 and short.json()["resultCode"] == "success"
    bare = client.post(EXEC, json={"agentName": "InvoiceStatus", "convid": convid})
    assert bare.status_code == 200 and bare.json()["resultCode"] == "success"
    values = {"query": TRIP, "n": 3, "flags": [True, None], "nested": {"a": 1.5}}
    anything = client.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": values})
    assert anything.status_code == 200 and anything.json()["resultCode"] == "success"


def test_an_unknown_conversation_has_expired(client: TestClient) -> None:
    reply = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "convid": "A" * 22, "inputs": Q}
    ).json()
    assert reply["resultCode"] == "unknownConversation" and reply["convid"] is None
    assert reply["error"] == {
        "message": "This conversation has expired. Please start a new one.",
        "data": {},
    }


def test_every_ask_input_has_all_seven_keys(client: TestClient) -> None:
    asked = client.post(EXEC, json={"agentName": "BookTrip", "inputs": Q}).json()
    for field in asked["askInput"]["inputs"]:
        assert list(field) == [
            "name",
            "type",
            "label",
            "description",
            "options",
            "default",
            "hidden",
        ]
        assert isinstance(field["hidden"], bool)


def test_an_empty_or_null_tag_searches_every_department(client: TestClient) -> None:
    everywhere = client.post("/api/exec/search", json={"query": TRIP}).json()
    for tag in ("", None):
        same = client.post("/api/exec/search", json={"query": TRIP, "tag": tag})
        assert same.status_code == 200 and same.json() == everywhere
    finance = client.post("/api/exec/search", json={"query": TRIP, "tag": "finance"}).json()
    assert finance["searchResults"] != everywhere["searchResults"]
