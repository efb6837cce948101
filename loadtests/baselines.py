"""Baselines a state save and restore are compared with, measured on the same bytes.

- :func:`raw_aesgcm` — AES-256-GCM on the plaintext with a fixed key: no key derivation, no
  record header, no associated data. What encryption costs at the very least.
- :func:`open_raw_table` — the cheapest durable write and read of a blob in the same backend at
  the same durability as the store: a one-table SQLite database in the same folder with the same
  pragmas (WAL, same ``synchronous``) and the store's WAL checkpoints (a background thread, not
  the commits), a one-table PostgreSQL upsert on the same server, a Redis ``SET``/``GET`` on the
  same server, a dict for the in-memory store.
"""

from __future__ import annotations

import os
import sqlite3
from abc import ABC, abstractmethod
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from mock_account.stores import ConversationStore, StoreConfigError, StoreUnavailable
from mock_account.stores.sqlite.checkpoints import WalCheckpoints

# Options of store URLs that belong to the store, not to the client library.
_STORE_OPTIONS = {
    "schema",
    "pool_min",
    "pool_max",
    "pool_timeout",
    "prefix",
    "timeout",
    "batch",
    "batch_wait_us",
}


class RawAesGcm:
    """Plain AES-256-GCM with one key and a fresh nonce per encryption."""

    def __init__(self) -> None:
        self._aead = AESGCM(AESGCM.generate_key(bit_length=256))

    def encrypt(self, plain: bytes) -> bytes:
        nonce = os.urandom(12)
        return nonce + self._aead.encrypt(nonce, plain, None)

    def decrypt(self, blob: bytes) -> bytes:
        return self._aead.decrypt(blob[:12], blob[12:], None)


def raw_aesgcm() -> RawAesGcm:
    return RawAesGcm()


class RawTable(ABC):
    """A key -> blob table with the backend's most direct upsert and read."""

    description: str

    @abstractmethod
    def upsert(self, key: str, blob: bytes) -> None: ...

    @abstractmethod
    def read(self, key: str) -> bytes: ...

    @abstractmethod
    def close(self) -> None:
        """Drop what the baseline created and release the connection."""


class SqliteRawTable(RawTable):
    def __init__(self, folder: Path, synchronous: str) -> None:
        self.path = folder / "raw_baseline.db"
        self.description = f"SQLite one-table upsert (WAL, synchronous={synchronous})"
        # Autocommit: each upsert is its own implicit transaction, the least a durable write costs.
        self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute(f"PRAGMA synchronous={synchronous}")
        self._conn.execute("CREATE TABLE IF NOT EXISTS blobs (key TEXT PRIMARY KEY, blob BLOB)")
        # Checkpoints as the store runs them: with SQLite's automatic one in the commit, the
        # baseline would pay a cost the store does not, and the ratio would flatter the store.
        self._checkpoints = WalCheckpoints.start(self.path, synchronous=synchronous)
        if self._checkpoints is not None:
            self._checkpoints.prepare(self._conn)

    def upsert(self, key: str, blob: bytes) -> None:
        self._conn.execute(
            "INSERT INTO blobs VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET blob = excluded.blob",
            (key, blob),
        )
        if self._checkpoints is not None:
            self._checkpoints.committed(self._conn)

    def read(self, key: str) -> bytes:
        row = self._conn.execute("SELECT blob FROM blobs WHERE key = ?", (key,)).fetchone()
        return bytes(row[0])

    def close(self) -> None:
        if self._checkpoints is not None:
            self._checkpoints.stop()
        self._conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)


class PostgresRawTable(RawTable):
    description = "PostgreSQL one-table upsert (same server, autocommit)"

    def __init__(self, conninfo: str) -> None:
        import psycopg

        self._table = f"loadtests_raw_{os.getpid()}"
        try:
            self._conn = psycopg.connect(conninfo, autocommit=True)
        except psycopg.OperationalError as exc:
            raise StoreUnavailable(f"PostgreSQL baseline: {str(exc).splitlines()[0]}") from exc
        self._conn.execute(
            f"CREATE TABLE IF NOT EXISTS {self._table} (key text PRIMARY KEY, blob bytea NOT NULL)"
        )

    def upsert(self, key: str, blob: bytes) -> None:
        self._conn.execute(
            f"INSERT INTO {self._table} VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET blob = excluded.blob",
            (key, blob),
        )

    def read(self, key: str) -> bytes:
        sql = f"SELECT blob FROM {self._table} WHERE key = %s"
        return bytes(self._conn.execute(sql, (key,)).fetchone()[0])

    def close(self) -> None:
        self._conn.execute(f"DROP TABLE IF EXISTS {self._table}")
        self._conn.close()


class RedisRawTable(RawTable):
    description = "Redis SET / GET (same server)"

    def __init__(self, url: str) -> None:
        import redis

        self._prefix = f"loadtests:raw:{os.getpid()}:"
        self._redis = redis.Redis.from_url(url)
        self._keys: set[str] = set()
        try:
            self._redis.ping()
        except redis.RedisError as exc:
            raise StoreUnavailable(f"Redis baseline: {exc}") from exc

    def upsert(self, key: str, blob: bytes) -> None:
        self._keys.add(self._prefix + key)
        self._redis.set(self._prefix + key, blob)

    def read(self, key: str) -> bytes:
        value = self._redis.get(self._prefix + key)
        return bytes(value) if value is not None else b""

    def close(self) -> None:
        if self._keys:
            self._redis.delete(*self._keys)
        self._redis.close()


class MemoryRawTable(RawTable):
    description = "Python dict (in-memory store)"

    def __init__(self) -> None:
        self._data: dict[str, bytes] = {}

    def upsert(self, key: str, blob: bytes) -> None:
        self._data[key] = bytes(blob)

    def read(self, key: str) -> bytes:
        return self._data[key]

    def close(self) -> None:
        self._data.clear()


def _client_url(url: str) -> str:
    """The store URL without the options only the store understands."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k not in _STORE_OPTIONS]
    return urlunsplit(parts._replace(query=urlencode(query)))


def open_raw_table(store_url: str, store: ConversationStore) -> RawTable:
    """The raw baseline for the backend of ``store`` (opened from ``store_url``)."""
    parts = urlsplit(store_url.strip())
    scheme = parts.scheme.lower()
    if scheme == "sqlite":
        synchronous = dict(parse_qsl(parts.query)).get("synchronous", "NORMAL").upper()
        folder = Path(getattr(store, "path", Path(parts.path[1:]))).resolve().parent
        return SqliteRawTable(folder, synchronous)
    if scheme in ("postgresql", "postgres"):
        return PostgresRawTable(_client_url(store_url))
    if scheme in ("redis", "rediss"):
        return RedisRawTable(_client_url(store_url))
    if scheme == "memory":
        return MemoryRawTable()
    raise StoreConfigError(f"no raw baseline for stores of scheme {scheme!r}")
