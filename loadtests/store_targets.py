"""The stores a store command measures, each a place of its own that is removed afterwards.

``loadtests writers`` and ``loadtests scale`` name stores the same way: ``memory``, ``sqlite`` (a
file in a temporary folder), ``postgres`` (a temporary schema of the server at ``--postgres-url``)
and ``redis`` (a temporary key prefix of the server at ``--redis-url``). A full store URL is
taken as it is where a command allows it. Nothing outside the run's own folder, schema or prefix
is read or written, and those are dropped when the run ends, even when it fails.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

NAMED_STORES = ("memory", "sqlite", "postgres", "redis")
DEFAULT_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass
class StoreTarget:
    """A store to measure: its label, its URL, and how to remove what the run left there."""

    label: str
    url: str
    cleanup: Callable[[], None] = lambda: None
    opened: bool = False  # only a store that was opened has anything to clean up

    def close(self) -> None:
        if self.opened:
            self.cleanup()


def with_option(url: str, option: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{option}"


def drop_schema(url: str, schema: str) -> None:
    """Drop a PostgreSQL schema and all in it, on the server at ``url``."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(with_option(url, "connect_timeout=5"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))


def drop_prefix(url: str, prefix: str) -> None:
    """Delete every key under a Redis key prefix, on the server at ``url``."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=500))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start : start + 500])
    finally:
        client.close()


def _server_target(
    name: str, command: str, run: str, postgres_url: str, redis_url: str, pool_max: int
) -> StoreTarget:
    """A PostgreSQL schema or a Redis prefix of the run's own, dropped when it closes."""
    if name == "postgres":
        schema = f"loadtests_{command}_{run}"
        url = with_option(postgres_url, f"schema={schema}&pool_max={pool_max}")
        return StoreTarget(name, url, partial(drop_schema, postgres_url, schema))
    prefix = f"loadtests.{command}.{run}"
    url = with_option(redis_url, f"prefix={prefix}")
    return StoreTarget(name, url, partial(drop_prefix, redis_url, prefix))


@contextmanager
def store_target(
    name: str,
    command: str,
    *,
    postgres_url: str = DEFAULT_POSTGRES_URL,
    redis_url: str = DEFAULT_REDIS_URL,
    pool_max: int = 16,
) -> Iterator[StoreTarget]:
    """The target a ``--stores`` item names for ``command`` (a word of its schema or prefix),
    cleaned up on exit."""
    run = uuid.uuid4().hex[:10]
    if name == "memory":
        yield StoreTarget("memory", "memory://")
    elif name == "sqlite":
        with tempfile.TemporaryDirectory(prefix=f"loadtests-{command}-") as tmp:
            yield StoreTarget("sqlite", f"sqlite:///{Path(tmp).resolve() / f'{command}.db'}")
    elif name in ("postgres", "redis"):
        target = _server_target(name, command, run, postgres_url, redis_url, pool_max)
        try:
            yield target
        finally:
            target.close()
    else:
        parts = urlsplit(name)
        yield StoreTarget(parts.scheme + (f"?{parts.query}" if parts.query else ""), name)


def store_names(text: str, *, urls: bool = True) -> list[str]:
    """An argparse type: comma-separated store names (or store URLs, when ``urls``)."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    for name in names:
        if name not in NAMED_STORES and not (urls and "://" in name):
            choices = ", ".join(NAMED_STORES) + (" or a store URL" if urls else "")
            raise argparse.ArgumentTypeError(f"unknown store {name!r}: use {choices}")
    if not names:
        raise argparse.ArgumentTypeError("give at least one store")
    return names


def add_server_urls(parser: argparse.ArgumentParser) -> None:
    """``--postgres-url`` and ``--redis-url``: the servers of the ``postgres`` and ``redis``
    stores."""
    parser.add_argument(
        "--postgres-url",
        default=os.environ.get("LOADTEST_POSTGRES_URL", DEFAULT_POSTGRES_URL),
        help="server of the 'postgres' store (env LOADTEST_POSTGRES_URL)",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS_URL),
        help="server of the 'redis' store (env LOADTEST_REDIS_URL)",
    )
