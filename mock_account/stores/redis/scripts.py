"""Lua scripts of the Redis conversation store (each runs atomically on the server).

Conversation scripts touch one conversation's keys (``entry`` hash, ``state`` string), which
share a cluster slot through their hash tag; ``COMMIT`` also updates the owner's index in the
same script (two slots: the store needs one Redis server, as its plain client does). Each
successful change stamps the entry with ``rev``, a per-conversation number that always grows
(server time in microseconds, at least previous + 1).

Index scripts touch only one user's keys (``recent`` and ``pinned`` sorted sets scored by
last_used, and ``revs``, the rev each member was indexed at). They apply a change only if its rev
is newer than the indexed one, so index updates arriving out of order still converge on the
latest entry.

The other conversation scripts return the entry as a flat HGETALL list, or nil when the
conversation is missing or the compare-and-swap failed.
"""

from __future__ import annotations

# Shared prologue: compute the next rev of the conversation whose entry is KEYS[1].
_NEXT_REV = """
local t = redis.call('TIME')
local rev = tonumber(t[1]) * 1000000 + tonumber(t[2])
local previous = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if rev <= previous then rev = previous + 1 end
rev = string.format('%.0f', rev)
"""


def _index_step(recent: int) -> str:
    """Index ``convid`` at ``rev`` (Lua locals, with ``pinned`` and its score ``used``) unless a
    newer rev is indexed; KEYS[recent], KEYS[recent + 1] and KEYS[recent + 2] are the user's
    recent, pinned and revs. Sets the local ``applied``."""
    keys = [f"KEYS[{recent + i}]" for i in range(3)]
    return f"""
local applied = 0
local indexed = redis.call('HGET', {keys[2]}, convid)
if not indexed or tonumber(indexed) < tonumber(rev) then
  redis.call('HSET', {keys[2]}, convid, rev)
  local into, out = {keys[0]}, {keys[1]}
  if pinned == '1' then into, out = {keys[1]}, {keys[0]} end
  redis.call('ZREM', out, convid)
  redis.call('ZADD', into, used, convid)
  applied = 1
end
"""


# KEYS: entry, state, and the owner's recent, pinned, revs. ARGV: expected, account, convid,
# owner, now, title, has_blob, blob, agent. Returns 1, or nil when the compare-and-swap failed.
# The save and its index update are one script: one round trip, and no moment where the entry
# is saved and the listing not yet.
COMMIT = (
    """
local expected = tonumber(ARGV[1])
if expected == 0 then
  if redis.call('EXISTS', KEYS[1]) == 1 then return nil end
else
  local cur = redis.call('HMGET', KEYS[1], 'version', 'owner')
  if not cur[1] or tonumber(cur[1]) ~= expected or cur[2] ~= ARGV[4] then return nil end
end
"""
    + _NEXT_REV
    + """
if expected == 0 then
  redis.call('HSET', KEYS[1], 'account', ARGV[2], 'convid', ARGV[3], 'owner', ARGV[4],
             'title', ARGV[6], 'created', ARGV[5], 'last_read', ARGV[5], 'pinned', '0')
end
redis.call('HSET', KEYS[1], 'version', string.format('%d', expected + 1),
           'last_executed', ARGV[5], 'rev', rev, 'agent', ARGV[9])
if ARGV[7] == '1' then redis.call('SET', KEYS[2], ARGV[8]) else redis.call('DEL', KEYS[2]) end
local convid = ARGV[3]
local kept = redis.call('HMGET', KEYS[1], 'pinned', 'last_read')
local pinned = kept[1]
-- Scores stay strings: a Lua number of 16 digits would be written in exponent form.
local used = ARGV[5]
if tonumber(kept[2]) > tonumber(used) then used = kept[2] end
"""
    + _index_step(3)
    + """
return 1
"""
)

# KEYS: entry. ARGV: title ('' = keep, else 't' .. title), pinned ('' = keep, '0', '1'),
# last_read ('' = keep, else microseconds).
UPDATE = (
    """
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
"""
    + _NEXT_REV
    + """
if ARGV[1] ~= '' then redis.call('HSET', KEYS[1], 'title', string.sub(ARGV[1], 2)) end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'pinned', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'last_read', ARGV[3]) end
redis.call('HSET', KEYS[1], 'rev', rev)
return redis.call('HGETALL', KEYS[1])
"""
)

# KEYS: entry, state. ARGV: expected, blob.
REPLACE = (
    """
local version = redis.call('HGET', KEYS[1], 'version')
if not version or tonumber(version) ~= tonumber(ARGV[1]) then return nil end
"""
    + _NEXT_REV
    + """
redis.call('HSET', KEYS[1], 'version', string.format('%d', tonumber(ARGV[1]) + 1), 'rev', rev)
redis.call('SET', KEYS[2], ARGV[2])
return redis.call('HGETALL', KEYS[1])
"""
)

# KEYS: entry, state, idempotency set. Returns the entry as it was before deletion. The
# conversation's channel link and turn records (``mock_account.channels``, same hash tag) go
# with it.
DELETE = """
local entry = redis.call('HGETALL', KEYS[1])
local base = string.sub(KEYS[1], 1, -6)
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], base .. 'link', base .. 'turns')
if #entry == 0 then return nil end
return entry
"""

# KEYS: recent, pinned, revs. ARGV: convid, rev, pinned ('0'/'1'), score (last_used).
INDEX_SYNC = (
    """
local convid, rev, pinned, used = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
"""
    + _index_step(1)
    + """
return applied
"""
)

# KEYS: recent, pinned, revs. ARGV: convid, rev. Removes the member unless indexed at a newer rev
# (a conversation re-created under the same id after the deletion).
INDEX_REMOVE = """
local indexed = redis.call('HGET', KEYS[3], ARGV[1])
if indexed and tonumber(indexed) > tonumber(ARGV[2]) then return 0 end
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""

# KEYS: idempotency hash. ARGV: account, convid, record, expires, now (microseconds), ttl (ms).
# Stores the record unless a live one is there (returned as account, convid, record, expires).
# The key also expires by itself ttl ms later (server time), so an idle store is cleaned too.
REMEMBER = """
local stored = redis.call('HMGET', KEYS[1], 'account', 'convid', 'record', 'expires')
if stored[3] and tonumber(stored[4]) > tonumber(ARGV[5]) then return stored end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'account', ARGV[1], 'convid', ARGV[2], 'record', ARGV[3],
           'expires', ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return nil
"""

# KEYS: the conversation's set of idempotency keys. ARGV: idempotency key, ttl (ms). The set
# lives as long as the longest-lived record it names.
NOTE_IDEMPOTENCY = """
local ttl = redis.call('PTTL', KEYS[1])
redis.call('SADD', KEYS[1], ARGV[1])
if ttl < tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: idempotency hash. ARGV: now (microseconds). Deletes the record if it expired by then
# and returns its account and convid (nil otherwise).
PURGE = """
local found = redis.call('HMGET', KEYS[1], 'expires', 'account', 'convid')
if found[1] and tonumber(found[1]) <= tonumber(ARGV[1]) then
  redis.call('DEL', KEYS[1])
  return {found[2], found[3]}
end
return nil
"""
