"""Hostile HTTP input: every endpoint fuzzed from the OpenAPI document, plus hand-made abuse.

No input may produce a 5xx or a traceback; every refusal is JSON with one clear message.
Each test prints the figure it proves (``HOSTILE ...``). ``HOSTILE_EXAMPLES`` sets how many
generated cases each operation gets (default 100: 70 valid per the schema, 30 invalid).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hostile_env import (
    TRIP,
    build_app,
    deployment_in,
    refusal_problem,
    signed_in,
    token_of,
)
from hostile_fuzz import FuzzTally, fuzz_operation
from schemathesis import GenerationMode
from schemathesis.python import asgi

from mock_account.api.body_limit import DEFAULT_MAX_BODY_BYTES
from mock_account.deployment import Deployment

EXAMPLES = int(os.environ.get("HOSTILE_EXAMPLES", "100"))
SEARCH = "/api/exec/search"
EXEC = "/api/exec/execAgent"
CONVID = "Xk3r9QpLm2TzVb7NcW4sYa"
POST_PATHS = [
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
    *(
        f"/api/harness/{name}"
        for name in (
            "listWorkflows",
            "getWorkflowProgress",
            "submitWorkflowValues",
            "advanceWorkflow",
            "listActions",
            "createAction",
            "approveAction",
            "rejectAction",
            "getOutbox",
        )
    ),
    "/api/harness/deliverMessage",
    "/api/harness/getInbox",
    "/api/harness/getInboxConversation",
    "/api/harness/getContacts",
    "/api/harness/getIdentity",
    "/api/harness/setIdentityContact",
    "/api/harness/getAgentConfig",
    "/api/harness/listAgentConfigVersions",
    "/api/harness/diffAgentConfig",
    "/api/harness/saveAgentConfig",
    "/api/harness/restoreAgentConfig",
    "/api/harness/cloneAgent",
]
JSON_TYPE = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    with deployment_in(tmp_path_factory.mktemp("hostile-http")) as built:
        yield built


@pytest.fixture(scope="module")
def app(deployment: Deployment) -> FastAPI:
    return build_app(deployment)


@pytest.fixture(scope="module")
def token(deployment: Deployment) -> str:
    return token_of(deployment, deployment.users.users[0])


@pytest.fixture(scope="module")
def client(app: FastAPI, token: str) -> Iterator[TestClient]:
    with signed_in(app, token) as signed:
        yield signed


@pytest.fixture(scope="module")
def anonymous(app: FastAPI) -> Iterator[TestClient]:
    with signed_in(app, None) as nobody:
        yield nobody


class Probe:
    """Sends requests and tallies every answer and every problem with it."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.problems: list[str] = []

    def check(self, what: str, reply: Any, expect: int | tuple[int, ...] | None = None) -> Any:
        self.statuses[reply.status_code] += 1
        problem = refusal_problem(
            reply.status_code, reply.text, reply.headers.get("content-type", "")
        )
        if problem:
            self.problems.append(f"{what}: {problem}")
        wanted = (expect,) if isinstance(expect, int) else expect
        if wanted is not None and reply.status_code not in wanted:
            self.problems.append(f"{what}: status {reply.status_code}, wanted {wanted}")
        return reply

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    def summary(self) -> str:
        server_errors = sum(n for s, n in self.statuses.items() if s >= 500)
        statuses = ", ".join(f"{s}x{n}" for s, n in sorted(self.statuses.items()))
        return f"{self.total} requests, {server_errors} server errors (statuses {statuses})"


# --- generated from the OpenAPI document ----------------------------------------------------


@pytest.mark.slow
def test_every_operation_fuzzed_from_the_openapi_document(app: FastAPI, token: str) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == len(POST_PATHS) + 1  # every POST endpoint and GET /health
    tally = FuzzTally()
    session = asgi.get_client(app)
    headers = {"Authorization": f"Bearer {token}"}
    negative = EXAMPLES * 3 // 10
    for operation in operations:
        if operation.method.lower() == "get":
            fuzz_operation(operation, GenerationMode.POSITIVE, 5, headers, tally, session)
            continue
        fuzz_operation(
            operation, GenerationMode.POSITIVE, EXAMPLES - negative, headers, tally, session
        )
        fuzz_operation(operation, GenerationMode.NEGATIVE, negative, headers, tally, session)
    statuses = ", ".join(f"{s}x{n}" for s, n in sorted(tally.statuses.items()))
    print(
        f"\nHOSTILE schemathesis {schemathesis.SCHEMATHESIS_VERSION}: {tally.total} cases over "
        f"{len(tally.cases)} operations, {tally.server_errors} server errors, "
        f"{len(tally.problems)} problems (statuses {statuses})"
    )
    assert set(tally.cases) == {f"{o.method.upper()} {o.path}" for o in operations}
    assert tally.server_errors == 0
    assert tally.problems == []


# --- hand-made abuse ----------------------------------------------------------------------


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def test_oversize_and_absurd_bodies_are_refused_cleanly(client: TestClient) -> None:
    probe = Probe()
    over = DEFAULT_MAX_BODY_BYTES + 1
    huge = json.dumps({"query": "x" * over}).encode()
    for path in POST_PATHS:
        probe.check(f"{path} huge body", client.post(path, content=huge, headers=JSON_TYPE), 413)

    def chunks() -> Iterator[bytes]:
        yield b'{"query": "'
        for _ in range(over // 65536 + 1):
            yield b"y" * 65536
        yield b'"}'

    probe.check("chunked huge body", client.post(SEARCH, content=chunks(), headers=JSON_TYPE), 413)
    deep_bodies = {
        "deep array": _deep(10_000),
        "deep object": '{"a":' * 10_000 + "1" + "}" * 10_000,
        "deep query": '{"query":' + _deep(10_000) + "}",
        "deep inputs": '{"agentName":"BookTrip","inputs":{"query":"'
        + TRIP
        + '","x":'
        + _deep(10_000)
        + "}}",
        "deep answer, within JSON's limit": '{"agentName":"BookTrip","inputs":{"query":"'
        + TRIP
        + '","x":'
        + _deep(200)
        + "}}",
        "huge integer": '{"limit": ' + "9" * 5000 + "}",
        "huge exponent": '{"limit": 1e400}',
        "NaN": '{"limit": NaN}',
        "Infinity": '{"agentName":"BookTrip","inputs":{"query":"' + TRIP + '","n":Infinity}}',
        "duplicate keys": '{"query":"' + TRIP + '","query":"short"}',
        "many keys": json.dumps({f"k{i}": i for i in range(20_000)}),
        "long array": json.dumps({"query": TRIP, "tag": list(range(50_000))}),
    }
    for name, text in deep_bodies.items():
        for path in (SEARCH, EXEC, "/api/user/getUnpinnedConversations"):
            reply = client.post(path, content=text.encode(), headers=JSON_TYPE)
            probe.check(f"{path} {name}", reply, (200, 422))
    print(f"\nHOSTILE bodies (oversize, chunked, 10k-deep, huge numbers): {probe.summary()}")
    assert probe.problems == []


WRONG_TYPES: list[tuple[str, dict[str, Any]]] = [
    (SEARCH, {"query": 12345678}),
    (SEARCH, {"query": ["I need to fly to Berlin"]}),
    (SEARCH, {"query": {"text": TRIP}}),
    (SEARCH, {"query": None}),
    (SEARCH, {"query": True}),
    (SEARCH, {"query": TRIP, "tag": 7}),
    (SEARCH, {"query": TRIP, "tag": "Not A Tag!"}),
    (SEARCH, {"query": TRIP, "unknown": 1}),
    (SEARCH, {"query": TRIP, "line\nbreak\r\x1d\u2028": 1}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP}, "a\nb": {"c\nd": 1}}),
    (SEARCH, {"query": "short"}),
    (SEARCH, {"query": "x" * 10_001}),
    (EXEC, {"agentName": 5, "inputs": {"query": TRIP}}),
    (EXEC, {"agentName": "BookTrip", "inputs": [TRIP]}),
    (EXEC, {"agentName": "BookTrip", "inputs": TRIP}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": 5}}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP}, "stream": "false"}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP}, "stream": True}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP}, "convid": 12}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP}, "convid": "../../etc/passwd"}),
    (EXEC, {"agentName": "BookTrip", "inputs": {}}),
    (EXEC, {"agentName": "NoSuchAgentAtAll", "inputs": {"query": TRIP}}),
    (EXEC, {"agentName": "BookTrip", "inputs": {"query": TRIP, "seat": {"a": [1, {"b": None}]}}}),
    ("/api/user/getConversation", {"convid": None}),
    ("/api/user/getConversation", {"convid": ["x"]}),
    ("/api/user/getConversation", {"convid": CONVID[:-1]}),
    ("/api/user/getConversation", {"convid": "'; DROP TABLE conversations; --"}),
    ("/api/user/getPinnedConversations", {"limit": 3}),
    ("/api/user/getUnpinnedConversations", {"limit": 1.5}),
    ("/api/user/getUnpinnedConversations", {"limit": True}),
    ("/api/user/getUnpinnedConversations", {"limit": 0}),
    ("/api/user/getUnpinnedConversations", {"limit": 10**30}),
    ("/api/user/getUnpinnedConversations", {"nextCursor": 5}),
    ("/api/user/getUnpinnedConversations", {"nextCursor": "not-a-cursor"}),
    ("/api/user/getUnpinnedConversations", {"nextCursor": "x" * 1001}),
    ("/api/user/getUnpinnedConversations", {"nextCursor": "eyJhIjoxfQ=="}),
    ("/api/user/setConversationTitle", {"convid": CONVID, "title": 5}),
    ("/api/user/setConversationTitle", {"convid": CONVID, "title": "   "}),
    ("/api/user/setConversationTitle", {"convid": CONVID, "title": "t" * 201}),
    ("/api/user/setPinned", {"convid": CONVID, "pinned": 1}),
    ("/api/user/setPinned", {"convid": CONVID}),
    ("/api/user/deleteConversation", {}),
    ("/api/harness/getConversationState", {"convid": CONVID, "extra": True}),
]


def test_wrong_types_are_422_with_a_message(client: TestClient) -> None:
    probe = Probe()
    for path, body in WRONG_TYPES:
        reply = probe.check(f"{path} {body!r:.80}", client.post(path, json=body))
        if path == EXEC and reply.status_code == 200:
            # execAgent answers 200 with a result code; a wrong agent is not a bad body. A
            # streamed one ends with the agent line.
            lines = reply.text.splitlines()
            answer = json.loads(lines[-1])["value"] if len(lines) > 1 else reply.json()
            assert answer["resultCode"] != "unexpected", reply.text
        elif path == "/api/user/getUnpinnedConversations" and "nextCursor" in body:
            pass  # an unknown cursor string is 422, a well-formed one may still be unknown
        elif reply.status_code not in (404, 422):
            probe.problems.append(f"{path} {body!r:.80}: {reply.status_code} {reply.text}")
    print(f"\nHOSTILE wrong types: {probe.summary()}")
    assert probe.problems == []


#: Strings a client may send: lone surrogates (as JSON escapes, the only way to send them),
#: right-to-left overrides, zero-width characters, NUL, combining marks, emoji, noncharacters.
UNICODE_EDGES = {
    "lone high surrogate": "\\ud800",
    "lone low surrogate": "\\udfff",
    "reversed pair": "\\udc00\\ud800",
    "RTL override": "\u202e",
    "RTL text": "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627",
    "zero-width": "\u200b\u200c\u200d\ufeff",
    "NUL": "\\u0000",
    "control chars": "\\u0001\\u001f\\u007f",
    "combining": "e\u0301\u0301\u0301\u0301",
    "emoji": "\U0001f600\U0001f469\u200d\U0001f469\u200d\U0001f467",
    "nonchar": "\ufffe\uffff\U0010ffff",
}


def _unicode_bodies(edge: str) -> list[tuple[str, str]]:
    query = f"{edge} I need to fly to Berlin next week {edge}"
    return [
        (SEARCH, f'{{"query": "{query}"}}'),
        (SEARCH, f'{{"query": "{query}", "tag": "{edge}"}}'),
        (EXEC, f'{{"agentName": "BookTrip", "inputs": {{"query": "{query}"}}}}'),
        (EXEC, f'{{"agentName": "Book{edge}Trip", "inputs": {{"query": "{query}"}}}}'),
        (
            EXEC,
            f'{{"agentName": "InvoiceStatus", "inputs": {{"query": "{query}", '
            f'"{edge}": "{edge}"}}}}',
        ),
        ("/api/user/getConversation", f'{{"convid": "{edge}{CONVID[:-1]}"}}'),
        ("/api/user/setConversationTitle", f'{{"convid": "{CONVID}", "title": "{query}"}}'),
        ("/api/user/getUnpinnedConversations", f'{{"nextCursor": "{edge}"}}'),
        (SEARCH, f'{{"{edge}": "{query}"}}'),
    ]


def test_unicode_edge_cases_never_break_the_server(client: TestClient) -> None:
    probe = Probe()
    codes: Counter[str] = Counter()
    for name, edge in UNICODE_EDGES.items():
        for path, text in _unicode_bodies(edge):
            reply = probe.check(
                f"{name} {path}", client.post(path, content=text.encode(), headers=JSON_TYPE)
            )
            if path == EXEC and reply.status_code == 200:
                code = reply.json()["resultCode"]
                codes[code] += 1
                if code == "unexpected":
                    probe.problems.append(f"{name} {path}: unexpected failure {reply.text}")
            if "surrogate" in name and path == SEARCH and reply.status_code != 422:
                probe.problems.append(f"{name} {path}: {reply.status_code}, wanted 422")
    # A conversation started with RTL, zero-width and emoji text keeps it intact in its title.
    query = "\u202e\u200bfly to Berlin \U0001f600 next week\u200d"
    started = client.post(EXEC, json={"agentName": "InvoiceStatus", "inputs": {"query": query}})
    convid = started.json()["convid"]
    listed = client.post("/api/user/getUnpinnedConversations", json={"limit": 25}).json()
    titles = {c["convid"]: c["title"] for c in listed["unpinnedConversations"]}
    print(
        f"\nHOSTILE unicode ({len(UNICODE_EDGES)} kinds): {probe.summary()}; "
        f"execAgent result codes {dict(codes)}"
    )
    assert titles[convid] == query
    assert probe.problems == []


def test_bad_absent_and_overlong_tokens_are_401(app: FastAPI, token: str) -> None:
    probe = Probe()
    bad_headers: list[dict[str, str]] = [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer "},
        {"Authorization": "Bearer  "},
        {"Authorization": f"Basic {token}"},
        {"Authorization": f"Token {token}"},
        {"Authorization": f"Bearer {token}x"},
        {"Authorization": f"Bearer {token[:-1]}"},
        {"Authorization": f"Bearer {token.upper()}"},
        {"Authorization": "Bearer " + "x" * 257},
        {"Authorization": "Bearer " + "x" * 60_000},
        {"Authorization": "Bearer s2o_\u00e9\u00e8"},
        {"Authorization": f"Bearer {token} {token}"},
        {"Cookie": "search2o_session="},
        {"Cookie": "search2o_session=" + "y" * 4000},
        {"Cookie": "search2o_session=%00%ff"},
    ]
    with signed_in(app, None) as nobody:
        for headers in bad_headers:
            for path in POST_PATHS:
                # Header values go out as raw bytes, so non-ASCII ones reach the server as sent.
                encoded = {k: v.encode("latin-1") for k, v in headers.items()}
                if path == EXEC:
                    # execAgent answers a missing or bad token with HTTP 200 mustLogin.
                    body = {"agentName": "BookTrip", "inputs": {"query": TRIP}}
                    reply = nobody.post(path, json=body, headers=encoded)
                    probe.check(f"{path} {str(headers)[:60]}", reply, 200)
                    assert reply.json()["resultCode"] == "mustLogin"
                    continue
                reply = nobody.post(path, json={"query": TRIP}, headers=encoded)
                probe.check(f"{path} {str(headers)[:60]}", reply, 401)
    print(
        f"\nHOSTILE tokens ({len(bad_headers)} kinds x {len(POST_PATHS)} endpoints): "
        f"{probe.summary()}"
    )
    assert probe.problems == []


def test_wrong_content_types_empty_and_non_json_bodies(client: TestClient) -> None:
    probe = Probe()
    body = json.dumps({"query": TRIP}).encode()
    content_types = [
        None,
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=xyz",
        "application/xml",
        "application/json; charset=utf-16",
        "application/javascript",
        "",
        "*/*",
    ]
    for content_type in content_types:
        headers = {} if content_type is None else {"Content-Type": content_type}
        for path in POST_PATHS:
            reply = client.post(path, content=body, headers=headers)
            probe.check(f"{path} content type {content_type!r}", reply)
            # A body without a Content-Type is read as JSON, as the agent server does.
            is_json = not content_type or content_type.startswith("application/json")
            if path in (SEARCH, EXEC) and not is_json and reply.status_code != 422:
                probe.problems.append(f"{path} {content_type!r}: {reply.status_code}, wanted 422")
    raw_bodies = [
        b"",
        b" ",
        b"null",
        b"[]",
        b"[1, 2]",
        b'"just a string"',
        b"42",
        b"true",
        b"{",
        b"{}}",
        b'{"query": "' + TRIP.encode() + b'"} trailing',
        b"\xff\xfe\x00\x01",
        b"\xef\xbb\xbf{}",
        '{"query": "caf\u00e9 and more text"}'.encode("latin-1"),
        b"query=I+need+to+fly",
        b"<xml/>",
        b"\x00" * 64,
    ]
    for raw in raw_bodies:
        for path in POST_PATHS:
            reply = client.post(path, content=raw, headers=JSON_TYPE)
            probe.check(f"{path} body {raw[:20]!r}", reply)
    methods = ["GET", "PUT", "DELETE", "PATCH"]
    for method in methods:
        for path in POST_PATHS:
            probe.check(f"{method} {path}", client.request(method, path), 405)
    for path in (
        "/",
        "/api",
        "/api/exec/nothing",
        "/%00",
        "/api/user/getConversation/x",
        "/" + "a" * 5000,
    ):
        probe.check(f"POST {path[:40]}", client.post(path, json={}), 404)
    probe.check("POST /health", client.post("/health", json={}), 405)
    idempotency: list[str | bytes] = [
        "x" * 256,
        "with space",
        "caf\u00e9".encode(),
        "",
    ]
    for key in idempotency:
        reply = client.post(
            EXEC,
            json={"agentName": "InvoiceStatus", "inputs": {"query": TRIP}},
            headers={"Idempotency-Key": key},  # type: ignore[dict-item]
        )
        probe.check(f"Idempotency-Key {key[:20]!r}", reply, (200, 422))
    print(f"\nHOSTILE content types, empty and non-JSON bodies, methods, paths: {probe.summary()}")
    assert probe.problems == []


def test_the_probe_catches_a_traceback() -> None:
    """The checks above would see a leaked traceback and a non-JSON refusal."""
    leaked = 'Traceback (most recent call last):\n  File "x.py", line 1'
    assert refusal_problem(422, json.dumps({"error": leaked}), "application/json")
    assert refusal_problem(404, "Not Found", "text/plain")
    assert refusal_problem(500, '{"success": false, "error": {"message": "x"}}', "application/json")
    fine = '{"success": false, "error": {"message": "query: is required"}}'
    assert refusal_problem(422, fine, "application/json") is None


def test_module_paths_are_all_probed(app: FastAPI) -> None:
    """The hand-made probes cover every POST endpoint the app has."""
    paths = app.openapi()["paths"]
    posted = {path for path, methods in paths.items() if "post" in methods}
    assert posted == set(POST_PATHS)
