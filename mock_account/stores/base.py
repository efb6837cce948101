"""The conversation store contract: typed records and the abstract store every backend implements.

The store keeps, per conversation of an account, an *entry* (owner, encrypted title, timestamps,
pinned flag, state version) and optionally the encrypted *state blob*. Blobs and titles are opaque
bytes: encryption happens before they reach the store. Writes of the state are compare-and-swap on
``state_version`` so a concurrent follow-up can never silently overwrite another one.

Ownership: a conversation belongs to one ``owner`` (user email) in one ``account``. Listing is
per owner; ``commit_run`` treats a conversation of another owner like a missing one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import TracebackType
from typing import ClassVar


@dataclass(frozen=True)
class ConversationEntry:
    """What the conversation list shows about one conversation (timestamps are tz-aware UTC)."""

    account: str
    convid: str
    owner: str
    title: bytes
    created: datetime
    last_executed: datetime
    last_read: datetime
    pinned: bool
    state_version: int  # 0 = no state saved yet
    # The agent of the latest saved run: a follow-up that goes back to it needs no decryption
    # of the state. Empty for a conversation saved before the store kept it.
    last_agent: str = ""

    @property
    def last_used(self) -> datetime:
        """The later of the last run and the last read: what lists and retention go by."""
        return max(self.last_executed, self.last_read)


@dataclass(frozen=True)
class EntryChange:
    """The fields of an entry ``update_entry`` changes; ``None`` leaves a field as it is."""

    title: bytes | None = None
    pinned: bool | None = None
    last_read: datetime | None = None


@dataclass(frozen=True)
class StoredState:
    """A conversation's entry with its state blob (``None`` when the state lives in hooks)."""

    entry: ConversationEntry
    blob: bytes | None


@dataclass(frozen=True)
class Committed:
    """What a save wrote: the conversation's new state version, its time and its agent.

    Nothing else of the entry: reading back the fields a save does not touch (title, pinned,
    last read) cost a SQLite save a second statement, and none of the callers used them.
    """

    convid: str
    state_version: int
    last_executed: datetime
    last_agent: str = ""

    @classmethod
    def of(cls, entry: ConversationEntry) -> Committed:
        """What the latest save wrote of ``entry`` (for backends whose save returns the entry)."""
        return cls(entry.convid, entry.state_version, entry.last_executed, entry.last_agent)


@dataclass(frozen=True)
class CommitRequest:
    """The arguments of one ``commit_run``, for saving several in one call (``commit_runs``)."""

    account: str
    convid: str
    owner: str
    expected_version: int
    blob: bytes | None
    now: datetime
    title_if_new: bytes
    agent: str = ""


# What ``commit_runs`` gives back per request: what it wrote, or the exception that request
# alone raised (``VersionConflict``, ``ValueError`` for bad input, a ``StoreError`` of its own).
CommitOutcome = Committed | Exception


@dataclass(frozen=True)
class IdempotencyRecord:
    """One remembered record of the HTTP layer's ``Idempotency-Key``.

    ``record`` is opaque to the store (the server seals it before it gets here); ``convid`` is the
    conversation it answered (empty for a claim, or an answer that started none), so deleting the
    conversation removes it; after ``expires`` it counts as absent and may be replaced.
    """

    account: str
    convid: str
    record: bytes
    expires: datetime

    def expired(self, now: datetime) -> bool:
        return now >= self.expires


class IdempotencyRecords(ABC):
    """Insert-if-absent records of answers (the HTTP layer's ``Idempotency-Key``), with expiry.

    Every backend keeps them next to its conversations (same connection, same durability), so
    the backends implement both contracts; the conversation service never sees these. Deleting a
    conversation (``ConversationStore.delete``) removes the records that name it.
    """

    @abstractmethod
    def remember(
        self, key: str, record: IdempotencyRecord, now: datetime
    ) -> IdempotencyRecord | None:
        """Store ``record`` under ``key``: ``None`` if stored, else the live record kept there.

        A record expired at ``now`` is replaced (an abandoned claim is taken over). The check and
        the write are one atomic step. ``record.expires`` must be later than ``now``.
        """

    @abstractmethod
    def recall(self, key: str, now: datetime) -> IdempotencyRecord | None:
        """The record under ``key`` unless there is none or it expired at ``now``."""

    @abstractmethod
    def forget(self, key: str) -> bool:
        """Remove the record under ``key``; ``False`` if there was none."""

    @abstractmethod
    def purge_expired(self, now: datetime) -> int:
        """Remove every record expired at ``now``; how many were removed."""


def check_idempotency_record(record: IdempotencyRecord, now: datetime) -> None:
    """``ValueError`` unless ``record`` can be stored at ``now``."""
    if not isinstance(record.record, bytes | bytearray | memoryview):
        raise TypeError(f"an idempotency record is bytes, not {type(record.record).__name__}")
    if record.expires.tzinfo is None or now.tzinfo is None:
        raise ValueError("idempotency times must be timezone-aware")
    if record.expires <= now:
        raise ValueError("an idempotency record must expire after it is stored")


class ConversationStore(ABC):
    """A backend keeping conversation entries and state blobs."""

    #: The backend package whose side stores (channel records, workflow records, configuration
    #: versions) live next to this store's conversations: ``mock_account.stores.registry`` looks
    #: them up by it. Empty for a store that keeps none (a wrapper such as ``BatchingStore``
    #: names the store it wraps as ``inner`` instead).
    backend: ClassVar[str] = ""

    def commit_run(
        self,
        *,
        account: str,
        convid: str,
        owner: str,
        expected_version: int,
        blob: bytes | None,
        now: datetime,
        title_if_new: bytes,
        agent: str = "",
    ) -> Committed:
        """Save the state of a finished run atomically (compare-and-swap on the version).

        ``expected_version == 0`` creates the conversation and fails with ``VersionConflict`` if
        it exists; otherwise the stored version must equal ``expected_version`` and the owner must
        match, else ``VersionConflict``. Sets ``state_version = expected_version + 1`` and
        ``last_executed = now`` and ``last_agent = agent`` (the agent of that run); stores
        ``blob`` (``None`` keeps no state). A new conversation
        gets ``title_if_new``, ``created = last_read = now`` and ``pinned = False``; the title and
        pinned flag of an existing conversation are never touched. Returns what it wrote
        (``Committed``); ``get_entry`` reads the whole entry.
        """
        return self.commit(
            CommitRequest(account, convid, owner, expected_version, blob, now, title_if_new, agent)
        )

    @abstractmethod
    def commit(self, request: CommitRequest) -> Committed:
        """``commit_run`` of one request: what each backend implements."""

    def commit_runs(self, requests: Sequence[CommitRequest]) -> list[CommitOutcome]:
        """Save several runs; each is its own compare-and-swap with its own outcome.

        The outcome of a request never depends on whether another one failed: a conflicting
        request gets its ``VersionConflict`` in its place while the others are saved. Requests
        are applied in order, so two for the same conversation behave as two calls in a row.
        A failure of the whole batch (its transaction could not commit, the backend went away)
        is raised instead: then no request was saved, or, if the connection dropped during the
        commit, it is unknown, exactly as with one ``commit_run`` that fails that way.

        This default saves them one at a time, each failure in its place; backends override it
        to save a batch in one transaction or round trip.
        """
        outcomes: list[CommitOutcome] = []
        for request in requests:
            try:
                outcomes.append(self.commit(request))
            except Exception as exc:  # one call each: whatever it raised is its own outcome
                outcomes.append(exc)
        return outcomes

    @abstractmethod
    def load(self, account: str, convid: str) -> StoredState | None:
        """The entry and state blob, read consistently; ``None`` if the conversation is missing."""

    @abstractmethod
    def get_entry(self, account: str, convid: str) -> ConversationEntry | None:
        """The entry alone; ``None`` if the conversation is missing."""

    def update_entry(
        self,
        account: str,
        convid: str,
        *,
        title: bytes | None = None,
        pinned: bool | None = None,
        last_read: datetime | None = None,
    ) -> bool:
        """Change only the given fields (the version is untouched); ``False`` if missing."""
        return self.change_entry(account, convid, EntryChange(title, pinned, last_read))

    @abstractmethod
    def change_entry(self, account: str, convid: str, change: EntryChange) -> bool:
        """``update_entry`` of one change: what each backend implements."""

    @abstractmethod
    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        """Swap the state blob (key re-encryption): CAS on the version, which goes up by one.

        ``last_executed`` is kept. ``VersionConflict`` if the version differs or it is missing.
        """

    @abstractmethod
    def delete(self, account: str, convid: str) -> bool:
        """Remove the entry, its state and the idempotency records naming it.

        ``False`` if there was no entry to remove (records naming it are removed all the same).
        """

    @abstractmethod
    def list_pinned(self, account: str, owner: str) -> list[ConversationEntry]:
        """The owner's pinned conversations, most recently used first."""

    @abstractmethod
    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[ConversationEntry], str | None]:
        """One page of the owner's unpinned conversations and the cursor of the next page.

        Ordered by ``last_used`` descending, then ``convid`` descending. The cursor is opaque;
        ``None`` starts at the top and a ``None`` next cursor means there is no further page.
        A malformed cursor raises ``InvalidCursor``.
        """

    @abstractmethod
    def count_pinned(self, account: str, owner: str) -> int:
        """How many conversations the owner has pinned."""

    @abstractmethod
    def iter_entries(self, account: str | None = None) -> Iterator[ConversationEntry]:
        """Every entry (of one account, or of all), in no particular order."""

    @abstractmethod
    def check_integrity(self) -> list[str]:
        """Problems found in the stored data (an empty list means healthy)."""

    @abstractmethod
    def close(self) -> None:
        """Release connections and files; calling it again does nothing."""

    def __enter__(self) -> ConversationStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
