"""Configuration versions in the Redis database of a ``RedisStore`` (same client, same prefix).

Keys of one scope share a hash tag, so a commit (one Lua script) touches one cluster slot:

- ``{prefix}:cfg:{<scope>}:heads``: hash, agent -> revision, and ``*`` -> the scope's revision;
- ``{prefix}:cfg:{<scope>}:v:<agent>/<section>``: hash, ``b<revision>`` -> blob and
  ``m<revision>`` -> ``<created µs> <origin>``.

The script checks the agent's revision, raises both revisions, writes the versions and prunes
each section to the most recent ``keep``, all at once (Redis runs a script atomically).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mock_account.stores.codec import from_micros, to_micros
from mock_account.stores.config_versions import (
    ACCOUNT_ROW,
    SECTIONS,
    ConfigCommit,
    ConfigVersionStore,
    StoredVersion,
)
from mock_account.stores.redis.layout import q

if TYPE_CHECKING:
    from mock_account.stores.redis.store import RedisStore

# KEYS: heads, then one versions hash per new version. ARGV: agent, base, keep, created,
# scope row, then (revision, origin, blob) per new version.
COMMIT = """
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if current ~= tonumber(ARGV[2]) then return -1 end
local revision = current + 1
redis.call('HSET', KEYS[1], ARGV[1], revision)
redis.call('HINCRBY', KEYS[1], ARGV[5], 1)
local keep = tonumber(ARGV[3])
for i = 2, #KEYS do
  local base = 6 + (i - 2) * 3
  redis.call('HSET', KEYS[i], 'b' .. ARGV[base], ARGV[base + 2],
             'm' .. ARGV[base], ARGV[4] .. ' ' .. ARGV[base + 1])
end
for i = 2, #KEYS do
  local revisions = {}
  for _, field in ipairs(redis.call('HKEYS', KEYS[i])) do
    if string.sub(field, 1, 1) == 'b' then
      table.insert(revisions, tonumber(string.sub(field, 2)))
    end
  end
  table.sort(revisions, function(a, b) return a > b end)
  for j = keep + 1, #revisions do
    redis.call('HDEL', KEYS[i], 'b' .. revisions[j], 'm' .. revisions[j])
  end
end
return revision
"""

# KEYS: the versions hash. ARGV: field, old blob, new blob.
REPLACE = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


class RedisConfigStore(ConfigVersionStore):
    """Versions in the conversation store's Redis database."""

    def __init__(self, conversation_store: RedisStore) -> None:
        self._store = conversation_store
        self._redis = conversation_store.client
        self._prefix = conversation_store.prefix
        self._commit = self._redis.register_script(COMMIT)
        self._replace = self._redis.register_script(REPLACE)

    def _heads(self, scope: str) -> str:
        return f"{self._prefix}:cfg:{{{q(scope)}}}:heads"

    def _versions_key(self, scope: str, agent: str, section: str) -> str:
        return f"{self._prefix}:cfg:{{{q(scope)}}}:v:{q(agent)}/{q(section)}"

    def scope_revision(self, scope: str) -> int:
        with self._store.errors():
            value = self._redis.hget(self._heads(scope), ACCOUNT_ROW)
        return int(value or 0)

    def agent_revisions(self, scope: str) -> dict[str, int]:
        with self._store.errors():
            fields = self._redis.hgetall(self._heads(scope))
        return {k.decode(): int(v) for k, v in fields.items() if k.decode() != ACCOUNT_ROW}

    def commit_versions(self, commit: ConfigCommit) -> int:
        scope, agent, base_revision = commit.scope, commit.agent, commit.base_revision
        created = to_micros(commit.created)
        keys = [self._heads(scope)] + [
            self._versions_key(scope, agent, v.section) for v in commit.versions
        ]
        args: list[object] = [agent, base_revision, commit.keep, created, ACCOUNT_ROW]
        for v in commit.versions:
            args.extend([v.revision, v.origin, v.blob])
        with self._store.errors():
            revision = int(self._commit(keys=keys, args=args))
        if revision < 0:
            raise commit.conflict()
        return revision

    def _read(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        with self._store.errors():
            fields = self._redis.hgetall(self._versions_key(scope, agent, section))
        found = []
        for key, blob in fields.items():
            if not key.startswith(b"b"):
                continue
            revision = int(key[1:])
            created, origin = fields[b"m" + key[1:]].decode().split(" ", 1)
            found.append(
                StoredVersion(agent, section, revision, from_micros(int(created)), origin, blob)
            )
        return sorted(found, key=lambda v: -v.revision)

    def history(self, scope: str, agent: str, section: str) -> list[StoredVersion]:
        return self._read(scope, agent, section)

    def latest(self, scope: str) -> list[StoredVersion]:
        found = []
        for agent in sorted(self.agent_revisions(scope)):
            for section in SECTIONS:
                kept = self._read(scope, agent, section)
                if kept:
                    found.append(kept[0])
        return found

    def all_versions(self, scope: str) -> list[StoredVersion]:
        return [
            version
            for agent in sorted(self.agent_revisions(scope))
            for section in SECTIONS
            for version in reversed(self._read(scope, agent, section))
        ]

    def replace_blob(
        self, scope: str, agent: str, section: str, revision: int, old: bytes, new: bytes
    ) -> bool:
        key = self._versions_key(scope, agent, section)
        with self._store.errors():
            return bool(self._replace(keys=[key], args=[f"b{revision}", old, new]))
