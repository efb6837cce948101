"""Fixtures of the workflow tests: a workflow store on each backend, a cipher, a clock."""

from __future__ import annotations

import pytest
from server_stores import BACKENDS, store_fixture
from workflow_helpers import Clock

from mock_account.crypto import Keyring, StateCipher
from mock_account.stores import ConversationStore
from mock_account.workflows import WorkflowStore, open_workflow_store

# A fresh conversation store of each backend, also behind group commit (the workflow records
# live next to it, in the store inside).
backend_store = store_fixture(BACKENDS, "workflows", "backend_store")


@pytest.fixture
def wf_store(backend_store: ConversationStore) -> WorkflowStore:
    return open_workflow_store(backend_store)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def cipher() -> StateCipher:
    return StateCipher(Keyring.generate())
