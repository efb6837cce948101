"""Real ``mock-account serve`` processes over one store, and clients signed in to them."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from rel_support import NOTE, first_token, write_account

from loadtests.server import ServerProcess
from mock_account.crypto import StateCipher, load_or_create_keyring

STARTUP_S = 120.0
CONFLICT = "Another request in this conversation finished first"


@contextmanager
def servers(
    store_url: str, folder: Path, count: int = 1, extra: Sequence[str] = ()
) -> Iterator[list[ServerProcess]]:
    """``count`` servers sharing ``store_url``, the keyring and the agents, started together."""
    folder.mkdir(parents=True, exist_ok=True)
    # Made before any server starts, so that they all use the same account key.
    load_or_create_keyring(folder / "keyring.json")
    args = [
        "--store",
        store_url,
        "--data-dir",
        str(folder),
        "--account-dir",
        str(write_account(folder / "agents")),
        "--log-level",
        "warning",
        *extra,
    ]
    with ExitStack() as stack:
        made = [ServerProcess(args, startup_s=STARTUP_S) for _ in range(count)]
        with ThreadPoolExecutor(count) as pool:
            started = list(pool.map(lambda s: _enter(stack, s), made))
        yield started


def _enter(stack: ExitStack, server: ServerProcess) -> ServerProcess:
    return stack.enter_context(server)


def cipher_of(folder: Path) -> StateCipher:
    """The cipher of servers started by ``servers(..., folder)`` (for reading the store)."""
    return StateCipher(load_or_create_keyring(folder / "keyring.json"))


def client(url: str, timeout: float = 60.0) -> httpx.Client:
    """A client signed in as the first user, with its own connections."""
    token = first_token().token
    return httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout)


def note(
    http: httpx.Client,
    query: str,
    convid: str | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One execAgent call of the note agent; the decoded answer (always HTTP 200)."""
    body: dict[str, Any] = {"agentName": NOTE, "inputs": {"query": query}}
    if convid is not None:
        body["convid"] = convid
    reply = http.post("/api/exec/execAgent", json=body, headers=headers)
    assert reply.status_code == 200, (reply.status_code, reply.text)
    return dict(reply.json())


def state_of(http: httpx.Client, convid: str) -> dict[str, Any]:
    """The owner's decrypted state view (harness extra): ``state`` and the stored ``record``."""
    reply = http.post("/api/harness/getConversationState", json={"convid": convid})
    assert reply.status_code == 200, (reply.status_code, reply.text)
    return dict(reply.json())


def run_queries(state: dict[str, Any]) -> list[str]:
    """The query of every saved run, in order."""
    return [str(run["inputs"]["query"]) for run in state["runs"]]
