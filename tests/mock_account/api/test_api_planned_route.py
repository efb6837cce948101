"""``PlannedRoute`` answers as FastAPI's own route does, and refuses what its plan cannot cover.

The product's routes are tested through their behaviour elsewhere; here one small endpoint,
declared both ways, shows the plan resolves dependencies, headers and the body with FastAPI's
own answers (statuses and error details) for valid and invalid requests alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import FastAPIError
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field
from starlette.responses import JSONResponse, Response

from mock_account.api.planned_route import PlannedRoute

bearer = HTTPBearer(auto_error=False)
calls: list[str] = []


class Body(BaseModel):
    name: str = Field(min_length=2)
    count: int = 1


async def who(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    calls.append("who")
    return credentials.credentials if credentials is not None else "nobody"


async def twice(first: Annotated[str, Depends(who)], again: Annotated[str, Depends(who)]) -> str:
    return f"{first}/{again}"


def endpoint(
    body: Body,
    request: Request,
    user: Annotated[str, Depends(twice)],
    key: Annotated[str | None, Header(alias="X-Key", pattern="^[a-z]+$")] = None,
) -> Response:
    return JSONResponse(
        {"user": user, "key": key, "body": body.model_dump(), "path": request.url.path}
    )


def _app(route_class: type[APIRoute], *, strict: bool) -> FastAPI:
    router = APIRouter(route_class=route_class, strict_content_type=strict)
    router.post("/thing")(endpoint)
    app = FastAPI(strict_content_type=strict)
    app.include_router(router)
    return app


@pytest.fixture(params=[False, True], ids=["lenient", "strict"])
def pair(request: pytest.FixtureRequest) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(_app(PlannedRoute, strict=request.param)) as planned,
        TestClient(_app(APIRoute, strict=request.param)) as plain,
    ):
        yield planned, plain


REQUESTS: list[dict[str, Any]] = [
    {"json": {"name": "ab"}},
    {"json": {"name": "ab", "count": 3}, "headers": {"Authorization": "Bearer tok", "X-Key": "k"}},
    {"json": {"name": "a"}},
    {"json": ["ab"]},
    {"json": {"name": "ab", "count": "many"}},
    {"json": {"name": "ab"}, "headers": {"X-Key": "NOT-OK"}},
    {"json": {"name": "a"}, "headers": {"X-Key": "NOT-OK"}},
    {"content": b'{"name": "ab"'},
    {"content": b'{"name": "ab"}'},
    {"content": b'{"name": "ab"}', "headers": {"Content-Type": "text/plain"}},
    {"content": b'{"name": "ab"}', "headers": {"Content-Type": "application/vnd.x+json"}},
    {"content": b"\xff\xfe", "headers": {"Content-Type": "application/json"}},
    {},
]


@pytest.mark.parametrize("kwargs", REQUESTS)
def test_planned_route_answers_as_fastapi_does(
    pair: tuple[TestClient, TestClient], kwargs: dict[str, Any]
) -> None:
    planned, plain = (client.post("/thing", **kwargs) for client in pair)
    assert planned.status_code == plain.status_code
    assert planned.json() == plain.json()


def test_a_dependency_used_twice_runs_once_a_request(pair: tuple[TestClient, TestClient]) -> None:
    planned, _ = pair
    calls.clear()
    answer = planned.post("/thing", json={"name": "ab"}, headers={"Authorization": "Bearer t"})
    assert answer.json()["user"] == "t/t"
    assert calls == ["who"]


def sync_dependency() -> str:
    return "x"


async def with_query(q: Annotated[str, Query()]) -> Response:
    return Response()


async def with_sync(dep: Annotated[str, Depends(sync_dependency)]) -> Response:
    return Response()


async def with_two_bodies(a: Body, b: Body) -> Response:
    return Response()


@pytest.mark.parametrize(
    ("refused", "why"),
    [
        (with_query, "query parameters"),
        (with_sync, "a sync or generator call"),
        (with_two_bodies, "one plain JSON body"),
    ],
)
def test_signatures_outside_the_plan_are_refused_at_build_time(refused: Any, why: str) -> None:
    router = APIRouter(route_class=PlannedRoute)
    with pytest.raises(FastAPIError, match=why):
        router.post("/x")(refused)


def test_dependency_overrides_fail_loudly() -> None:
    app = _app(PlannedRoute, strict=False)
    app.dependency_overrides[who] = lambda: "someone"
    with TestClient(app) as client, pytest.raises(FastAPIError, match="dependency_overrides"):
        client.post("/thing", json={"name": "ab"})
