"""The demo's client: the same behaviour in-process and over HTTP against the real server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from demo_helpers import chat, texts
from streamlit.testing.v1 import AppTest

from demo_app.client import ClientError, DemoClient, HttpClient, InProcessClient
from demo_app.http_client import timings_in_seconds
from demo_app.request_runner import answer_pending, choose, start_request
from demo_app.search_choice import CLOSE_RATIO
from loadtests.server import free_port
from mock_account.api.app import create_app
from mock_account.deployment import AccountConfig, Deployment, build_deployment

BERLIN = "I need to fly to Berlin next Tuesday for a client meeting"
EXPENSES = "file my travel expenses for that trip: 84.50 SGD of taxis"
STARTUP_TIMEOUT_S = 30


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    built = build_deployment(AccountConfig(data_dir=tmp_path_factory.mktemp("client-data")))
    yield built
    built.close()


@pytest.fixture(scope="module")
def server_url(deployment: Deployment) -> Iterator[str]:
    """The real HTTP API over the same deployment, on a free loopback port."""
    port = free_port()
    config = uvicorn.Config(
        create_app(deployment), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the API server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def _token(deployment: Deployment, index: int = 0) -> str:
    return deployment.users.tokens()[index].token


@pytest.fixture(params=["in-process", "http"])
def client(request: pytest.FixtureRequest, deployment: Deployment) -> Iterator[DemoClient]:
    if request.param == "in-process":
        yield InProcessClient(deployment)
        return
    url = request.getfixturevalue("server_url")
    made = HttpClient(url, _token(deployment))
    yield made
    made.close()


def _user(client: DemoClient) -> str:
    return client.users()[0].key


def test_hand_off_is_reported_the_same_way(client: DemoClient) -> None:
    user = _user(client)
    first = client.ask(user, BERLIN)
    assert first.success and first.agent == "BookBusinessFlight"
    assert first.department == "travel"
    assert first.runner_up is not None and first.runner_up.agent_name != first.agent
    assert first.chosen is not None and first.chosen.score >= first.runner_up.score
    assert first.handoffs == ()

    paused = client.ask(user, EXPENSES, first.convid)
    assert paused.is_ask and paused.agent == "SubmitExpenseClaim"
    assert paused.convid == first.convid
    fields = {f.name: f for f in paused.ask.fields}
    assert fields["category"].type == "chooseOne" and "meals" in fields["category"].options
    assert fields["business_reason"].type == "text"

    done = client.answer_ask(
        user, paused, {"category": "travel", "amount": "84.50", "business_reason": "Client meeting"}
    )
    assert done.success and done.result_code == "success"
    assert [(h.variable, h.from_agent) for h in done.handoffs] == [
        ("conv.trip", "BookBusinessFlight")
    ]
    assert "Berlin" in done.parts[0].text
    assert {"restore", "run", "serialize", "encrypt", "write"} <= set(done.timings)

    state = client.state(user, first.convid)
    assert state.conv["trip"]["destination"] == "Berlin"
    assert state.record is not None and state.record.state_version == 3
    assert [r["agent"] for r in state.runs] == ["BookBusinessFlight", "SubmitExpenseClaim"]
    assert state.handoffs() == done.handoffs


def test_conversation_management(client: DemoClient) -> None:
    user = _user(client)
    convid = client.ask(user, BERLIN).convid
    assert convid in [c.convid for c in client.conversations(user).recent]
    client.rename(user, convid, "Berlin client visit")
    client.pin(user, convid, True)
    lists = client.conversations(user)
    pinned = {c.convid: c for c in lists.pinned}
    assert pinned[convid].title == "Berlin client visit" and pinned[convid].pinned
    assert convid not in [c.convid for c in lists.recent]
    client.delete(user, convid)
    assert convid not in [c.convid for c in client.conversations(user).all()]
    with pytest.raises(ClientError):
        client.state(user, convid)


def test_another_user_sees_nothing(deployment: Deployment, server_url: str) -> None:
    owner = HttpClient(server_url, _token(deployment, 0))
    other = HttpClient(server_url, _token(deployment, 1))
    convid = owner.ask(_user(owner), BERLIN).convid
    assert convid not in [c.convid for c in other.conversations(_user(other)).all()]
    with pytest.raises(ClientError, match="belongs to someone else"):
        other.state(_user(other), convid)
    in_process = InProcessClient(deployment)
    second = in_process.users()[1].key
    with pytest.raises(ClientError, match="belongs to someone else"):
        in_process.state(second, convid)


def test_wrong_token_is_one_clear_error(server_url: str) -> None:
    with pytest.raises(ClientError, match=r"refused the token \(401\)"):
        HttpClient(server_url, "s2o_not_a_token").check()


def test_unreachable_server_is_one_clear_error() -> None:
    unused = free_port()
    with pytest.raises(ClientError, match="Cannot reach the server"):
        HttpClient(f"http://127.0.0.1:{unused}", "s2o_token").check()


@pytest.mark.parametrize("query", ["", "   ", "short"])
def test_short_queries_are_refused_before_any_call(query: str) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise AssertionError(f"no call expected, got {request.url}")

    client = HttpClient("http://server.invalid", "t0ken", transport=httpx.MockTransport(refuse))
    with pytest.raises(ClientError):
        client.ask(client.users()[0].key, query)


def test_server_timing_is_read_in_seconds() -> None:
    header = 'restore;dur=0.25, run;desc="agent";dur=12.5, encrypt;dur=0.05, save'
    assert timings_in_seconds(header) == {"restore": 0.00025, "run": 0.0125, "encrypt": 5e-05}
    assert timings_in_seconds(None) == {}


def test_chat_page_in_server_mode_shows_the_hand_off(
    deployment: Deployment, server_url: str, tmp_path: Path, app: AppTest
) -> None:
    at = app
    at.sidebar.radio(key="mode").set_value("Server (URL + token)").run()
    at.sidebar.text_input(key="server_url").input(server_url)
    at.sidebar.text_input(key="server_token").input(_token(deployment, 2))
    at.sidebar.button(key="connect").click().run()
    assert not at.sidebar.error
    chat(at, BERLIN)
    chat(at, EXPENSES)
    at.text_area(key="ask1:business_reason").input("Client meeting")
    at.form[0].button[0].click().run()
    assert "↪ handed off from **BookBusinessFlight** via `conv.trip`" in texts(at)


HOTEL_AND_TAXI = "Book a hotel in Oslo for two nights and file last week's taxi receipt"


def test_a_multi_part_request_runs_part_by_part_on_one_conversation(
    client: DemoClient, deployment: Deployment
) -> None:
    user = _user(client)
    run = start_request(client, user, HOTEL_AND_TAXI)
    assert run.parts == ("Book a hotel in Oslo for two nights", "File last week's taxi receipt")
    best = [deployment.account.search(p)[0].agent_name for p in run.parts]
    assert [r.answer.agent for r in run.results if r.answer] == best
    first, second = (r.answer for r in run.results)
    assert first.success and first.result_code == "success"
    assert second.is_ask and second.convid == first.convid == run.convid
    assert not run.done and run.remaining == ()

    finished = answer_pending(
        client,
        user,
        run,
        {"category": "travel", "amount": "42.80", "business_reason": "Taxi to the client"},
    )
    assert finished.done and finished.results[-1].answer.result_code == "success"
    state = client.state(user, run.convid)
    assert [r["agent"] for r in state.runs] == best  # both parts saved in one conversation
    composed = finished.composed()
    assert composed.startswith("1/2 Book a hotel in Oslo for two nights\n  " + best[0] + ":")
    assert f"2/2 File last week's taxi receipt\n  {best[1]}:" in composed


def _close_request(deployment: Deployment) -> str:
    """A labelled request whose two best matches are close (found, not hard-coded, so a
    retuned search still gives one)."""
    import yaml

    folder = Path(__file__).resolve().parents[2] / "agents_catalog" / "evaluation"
    for path in sorted(folder.glob("*.yaml")):
        for case in yaml.safe_load(path.read_text()):
            hits = deployment.account.search(case["query"], limit=2)
            if len(hits) == 2 and hits[1].score >= CLOSE_RATIO * hits[0].score:
                return str(case["query"])
    raise AssertionError("no labelled request has two close matches")


def test_the_account_setting_reaches_the_client_and_offers_the_two_best(
    client: DemoClient, deployment: Deployment
) -> None:
    user = _user(client)
    query = _close_request(deployment)
    assert client.find(user, query).behavior == "executeTopMatch"
    assert start_request(client, user, query, split=False).choice is None
    deployment.config.search_behavior = "showResults"
    try:
        found = client.find(user, query)
        assert found.behavior == "showResults"
        run = start_request(client, user, query, split=False)
        assert run.choice is not None and run.results == ()
        runner_up = run.choice.options[1].agent_name
        assert runner_up == found.matches[1].agent_name
        picked = choose(client, user, run, runner_up)
        assert picked.results[0].answer.agent == runner_up
    finally:
        deployment.config.search_behavior = "executeTopMatch"


def test_chat_page_in_server_mode_follows_the_servers_search_behavior(
    deployment: Deployment, server_url: str, app: AppTest
) -> None:
    at = app
    at.sidebar.radio(key="mode").set_value("Server (URL + token)").run()
    at.sidebar.text_input(key="server_url").input(server_url)
    at.sidebar.text_input(key="server_token").input(_token(deployment, 3))
    at.sidebar.button(key="connect").click().run()
    assert not [r for r in at.sidebar.radio if r.key == "search_behavior"]  # the server's call
    deployment.config.search_behavior = "showResults"
    try:
        chat(at, _close_request(deployment))
        choices = [b for b in at.button if b.key and b.key.startswith("choice:")]
        assert len(choices) == 2
        assert "Search behaviour (the server's setting): Offer the two best." in [
            c.value for c in at.sidebar.caption
        ]
        choices[0].click().run()
        assert at.session_state["transcript"][0].answer.success
    finally:
        deployment.config.search_behavior = "executeTopMatch"


class ReferenceOnly(httpx.BaseTransport):
    """Talks to the server as if it were the reference agent server: no harness extras.

    ``/api/harness/...`` does not exist, there is no ``Server-Timing`` header and search results
    carry no ``score``.
    """

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.paths: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.paths.append(request.url.path)
        if request.url.path.startswith("/api/harness/"):
            message = f"There is no endpoint {request.url.path}."
            return httpx.Response(404, json={"success": False, "error": {"message": message}})
        response = self.inner.handle_request(request)
        body = response.read()
        if request.url.path == "/api/exec/search" and response.status_code == 200:
            data = json.loads(body)
            for result in data["searchResults"]:
                del result["score"]
            body = json.dumps(data).encode()
        dropped = {"server-timing", "content-length", "content-encoding", "transfer-encoding"}
        headers = [(k, v) for k, v in response.headers.items() if k.lower() not in dropped]
        return httpx.Response(response.status_code, headers=headers, content=body)

    def close(self) -> None:
        self.inner.close()


def test_the_http_client_needs_nothing_but_the_reference_api(
    deployment: Deployment, server_url: str
) -> None:
    transport = ReferenceOnly()
    client = HttpClient(server_url, _token(deployment, 2), transport=transport)
    user = _user(client)
    first = client.ask(user, BERLIN)
    assert first.success and first.agent == "BookBusinessFlight" and first.timings == {}
    assert client.last_agent(str(first.convid)) == "BookBusinessFlight"
    paused = client.ask(user, EXPENSES, first.convid)
    assert paused.is_ask and paused.agent == "SubmitExpenseClaim"
    done = client.answer_ask(
        user, paused, {"category": "travel", "amount": "84.50", "business_reason": "Client meeting"}
    )
    assert done.success and "Berlin" in done.parts[0].text
    assert done.handoffs == ()  # the markers need the harness's state view
    convid = str(first.convid)
    client.rename(user, convid, "Berlin, reference only")
    client.pin(user, convid, True)
    pinned = client.conversations(user).pinned
    assert [(c.convid, c.title) for c in pinned] == [(convid, "Berlin, reference only")]
    assert pinned[0].last_executed.startswith("20") and "T" in pinned[0].last_executed
    client.delete(user, convid)
    assert convid not in [c.convid for c in client.conversations(user).all()]
    assert "/api/harness/getConversationState" in transport.paths  # tried, and did without
    client.close()
