"""The two calls of every conversation turn, ``search`` and ``execAgent``, answered without
FastAPI's per-request machinery when nothing about them is unusual.

Measured in the server under load, the event loop's thread used some 60 % of the server's CPU,
and in it FastAPI's routing, dependency solving (the user, its bearer and cookie schemes, the
deployment: a few tens of microseconds each) and telemetry hooks cost more than the search
itself. A request this middleware recognises is answered by the very functions the endpoints
use (``routes_exec``), with the same body, status and headers; anything else, or anything
that is not plainly valid (another method or content type, a query string, a body that does
not parse or validate, no valid bearer token, a stream, an ``Idempotency-Key``, enterprise
hooks, a search that raises), is handed to FastAPI untouched, body included, and answered
there exactly as before: errors are always worded by the application's handlers.
"""

from __future__ import annotations

import json

from fastapi import FastAPI
from fastapi.security.utils import get_authorization_scheme_param
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from mock_account.api import routes_exec
from mock_account.api.body_limit import replayed
from mock_account.api.inline import runs_inline
from mock_account.api.models import ExecAgentRequest, SearchRequest
from mock_account.deployment import Deployment
from mock_account.users import User

SEARCH_PATH = "/api/exec/search"
EXEC_AGENT_PATH = "/api/exec/execAgent"
_HOT = {SEARCH_PATH, EXEC_AGENT_PATH}
_IDEMPOTENCY_HEADER = routes_exec.HEADER.lower().encode("latin-1")


class HotPaths:
    """ASGI middleware (inside the body size limit, which hands on one whole body)."""

    def __init__(self, app: ASGIApp, fastapi_app: FastAPI) -> None:
        self.app = app
        self.fastapi_app = fastapi_app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["path"] not in _HOT
            or scope["method"] != "POST"
            or scope.get("query_string")
            or scope.get("root_path")
        ):
            await self.app(scope, receive, send)
            return
        authorization = content_type = None
        for name, value in scope["headers"]:
            if name == b"authorization":
                if authorization is None:
                    authorization = value
            elif name == b"content-type":
                if content_type is None:
                    content_type = value
            elif name == _IDEMPOTENCY_HEADER:
                await self.app(scope, receive, send)
                return
        message = await receive()
        body = message.get("body", b"")
        if message["type"] != "http.request" or message.get("more_body", False):
            await self.app(scope, replayed(message, receive), send)
            return
        answered = False
        if content_type == b"application/json" and authorization is not None:
            answered = await self._answer(scope, receive, send, authorization, body)
        if not answered:
            await self.app(scope, replayed(message, receive), send)

    async def _answer(
        self, scope: Scope, receive: Receive, send: Send, authorization: bytes, body: bytes
    ) -> bool:
        """Answer the request and say so, or say it is FastAPI's to answer (nothing sent)."""
        deployment: Deployment = self.fastapi_app.state.deployment
        user = _bearer_user(deployment, authorization)
        if user is None:
            return False
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):  # FastAPI words the refusal
            return False
        if not isinstance(value, dict):
            return False
        if scope["path"] == SEARCH_PATH:
            if not runs_inline(deployment):
                return False
            try:
                search = SearchRequest.model_validate(value, from_attributes=True)
                content = routes_exec.search_body(deployment, search)
            except Exception:  # invalid, or the search failed: FastAPI words the answer
                return False
            response = Response(content=content, media_type="application/json")
        else:
            try:
                request = ExecAgentRequest.model_validate(value, from_attributes=True)
            except (ValidationError, RecursionError):
                return False
            if request.stream:
                return False
            content, headers = await run_in_threadpool(
                routes_exec.exec_agent_content, deployment, user, request
            )
            response = Response(content=content, media_type="application/json", headers=headers)
        await response(scope, receive, send)
        return True


def _bearer_user(deployment: Deployment, authorization: bytes) -> User | None:
    """The user of a valid ``Authorization: Bearer`` header, read as ``HTTPBearer`` reads it."""
    scheme, token = get_authorization_scheme_param(authorization.decode("latin-1"))
    if scheme.lower() != "bearer" or not token:
        return None
    return deployment.users.authenticate(token)
