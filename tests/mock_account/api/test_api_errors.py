"""Refusals: every one is JSON with a readable message, and no input reaches a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from api_helpers import TRIP, token_of
from fastapi import FastAPI
from fastapi.testclient import TestClient

from mock_account.api import create_app
from mock_account.deployment import Deployment

SEARCH = "/api/exec/search"
EXEC = "/api/exec/execAgent"
JSON = {"Content-Type": "application/json"}
ALL_POST_PATHS = [
    SEARCH,
    EXEC,
    "/api/user/getConversation",
    "/api/user/getPinnedConversations",
    "/api/user/getUnpinnedConversations",
    "/api/user/setConversationTitle",
    "/api/user/setPinned",
    "/api/user/deleteConversation",
    "/api/harness/getConversationState",
    "/api/harness/ping",
]


def refusal(reply: object) -> str:
    body = reply.json()  # type: ignore[attr-defined]
    assert body["success"] is False
    assert "Traceback" not in reply.text  # type: ignore[attr-defined]
    return str(body["error"]["message"])


def test_health(anonymous: TestClient) -> None:
    reply = anonymous.get("/health")
    assert reply.status_code == 200
    assert reply.json() == {"status": "ok", "agents": 6, "store": "memory"}


@pytest.mark.parametrize("path", [p for p in ALL_POST_PATHS if p != EXEC])
def test_every_api_call_needs_a_token(anonymous: TestClient, path: str) -> None:
    reply = anonymous.post(path, json={})
    assert reply.status_code == 401
    assert "Authorization: Bearer" in refusal(reply)
    assert reply.headers["www-authenticate"].startswith("Bearer")
    assert reply.json()["error"]["data"] == {}


@pytest.mark.parametrize(
    "headers",
    [
        {"Authorization": "Bearer s2o_wrong"},
        {"Authorization": "Bearer "},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer " + "x" * 5000},
    ],
)
def test_a_wrong_token_is_401(anonymous: TestClient, headers: dict[str, str]) -> None:
    reply = anonymous.post(SEARCH, json={"query": TRIP}, headers=headers)
    assert reply.status_code == 401
    refusal(reply)


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer s2o_wrong"}, {"Authorization": "Basic eDp5"}]
)
def test_exec_agent_without_a_valid_token_is_200_must_login(
    anonymous: TestClient, headers: dict[str, str]
) -> None:
    reply = anonymous.post(
        EXEC, json={"agentName": "BookTrip", "inputs": {"query": TRIP}}, headers=headers
    )
    assert reply.status_code == 200
    body = reply.json()
    assert body == {
        "success": False,
        "convid": None,
        "agentName": "BookTrip",
        "output": None,
        "resultCode": "mustLogin",
        "askInput": None,
        "error": {"message": body["error"]["message"], "data": {}},
    }
    assert "token" in body["error"]["message"].lower()


def test_exec_agent_with_a_bad_body_and_no_token_is_still_422(anonymous: TestClient) -> None:
    reply = anonymous.post(EXEC, json={})
    assert reply.status_code == 422
    assert refusal(reply) == "agentName: is required"


def test_the_session_cookie_signs_in_too(app: FastAPI, deployment: Deployment) -> None:
    token = token_of(deployment, deployment.users.users[0])
    with TestClient(app, cookies={"search2o_session": token}) as browser:
        reply = browser.post(SEARCH, json={"query": TRIP})
    assert reply.status_code == 200 and reply.json()["success"] is True


def test_404_and_405_are_json(client: TestClient) -> None:
    missing = client.post("/api/exec/nothingHere", json={})
    assert missing.status_code == 404
    assert refusal(missing) == "There is no endpoint /api/exec/nothingHere."
    wrong_method = client.get(SEARCH)
    assert wrong_method.status_code == 405
    assert refusal(wrong_method) == "GET is not allowed on /api/exec/search; use POST."
    assert wrong_method.headers["allow"] == "POST"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"query": ', "the body is not valid JSON (Expecting value at character 10)"),
        (b"{'query': 'single quotes'}", "the body is not valid JSON (Expecting property name"),
        (b'{"query": "\xff\xfe not utf-8"}', "the body is not valid JSON"),
        (b"[" * 50_000, "the body is not valid JSON"),
        (b"[1, 2]", "the body must be a JSON object"),
        (b'"a string"', "the body must be a JSON object"),
        (b'{"query": "' + b"\\ud800" * 3 + b' padding"}', "query: contains an invalid"),
    ],
)
def test_malformed_bodies_are_422(client: TestClient, content: bytes, message: str) -> None:
    reply = client.post(SEARCH, content=content, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422
    assert refusal(reply).startswith(message)


def test_a_body_that_is_not_json_is_refused_not_guessed(client: TestClient) -> None:
    reply = client.post(
        SEARCH, content=f'{{"query": "{TRIP}"}}', headers={"Content-Type": "text/plain"}
    )
    assert reply.status_code == 422
    assert refusal(reply) == "the body must be JSON, sent with Content-Type: application/json"


def test_a_body_without_content_type_is_read_as_json(client: TestClient) -> None:
    reply = client.post(SEARCH, content=f'{{"query": "{TRIP}"}}'.encode())
    assert reply.status_code == 200
    assert reply.json()["searchResults"][0]["agentName"] == "BookTrip"


def test_with_the_session_cookie_the_body_must_be_declared_json(
    app: FastAPI, deployment: Deployment
) -> None:
    token = token_of(deployment, deployment.users.users[0])
    with TestClient(app, cookies={"search2o_session": token}) as browser:
        bare = browser.post(SEARCH, content=f'{{"query": "{TRIP}"}}'.encode())
        declared = browser.post(SEARCH, json={"query": TRIP})
    assert bare.status_code == 415
    assert refusal(bare).endswith("must be sent with Content-Type: application/json.")
    assert declared.status_code == 200


def test_scalars_are_coerced_as_the_agent_server_does(client: TestClient) -> None:
    convid = client.post(
        EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}
    ).json()["convid"]
    pinned = client.post("/api/user/setPinned", json={"convid": convid, "pinned": "true"})
    page = client.post("/api/user/getUnpinnedConversations", json={"limit": "5"})
    assert pinned.status_code == 200 and page.status_code == 200
    listed = client.post("/api/user/getPinnedConversations", json={}).json()
    assert [c["convid"] for c in listed["pinnedConversations"]] == [convid]


def test_a_missing_body_is_422(client: TestClient) -> None:
    reply = client.post(SEARCH)
    assert reply.status_code == 422
    assert refusal(reply) == "the body is required: a JSON object"


def nested(levels: int) -> object:
    value: object = 1
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ({"query": TRIP, "n": float("nan")}, "inputs.n: must be a finite number"),
        ({"query": TRIP, "n": float("inf")}, "inputs.n: must be a finite number"),
        ({"query": TRIP, "n": "\ud800"}, "inputs.n: contains an invalid character"),
        ({"query": TRIP, "deep": nested(40)}, "nested more than 32 levels deep"),
    ],
)
def test_inputs_the_state_could_not_keep_are_422(
    client: TestClient, inputs: dict[str, object], message: str
) -> None:
    content = json.dumps({"agentName": "InvoiceStatus", "inputs": inputs})  # NaN as JSON allows
    reply = client.post(EXEC, content=content, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422
    assert message in refusal(reply)


def test_several_problems_are_all_named(client: TestClient) -> None:
    reply = client.post(SEARCH, json={"query": "short", "tag": "Not A Tag", "extra": 1})
    assert reply.status_code == 422
    body = reply.json()
    assert {f["field"] for f in body["error"]["data"]["fields"]} == {"query", "tag", "extra"}
    message = body["error"]["message"]
    assert "query: must be at least 8 characters" in message
    assert "tag: must be lower-case words" in message
    assert "unknown field 'extra'" in message


def test_a_bad_idempotency_key_header_is_422(client: TestClient) -> None:
    reply = client.post(
        EXEC,
        json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}},
        headers={"Idempotency-Key": "x" * 300},
    )
    assert reply.status_code == 422
    assert refusal(reply) == ("Idempotency-Key header: must be 1 to 255 visible ASCII characters")


@pytest.fixture
def small_limit_client(deployment: Deployment) -> Iterator[TestClient]:
    app = create_app(deployment, max_body_bytes=200)
    token = token_of(deployment, deployment.users.users[0])
    with TestClient(app, headers={"Authorization": f"Bearer {token}"}) as signed_in:
        yield signed_in


def test_a_declared_oversize_body_is_413_before_anything_reads_it(
    small_limit_client: TestClient,
) -> None:
    big = b'{"query": "' + b"a" * 500 + b'"}'
    reply = small_limit_client.post(SEARCH, content=big, headers=JSON)
    assert reply.status_code == 413
    assert refusal(reply) == "The request body is larger than the limit of 200 bytes."


def test_a_streamed_oversize_body_is_413(small_limit_client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: sent chunked
        yield b'{"query": "'
        for _ in range(10):
            yield b"a" * 50
        yield b'"}'

    reply = small_limit_client.post(SEARCH, content=chunks(), headers=JSON)
    assert reply.status_code == 413


def test_a_body_at_the_limit_passes(small_limit_client: TestClient) -> None:
    body = b'{"query": "' + b"a" * (200 - 13) + b'"}'
    assert len(body) == 200
    reply = small_limit_client.post(SEARCH, content=body, headers=JSON)
    assert reply.status_code == 200


def test_the_default_limit_is_one_mebibyte(client: TestClient) -> None:
    reply = client.post(SEARCH, content=b'{"query": "' + b"a" * (1024 * 1024) + b'"}', headers=JSON)
    assert reply.status_code == 413


def test_a_server_fault_is_a_bare_500(
    client: TestClient, deployment: Deployment, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(deployment.account, "list_pinned", explode)
    reply = client.post("/api/user/getPinnedConversations", json={})
    assert reply.status_code == 500
    assert refusal(reply) == "The server failed unexpectedly; nothing was changed."
    assert "secret internals" not in reply.text


def test_openapi_documents_every_model_field(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = set(spec["paths"])
    assert {"/health", *ALL_POST_PATHS} <= paths
    assert spec["paths"][EXEC]["post"]["tags"] == ["exec"]
    assert spec["paths"]["/api/harness/getConversationState"]["post"]["tags"] == ["harness"]
    assert "Harness extras" in spec["info"]["description"]
    undocumented = [
        f"{name}.{field}"
        for name, schema in spec["components"]["schemas"].items()
        for field, prop in schema.get("properties", {}).items()
        if not prop.get("description")
    ]
    assert undocumented == []
    errors = spec["paths"][SEARCH]["post"]["responses"]
    assert errors["422"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorResponse")
    assert set(spec["components"]["securitySchemes"]) == {"bearerAuth", "cookieAuth"}
    operations = {
        path: op["operationId"] for path, ops in spec["paths"].items() for op in ops.values()
    }
    assert operations == {
        "/health": "health",
        SEARCH: "search",
        EXEC: "execAgent",
        "/api/user/getConversation": "getConversation",
        "/api/user/getPinnedConversations": "getPinnedConversations",
        "/api/user/getUnpinnedConversations": "getUnpinnedConversations",
        "/api/user/setConversationTitle": "setConversationTitle",
        "/api/user/setPinned": "setPinned",
        "/api/user/deleteConversation": "deleteConversation",
        "/api/harness/getConversationState": "getConversationState",
    } | {path: path.rsplit("/", 1)[-1] for path in paths if path.startswith("/api/harness/")}
