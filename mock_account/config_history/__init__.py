"""Agent configuration history (SPEC §10): every save kept, restores undoable, edits live.

- ``sections``: an agent as its sections (description, commands, asks, workflow) and back,
  validated;
- ``store`` / ``sql_stores`` / ``redis_store``: the versions in the conversation store's
  backend (memory, SQLite, PostgreSQL, Redis), one compare-and-swap commit per save;
- ``history``: ``ConfigHistory`` (save, versions, diff, restore, clone, refresh);
- ``live``: attaching a history to a running account (engine, search index, agent list).
"""

from mock_account.config_history.factory import open_config_store
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
from mock_account.config_history.store import MemoryConfigStore
from mock_account.stores.config_versions import ConfigVersionStore, NewVersion, StoredVersion

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
