"""``execAgent`` with ``stream: true`` over real HTTP: NDJSON lines as the run goes (SPEC §5)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_helpers import TRIP, share_data, start_trip, ticking_clock, token_of
from live_helpers import HeldModel, serve, write_streaming_account

from mock_account.api import create_app
from mock_account.business.data import BusinessData
from mock_account.conversations.account import ExecResult
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.world import World

EXEC = "/api/exec/execAgent"
HEARTBEAT_S = 0.05
TWO = "answer my support question in two parts please"


@pytest.fixture
def deployment(tmp_path: Path, business_data: BusinessData, world: World) -> Iterator[Deployment]:
    config = AccountConfig(
        data_dir=tmp_path / "data",
        store_url="memory://",
        account_dir=write_streaming_account(tmp_path / "account"),
        clock=ticking_clock(),
    )
    built = share_data(build_deployment(config), business_data, world)
    try:
        yield built
    finally:
        built.close()


@pytest.fixture
def held(deployment: Deployment) -> Iterator[HeldModel]:
    model = HeldModel(deployment.account.engine.model)
    deployment.account.engine.model = model  # type: ignore[assignment]
    yield model
    model.release.set()


@pytest.fixture
def results(deployment: Deployment, monkeypatch: pytest.MonkeyPatch) -> list[ExecResult]:
    """Every result the account's exec_agent returned, in order."""
    seen: list[ExecResult] = []
    original = deployment.account.exec_agent

    def recording(*args: Any, **kwargs: Any) -> ExecResult:
        result = original(*args, **kwargs)
        seen.append(result)
        return result

    monkeypatch.setattr(deployment.account, "exec_agent", recording)
    return seen


@pytest.fixture
def http(deployment: Deployment) -> Iterator[httpx.Client]:
    token = token_of(deployment, deployment.users.users[0])
    with serve(create_app(deployment, heartbeat_s=HEARTBEAT_S)) as url:
        with httpx.Client(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30
        ) as client:
            yield client


def streamed(http: httpx.Client, body: dict[str, Any]) -> tuple[httpx.Response, list[dict]]:
    with http.stream("POST", EXEC, json={**body, "stream": True}) as response:
        lines = [json.loads(line) for line in response.iter_lines() if line]
    return response, lines


def without_noops(lines: list[dict]) -> list[dict]:
    return [line for line in lines if line["type"] != "noop"]


def test_a_streamed_run_sends_progress_data_trace_then_the_agent_line(
    http: httpx.Client,
) -> None:
    plain = http.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}})
    response, lines = streamed(http, {"agentName": "InvoiceStatus", "inputs": {"query": TRIP}})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-ndjson"
    lines = without_noops(lines)
    assert lines[0] == {"type": "progress", "value": "Running InvoiceStatus"}
    data = [line["value"] for line in lines if line["type"] == "data"]
    assert data == plain.json()["output"]["parts"]
    traces = [line for line in lines if line["type"] == "trace"]
    # A new conversation restores nothing: no restore phase.
    assert [t["value"]["path"] for t in traces] == ["run", "serialize", "encrypt", "write"]
    for trace in traces:
        assert trace["traceType"] == "serverTiming"
        assert trace["value"]["duration"] >= 0
        assert trace["value"]["message"].startswith(f"{trace['value']['path']};dur=")
    final = lines[-1]
    assert final["type"] == "agent"
    assert [line["type"] for line in lines].count("agent") == 1
    expected = {**plain.json(), "convid": final["value"]["convid"], "output": None}
    assert final["value"] == expected
    saved = http.post("/api/user/getConversation", json={"convid": final["value"]["convid"]})
    assert [t["response"]["parts"] for t in saved.json()["conversation"]] == [data]


def test_parts_go_out_as_produced_with_heartbeats_while_idle(
    http: httpx.Client, held: HeldModel
) -> None:
    body = {"agentName": "TwoParts", "inputs": {"query": TWO}, "stream": True}
    seen: list[dict] = []
    with http.stream("POST", EXEC, json=body) as response:
        lines = response.iter_lines()
        while not any(line["type"] == "data" for line in seen):
            seen.append(json.loads(next(lines)))
        # The first part is out while the run is still thinking about the second one.
        assert held.entered.wait(5) and not held.release.is_set()
        assert seen[-1]["value"]["text"] == "First part: working on it."
        noops = 0
        while noops < 3:
            line = json.loads(next(lines))
            assert line == {"type": "noop"}
            noops += 1
        held.release.set()
        rest = [json.loads(line) for line in lines if line]
    rest = without_noops(rest)
    assert rest[0] == {
        "type": "data",
        "value": {"contentType": "text", "text": "Second part: done."},
    }
    assert rest[-1]["type"] == "agent"
    assert rest[-1]["value"]["resultCode"] == "success"
    assert rest[-1]["value"]["output"] is None


def test_a_client_that_leaves_stops_the_run_and_nothing_is_saved(
    http: httpx.Client, held: HeldModel, results: list[ExecResult]
) -> None:
    convid = start_trip(http)
    before = http.post("/api/harness/getConversationState", json={"convid": convid}).json()
    body = {"agentName": "TwoParts", "convid": convid, "inputs": {"query": TWO}, "stream": True}
    with http.stream("POST", EXEC, json=body) as response:
        lines = response.iter_lines()  # kept: dropping it would close the connection at once
        first = json.loads(next(lines))
        assert first["type"] == "progress"
        assert held.entered.wait(5), [(r.result_code, r.error) for r in results]
    # The connection is closed; the run resumes and must see that it was stopped.
    time.sleep(0.3)
    held.release.set()
    deadline = time.monotonic() + 10
    while len(results) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert [r.result_code for r in results] == ["ask", "success", "stopped"]
    after = http.post("/api/harness/getConversationState", json={"convid": convid}).json()
    assert after["record"]["stateVersion"] == before["record"]["stateVersion"]
    turns = http.post("/api/user/getConversation", json={"convid": convid}).json()
    assert [t["response"]["agentName"] for t in turns["conversation"]] == ["BookTrip"]


def test_an_ask_streams_its_questions_in_the_agent_line(http: httpx.Client) -> None:
    _, lines = streamed(http, {"agentName": "BookTrip", "inputs": {"query": TRIP}})
    final = lines[-1]["value"]
    assert final["resultCode"] == "ask" and final["output"] is None
    assert final["askInput"]["message"] == "Which seat do you prefer?"
    answered = http.post(
        EXEC,
        json={"agentName": "BookTrip", "convid": final["convid"], "inputs": {"seat": "aisle"}},
    ).json()
    assert answered["resultCode"] == "success"


def test_answers_that_do_not_fit_stream_the_problem_and_the_ask_again(
    http: httpx.Client,
) -> None:
    asked = http.post(EXEC, json={"agentName": "BookTrip", "inputs": {"query": TRIP}}).json()
    body = {"agentName": "BookTrip", "convid": asked["convid"], "inputs": {"seat": "middle"}}
    plain_lines = streamed(http, body)[1]
    data = [line["value"] for line in plain_lines if line["type"] == "data"]
    assert data == [{"contentType": "text", "text": "'Seat' must be one of: aisle, window."}]
    assert plain_lines[-1]["value"]["resultCode"] == "ask"
    assert plain_lines[-1]["value"]["askInput"]["message"] == "Which seat do you prefer?"


def test_a_failed_run_ends_with_its_error_and_no_convid(http: httpx.Client) -> None:
    _, lines = streamed(http, {"agentName": "IssueRefund", "inputs": {"query": TRIP}})
    final = lines[-1]
    assert final["type"] == "agent"
    assert final["value"]["resultCode"] == "failCommand"
    assert final["value"]["convid"] is None and final["value"]["output"] is None
    assert [t["value"]["path"] for t in lines if t["type"] == "trace"] == [
        "run"
    ]  # nothing restored, nothing saved


def test_a_stream_without_a_token_is_one_must_login_line(http: httpx.Client) -> None:
    with httpx.Client(base_url=str(http.base_url), timeout=30) as anonymous:
        response, lines = streamed(
            anonymous, {"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}
        )
    assert response.status_code == 200
    assert [line["type"] for line in lines] == ["agent"]
    assert lines[0]["value"]["resultCode"] == "mustLogin"


def test_an_idempotency_key_cannot_be_streamed(http: httpx.Client) -> None:
    reply = http.post(
        EXEC,
        json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}, "stream": True},
        headers={"Idempotency-Key": "k1"},
    )
    assert reply.status_code == 422
    assert reply.json()["error"] == {
        "message": "Idempotency-Key cannot be used with stream: true (a stream is not "
        "replayed); send one of them.",
        "data": {},
    }
