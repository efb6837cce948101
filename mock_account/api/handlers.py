"""Exception handlers: every refusal is JSON, and no input can produce a traceback.

Statuses come from the one table in ``api.errors``; validation errors are worded by
``problems``; Starlette's own 404 / 405 become JSON; anything unforeseen is logged and answered
with a bare 500 that says nothing about the server's insides.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse

from mock_account.api.errors import NotAuthenticated
from mock_account.api.problems import describe_all
from mock_account.api.responses import error_response, exception_response
from mock_account.crypto import CryptoError
from mock_account.errors import HookFailed, MockAccountError
from mock_account.stores import StoreError

log = logging.getLogger(__name__)

EXEC_AGENT_PATH = "/api/exec/execAgent"


async def validation_failed(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    problems = describe_all(exc.errors())
    message = "; ".join(p.line for p in problems) or "the request is not valid"
    return error_response(422, message, fields=problems)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    headers = dict(exc.headers or {})
    if exc.status_code == 404:
        message = f"There is no endpoint {request.url.path}."
    elif exc.status_code == 405:
        allowed = headers.get("Allow") or headers.get("allow") or "POST"
        message = f"{request.method} is not allowed on {request.url.path}; use {allowed}."
    elif exc.status_code == 400:
        # FastAPI's answer to a body json cannot decode at all (bad UTF-8, absurd nesting).
        return error_response(422, "the body is not valid JSON (it cannot be decoded)")
    else:
        message = str(exc.detail)
    return error_response(exc.status_code, message, headers=headers or None)


async def known_error(request: Request, exc: Exception) -> JSONResponse:
    extra = None
    if isinstance(exc, NotAuthenticated) and request.url.path == EXEC_AGENT_PATH:
        extra = {"resultCode": "mustLogin"}  # what an agent-server client looks for
    return exception_response(exc, extra)


async def unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.error("unexpected error on %s", request.url.path, exc_info=exc)
    return error_response(500, "The server failed unexpectedly; nothing was changed.")


def install_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, validation_failed)
    app.add_exception_handler(StarletteHTTPException, http_error)
    for known in (MockAccountError, StoreError, CryptoError, HookFailed):
        app.add_exception_handler(known, known_error)
    app.add_exception_handler(Exception, unexpected)
