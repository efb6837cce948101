"""Shared by the hostile-input tests: a small agent account, a deployment and signed-in clients.

The account is a few agents written here (one asks a question, one fails, one breaks), so the
tests never depend on the generated 200-agent account. Every deployment keeps its conversations
in memory and its keyring in a temporary folder.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from fixture_agents import AGENTS as FIXTURE_AGENTS

from mock_account.api import create_app
from mock_account.deployment import AccountConfig, Deployment, build_deployment
from mock_account.users import User

# The HTTP tests' account, less the agents these tests have no use for.
AGENTS = {
    name: text
    for name, text in FIXTURE_AGENTS.items()
    if name in ("BookTrip", "FileExpenses", "InvoiceStatus", "IssueRefund")
}

TRIP = "I need to fly to Berlin next week for the client workshop"
EXPENSES = "file my travel expenses for that trip"
INVOICE = "what's the status of the open invoice for that customer"

#: What a response body must never contain: a Python traceback or a frame of one.
TRACEBACK_MARKERS = ("Traceback (most recent call last)", 'File "', "Traceback")


def write_account(folder: Path, extra: dict[str, str] | None = None) -> Path:
    """The agent files above (and ``extra`` ones), one per agent, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in {**AGENTS, **(extra or {})}.items():
        (folder / f"{name}.yaml").write_text(text.lstrip(), encoding="utf-8")
    return folder


@contextmanager
def deployment_in(folder: Path, extra: dict[str, str] | None = None) -> Iterator[Deployment]:
    """A deployment of the small account, in memory, with its keyring under ``folder``."""
    config = AccountConfig(
        data_dir=folder / "data",
        store_url="memory://",
        account_dir=write_account(folder / "a", extra),
    )
    built = build_deployment(config)
    try:
        yield built
    finally:
        built.close()


def token_of(deployment: Deployment, user: User) -> str:
    return next(t.token for t in deployment.users.tokens() if t.user == user)


def users_by_account(deployment: Deployment) -> dict[str, list[User]]:
    found: dict[str, list[User]] = {}
    for user in deployment.users.users:
        found.setdefault(user.account, []).append(user)
    return found


def signed_in(app: FastAPI, token: str | None) -> TestClient:
    """A client of ``app`` (no token: anonymous); server exceptions become 500 answers."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return TestClient(app, headers=headers, raise_server_exceptions=False)


def build_app(deployment: Deployment) -> FastAPI:
    return create_app(deployment)


def traceback_in(text: str) -> str | None:
    """The traceback marker found in a response body, or ``None``."""
    return next((marker for marker in TRACEBACK_MARKERS if marker in text), None)


def refusal_problem(status: int, text: str, content_type: str) -> str | None:
    """What is wrong with a refusal (a 4xx answer), or ``None`` when it is a clear JSON one."""
    if status >= 500:
        return f"server error {status}: {text[:300]}"
    marker = traceback_in(text)
    if marker:
        return f"traceback text {marker!r} in the body: {text[:300]}"
    if status < 400:
        return None
    if not content_type.startswith("application/json"):
        return f"{status} answered with content type {content_type!r}"
    try:
        body: Any = json.loads(text)
    except ValueError:
        return f"{status} answered with a body that is not JSON: {text[:300]}"
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    if body.get("success") is not False or not isinstance(message, str) or not message.strip():
        return f"{status} answered without success false and an error message: {text[:300]}"
    if "\n" in message:
        return f"{status} message is not one line: {message[:300]!r}"
    return None
