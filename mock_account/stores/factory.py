"""``open_store(url)``: a conversation store from a URL.

    memory://                                   in-process, for tests
    sqlite:///relative/path.db                  three slashes: relative to the working folder
    sqlite:////absolute/path.db                 four slashes: absolute (the SQLAlchemy convention)
        ?synchronous=OFF|NORMAL|FULL|EXTRA      default NORMAL (safe in WAL mode; FULL also
                                                survives power loss of the last commits)
        &timeout=10                             seconds a writer waits for the write lock
    postgresql://user@host:5432/db              also postgres://; any libpq parameter, plus
        ?schema=conversation_store              the PostgreSQL schema holding the tables
        &pool_min=1&pool_max=10&pool_timeout=10 connection pool sizing, seconds to wait for one
        (connect_timeout defaults to 5 seconds)
    redis://host:6379/0                         also rediss:// and redis-py's URL parameters, plus
        ?prefix=convstore                       the prefix of every key

Every URL also takes ``batch=N`` (group commit: concurrent saves are gathered into batches of up
to N, see ``batching``), ``batch_wait_us=U`` (how long a batch waits for more saves; default 0,
batches then form only from saves that arrived while the previous batch was committing) and
``batch_committers=C`` (batches in flight at once; default 1 for SQLite, 4 for servers).

Backend modules are imported on demand, so using SQLite never loads psycopg or redis-py.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import SplitResult, parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from mock_account.stores.base import ConversationStore
from mock_account.stores.errors import StoreConfigError


def _redact(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _take(query: dict[str, str], name: str, default: str, url: str) -> str:
    value = query.pop(name, default)
    if not value:
        raise StoreConfigError(f"store URL {_redact(url)}: option {name} is empty")
    return value


def _number(query: dict[str, str], name: str, default: str, url: str, kind: Callable) -> float:
    text = _take(query, name, default, url)
    try:
        value = kind(text)
    except ValueError as exc:
        raise StoreConfigError(
            f"store URL {_redact(url)}: option {name} must be a number, got {text!r}"
        ) from exc
    if value <= 0:
        raise StoreConfigError(f"store URL {_redact(url)}: option {name} must be positive")
    return value


def _no_more(query: dict[str, str], url: str, allowed: str) -> None:
    if query:
        raise StoreConfigError(
            f"store URL {_redact(url)}: unknown option(s) {', '.join(sorted(query))} "
            f"(allowed: {allowed}; every store also takes batch, batch_wait_us, batch_committers)"
        )


def _open_sqlite(url: str, parts: SplitResult, query: dict[str, str]) -> ConversationStore:
    from mock_account.stores.sqlite import SqliteStore

    if parts.netloc or not parts.path.startswith("/") or parts.path == "/":
        raise StoreConfigError(
            f"store URL {url} has no file path: use sqlite:///relative.db or sqlite:////abs.db"
        )
    synchronous = _take(query, "synchronous", "NORMAL", url)
    timeout = _number(query, "timeout", "10", url, float)
    _no_more(query, url, "synchronous, timeout")
    return SqliteStore(unquote(parts.path[1:]), synchronous=synchronous, timeout=timeout)


def _open_postgres(url: str, parts: SplitResult, query: dict[str, str]) -> ConversationStore:
    from mock_account.stores.postgres import PostgresStore

    schema = _take(query, "schema", "conversation_store", url)
    pool_min = int(_number(query, "pool_min", "1", url, int))
    pool_max = int(_number(query, "pool_max", "10", url, int))
    pool_timeout = _number(query, "pool_timeout", "10", url, float)
    if pool_min > pool_max:
        raise StoreConfigError(f"store URL {_redact(url)}: pool_min is above pool_max")
    query.setdefault("connect_timeout", "5")
    conninfo = urlunsplit(parts._replace(query=urlencode(query)))
    return PostgresStore(
        conninfo, schema=schema, min_size=pool_min, max_size=pool_max, timeout=pool_timeout
    )


def _open_redis(url: str, parts: SplitResult, query: dict[str, str]) -> ConversationStore:
    from mock_account.stores.redis.store import RedisStore

    prefix = _take(query, "prefix", "convstore", url)
    database = parts.path.strip("/")
    if database and not database.isdigit():
        raise StoreConfigError(
            f"store URL {_redact(url)}: the Redis database must be a number, got {database!r}"
        )
    return RedisStore(urlunsplit(parts._replace(query=urlencode(query))), prefix=prefix)


def open_store(url: str) -> ConversationStore:
    """Open (creating schema and folders as needed) the conversation store ``url`` names.

    Raises ``StoreConfigError`` for a malformed URL or option, ``StoreUnavailable`` when the
    backend cannot be reached, ``StoreError`` for other failures; messages never hold a password.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    try:
        parts.port  # noqa: B018 - parsing the port validates it
    except ValueError as exc:
        raise StoreConfigError(f"store URL {_redact(url)}: {exc}") from exc
    try:
        query = dict(
            parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
        )
    except ValueError as exc:
        raise StoreConfigError(f"store URL {_redact(url)}: malformed query string") from exc
    openers: dict[str, Callable[[str, SplitResult, dict[str, str]], ConversationStore]] = {
        "memory": _open_memory,
        "sqlite": _open_sqlite,
        "postgresql": _open_postgres,
        "postgres": _open_postgres,
        "redis": _open_redis,
        "rediss": _open_redis,
    }
    opener = openers.get(scheme)
    if opener is None:
        raise StoreConfigError(
            f"store URL {_redact(url)!r} has unknown scheme {parts.scheme or '(none)'!r}: "
            "use memory://, sqlite:///path.db, postgresql://... or redis://..."
        )
    # Taken out before the backend sees the options: they are this module's, not the backend's.
    batch = int(_number(query, "batch", "1", url, int)) if "batch" in query else 0
    for option in ("batch_wait_us", "batch_committers"):
        if option in query and not batch:
            raise StoreConfigError(f"store URL {_redact(url)}: {option} needs batch=N")
    committers = None
    if "batch_committers" in query:
        committers = int(_number(query, "batch_committers", "1", url, int))
    wait_us = 0
    if "batch_wait_us" in query:
        # Zero is allowed here (no lingering), so not ``_number``.
        text = _take(query, "batch_wait_us", "0", url)
        if not text.isdigit():
            raise StoreConfigError(
                f"store URL {_redact(url)}: option batch_wait_us must be a whole number of "
                f"microseconds, got {text!r}"
            )
        wait_us = int(text)
    store = opener(url, parts, query)
    if not batch:
        return store
    from mock_account.stores.batching import BatchingStore

    return BatchingStore(store, max_batch=batch, max_wait_us=wait_us, committers=committers)


def _open_memory(url: str, parts: SplitResult, query: dict[str, str]) -> ConversationStore:
    from mock_account.stores.memory import MemoryStore

    _no_more(query, url, "none")
    return MemoryStore()
