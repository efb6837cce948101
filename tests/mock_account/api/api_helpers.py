"""Shared by the HTTP API tests: the small agent account and a few conversation steps."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import httpx
from fastapi.testclient import TestClient

from mock_account.business.data import BusinessData
from mock_account.deployment import Deployment
from mock_account.users import User
from mock_account.world import World

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def ticking_clock() -> Callable[[], datetime]:
    """A clock that moves one second per reading, so "most recent first" is well defined."""
    ticks = itertools.count()
    return lambda: START + timedelta(seconds=next(ticks))


def share_data(deployment: Deployment, data: BusinessData, world: World) -> Deployment:
    """``deployment`` with the session's business data and world in place of its own (both
    read-only once built, and the most of what building a deployment costs)."""
    deployment.account.engine.data = data
    deployment.account.engine.world = world
    return deployment


def token_of(deployment: Deployment, user: User) -> str:
    return next(t.token for t in deployment.users.tokens() if t.user == user)


TRIP = "I need to fly to Berlin next week for the client workshop"


def start_trip(client: TestClient | httpx.Client, seat: str = "aisle") -> str:
    """Ask BookTrip, answer its question; the convid of the finished conversation."""
    asked = client.post(
        "/api/exec/execAgent", json={"agentName": "BookTrip", "inputs": {"query": TRIP}}
    ).json()
    assert asked["resultCode"] == "ask", asked
    done = client.post(
        "/api/exec/execAgent",
        json={"agentName": "BookTrip", "convid": asked["convid"], "inputs": {"seat": seat}},
    ).json()
    assert done["resultCode"] == "success", done
    return str(done["convid"])


def new_conversation(client: TestClient, query: str = "show the open invoice status") -> str:
    reply = client.post(
        "/api/exec/execAgent", json={"agentName": "InvoiceStatus", "inputs": {"query": query}}
    ).json()
    assert reply["resultCode"] == "success", reply
    return str(reply["convid"])
