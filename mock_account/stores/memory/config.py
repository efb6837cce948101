"""Configuration versions in memory, next to a ``MemoryStore`` (tests and demos)."""

from __future__ import annotations

import threading

from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    ConfigCommit,
    ConfigVersionStore,
    StoredVersion,
)
from mock_account.stores.memory.store import MemoryStore


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

    def commit_versions(self, commit: ConfigCommit) -> int:
        scope, agent, base_revision = commit.scope, commit.agent, commit.base_revision
        with self._lock:
            if self._revisions.get((scope, agent), 0) != base_revision:
                raise commit.conflict()
            revision = base_revision + 1
            self._revisions[(scope, agent)] = revision
            self._revisions[(scope, ACCOUNT_ROW)] = self._revisions.get((scope, ACCOUNT_ROW), 0) + 1
            for v in commit.versions:
                kept = self._versions.setdefault((scope, agent, v.section), {})
                kept[v.revision] = StoredVersion(
                    agent, v.section, v.revision, commit.created, v.origin, bytes(v.blob)
                )
                for old in sorted(kept, reverse=True)[commit.keep :]:
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


def config_store(store: MemoryStore) -> ConfigVersionStore:
    """The configuration versions of ``store``: one history per store, so deployments sharing
    the store object share the history (as they would share a database)."""
    return store.side_table("config_versions", MemoryConfigStore)
