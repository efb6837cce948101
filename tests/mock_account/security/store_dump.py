"""Everything a store holds, read past the store's own code: every table, every key, the files.

``dump(url, store)`` reads the backend directly: the memory store's dictionaries, every table of
the SQLite file plus the raw bytes of the file and its WAL, every table of the PostgreSQL schema,
every key under the Redis prefix whatever its type. Each row or key is one record: its name and
all its values as bytes, so a search over them finds any plaintext kept anywhere.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from mock_account.stores import ConversationStore
from mock_account.stores.batching import BatchingStore


@dataclass
class Dump:
    """The records of a store (one per row or key) and the raw bytes of its files, if any."""

    records: list[bytes] = field(default_factory=list)
    raw: bytes = b""

    def find(self, needles: list[bytes]) -> list[bytes]:
        """The needles found in any record or in the raw bytes."""
        return [n for n in needles if n in self.raw or any(n in r for r in self.records)]

    def holding(self, needle: bytes) -> list[bytes]:
        return [r for r in self.records if needle in r]


def _value(value: object) -> bytes:
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return str(value).encode("utf-8", "surrogatepass")


def _row(table: str, row: tuple | list) -> bytes:
    return table.encode() + b"|" + b"|".join(_value(v) for v in row)


def _option(url: str, name: str) -> str:
    return parse_qs(urlsplit(url).query)[name][0]


def _memory(store: ConversationStore) -> Dump:
    dump = Dump()
    for name, value in vars(store).items():
        if isinstance(value, dict):
            dump.records += [_row(name, (repr(k), repr(v))) for k, v in value.items()]
    return dump


def _sqlite(url: str) -> Dump:
    path = Path(url.removeprefix("sqlite:///").split("?", 1)[0])
    dump = Dump()
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            dump.records += [_row(table, r) for r in conn.execute(f'SELECT * FROM "{table}"')]
    finally:
        conn.close()
    files = [path, Path(f"{path}-wal"), Path(f"{path}-journal")]
    dump.raw = b"".join(p.read_bytes() for p in files if p.exists())
    return dump


def _postgres(url: str) -> Dump:
    import psycopg
    from psycopg import sql
    from server_stores import POSTGRES_URL

    schema = _option(url, "schema")
    dump = Dump()
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (schema,),
        ).fetchall()
        for (table,) in tables:
            query = sql.SQL("SELECT * FROM {}.{}").format(
                sql.Identifier(schema), sql.Identifier(table)
            )
            dump.records += [_row(table, r) for r in conn.execute(query).fetchall()]
    return dump


def _redis(url: str) -> Dump:
    import redis
    from server_stores import REDIS_URL

    prefix = _option(url, "prefix")
    client = redis.Redis.from_url(REDIS_URL)
    dump = Dump()
    try:
        for key in client.scan_iter(match=f"{prefix}:*", count=500):
            kind = client.type(key).decode()
            if kind == "string":
                values: list[object] = [client.get(key)]
            elif kind == "hash":
                values = [x for pair in client.hgetall(key).items() for x in pair]
            elif kind == "set":
                values = list(client.smembers(key))
            elif kind == "zset":
                values = [x for pair in client.zrange(key, 0, -1, withscores=True) for x in pair]
            elif kind == "list":
                values = list(client.lrange(key, 0, -1))
            else:
                raise AssertionError(f"a key of an unexpected type {kind}: {key!r}")
            dump.records.append(_row(key.decode(), values))
    finally:
        client.close()
    return dump


def dump(backend: str, url: str, store: ConversationStore) -> Dump:
    """Everything ``store`` (of ``backend``, opened from ``url``) holds."""
    inner = store.inner if isinstance(store, BatchingStore) else store
    if backend == "memory":
        return _memory(inner)
    if backend == "sqlite":
        return _sqlite(url)
    if backend == "postgres":
        return _postgres(url)
    if backend == "redis":
        return _redis(url)
    raise ValueError(f"unknown backend {backend!r}")
