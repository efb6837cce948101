"""Per-user listing index of the Redis conversation store.

Two sorted sets per user (unpinned ``recent`` and ``pinned``), scored by last_used in
microseconds, so Redis returns them in listing order: score descending, then member (convid)
descending. Reads are checked against the entries; members whose entry is gone or has moved are
skipped and repaired, which heals the index if a writer died between its two steps.
"""

from __future__ import annotations

import redis

from mock_account.stores.base import ConversationEntry
from mock_account.stores.codec import to_micros
from mock_account.stores.redis import scripts as redis_scripts
from mock_account.stores.redis.layout import (
    Fields,
    as_fields,
    conv_keys,
    entry_of,
    user_keys,
    user_of_key,
)

_BATCH = 200


def _score(raw: bytes | float) -> int:
    return int(float(raw))


class UserIndex:
    """Keeps and reads the per-user sorted sets of one store prefix."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self._redis = client
        self._prefix = prefix
        self._sync = client.register_script(redis_scripts.INDEX_SYNC)
        self._remove = client.register_script(redis_scripts.INDEX_REMOVE)

    def sync(self, fields: Fields) -> None:
        """Index the entry an entry hash holds, unless a newer change is indexed already."""
        entry = entry_of(fields)
        if entry is not None:
            self._sync(
                keys=user_keys(self._prefix, entry.account, entry.owner),
                args=[entry.convid, fields[b"rev"], int(entry.pinned), to_micros(entry.last_used)],
            )

    def remove(self, account: str, owner: str, convid: str, rev: bytes) -> None:
        """Drop a member, unless it was indexed after ``rev`` (re-created since)."""
        self._remove(keys=user_keys(self._prefix, account, owner), args=[convid, rev])

    def count_pinned(self, account: str, owner: str) -> int:
        return int(self._redis.zcard(user_keys(self._prefix, account, owner)[1]))

    def _fetch(self, account: str, convids: list[str]) -> list[Fields]:
        pipe = self._redis.pipeline(transaction=False)
        for convid in convids:
            pipe.hgetall(conv_keys(self._prefix, account, convid)[0])
        return [as_fields(reply) for reply in pipe.execute()]

    def listed(
        self,
        account: str,
        owner: str,
        *,
        pinned: bool,
        position: tuple[int, str] | None,
        want: int | None,
        _repaired: bool = False,
    ) -> list[ConversationEntry]:
        """Up to ``want`` (or all) entries of one set in listing order, after ``position``."""
        recent, pinned_key, revs = user_keys(self._prefix, account, owner)
        key = pinned_key if pinned else recent
        top = "+inf" if position is None else position[0]
        found: list[ConversationEntry] = []
        ghosts: list[str] = []
        moved: list[Fields] = []
        offset = 0
        while want is None or len(found) < want:
            # A page reads about what it shows (one more, for a member at the cursor's own
            # score), not a whole batch: each member read costs an entry fetched with it.
            num = _BATCH if want is None else min(_BATCH, want - len(found) + 1)
            batch = self._redis.zrevrangebyscore(
                key, top, "-inf", start=offset, num=num, withscores=True, score_cast_func=_score
            )
            offset += len(batch)
            members = [(m.decode(), s) for m, s in batch]
            if position is not None:
                members = [(c, s) for c, s in members if (s, c) < position]
            convids = [c for c, _ in members]
            for (convid, score), fields in zip(members, self._fetch(account, convids), strict=True):
                entry = entry_of(fields)
                if entry is None or entry.owner != owner:
                    ghosts.append(convid)
                elif entry.pinned != pinned or to_micros(entry.last_used) != score:
                    moved.append(fields)
                else:
                    found.append(entry)
            if len(batch) < num:
                break
        self._repair(account, owner, revs, ghosts, moved)
        if moved and not _repaired:
            # A moved member was left out of this read; now that it sits at its right place,
            # read once more so this listing already includes it.
            return self.listed(
                account, owner, pinned=pinned, position=position, want=want, _repaired=True
            )
        return found if want is None else found[:want]

    def _repair(
        self, account: str, owner: str, revs: str, ghosts: list[str], moved: list[Fields]
    ) -> None:
        # After the scan, so repairs cannot shift the offsets of the pages being read.
        for convid in ghosts:
            self.remove(account, owner, convid, self._redis.hget(revs, convid) or b"0")
        for fields in moved:
            self.sync(fields)

    def check(self, entries: list[ConversationEntry]) -> list[str]:
        """Differences between the entries and the indexes (on a store nobody is writing to)."""
        problems: list[str] = []
        for e in entries:
            recent, pinned, _ = user_keys(self._prefix, e.account, e.owner)
            (inside, right), (outside, wrong) = (
                ((pinned, "pinned"), (recent, "recent"))
                if e.pinned
                else ((recent, "recent"), (pinned, "pinned"))
            )
            where = f"conversation {e.convid!r} of account {e.account!r}"
            score = self._redis.zscore(inside, e.convid)
            if score is None:
                problems.append(f"{where}: missing from the {right} list")
            elif int(score) != to_micros(e.last_used):
                problems.append(f"{where}: listed with a stale last_used")
            if self._redis.zscore(outside, e.convid) is not None:
                problems.append(f"{where}: listed among the {wrong} conversations")
        known = {(e.account, e.owner, e.convid) for e in entries}
        for kind in ("recent", "pinned"):
            pattern = f"{self._prefix}:user:*:{kind}"
            for key in self._redis.scan_iter(match=pattern, count=_BATCH):
                account, owner = user_of_key(key)
                for member in self._redis.zrange(key, 0, -1):
                    if (account, owner, member.decode()) not in known:
                        problems.append(
                            f"index {key.decode()} lists {member.decode()!r} without entry"
                        )
        return problems
