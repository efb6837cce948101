"""Fixtures of the workflow tests: a workflow store on each backend, a cipher, a clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_stores import opened_store
from workflow_helpers import Clock

from mock_account.crypto import Keyring, StateCipher
from mock_account.stores import ConversationStore
from mock_account.workflows import WorkflowStore, open_workflow_store

PLAIN = ["memory", "sqlite", "postgres", "redis"]
# The same stores behind group commit (``?batch=N``): the workflow records use the store inside.
BACKENDS = PLAIN + [f"{backend}+batch" for backend in PLAIN]


@pytest.fixture(params=BACKENDS)
def backend_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ConversationStore]:
    """A fresh conversation store of each backend (the workflow records live next to it)."""
    with opened_store(request.param, tmp_path, "workflows") as store:
        yield store


@pytest.fixture
def wf_store(backend_store: ConversationStore) -> WorkflowStore:
    return open_workflow_store(backend_store)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cipher() -> StateCipher:
    return StateCipher(Keyring.generate())
