"""Workflow records in the Redis database of a ``RedisStore``, under its key prefix.

{prefix}:wf:{account}:progress:<identity>:<workflow>   hash: version, blob, updated
{prefix}:wf:{account}:workflows:<identity>              set: the identity's workflows
{prefix}:wf:{account}:action:<action id>                hash: identity, status, blob, times
{prefix}:wf:{account}:actions                           sorted set: action ids by creation
{prefix}:wf:{account}:out:<action id>                   hash: identity, blob, delivered
{prefix}:wf:{account}:outbox                            sorted set: action ids by delivery
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from mock_account.stores import workflow_records as contract
from mock_account.stores.codec import from_micros, to_micros, utc
from mock_account.stores.errors import StoreError

if TYPE_CHECKING:
    from mock_account.stores.redis.store import RedisStore

_SAVE_PROGRESS = """
local current = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
redis.call('HSET', KEYS[1], 'version', current + 1, 'blob', ARGV[2], 'updated', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[4])
return current + 1
"""
_ADD_ACTION = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'identity', ARGV[1], 'status', ARGV[2], 'blob', ARGV[3],
           'created', ARGV[4], 'updated', ARGV[4])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[5])
return 1
"""
_MOVE_ACTION = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return 0 end
for i = 4, #ARGV do
  if ARGV[i] == status then
    redis.call('HSET', KEYS[1], 'status', ARGV[1], 'updated', ARGV[2])
    if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'blob', ARGV[3]) end
    return 1
  end
end
return 0
"""
_FORGET_IDENTITY = """
local function q(s)
  return (string.gsub(s, '[^%w%-%._~]', function(c)
    return string.format('%%%02X', string.byte(c))
  end))
end
local identity, base = ARGV[1], ARGV[2]
local removed = 0
for _, workflow in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  removed = removed + redis.call('DEL', base .. ':progress:' .. q(identity) .. ':' .. q(workflow))
end
redis.call('DEL', KEYS[1])
for _, index in ipairs({{KEYS[2], ':action:'}, {KEYS[3], ':out:'}}) do
  for _, id in ipairs(redis.call('ZRANGE', index[1], 0, -1)) do
    local key = base .. index[2] .. q(id)
    if redis.call('HGET', key, 'identity') == identity then
      removed = removed + redis.call('DEL', key)
      redis.call('ZREM', index[1], id)
    end
  end
end
return removed
"""
_DELIVER = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'identity', ARGV[1], 'blob', ARGV[2], 'delivered', ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""


class RedisWorkflowStore(contract.WorkflowStore):
    """Hashes under the conversation store's prefix; each write is one Lua script (atomic).

    Every key of one account shares the hash tag ``{account}``, so a script's keys are in one
    slot. Blobs are encrypted before they get here (an empty blob is never written).
    """

    def __init__(self, store: RedisStore) -> None:
        self._store = store
        self._redis = store.client
        self._prefix = store.prefix
        self._scripts = {
            name: self._redis.register_script(code)
            for name, code in (
                ("save", _SAVE_PROGRESS),
                ("add", _ADD_ACTION),
                ("move", _MOVE_ACTION),
                ("deliver", _DELIVER),
                ("forget", _FORGET_IDENTITY),
            )
        }

    def _k(self, account: str, *parts: str) -> str:
        return ":".join(
            [f"{self._prefix}:wf:{{{quote(account, safe='')}}}"]
            + [quote(p, safe="") for p in parts]
        )

    @contextmanager
    def _errors(self) -> Iterator[None]:
        with self._store.errors():
            yield

    def load_progress(
        self, account: str, identity: str, workflow: str
    ) -> contract.ProgressRecord | None:
        with self._errors():
            fields = self._redis.hgetall(self._k(account, "progress", identity, workflow))
        if not fields:
            return None
        return contract.ProgressRecord(
            account,
            identity,
            workflow,
            int(fields[b"version"]),
            fields[b"blob"],
            from_micros(int(fields[b"updated"])),
        )

    def commit_progress(self, save: contract.ProgressSave) -> contract.ProgressRecord:
        account, identity, workflow = save.account, save.identity, save.workflow
        with self._errors():
            version = self._scripts["save"](
                keys=[
                    self._k(account, "progress", identity, workflow),
                    self._k(account, "workflows", identity),
                ],
                args=[save.expected_version, save.blob, to_micros(save.now), workflow],
            )
        if int(version) < 0:
            raise save.conflict()
        return contract.ProgressRecord(
            account, identity, workflow, int(version), save.blob, utc(save.now)
        )

    def list_progress(self, account: str, identity: str) -> list[contract.ProgressRecord]:
        with self._errors():
            names = sorted(
                m.decode() for m in self._redis.smembers(self._k(account, "workflows", identity))
            )
        found = [self.load_progress(account, identity, name) for name in names]
        return [r for r in found if r is not None]

    def _action_of(self, account: str, action_id: str, fields: dict) -> contract.ActionRecord:
        return contract.ActionRecord(
            account,
            action_id,
            fields[b"identity"].decode(),
            fields[b"status"].decode(),
            fields[b"blob"],
            from_micros(int(fields[b"created"])),
            from_micros(int(fields[b"updated"])),
        )

    def add_action(
        self, account: str, action_id: str, identity: str, status: str, blob: bytes, now: datetime
    ) -> tuple[contract.ActionRecord, bool]:
        contract.check_names(account=account, action_id=action_id, identity=identity, status=status)
        with self._errors():
            created = self._scripts["add"](
                keys=[self._k(account, "action", action_id), self._k(account, "actions")],
                args=[identity, status, bytes(blob), to_micros(now), action_id],
            )
        record = self.get_action(account, action_id)
        if record is None:
            raise StoreError(f"action {action_id!r} vanished right after it was written")
        return record, bool(int(created))

    def get_action(self, account: str, action_id: str) -> contract.ActionRecord | None:
        with self._errors():
            fields = self._redis.hgetall(self._k(account, "action", action_id))
        return self._action_of(account, action_id, fields) if fields else None

    def commit_move(self, move: contract.ActionMove) -> contract.ActionRecord | None:
        with self._errors():
            moved = self._scripts["move"](
                keys=[self._k(move.account, "action", move.action_id)],
                args=[
                    move.to_status,
                    to_micros(move.now),
                    b"" if move.blob is None else move.blob,
                    *move.from_statuses,
                ],
            )
        return self.get_action(move.account, move.action_id) if int(moved) else None

    def list_actions(
        self, account: str, identity: str | None = None, statuses: Iterable[str] | None = None
    ) -> list[contract.ActionRecord]:
        wanted = None if statuses is None else set(statuses)
        with self._errors():
            ids = [m.decode() for m in self._redis.zrevrange(self._k(account, "actions"), 0, -1)]
            # One round trip for all the actions rather than one each: every recovery reads
            # the whole ledger.
            pipe = self._redis.pipeline(transaction=False)
            for action_id in ids:
                pipe.hgetall(self._k(account, "action", action_id))
            hashes = pipe.execute()
        found = []
        for action_id, fields in zip(ids, hashes, strict=True):
            if not fields:
                continue
            record = self._action_of(account, action_id, fields)
            if identity is not None and record.identity != identity:
                continue
            if wanted is not None and record.status not in wanted:
                continue
            found.append(record)
        return sorted(found, key=lambda r: (r.created, r.action_id), reverse=True)

    def deliver(
        self, account: str, action_id: str, identity: str, blob: bytes, now: datetime
    ) -> bool:
        contract.check_names(account=account, action_id=action_id, identity=identity)
        with self._errors():
            created = self._scripts["deliver"](
                keys=[self._k(account, "out", action_id), self._k(account, "outbox")],
                args=[identity, bytes(blob), to_micros(now), action_id],
            )
        return bool(int(created))

    def list_outbox(self, account: str, identity: str | None = None) -> list[contract.OutboxRecord]:
        with self._errors():
            ids = [m.decode() for m in self._redis.zrevrange(self._k(account, "outbox"), 0, -1)]
            found = []
            for action_id in ids:
                fields = self._redis.hgetall(self._k(account, "out", action_id))
                if not fields or (
                    identity is not None and fields[b"identity"].decode() != identity
                ):
                    continue
                found.append(
                    contract.OutboxRecord(
                        account,
                        action_id,
                        fields[b"identity"].decode(),
                        fields[b"blob"],
                        from_micros(int(fields[b"delivered"])),
                    )
                )
        return sorted(found, key=lambda r: (r.delivered, r.action_id), reverse=True)

    def _accounts(self) -> list[str]:
        """Every account with workflow records (from the keys of their indexes)."""
        found: set[str] = set()
        with self._errors():
            for pattern in (f"{self._prefix}:wf:*:actions", f"{self._prefix}:wf:*:outbox"):
                for key in self._redis.scan_iter(match=pattern, count=500):
                    found.add(unquote(key.decode().split("{", 1)[1].split("}", 1)[0]))
            for key in self._redis.scan_iter(match=f"{self._prefix}:wf:*:workflows:*", count=500):
                found.add(unquote(key.decode().split("{", 1)[1].split("}", 1)[0]))
        return sorted(found)

    def all_progress(self) -> list[contract.ProgressRecord]:
        found: list[contract.ProgressRecord] = []
        for account in self._accounts():
            with self._errors():
                keys = list(
                    self._redis.scan_iter(match=self._k(account, "workflows") + ":*", count=500)
                )
            for key in keys:
                identity = unquote(key.decode().rsplit(":", 1)[1])
                found.extend(self.list_progress(account, identity))
        return found

    def all_actions(self) -> list[contract.ActionRecord]:
        return [r for account in self._accounts() for r in self.list_actions(account)]

    def all_outbox(self) -> list[contract.OutboxRecord]:
        return [r for account in self._accounts() for r in self.list_outbox(account)]

    def replace_outbox_blob(self, account: str, action_id: str, blob: bytes) -> bool:
        key = self._k(account, "out", action_id)
        with self._errors():
            if not self._redis.exists(key):
                return False
            self._redis.hset(key, "blob", bytes(blob))
        return True

    def forget_identity(self, account: str, identity: str) -> int:
        """One script (atomic): the identity's progress keys from its set of workflows, and
        its actions and outbox records found by reading the account's two indexes (the keys
        are built in the script with the same quoting as ``_k``, all under the account's tag)."""
        contract.check_names(account=account, identity=identity)
        with self._errors():
            removed = self._scripts["forget"](
                keys=[
                    self._k(account, "workflows", identity),
                    self._k(account, "actions"),
                    self._k(account, "outbox"),
                ],
                args=[identity, self._k(account)],
            )
        return int(removed)
