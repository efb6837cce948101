"""Agent configuration history (SPEC §10): every save kept, restores undoable, edits live.

- ``sections``: an agent as its sections (description, commands, asks, workflow) and back,
  validated;
- the versions are kept in the conversation store's backend (contract:
  ``mock_account.stores.config_versions``; memory, SQLite, PostgreSQL, Redis in the backend
  packages of ``mock_account.stores``), one compare-and-swap commit per save;
  ``open_config_store(store)`` finds them (``mock_account.stores.registry.config_store``);
- ``history``: ``ConfigHistory`` (save, versions, diff, restore, clone, refresh);
- ``live``: attaching a history to a running account (engine, search index, agent list).
"""

from mock_account.config_history.history import (
    CONFORMANCE_MODES,
    DEFAULT_KEEP,
    ConfigHistory,
    ConfigRefused,
    ReencryptedVersions,
    SaveResult,
    UnknownAgent,
    Version,
    reencrypt_versions,
)
from mock_account.config_history.live import attach_history, scheme_checker
from mock_account.config_history.sections import (
    SECTIONS,
    ConfigFormatError,
    join_sections,
    split_agent,
)
from mock_account.stores.config_versions import ConfigVersionStore, NewVersion, StoredVersion
from mock_account.stores.memory.config import MemoryConfigStore
from mock_account.stores.registry import config_store as open_config_store

__all__ = [
    "CONFORMANCE_MODES",
    "DEFAULT_KEEP",
    "SECTIONS",
    "ConfigFormatError",
    "ConfigHistory",
    "ConfigRefused",
    "ConfigVersionStore",
    "MemoryConfigStore",
    "NewVersion",
    "ReencryptedVersions",
    "SaveResult",
    "StoredVersion",
    "UnknownAgent",
    "Version",
    "attach_history",
    "join_sections",
    "open_config_store",
    "reencrypt_versions",
    "scheme_checker",
    "split_agent",
]
