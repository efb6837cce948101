"""A FastAPI route whose endpoint's parameters are resolved by a plan made once, at start-up.

FastAPI solves a route's dependency tree anew on every request, generically (cache keys, scopes,
generator checks at every node). For ``search`` and ``execAgent``, the two calls of every
conversation turn, that solving cost more CPU than the search itself. A ``PlannedRoute`` is
declared, documented and answered like any other route (the same endpoint, the same
dependencies, the same validation errors, worded by the same handlers), but when it is built
it reads its endpoint's signature once and keeps, as plain Python, what each request needs:
the dependencies to call (in FastAPI's order, each once a request), the header parameters and
the JSON body, both validated by FastAPI's own functions. A signature this plan does not cover
(query, path or cookie parameters, form bodies, sync or generator dependencies...) is refused
when the application is built, and a request while ``dependency_overrides`` are set fails
loudly: neither is ever answered differently.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import params
from fastapi.datastructures import DefaultPlaceholder
from fastapi.dependencies.models import Dependant
from fastapi.dependencies.utils import request_body_to_args, request_params_to_args
from fastapi.exceptions import FastAPIError, RequestValidationError
from fastapi.routing import APIRoute
from pydantic_core import PydanticUndefined
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

Handler = Callable[[Request], Coroutine[Any, Any, Response]]
#: A dependency's value for one request; the dict holds the values already made in it.
Resolver = Callable[[Request, dict[object, Any]], Awaitable[Any]]


class PlannedRoute(APIRoute):
    """``APIRoute`` answered through a plan of its endpoint's parameters (see the module)."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)
        if kwargs.get("max_body_size") is not None:
            raise _refuse(self.dependant, "a route's own body size limit is not planned")
        handler = self.get_route_handler()

        # FastAPI's wrapper around a handler opens two exit stacks a request, for dependencies
        # that ``yield``; a plan has none, and an exception goes straight to the application's
        # handlers (``ExceptionMiddleware``), as from any route.
        async def answer(scope: Scope, receive: Receive, send: Send) -> None:
            response = await handler(Request(scope, receive, send))
            await response(scope, receive, send)

        self.app = answer

    def get_route_handler(self) -> Handler:
        strict = self.strict_content_type
        if isinstance(strict, DefaultPlaceholder):
            strict = strict.value
        return _planned_handler(self.dependant, strict_content_type=bool(strict))


def _is_coroutine(call: object) -> bool:
    return inspect.iscoroutinefunction(call) or inspect.iscoroutinefunction(
        getattr(call, "__call__", None)  # noqa: B004 - a dependency may be a callable instance
    )


def _refuse(dependant: Dependant, why: str) -> FastAPIError:
    return FastAPIError(f"PlannedRoute cannot plan {dependant.call!r}: {why}")


def _check_plannable(dependant: Dependant, *, endpoint: bool) -> None:
    unsupported = {
        "path parameters": dependant.path_params,
        "query parameters": dependant.query_params,
        "cookie parameters": dependant.cookie_params,
        "a WebSocket": dependant.websocket_param_name,
        "a Response parameter": dependant.response_param_name,
        "background tasks": dependant.background_tasks_param_name,
        "security scopes": dependant.security_scopes_param_name,
    }
    if not endpoint:
        unsupported["header parameters"] = dependant.header_params
        unsupported["a body"] = dependant.body_params
        if not _is_coroutine(dependant.call):
            unsupported["a sync or generator call"] = True
    for what, present in unsupported.items():
        if present:
            raise _refuse(dependant, f"it takes {what}")


def _plan_dependency(dependant: Dependant) -> Resolver:
    _check_plannable(dependant, endpoint=False)
    call = dependant.call
    assert call is not None
    subs = [(sub.name, _plan_dependency(sub)) for sub in dependant.dependencies]
    request_names = [
        n for n in (dependant.request_param_name, dependant.http_connection_param_name) if n
    ]
    use_cache = dependant.use_cache

    async def resolve(request: Request, made: dict[object, Any]) -> Any:
        if use_cache and call in made:
            return made[call]
        kwargs = {name: await sub(request, made) for name, sub in subs if name is not None}
        for name in request_names:
            kwargs[name] = request
        value = await call(**kwargs)
        made[call] = value
        return value

    return resolve


def _json_media_type(content_type: str | None, *, strict: bool) -> bool:
    """Whether FastAPI reads a body with this Content-Type as JSON (none: only when not
    ``strict``)."""
    if not content_type:
        return not strict
    media_type = content_type.split(";", 1)[0].strip().lower()
    maintype, _, subtype = media_type.partition("/")
    return maintype == "application" and (subtype == "json" or subtype.endswith("+json"))


async def _received_body(request: Request, *, strict: bool) -> Any:
    """The body as FastAPI hands it to validation: decoded JSON, raw bytes, or ``Undefined``
    (none: FastAPI's "Field required")."""
    raw = await request.body()
    if not raw:
        return PydanticUndefined
    if not _json_media_type(request.headers.get("content-type"), strict=strict):
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        error = {
            "type": "json_invalid",
            "loc": ("body", exc.pos),
            "msg": "JSON decode error",
            "input": {},
            "ctx": {"error": exc.msg},
        }
        raise RequestValidationError([error], body=exc.doc) from exc
    except Exception as exc:  # bad UTF-8, absurd nesting: FastAPI's 400
        raise HTTPException(400, "There was an error parsing the body") from exc


def _planned_handler(dependant: Dependant, *, strict_content_type: bool) -> Handler:
    _check_plannable(dependant, endpoint=True)
    call = dependant.call
    assert call is not None
    subs = [(sub.name, _plan_dependency(sub)) for sub in dependant.dependencies]
    headers = dependant.header_params
    body_fields = dependant.body_params
    if len(body_fields) > 1 or any(
        not isinstance(f.field_info, params.Body) or f.field_info.embed for f in body_fields
    ):
        raise _refuse(dependant, "it takes other than one plain JSON body")
    request_names = [
        n for n in (dependant.request_param_name, dependant.http_connection_param_name) if n
    ]
    is_coroutine = _is_coroutine(call)

    async def handle(request: Request) -> Response:
        if getattr(request.scope.get("app"), "dependency_overrides", None):
            raise _refuse(dependant, "dependency_overrides are set")
        made: dict[object, Any] = {}
        values = {name: await sub(request, made) for name, sub in subs if name is not None}
        errors: list[Any] = []
        if headers:
            header_values, header_errors = request_params_to_args(headers, request.headers)
            values.update(header_values)
            errors.extend(header_errors)
        if body_fields:
            received = await _received_body(request, strict=strict_content_type)
            body_values, body_errors = await request_body_to_args(
                body_fields, received, embed_body_fields=False
            )
            values.update(body_values)
            errors.extend(body_errors)
        if errors:
            raise RequestValidationError(errors)
        for name in request_names:
            values[name] = request
        if is_coroutine:
            answer = await call(**values)
        else:
            answer = await run_in_threadpool(call, **values)
        if not isinstance(answer, Response):
            raise TypeError(f"{call.__name__} must return a Response, got {type(answer)!r}")
        return answer

    return handle
