"""The vault, bound to the load tests' own user: what the benchmarks and store users save with.

Save and restore are the vault's (``mock_account.conversations.vault``), the very code the
server runs, with its per-stage times:

save    = serialize (``check_state``) -> encrypt -> write (``commit_run``, compare-and-swap)
restore = read (``load``) -> decrypt -> parse (``parse_state``)

Durations are in microseconds.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from mock_account.conversations.vault import (
    RESTORE_STAGES,
    SAVE_STAGES,
    StageTimes,
    Vault,
    new_convid,
)
from mock_account.crypto import Keyring, StateCipher
from mock_account.stores import ConversationStore

__all__ = [
    "BENCH_ACCOUNT",
    "BENCH_OWNER",
    "RESTORE_STAGES",
    "SAVE_STAGES",
    "StageTimes",
    "StatePipeline",
    "new_convid",
]

BENCH_ACCOUNT = "loadtests"
BENCH_OWNER = "loadtests@acme.example"


class StatePipeline:
    """Saves and restores states of conversations owned by one bench user on one store."""

    def __init__(
        self,
        store: ConversationStore,
        cipher: StateCipher | None = None,
        *,
        account: str = BENCH_ACCOUNT,
        owner: str = BENCH_OWNER,
    ) -> None:
        self.vault = Vault(store, cipher or StateCipher(Keyring.generate()))
        self.account = account
        self.owner = owner

    def save(self, convid: str, state: dict[str, Any] | bytes, expected_version: int) -> StageTimes:
        """Save ``state`` over version ``expected_version`` (0 creates the conversation).

        ``state`` may be the bytes ``check_state`` made of it: the vault then skips the
        serialize stage (seeding many conversations with one state checks it once)."""
        return self.vault.save(
            account=self.account,
            owner=self.owner,
            convid=convid,
            state=state,
            expected_version=expected_version,
            now=datetime.now(UTC),
        ).times

    def restore(self, convid: str) -> tuple[dict[str, Any], StageTimes]:
        """The state of ``convid`` and the stage times (``UnknownConversation`` if missing)."""
        restored = self.vault.restore(self.account, self.owner, convid)
        return restored.state, restored.times

    def version(self, convid: str) -> int:
        """The stored version of ``convid`` (0 when it does not exist)."""
        entry = self.vault.store.get_entry(self.account, convid)
        return 0 if entry is None else entry.state_version

    def delete(self, convid: str) -> None:
        self.vault.store.delete(self.account, convid)
