"""``/api/harness/ping``, the load tests' HTTP ceiling: signed in like every call, then nothing."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from mock_account.api.planned_route import PlannedRoute

PING = "/api/harness/ping"


def test_ping_answers_a_signed_in_caller_with_a_tiny_json(client: TestClient) -> None:
    for body in ({"note": "ceiling"}, {}, None):
        reply = client.post(PING, json=body)
        assert reply.status_code == 200, reply.text
        assert reply.json() == {"success": True}
        assert reply.headers["content-type"] == "application/json"
    # A body without a Content-Type is read as JSON, as on every other call.
    reply = client.post(PING, content=b'{"note": "x"}')
    assert reply.status_code == 200 and reply.json() == {"success": True}


def test_ping_refuses_a_caller_without_a_valid_token(anonymous: TestClient) -> None:
    for headers in ({}, {"Authorization": "Bearer s2o_wrong"}):
        reply = anonymous.post(PING, json={"note": "ceiling"}, headers=headers)
        assert reply.status_code == 401
        assert reply.json()["success"] is False
        assert reply.headers["www-authenticate"].startswith("Bearer")


def test_ping_validates_its_body_like_any_call(client: TestClient) -> None:
    for body in ({"note": "x" * 201}, {"other": 1}, [1]):
        reply = client.post(PING, json=body)
        assert reply.status_code == 422, body
        assert reply.json()["success"] is False


def test_ping_takes_the_route_of_the_conversation_calls(app: FastAPI) -> None:
    # Matched before the included routers and planned like execAgent: a ceiling through a
    # slower path would flatter every ratio to it.
    paths = [getattr(route, "path", None) for route in app.router.routes]
    assert paths.index(PING) < paths.index("/health")
    route = next(r for r in app.router.routes if getattr(r, "path", None) == PING)
    assert isinstance(route, PlannedRoute)
    spec = app.openapi()["paths"][PING]["post"]
    assert spec["operationId"] == "ping" and spec["tags"] == ["harness"]
    assert "503" not in spec["responses"]  # it reaches no store
