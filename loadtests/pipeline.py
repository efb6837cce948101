"""Save and restore of one conversation state, stage by stage, as the agent server does them.

save    = serialize (``check_state``: compact JSON plus the exact round-trip check the server runs
          before every save) -> encrypt (``StateCipher``, purpose ``state``) -> write
          (``commit_run``, compare-and-swap on the version)
restore = read (``load``) -> decrypt -> parse (``parse_state``)

Each stage is timed with ``perf_counter_ns``; durations are returned in microseconds.
"""

from __future__ import annotations

import secrets
import string
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from mock_account.crypto import Keyring, StateCipher
from mock_account.engine.state import check_state, parse_state
from mock_account.stores import ConversationStore, StoreError

SAVE_STAGES = ("serialize", "encrypt", "write")
RESTORE_STAGES = ("read", "decrypt", "parse")
BENCH_ACCOUNT = "loadtests"
BENCH_OWNER = "loadtests@acme.example"
_CONVID_ALPHABET = string.ascii_letters + string.digits


def new_convid() -> str:
    """A conversation id like the server's: 22 characters of ``[0-9A-Za-z]``."""
    return "".join(secrets.choice(_CONVID_ALPHABET) for _ in range(22))


def _us(start_ns: int, end_ns: int) -> float:
    return (end_ns - start_ns) / 1000.0


@dataclass
class StageTimes:
    """Microseconds per stage of one save or restore, and the bytes involved."""

    stages: dict[str, float] = field(default_factory=dict)
    plain_bytes: int = 0
    stored_bytes: int = 0

    @property
    def total_us(self) -> float:
        return sum(self.stages.values())


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
        self.store = store
        self.cipher = cipher or StateCipher(Keyring.generate())
        self.account = account
        self.owner = owner

    def save(self, convid: str, state: dict[str, Any], expected_version: int) -> StageTimes:
        """Save ``state`` over version ``expected_version`` (0 creates the conversation)."""
        t0 = time.perf_counter_ns()
        plain = check_state(state)
        t1 = time.perf_counter_ns()
        blob = self.cipher.encrypt(plain, convid=convid, owner=self.owner, purpose="state")
        t2 = time.perf_counter_ns()
        self.store.commit_run(
            account=self.account,
            convid=convid,
            owner=self.owner,
            expected_version=expected_version,
            blob=blob,
            now=datetime.now(UTC),
            title_if_new=b"",
        )
        t3 = time.perf_counter_ns()
        return StageTimes(
            {"serialize": _us(t0, t1), "encrypt": _us(t1, t2), "write": _us(t2, t3)},
            plain_bytes=len(plain),
            stored_bytes=len(blob),
        )

    def restore(self, convid: str) -> tuple[dict[str, Any], StageTimes]:
        """Load, decrypt and parse the state of ``convid``; ``StoreError`` if it has none."""
        t0 = time.perf_counter_ns()
        stored = self.store.load(self.account, convid)
        t1 = time.perf_counter_ns()
        if stored is None or stored.blob is None or stored.entry.owner != self.owner:
            raise StoreError(f"conversation {convid!r} has no saved state")
        plain = self.cipher.decrypt(stored.blob, convid=convid, owner=self.owner, purpose="state")
        t2 = time.perf_counter_ns()
        state = parse_state(plain)
        t3 = time.perf_counter_ns()
        times = StageTimes(
            {"read": _us(t0, t1), "decrypt": _us(t1, t2), "parse": _us(t2, t3)},
            plain_bytes=len(plain),
            stored_bytes=len(stored.blob),
        )
        return state, times

    def version(self, convid: str) -> int:
        """The stored version of ``convid`` (0 when it does not exist)."""
        entry = self.store.get_entry(self.account, convid)
        return 0 if entry is None else entry.state_version

    def delete(self, convid: str) -> None:
        self.store.delete(self.account, convid)
