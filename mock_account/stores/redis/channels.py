"""Channel records in the Redis database of a ``RedisStore``, under its key prefix.

    {prefix}:chan:{account}:id:<identity>   hash: one identity (sender, contact, memory...)
    {prefix}:chan:{account}:ids             set: the account's identities
    {prefix}:chan:{account}:links           set: convids of the account with a link (an index,
                                            cleaned when read)
    {prefix}:conv:{account/convid}:link     hash: the conversation's channel and identity
    {prefix}:conv:{account/convid}:turns    list: ``<micros>:<encrypted record>`` per turn

Link and turns share the conversation's hash tag: the store's delete script removes them with
the entry, and the scripts here write them only while the entry exists. Every compare-and-swap
is one script.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from mock_account.stores import channel_records as contract
from mock_account.stores.codec import from_micros, to_micros
from mock_account.stores.errors import VersionConflict
from mock_account.stores.redis.layout import conv_keys, q

if TYPE_CHECKING:
    from mock_account.stores.redis.store import RedisStore

# KEYS: identity, ids. ARGV: identity, field/value pairs. Returns the stored hash.
CLAIM = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], unpack(ARGV, 2))
  redis.call('SADD', KEYS[2], ARGV[1])
end
return redis.call('HGETALL', KEYS[1])
"""


def _seen_at(now: str) -> str:
    """Lua that moves the identity's ``last_seen`` on to ``now`` (an ``ARGV``), never back: of
    two turns that race, the earlier one written last leaves the later time."""
    return (
        f"if tonumber(redis.call('HGET', KEYS[1], 'last_seen')) < tonumber({now}) then\n"
        f"  redis.call('HSET', KEYS[1], 'last_seen', {now})\n"
        "end\n"
    )


# KEYS: identity. ARGV: expected convid, convid, now. 1 if moved.
MOVE = f"""
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HGET', KEYS[1], 'convid') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'convid', ARGV[2])
{_seen_at("ARGV[3]")}return 1
"""

# KEYS: identity. ARGV: now.
TOUCH = f"""
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
{_seen_at("ARGV[1]")}return 1
"""

# KEYS: identity. ARGV: has contact ('0'/'1'), contact, contact hash.
CONTACT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 'contact', ARGV[2], 'contact_hash', ARGV[3])
else
  redis.call('HDEL', KEYS[1], 'contact')
  redis.call('HSET', KEYS[1], 'contact_hash', '')
end
return 1
"""

# KEYS: identity. ARGV: expected version, memory. The new version, or -1.
MEMORY = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if tonumber(redis.call('HGET', KEYS[1], 'memory_version')) ~= tonumber(ARGV[1]) then
  return -1
end
redis.call('HSET', KEYS[1], 'memory', ARGV[2])
return redis.call('HINCRBY', KEYS[1], 'memory_version', 1)
"""

# KEYS: identity, ids. ARGV: identity, last_seen ("" for any).
DROP = """
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'last_seen') ~= ARGV[2] then return 0 end
redis.call('SREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])
"""

# KEYS: entry, link. ARGV: channel, identity, created. 1 if linked (now or before).
LINK = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('EXISTS', KEYS[2]) == 0 then
  redis.call('HSET', KEYS[2], 'channel', ARGV[1], 'identity', ARGV[2], 'created', ARGV[3])
end
return 1
"""

# KEYS: entry, turns. ARGV: packed turn. Its sequence number, 0 without the conversation.
TURN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('RPUSH', KEYS[2], ARGV[1])
"""

# KEYS: identity. ARGV: field, old, new. 1 if swapped.
RESEAL = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

# KEYS: turns. ARGV: index (0-based), old packed, new packed. 1 if swapped.
RESEAL_TURN = """
if redis.call('LINDEX', KEYS[1], tonumber(ARGV[1])) ~= ARGV[2] then return 0 end
redis.call('LSET', KEYS[1], tonumber(ARGV[1]), ARGV[3])
return 1
"""

_SCRIPTS = {
    "RESEAL": RESEAL,
    "RESEAL_TURN": RESEAL_TURN,
    "CLAIM": CLAIM,
    "MOVE": MOVE,
    "TOUCH": TOUCH,
    "CONTACT": CONTACT,
    "MEMORY": MEMORY,
    "DROP": DROP,
    "LINK": LINK,
    "TURN": TURN,
}


def _identity(fields: dict[bytes, bytes]) -> contract.IdentityRecord:
    return contract.IdentityRecord(
        account=fields[b"account"].decode(),
        identity=fields[b"identity"].decode(),
        channel=fields[b"channel"].decode(),
        sender=fields[b"sender"],
        created=from_micros(int(fields[b"created"])),
        last_seen=from_micros(int(fields[b"last_seen"])),
        convid=fields.get(b"convid", b"").decode(),
        contact=fields.get(b"contact"),
        contact_hash=fields.get(b"contact_hash", b"").decode(),
        memory=fields.get(b"memory"),
        memory_version=int(fields.get(b"memory_version", b"0")),
    )


def _fields(reply: list[bytes] | dict[bytes, bytes]) -> dict[bytes, bytes]:
    if isinstance(reply, dict):
        return reply
    return dict(zip(reply[::2], reply[1::2], strict=True))


class RedisChannelRecords(contract.ChannelRecords):
    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._redis = store.client
        self._prefix = store.prefix
        self._scripts = {name: self._redis.register_script(text) for name, text in _SCRIPTS.items()}

    @contextmanager
    def _errors(self) -> Iterator[None]:
        with self._store.errors():
            yield

    def _tag(self, account: str) -> str:
        return f"{self._prefix}:chan:{{{q(account)}}}"

    def _id_key(self, account: str, identity: str) -> str:
        return f"{self._tag(account)}:id:{q(identity)}"

    def _conv(self, account: str, convid: str) -> tuple[str, str, str]:
        entry = conv_keys(self._prefix, account, convid)[0]
        base = entry[: -len("entry")]
        return entry, base + "link", base + "turns"

    def _accounts(self) -> list[str]:
        from urllib.parse import unquote

        found = set()
        for key in self._redis.scan_iter(match=f"{self._prefix}:chan:*", count=500):
            tag = key.decode().split("{", 1)[1].split("}", 1)[0]
            found.add(unquote(tag))
        return sorted(found)

    # --- identities --------------------------------------------------------------------------

    def claim_identity(self, record: contract.IdentityRecord) -> contract.IdentityRecord:
        r = record
        pairs: list[object] = [
            "account", r.account, "identity", r.identity, "channel", r.channel,
            "sender", r.sender, "created", to_micros(r.created),
            "last_seen", to_micros(r.last_seen), "convid", r.convid,
            "contact_hash", r.contact_hash, "memory_version", r.memory_version,
        ]  # fmt: skip
        if r.contact is not None:
            pairs += ["contact", r.contact]
        if r.memory is not None:
            pairs += ["memory", r.memory]
        keys = [self._id_key(r.account, r.identity), f"{self._tag(r.account)}:ids"]
        with self._errors():
            reply = self._scripts["CLAIM"](keys=keys, args=[r.identity, *pairs])
        return _identity(_fields(reply))

    def get_identity(self, account: str, identity: str) -> contract.IdentityRecord | None:
        with self._errors():
            fields = self._redis.hgetall(self._id_key(account, identity))
        return _identity(fields) if fields else None

    def list_identities(self, account: str | None = None) -> list[contract.IdentityRecord]:
        accounts = [account] if account is not None else self._accounts()
        found: list[contract.IdentityRecord] = []
        with self._errors():
            for name in accounts:
                for member in self._redis.smembers(f"{self._tag(name)}:ids"):
                    record = self.get_identity(name, member.decode())
                    if record is not None:
                        found.append(record)
        return found

    def move_identity(
        self, account: str, identity: str, *, expected_convid: str, convid: str, now: datetime
    ) -> bool:
        with self._errors():
            return bool(
                self._scripts["MOVE"](
                    keys=[self._id_key(account, identity)],
                    args=[expected_convid, convid, to_micros(now)],
                )
            )

    def touch_identity(self, account: str, identity: str, now: datetime) -> bool:
        with self._errors():
            return bool(
                self._scripts["TOUCH"](
                    keys=[self._id_key(account, identity)], args=[to_micros(now)]
                )
            )

    def set_contact(
        self, account: str, identity: str, *, contact: bytes | None, contact_hash: str
    ) -> bool:
        args: list[object] = ["1" if contact is not None else "0", contact or b"", contact_hash]
        with self._errors():
            return bool(self._scripts["CONTACT"](keys=[self._id_key(account, identity)], args=args))

    def save_memory(
        self, account: str, identity: str, *, expected_version: int, memory: bytes
    ) -> int:
        with self._errors():
            version = int(
                self._scripts["MEMORY"](
                    keys=[self._id_key(account, identity)], args=[expected_version, memory]
                )
            )
        if version < 0:
            raise VersionConflict(
                f"the memory of identity {identity} is no longer at version {expected_version}"
            )
        return version

    def delete_identity(
        self, account: str, identity: str, *, last_seen: datetime | None = None
    ) -> bool:
        keys = [self._id_key(account, identity), f"{self._tag(account)}:ids"]
        seen = "" if last_seen is None else str(to_micros(last_seen))
        with self._errors():
            return bool(self._scripts["DROP"](keys=keys, args=[identity, seen]))

    # --- conversations -----------------------------------------------------------------------

    def link_conversation(self, link: contract.ConversationLink) -> bool:
        entry, link_key, _ = self._conv(link.account, link.convid)
        with self._errors():
            linked = bool(
                self._scripts["LINK"](
                    keys=[entry, link_key],
                    args=[link.channel, link.identity, to_micros(link.created)],
                )
            )
            if linked:
                self._redis.sadd(f"{self._tag(link.account)}:links", link.convid)
        return linked

    def get_link(self, account: str, convid: str) -> contract.ConversationLink | None:
        _, link_key, _ = self._conv(account, convid)
        with self._errors():
            fields = self._redis.hgetall(link_key)
        if not fields:
            return None
        return contract.ConversationLink(
            account,
            convid,
            fields[b"channel"].decode(),
            fields[b"identity"].decode(),
            from_micros(int(fields[b"created"])),
        )

    def links(self, account: str | None = None) -> list[contract.ConversationLink]:
        accounts = [account] if account is not None else self._accounts()
        found: list[contract.ConversationLink] = []
        with self._errors():
            for name in accounts:
                index = f"{self._tag(name)}:links"
                for member in self._redis.smembers(index):
                    link = self.get_link(name, member.decode())
                    if link is None:
                        self._redis.srem(index, member)  # deleted with its conversation
                    else:
                        found.append(link)
        return found

    def add_turn(self, account: str, convid: str, at: datetime, record: bytes) -> int:
        entry, _, turns = self._conv(account, convid)
        packed = str(to_micros(at)).encode() + b":" + record
        with self._errors():
            return int(self._scripts["TURN"](keys=[entry, turns], args=[packed]))

    def turns(self, account: str, convid: str) -> list[contract.TurnRecord]:
        _, _, turns = self._conv(account, convid)
        with self._errors():
            items = self._redis.lrange(turns, 0, -1)
        found = []
        for seq, item in enumerate(items, start=1):
            micros, _, record = item.partition(b":")
            found.append(
                contract.TurnRecord(account, convid, seq, from_micros(int(micros)), record)
            )
        return found

    def forget_conversation(self, account: str, convid: str) -> None:
        _, link_key, turns = self._conv(account, convid)
        with self._errors():
            self._redis.delete(link_key, turns)
            self._redis.srem(f"{self._tag(account)}:links", convid)

    # --- key rotation ------------------------------------------------------------------------

    def reseal_identity(
        self, account: str, identity: str, field: contract.SealedField, old: bytes, new: bytes
    ) -> bool:
        if field not in contract.SEALED_FIELDS:
            raise ValueError(f"not an encrypted field: {field!r}")
        with self._errors():
            return bool(
                self._scripts["RESEAL"](
                    keys=[self._id_key(account, identity)], args=[field, old, new]
                )
            )

    def reseal_turn(self, account: str, convid: str, seq: int, old: bytes, new: bytes) -> bool:
        _, _, turns = self._conv(account, convid)
        with self._errors():
            stored = self._redis.lindex(turns, seq - 1)
            if stored is None:
                return False
            micros = stored.partition(b":")[0]
            return bool(
                self._scripts["RESEAL_TURN"](
                    keys=[turns], args=[seq - 1, micros + b":" + old, micros + b":" + new]
                )
            )
