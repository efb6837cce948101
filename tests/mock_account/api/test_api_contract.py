"""The contract suite: every answer of the live server against the reference shapes of SPEC §5.

`mock-account serve` runs as a real process (SQLite store in a temporary folder). One scenario
drives every endpoint and result the spec names; each answer is then validated twice:

- against the JSON Schemas of ``contract_schemas`` (written from SPEC §5, not from our models);
- against the schema the server's own OpenAPI document gives for that operation and status,

and the two schemas are compared key by key, so the document, the behaviour and the reference
cannot drift apart. Isolation is checked on the same server: an unknown, an expired (swept by
`mock-account sweep` on the same store) and another user's conversation get byte-identical
answers on every endpoint.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_helpers import TRIP
from contract_schemas import STREAM_LINE, SUCCESS_BODIES, reference
from jsonschema import Draft202012Validator
from live_helpers import write_streaming_account

from loadtests.server import ServerProcess

EXPENSES = "file my travel expenses for that trip"
OPERATIONS = {
    "/api/exec/search": "search",
    "/api/exec/execAgent": "execAgent",
    "/api/user/getConversation": "getConversation",
    "/api/user/getPinnedConversations": "getPinnedConversations",
    "/api/user/getUnpinnedConversations": "getUnpinnedConversations",
    "/api/user/setConversationTitle": "setConversationTitle",
    "/api/user/setPinned": "setPinned",
    "/api/user/deleteConversation": "deleteConversation",
}
PATHS = {op: path for path, op in OPERATIONS.items()}


@dataclass(frozen=True)
class Answer:
    """One observed answer: which operation, its status, its body (or stream lines)."""

    operation: str
    status: int
    content_type: str
    body: Any
    lines: tuple[Any, ...] = ()


@dataclass
class Live:
    server: ServerProcess
    store_url: str
    data_dir: Path
    account_dir: Path
    tokens: list[str]
    answers: list[Answer]

    def client(self, user: int = 0) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.tokens[user]}"} if user >= 0 else {}
        return httpx.Client(base_url=self.server.url, headers=headers, timeout=30)


def call(http: httpx.Client, live: Live, operation: str, body: Any) -> Answer:
    """POST ``body`` to the operation's path and keep the answer (streams line by line)."""
    path = PATHS[operation]
    if isinstance(body, dict) and body.get("stream") is True:
        with http.stream("POST", path, json=body) as response:
            lines = tuple(json.loads(line) for line in response.iter_lines() if line)
        answer = Answer(
            operation, response.status_code, response.headers["content-type"], None, lines
        )
    else:
        response = http.post(path, json=body)
        answer = Answer(
            operation, response.status_code, response.headers["content-type"], response.json()
        )
    live.answers.append(answer)
    return answer


def run_scenario(live: Live) -> None:
    """Every endpoint, every result the spec names, on a real server."""
    with live.client() as me, live.client(1) as other, live.client(-1) as nobody:
        call(me, live, "search", {"query": TRIP})
        call(me, live, "search", {"query": TRIP, "tag": ""})
        call(me, live, "search", {"query": "short"})  # 422
        call(nobody, live, "search", {"query": TRIP})  # 401
        asked = call(me, live, "execAgent", {"agentName": "BookTrip", "inputs": {"query": TRIP}})
        convid = asked.body["convid"]
        call(
            me,
            live,
            "execAgent",
            {"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
        )  # waiting on another agent
        call(me, live, "execAgent", {"agentName": "BookTrip", "convid": convid, "inputs": {}})
        call(
            me,
            live,
            "execAgent",
            {"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "x"}},
        )  # answers that do not fit: asked again
        call(
            me,
            live,
            "execAgent",
            {"agentName": "BookTrip", "convid": convid, "inputs": {"seat": "aisle"}},
        )
        call(
            me,
            live,
            "execAgent",
            {"agentName": "FileExpenses", "convid": convid, "inputs": {"query": EXPENSES}},
        )
        call(me, live, "execAgent", {"agentName": "IssueRefund", "inputs": {"query": TRIP}})
        call(me, live, "execAgent", {"agentName": "QuarterlyReport", "inputs": {"query": TRIP}})
        call(me, live, "execAgent", {"agentName": "NoSuchAgent", "inputs": {"query": TRIP}})
        call(
            me,
            live,
            "execAgent",
            {"agentName": "InvoiceStatus", "convid": "Q" * 22, "inputs": {"query": TRIP}},
        )
        call(nobody, live, "execAgent", {"agentName": "InvoiceStatus", "inputs": {}})  # mustLogin
        call(me, live, "execAgent", {"agentName": "InvoiceStatus", "inputs": []})  # 422
        for agent in ("TwoParts", "BookTrip", "IssueRefund"):
            call(
                me,
                live,
                "execAgent",
                {"agentName": agent, "inputs": {"query": TRIP}, "stream": True},
            )
        call(
            nobody,
            live,
            "execAgent",
            {"agentName": "InvoiceStatus", "inputs": {"query": TRIP}, "stream": True},
        )
        call(me, live, "getConversation", {"convid": convid})
        call(me, live, "getConversation", {"convid": "Q" * 22})  # 404
        call(other, live, "getConversation", {"convid": convid})  # 404, foreign
        call(me, live, "getConversation", {"convid": "bad"})  # 422
        call(me, live, "setConversationTitle", {"convid": convid, "title": "Berlin workshop"})
        call(me, live, "setPinned", {"convid": convid, "pinned": True})
        call(me, live, "getPinnedConversations", {})
        page = call(me, live, "getUnpinnedConversations", {"limit": 1})
        call(me, live, "getUnpinnedConversations", {"nextCursor": page.body["nextCursor"]})
        call(me, live, "getUnpinnedConversations", {"nextCursor": "", "limit": "2"})
        call(me, live, "getUnpinnedConversations", {"limit": 99})  # 422
        call(me, live, "setPinned", {"convid": convid, "pinned": "false"})
        call(me, live, "deleteConversation", {"convid": convid})
        call(me, live, "deleteConversation", {"convid": convid})  # 404: gone
        call(nobody, live, "getPinnedConversations", {})  # 401


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    folder = tmp_path_factory.mktemp("contract")
    account_dir = write_streaming_account(folder / "account")
    store_url = f"sqlite:///{folder / 'store.db'}"
    printed = subprocess.run(
        [sys.executable, "-m", "mock_account.cli", "users", "--json"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    acme = [u["token"] for u in json.loads(printed.stdout) if u["account"] == "acme"]
    args = [
        *("--store", store_url, "--data-dir", str(folder / "data")),
        *("--account-dir", str(account_dir), "--search", "bm25", "--log-level", "warning"),
    ]
    with ServerProcess(args, startup_s=120) as server:
        running = Live(server, store_url, folder / "data", account_dir, acme, [])
        run_scenario(running)
        yield running


@pytest.fixture(scope="module")
def openapi(live: Live) -> dict[str, Any]:
    return dict(httpx.get(f"{live.server.url}/openapi.json", timeout=30).json())


def documented(openapi: dict[str, Any], operation: str, status: int, media: str) -> Any:
    """The OpenAPI schema of an operation's answer, as a schema resolvable on its own."""
    responses = openapi["paths"][PATHS[operation]]["post"]["responses"]
    assert str(status) in responses, f"{operation}: status {status} is not documented"
    content = responses[str(status)].get("content") or {}
    assert media in content, f"{operation} {status}: {media} is not documented"
    return {**content[media]["schema"], "components": openapi["components"]}


def problems(schema: dict[str, Any], instance: Any) -> list[str]:
    validator = Draft202012Validator(schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '<body>'}: {e.message}"
        for e in validator.iter_errors(instance)
    ]


def test_the_scenario_reaches_every_operation_result_and_line(live: Live) -> None:
    assert {a.operation for a in live.answers} == set(OPERATIONS.values())
    codes = {
        a.body["resultCode"]
        for a in live.answers
        if a.operation == "execAgent" and a.status == 200 and a.body
    } | {
        line["value"]["resultCode"]
        for a in live.answers
        for line in a.lines
        if line["type"] == "agent"
    }
    assert {"success", "ask", "failCommand", "errorInAgent", "callFailed"} <= codes
    assert {"unknownConversation", "mustLogin"} <= codes
    assert {a.status for a in live.answers} == {200, 401, 404, 422}
    line_types = {line["type"] for a in live.answers for line in a.lines}
    assert {"progress", "data", "trace", "agent"} <= line_types


def test_every_answer_has_the_reference_shape(live: Live) -> None:
    found = []
    for index, answer in enumerate(live.answers):
        where = f"#{index} {answer.operation} {answer.status}"
        if answer.lines:
            assert answer.content_type == "application/x-ndjson", where
            assert answer.lines[-1]["type"] == "agent", where
            found += [
                f"{where} line {n}: {p}"
                for n, line in enumerate(answer.lines)
                for p in problems(STREAM_LINE, line)
            ]
        else:
            assert answer.content_type == "application/json", where
            found += [
                f"{where}: {p}"
                for p in problems(reference(answer.operation, answer.status), answer.body)
            ]
    assert found == []


def test_every_answer_matches_the_openapi_document(live: Live, openapi: dict[str, Any]) -> None:
    found = []
    for index, answer in enumerate(live.answers):
        where = f"#{index} {answer.operation} {answer.status}"
        if answer.lines:
            documented(openapi, answer.operation, answer.status, "application/x-ndjson")
            schema = documented(openapi, answer.operation, 200, "application/json")
            bodies = [line["value"] for line in answer.lines if line["type"] == "agent"]
        else:
            schema = documented(openapi, answer.operation, answer.status, "application/json")
            bodies = [answer.body]
        found += [f"{where}: {p}" for body in bodies for p in problems(schema, body)]
    assert found == []


def _deref(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        target: Any = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        schema = target
    return schema


def shape(schema: dict[str, Any], root: dict[str, Any]) -> Any:
    """Keys, required keys and nesting of a schema, without types or limits."""
    schema = _deref(schema, root)
    for combinator in ("anyOf", "oneOf"):
        if combinator in schema:
            options = [s for s in schema[combinator] if _deref(s, root).get("type") != "null"]
            if len(options) == 1:
                return shape(options[0], root)
            return [shape(s, root) for s in options]
    if "properties" in schema or schema.get("type") == "object":
        return {
            "keys": {k: shape(v, root) for k, v in (schema.get("properties") or {}).items()},
            "required": sorted(schema.get("required") or []),
        }
    if schema.get("type") == "array":
        return ["array of", shape(schema.get("items") or {}, root)]
    return "value"


@pytest.mark.parametrize("operation", sorted(SUCCESS_BODIES))
def test_the_openapi_document_and_the_reference_have_the_same_keys(
    openapi: dict[str, Any], operation: str
) -> None:
    mine = documented(openapi, operation, 200, "application/json")
    assert shape(mine, mine) == shape(SUCCESS_BODIES[operation], {})
    for status in (401, 422):
        if operation == "execAgent" and status == 401:
            continue
        error = documented(openapi, operation, status, "application/json")
        assert shape(error, error) == shape(reference(operation, status), {})


def test_unknown_expired_and_foreign_conversations_are_byte_identical(live: Live) -> None:
    """Isolation is exact: nothing tells the three apart, on any endpoint."""
    with live.client() as me, live.client(1) as other:
        expired = me.post(
            PATHS["execAgent"], json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}
        ).json()["convid"]
        foreign = other.post(
            PATHS["execAgent"], json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}
        ).json()["convid"]
        swept = subprocess.run(
            [
                sys.executable,
                "-m",
                "mock_account.cli",
                "sweep",
                *("--store", live.store_url, "--data-dir", str(live.data_dir)),
                *("--account-dir", str(live.account_dir), "--search", "bm25"),
                *("--now", "2099-01-01T00:00:00", "--free-days", "1"),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert swept.returncode == 0, swept.stderr
        # The other user's conversation was swept too; they start a fresh one to be foreign.
        foreign = other.post(
            PATHS["execAgent"], json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}
        ).json()["convid"]
        unknown = "Zz" * 11
        calls: list[tuple[str, dict[str, Any]]] = [
            (PATHS["getConversation"], {}),
            (PATHS["setConversationTitle"], {"title": "mine now"}),
            (PATHS["setPinned"], {"pinned": True}),
            (PATHS["deleteConversation"], {}),
            ("/api/harness/getConversationState", {}),
            (PATHS["execAgent"], {"agentName": "InvoiceStatus", "inputs": {"query": TRIP}}),
        ]
        for path, extra in calls:
            answers = [
                me.post(path, json={"convid": convid, **extra})
                for convid in (unknown, expired, foreign)
            ]
            assert len({(a.status_code, a.content) for a in answers}) == 1, path
            if path == PATHS["execAgent"]:
                assert answers[0].json()["resultCode"] == "unknownConversation"
                assert answers[0].json()["error"]["message"] == (
                    "This conversation has expired. Please start a new one."
                )
            else:
                assert answers[0].status_code == 404
                assert answers[0].json()["error"]["message"] == (
                    "Could not get this conversation. It probably expired."
                )
        state = other.post(PATHS["getConversation"], json={"convid": foreign}).json()
        assert len(state["conversation"]) == 1  # nothing the first user tried changed it
