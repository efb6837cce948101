"""The hot paths answer ``search`` and ``execAgent`` exactly as the FastAPI endpoints do.

A query string sends a request through FastAPI (the hot paths leave it alone, and FastAPI
ignores unknown query parameters), so each pair below is the same call answered both ways.
"""

from __future__ import annotations

from typing import Any

import httpx
from fastapi.testclient import TestClient

from mock_account.api.timing import PHASES, parse_server_timing

QUERY = "book a flight to Paris next Monday"


def _both(client: TestClient, path: str, body: Any, **kw: Any) -> tuple[httpx.Response, ...]:
    return client.post(path, json=body, **kw), client.post(f"{path}?via=fastapi", json=body, **kw)


def _same(hot: httpx.Response, slow: httpx.Response) -> None:
    assert hot.status_code == slow.status_code
    assert hot.content == slow.content
    assert hot.headers["content-type"] == slow.headers["content-type"]
    assert hot.headers["content-length"] == slow.headers["content-length"]


def test_search_is_answered_the_same(client: TestClient) -> None:
    hot, slow = _both(client, "/api/exec/search", {"query": QUERY})
    assert hot.status_code == 200 and hot.json()["searchResults"]
    _same(hot, slow)
    _same(*_both(client, "/api/exec/search", {"query": QUERY, "tag": "travel"}))


def test_refusals_are_fastapis(client: TestClient, anonymous: TestClient) -> None:
    for body in ({"query": "short"}, {"query": QUERY, "extra": 1}, [QUERY]):
        hot, slow = _both(client, "/api/exec/search", body)
        assert hot.status_code == 422
        _same(hot, slow)
    hot, slow = _both(anonymous, "/api/exec/search", {"query": QUERY})
    assert hot.status_code == 401
    _same(hot, slow)
    hot, slow = _both(anonymous, "/api/exec/execAgent", {"agentName": "Nobody", "inputs": {}})
    assert hot.json()["resultCode"] == "mustLogin"
    _same(hot, slow)


def test_exec_agent_is_answered_the_same(client: TestClient) -> None:
    agent = client.post("/api/exec/search", json={"query": QUERY}).json()["searchResults"][0]
    body = {"agentName": agent["agentName"], "inputs": {"query": QUERY}}
    hot, slow = _both(client, "/api/exec/execAgent", body)
    assert hot.status_code == slow.status_code == 200
    first, second = hot.json(), slow.json()
    assert first["success"] and second["success"]
    assert first["convid"] != second["convid"]
    assert {**first, "convid": None} == {**second, "convid": None}
    for answer in (hot, slow):
        phases = parse_server_timing(answer.headers["server-timing"])
        assert set(phases) == {*PHASES, "total"} - {"restore"}
    # A follow-up in the conversation the hot path started restores it.
    follow = {**body, "convid": first["convid"]}
    again = client.post("/api/exec/execAgent", json=follow)
    assert again.json()["convid"] == first["convid"]
    assert "restore" in parse_server_timing(again.headers["server-timing"])


def test_unknown_agent_is_answered_the_same(client: TestClient) -> None:
    hot, slow = _both(client, "/api/exec/execAgent", {"agentName": "Nobody", "inputs": {}})
    _same(hot, slow)
    assert hot.json()["resultCode"] == "callFailed"
