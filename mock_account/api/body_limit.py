"""Refuse oversize request bodies with 413 before anything parses them.

A pure ASGI middleware: a declared ``Content-Length`` over the limit is refused at once, without
reading the body; otherwise the body is read chunk by chunk, counting bytes, and refused as soon
as the count passes the limit (a chunked upload declares no length). A body within the limit is
handed on unchanged, so the application never sees a byte of an oversize one.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_account.api.errors import BodyTooLarge
from mock_account.api.responses import exception_response

DEFAULT_MAX_BODY_BYTES = 1024 * 1024


def _declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def replayed(first: Message, receive: Receive) -> Receive:
    """``receive`` with a message already read given back first (a body read whole, for the
    application to read again)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return first

    return replay


def too_large_message(limit: int) -> str:
    return f"The request body is larger than the limit of {limit} bytes."


class BodySizeLimit:
    """ASGI middleware: at most ``max_bytes`` of request body per HTTP request."""

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        if max_bytes < 0:
            raise ValueError(f"max_bytes must not be negative, got {max_bytes}")
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = exception_response(BodyTooLarge(too_large_message(self.max_bytes)))
        await response(scope, receive, send)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client went away; there is no one to answer
            body = message.get("body", b"")
            total += len(body)
            if total > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, replayed(whole, receive), send)
