"""Redis conversation store: Lua compare-and-swap per conversation, per-user sorted-set indexes.

Key layout (``P`` is the store's prefix, components are percent-encoded)::

    P:conv:{account/convid}:entry    hash: ids, owner, title, times, pinned, version, rev
    P:conv:{account/convid}:state    string: the state blob (absent when there is none)
    P:user:{account/owner}:recent    sorted set of unpinned convids, score = last_used
    P:user:{account/owner}:pinned    sorted set of pinned convids, score = last_used
    P:user:{account/owner}:revs      hash: convid -> rev it was indexed at
    P:conv:{account/convid}:idem     set: idempotency keys of records naming the conversation
    P:idem:{key}                     hash: account, convid, record, expires (with a TTL)

The hash tags keep a conversation's keys (and a user's keys) in one cluster slot. The entry is the
truth. A save updates its owner's index in the same script (one round trip: a second one made a
save three times a raw ``SET`` of the same bytes); every other change updates the index right
after, rev-guarded so that updates racing each other still converge (see ``redis_scripts``), and
listing repairs what a writer that died between the two steps left behind (see ``redis_index``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from urllib.parse import unquote

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from mock_account.stores import base
from mock_account.stores.codec import (
    from_micros,
    recent_page,
    to_micros,
)
from mock_account.stores.errors import (
    StoreConfigError,
    StoreError,
    StoreUnavailable,
    VersionConflict,
)
from mock_account.stores.redis import scripts as redis_scripts
from mock_account.stores.redis.index import UserIndex
from mock_account.stores.redis.layout import (
    Fields,
    as_fields,
    conv_idempotency_key,
    conv_keys,
    entry_of,
    idempotency_key,
    q,
    user_keys,
)

log = logging.getLogger(__name__)
PREFIX_RE = re.compile(r"[A-Za-z0-9_.:-]{1,64}")
_BATCH = 200
_SCRIPTS = ("COMMIT", "UPDATE", "REPLACE", "DELETE", "REMEMBER", "NOTE_IDEMPOTENCY", "PURGE")


def _filled(outcomes: list[base.CommitOutcome | None]) -> list[base.CommitOutcome]:
    missing = [i for i, o in enumerate(outcomes) if o is None]
    if missing:
        raise AssertionError(f"batch requests {missing} got no outcome")
    return [o for o in outcomes if o is not None]


def _idempotency_record(found: list[bytes]) -> base.IdempotencyRecord:
    return base.IdempotencyRecord(
        found[0].decode(), found[1].decode(), found[2], from_micros(int(found[3]))
    )


class RedisStore(base.ConversationStore, base.IdempotencyRecords):
    """A store in one Redis database, every key under ``prefix``."""

    backend = "redis"

    def __init__(self, url: str, *, prefix: str = "convstore") -> None:
        if not PREFIX_RE.fullmatch(prefix):
            raise StoreConfigError(
                f"Redis key prefix {prefix!r} is invalid: use 1-64 of A-Z a-z 0-9 _ . : -"
            )
        self.prefix = prefix
        try:
            # No automatic retry: a retried script may already have run, and re-running a commit
            # would report a conflict for a save that happened. The failure surfaces instead.
            self._redis = redis.Redis.from_url(
                url, socket_connect_timeout=5, socket_timeout=10, retry=Retry(NoBackoff(), 0)
            )
        except (ValueError, TypeError) as exc:
            raise StoreConfigError(f"invalid Redis URL: {exc}") from exc
        params = self._redis.connection_pool.connection_kwargs
        place = f"{params.get('host', 'localhost')}:{params.get('port', 6379)}"
        self.where = f"Redis at {place}/{params.get('db', 0)}"
        self._scripts = {
            name: self._redis.register_script(getattr(redis_scripts, name)) for name in _SCRIPTS
        }
        self._index = UserIndex(self._redis, prefix)
        try:
            with self._errors():
                self._redis.ping()
        except TypeError as exc:  # redis-py passes unknown URL options on to the connection
            raise StoreConfigError(f"{self.where}: unsupported URL option ({exc})") from exc

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except (redis.ConnectionError, redis.TimeoutError) as exc:
            raise StoreUnavailable(f"{self.where} is unavailable: {exc}") from exc
        except redis.RedisError as exc:
            raise StoreError(f"{self.where}: {exc}") from exc

    # -- the seam of the side stores (``mock_account.stores.redis``'s other modules) -----------
    # Their keys are under ``prefix`` in this database, and they use this client.

    @property
    def client(self) -> redis.Redis:
        """The client (no automatic retry: a script may have run before the failure)."""
        return self._redis

    def errors(self) -> AbstractContextManager[None]:
        """Translate redis-py errors into store errors naming this server (``with ...:``)."""
        return self._errors()

    def _run(self, script: str, keys: list[str], args: list[object]) -> Fields:
        """Run a conversation script, then bring the owner's index up to date with its result."""
        with self._errors():
            fields = as_fields(self._scripts[script](keys=keys, args=args))
        if fields:
            try:
                self._index.sync(fields)
            except redis.RedisError as exc:
                # The change itself is saved: reporting a failure would make the caller redo a
                # write that happened. Listing heals a stale index; check_integrity reports it.
                log.warning("%s: index update of %r failed: %s", self.where, fields[b"convid"], exc)
        return fields

    # -- conversations ---------------------------------------------------------------------------

    def commit(self, request: base.CommitRequest) -> base.Committed:
        r = request
        with self._errors():
            saved = self._scripts["COMMIT"](keys=self._commit_keys(r), args=self._commit_args(r))
        return self._committed(r, saved)

    def commit_runs(self, requests: Sequence[base.CommitRequest]) -> list[base.CommitOutcome]:
        """Pipelined batch: the CAS scripts of all requests in one round trip.

        Each script is atomic on its own and answers on its own, so a conflicting request gets
        ``VersionConflict`` while the others are saved (the pipeline is not a transaction).
        """
        outcomes: list[base.CommitOutcome | None] = [None] * len(requests)
        sent: list[int] = []
        with self._errors():
            pipe = self._redis.pipeline(transaction=False)
            for i, r in enumerate(requests):
                try:
                    args = self._commit_args(r)
                except (ValueError, TypeError, AttributeError) as exc:  # not a usable time
                    outcomes[i] = exc
                    continue
                self._scripts["COMMIT"](keys=self._commit_keys(r), args=args, client=pipe)
                sent.append(i)
            replies = pipe.execute(raise_on_error=False) if sent else []
        for i, reply in zip(sent, replies, strict=True):
            if isinstance(reply, Exception):
                outcomes[i] = StoreError(f"{self.where}: {reply}")
                continue
            try:
                outcomes[i] = self._committed(requests[i], reply)
            except VersionConflict as exc:
                outcomes[i] = exc
        return _filled(outcomes)

    def _commit_keys(self, r: base.CommitRequest) -> list[str]:
        """The conversation's keys, then its owner's index keys (one script updates both)."""
        return [
            *conv_keys(self.prefix, r.account, r.convid),
            *user_keys(self.prefix, r.account, r.owner),
        ]

    @staticmethod
    def _committed(r: base.CommitRequest, reply: object) -> base.Committed:
        """What a COMMIT script wrote (``VersionConflict`` when it found another version)."""
        if reply is None:
            raise VersionConflict.lost(r.convid, r.expected_version)
        return base.Committed(
            r.convid, r.expected_version + 1, from_micros(to_micros(r.now, "now")), r.agent
        )

    @staticmethod
    def _commit_args(r: base.CommitRequest) -> list[object]:
        return [
            r.expected_version,
            r.account,
            r.convid,
            r.owner,
            to_micros(r.now, "now"),
            r.title_if_new,
            0 if r.blob is None else 1,
            b"" if r.blob is None else r.blob,
            r.agent,
        ]

    def load(self, account: str, convid: str) -> base.StoredState | None:
        entry_key, state_key = conv_keys(self.prefix, account, convid)
        with self._errors():
            # One slot, MULTI/EXEC: entry and blob come from the same moment.
            fields, blob = self._redis.pipeline().hgetall(entry_key).get(state_key).execute()
        entry = entry_of(as_fields(fields))
        return None if entry is None else base.StoredState(entry=entry, blob=blob)

    def get_entry(self, account: str, convid: str) -> base.ConversationEntry | None:
        with self._errors():
            return entry_of(
                as_fields(self._redis.hgetall(conv_keys(self.prefix, account, convid)[0]))
            )

    def change_entry(self, account: str, convid: str, change: base.EntryChange) -> bool:
        title, pinned, last_read = change.title, change.pinned, change.last_read
        args = [
            b"" if title is None else b"t" + title,  # marked so an empty title is not "keep"
            "" if pinned is None else str(int(pinned)),
            "" if last_read is None else to_micros(last_read, "last_read"),
        ]
        return bool(self._run("UPDATE", conv_keys(self.prefix, account, convid)[:1], args))

    def replace_blob(
        self, account: str, convid: str, *, expected_version: int, blob: bytes
    ) -> None:
        keys = conv_keys(self.prefix, account, convid)
        if not self._run("REPLACE", keys, [expected_version, blob]):
            raise VersionConflict.lost(convid, expected_version)

    def delete(self, account: str, convid: str) -> bool:
        noted = conv_idempotency_key(self.prefix, account, convid)
        with self._errors():
            # The records live in slots of their own: read their keys, delete the conversation
            # (and the set), then each record. A record a crash leaves behind expires by its TTL.
            members = self._redis.smembers(noted)
            keys = [*conv_keys(self.prefix, account, convid), noted]
            fields = as_fields(self._scripts["DELETE"](keys=keys, args=[]))
            entry = entry_of(fields)
            if entry is not None:
                self._index.remove(account, entry.owner, convid, fields[b"rev"])
            if members:
                pipe = self._redis.pipeline(transaction=False)
                for member in members:
                    pipe.delete(idempotency_key(self.prefix, member.decode()))
                pipe.execute()
        return entry is not None

    # -- listing ---------------------------------------------------------------------------------

    def list_pinned(self, account: str, owner: str) -> list[base.ConversationEntry]:
        with self._errors():
            return self._index.listed(account, owner, pinned=True, position=None, want=None)

    def list_recent(
        self, account: str, owner: str, *, limit: int, cursor: str | None
    ) -> tuple[list[base.ConversationEntry], str | None]:
        def after(position: tuple[int, str] | None, want: int) -> list[base.ConversationEntry]:
            with self._errors():
                return self._index.listed(
                    account, owner, pinned=False, position=position, want=want
                )

        return recent_page(limit, cursor, after)

    def count_pinned(self, account: str, owner: str) -> int:
        with self._errors():
            return self._index.count_pinned(account, owner)

    def iter_entries(self, account: str | None = None) -> Iterator[base.ConversationEntry]:
        scope = "*" if account is None else f"{{{q(account)}/*}}"
        with self._errors():
            keys = list(
                self._redis.scan_iter(match=f"{self.prefix}:conv:{scope}:entry", count=_BATCH)
            )
        for start in range(0, len(keys), _BATCH):
            with self._errors():
                pipe = self._redis.pipeline(transaction=False)
                for key in keys[start : start + _BATCH]:
                    pipe.hgetall(key)
                replies = pipe.execute()
            for reply in replies:
                entry = entry_of(as_fields(reply))
                if entry is not None:  # deleted since the scan
                    yield entry

    # -- idempotency, health ---------------------------------------------------------------------

    def remember(
        self, key: str, record: base.IdempotencyRecord, now: datetime
    ) -> base.IdempotencyRecord | None:
        base.check_idempotency_record(record, now)
        expires = to_micros(record.expires, "expires")
        t = to_micros(now, "now")
        ttl_ms = max(1, -(-(expires - t) // 1000))
        with self._errors():
            if record.convid:
                # Noted first: a record is never left without its conversation knowing of it.
                self._scripts["NOTE_IDEMPOTENCY"](
                    keys=[conv_idempotency_key(self.prefix, record.account, record.convid)],
                    args=[key, ttl_ms],
                )
            stored = self._scripts["REMEMBER"](
                keys=[idempotency_key(self.prefix, key)],
                args=[record.account, record.convid, bytes(record.record), expires, t, ttl_ms],
            )
        return None if stored is None else _idempotency_record(stored)

    def recall(self, key: str, now: datetime) -> base.IdempotencyRecord | None:
        t = to_micros(now, "now")
        with self._errors():
            found = self._redis.hmget(
                idempotency_key(self.prefix, key), "account", "convid", "record", "expires"
            )
        if found[2] is None or int(found[3]) <= t:
            return None
        return _idempotency_record(found)

    def forget(self, key: str) -> bool:
        with self._errors():
            return bool(self._redis.delete(idempotency_key(self.prefix, key)))

    def purge_expired(self, now: datetime) -> int:
        """Records expired at ``now`` (Redis drops them itself by TTL; this serves an injected
        clock ahead of the server's)."""
        t = to_micros(now, "now")
        removed = 0
        with self._errors():
            keys = list(self._redis.scan_iter(match=f"{self.prefix}:idem:*", count=_BATCH))
            for start in range(0, len(keys), _BATCH):
                pipe = self._redis.pipeline(transaction=False)
                chunk = keys[start : start + _BATCH]
                for key in chunk:
                    self._scripts["PURGE"](keys=[key], args=[t], client=pipe)
                purged = [(k, r) for k, r in zip(chunk, pipe.execute(), strict=True) if r]
                removed += len(purged)
                # Unnote them from their conversations (an emptied set goes by itself).
                pipe = self._redis.pipeline(transaction=False)
                for key, (account, convid) in purged:
                    if convid:
                        noted = conv_idempotency_key(self.prefix, account.decode(), convid.decode())
                        name = unquote(key.decode().split("{", 1)[1].rsplit("}", 1)[0])
                        pipe.srem(noted, name)
                pipe.execute()
        return removed

    def check_integrity(self) -> list[str]:
        with self._errors():
            problems = self._index.check(list(self.iter_entries()))
            pattern = f"{self.prefix}:conv:*:state"
            for key in self._redis.scan_iter(match=pattern, count=_BATCH):
                if not self._redis.exists(key[: -len(b"state")] + b"entry"):
                    problems.append(f"state without entry: {key.decode()}")
        return problems

    def close(self) -> None:
        self._redis.close()
