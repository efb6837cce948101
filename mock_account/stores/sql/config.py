"""The configuration versions' columns, read the same way by SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime

from mock_account.stores.config_versions import StoredVersion

#: The columns of ``config_versions`` a ``StoredVersion`` is read from, in its order.
VERSION_COLUMNS = "agent, section, revision, created, origin, blob"


def stored_version(row: tuple, created: datetime) -> StoredVersion:
    """The version a row of ``VERSION_COLUMNS`` holds (``created`` is its time, decoded by the
    backend: microseconds in SQLite, ``timestamptz`` in PostgreSQL)."""
    return StoredVersion(row[0], row[1], int(row[2]), created, row[4], bytes(row[5]))
