"""Where configuration versions live: the same stores as conversations, one contract.

Every agent with a history has a **revision**, raised by one at each save; the versions a save
writes carry that revision as their number, so "version 7" of a section is what it held after
the agent's 7th save (a section a save did not change keeps its older number). The scope (one
agent account's configuration) also has a revision, raised by every save of any of its agents:
a server process compares it with the one it loaded to know, with one small read, whether
another process changed a configuration.

``commit`` is a compare-and-swap on the agent's revision, in one transaction with the new
versions, the two revisions and the pruning of versions beyond the most recent ``keep`` of each
section: a crash leaves the old configuration or the new one, never a mix, and of two concurrent
saves from the same revision one wins and the other gets ``VersionConflict``.

Blobs are opaque here (the history encrypts them before they arrive).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from mock_account.stores.codec import utc
from mock_account.stores.errors import VersionConflict

ACCOUNT_ROW = "*"  # the scope's own revision; no agent name can be "*"


@dataclass(frozen=True)
class NewVersion:
    section: str
    revision: int
    origin: str
    blob: bytes


@dataclass(frozen=True)
class StoredVersion:
    agent: str
    section: str
    revision: int
    created: datetime
    origin: str
    blob: bytes


def conflict(agent: str, base: int) -> VersionConflict:
    return VersionConflict(
        f"the configuration of agent {agent!r} is no longer at revision {base}: "
        "someone saved it meanwhile"
    )


class ConfigVersionStore(ABC):
    """The contract every backend implements (see the module's documentation)."""

    @abstractmethod
    def scope_revision(self, scope: str) -> int:
        """How many saves the scope has seen (0: none)."""

    def change_stamp(self, scope: str) -> object | None:
        """Something cheaper to read than ``scope_revision`` that changes whenever a save
        commits (compared for equality only), or None when the store has none."""
        return None

    @abstractmethod
    def agent_revisions(self, scope: str) -> dict[str, int]:
        """The revision of every agent of the scope that has a history."""

    @abstractmethod
    def commit(
        self,
        scope: str,
        agent: str,
        base_revision: int,
        versions: Sequence[NewVersion],
        *,
        now: datetime,
        keep: int,
    ) -> int:
        """Write ``versions`` if the agent is still at ``base_revision``; its new revision."""

    @abstractmethod
    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        """The kept versions of one section, newest first."""

    @abstractmethod
    def latest(self, scope: str) -> list[StoredVersion]:
        """The newest version of every section of every agent with a history."""

    @abstractmethod
    def all_versions(self, scope: str) -> list[StoredVersion]:
        """Every kept version of the scope (key rotation walks them)."""

    @abstractmethod
    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        """Swap a version's blob for ``new`` if it still is ``old`` (re-encryption)."""


def _check(keep: int, versions: Sequence[NewVersion]) -> None:
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    if not versions:
        raise ValueError("a save writes at least one version")


class MemoryConfigStore(ConfigVersionStore):
    """Dictionaries behind a lock (tests and the in-memory store)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._revisions: dict[tuple[str, str], int] = {}
        self._versions: dict[tuple[str, str, str], dict[int, StoredVersion]] = {}

    def scope_revision(self, scope: str) -> int:
        with self._lock:
            return self._revisions.get((scope, ACCOUNT_ROW), 0)

    def agent_revisions(self, scope: str) -> dict[str, int]:
        with self._lock:
            return {
                agent: revision
                for (s, agent), revision in self._revisions.items()
                if s == scope and agent != ACCOUNT_ROW
            }

    def commit(
        self,
        scope: str,
        agent: str,
        base_revision: int,
        versions: Sequence[NewVersion],
        *,
        now: datetime,
        keep: int,
    ) -> int:
        _check(keep, versions)
        created = utc(now, "now")
        with self._lock:
            if self._revisions.get((scope, agent), 0) != base_revision:
                raise conflict(agent, base_revision)
            revision = base_revision + 1
            self._revisions[(scope, agent)] = revision
            self._revisions[(scope, ACCOUNT_ROW)] = self._revisions.get((scope, ACCOUNT_ROW), 0) + 1
            for v in versions:
                kept = self._versions.setdefault((scope, agent, v.section), {})
                kept[v.revision] = StoredVersion(
                    agent, v.section, v.revision, created, v.origin, bytes(v.blob)
                )
                for old in sorted(kept, reverse=True)[keep:]:
                    del kept[old]
            return revision

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        with self._lock:
            kept = self._versions.get((scope, agent, section), {})
            return [kept[r] for r in sorted(kept, reverse=True)]

    def latest(self, scope: str) -> list[StoredVersion]:
        with self._lock:
            return [
                kept[max(kept)]
                for (s, _, _), kept in sorted(self._versions.items())
                if s == scope and kept
            ]

    def all_versions(self, scope: str) -> list[StoredVersion]:
        with self._lock:
            return [
                version
                for (s, _, _), kept in sorted(self._versions.items())
                if s == scope
                for version in kept.values()
            ]

    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        with self._lock:
            kept = self._versions.get((scope, agent, section), {})
            found = kept.get(revision)
            if found is None or found.blob != old:
                return False
            kept[revision] = StoredVersion(
                agent, section, revision, found.created, found.origin, bytes(new)
            )
            return True
