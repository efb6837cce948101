"""Keys: the key-source protocol and the in-memory keyring.

A key source is an ordered list of 32-byte account keys, each under a key id; the last one is
*current* and encrypts new records, the older ones keep decrypting what they encrypted.  Two
sources implement :class:`KeySource`: :class:`Keyring` (managed keys, persisted by
``keyfile``) and ``hooks.EnterpriseKeySource`` (keys fetched from the customer's key hook).

Key ids travel in clear inside every record, so they are short ASCII names
(``^[A-Za-z0-9_-]{1,64}$``) and never secret.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from mock_account.crypto.errors import InvalidRecord, KeyringError

KEY_SIZE = 32
"""Account keys are AES-256 keys: exactly 32 bytes."""

KEY_ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""What a key id (or an enterprise key name) looks like; matched with ``fullmatch``."""


def check_key_id(key_id: object) -> str:
    """Return ``key_id`` if it is a valid key id, else raise :class:`KeyringError`."""
    # fullmatch, not match with "$": "$" would accept a trailing newline.
    if not isinstance(key_id, str) or KEY_ID_PATTERN.fullmatch(key_id) is None:
        raise KeyringError(
            f"key id {key_id!r} is invalid: use 1 to 64 characters among A-Z a-z 0-9 _ -"
        )
    return key_id


def check_key(key_id: str, key: object) -> bytes:
    """Return ``key`` as bytes if it is a 32-byte key, else raise :class:`KeyringError`."""
    if not isinstance(key, bytes | bytearray | memoryview):
        raise KeyringError(f"key {key_id!r} must be bytes, not {type(key).__name__}")
    key = bytes(key)
    if len(key) != KEY_SIZE:
        # The length is safe to report; the bytes never are.
        raise KeyringError(f"key {key_id!r} must be {KEY_SIZE} bytes, found {len(key)}")
    return key


@runtime_checkable
class KeySource(Protocol):
    """Where a cipher gets its account keys."""

    def current_key_id(self) -> str:
        """The id of the key that encrypts new records."""
        ...

    def key(self, key_id: str) -> bytes:
        """The 32-byte key for ``key_id``; :class:`InvalidRecord` if the id is unknown."""
        ...


def new_key_id(taken: Iterable[str] = ()) -> str:
    """A fresh key id ``k<n>-<6 hex>`` not among ``taken``.

    The counter keeps ids readable in order of creation; the random suffix keeps keyrings of
    different accounts from sharing ids, so a foreign record reads as "unknown key".
    """
    taken = set(taken)
    index = len(taken) + 1
    while True:
        key_id = f"k{index}-{secrets.token_hex(3)}"
        if key_id not in taken:
            return key_id


class Keyring:
    """An immutable, ordered list of ``(key_id, key)``; the last key is current.

    Implements :class:`KeySource`.  ``repr()`` shows key ids only.
    """

    __slots__ = ("_ids", "_keys")

    def __init__(self, keys: Iterable[tuple[str, bytes]]) -> None:
        ids: list[str] = []
        by_id: dict[str, bytes] = {}
        for key_id, key in keys:
            check_key_id(key_id)
            if key_id in by_id:
                raise KeyringError(f"duplicate key id {key_id!r}")
            by_id[key_id] = check_key(key_id, key)
            ids.append(key_id)
        if not ids:
            raise KeyringError("a keyring needs at least one key")
        self._ids: tuple[str, ...] = tuple(ids)
        self._keys: dict[str, bytes] = by_id

    @classmethod
    def generate(cls, key_id: str | None = None) -> Keyring:
        """A keyring of one fresh random key."""
        new_id = key_id if key_id is not None else new_key_id()
        return cls([(new_id, secrets.token_bytes(KEY_SIZE))])

    def rotated(self, key_id: str | None = None) -> Keyring:
        """A new keyring with a fresh random key appended (and current); ``self`` is unchanged."""
        new_id = key_id if key_id is not None else new_key_id(self._ids)
        return Keyring([*self.items(), (new_id, secrets.token_bytes(KEY_SIZE))])

    @property
    def key_ids(self) -> tuple[str, ...]:
        """Key ids, oldest first; the last is current."""
        return self._ids

    def items(self) -> list[tuple[str, bytes]]:
        """``(key_id, key)`` pairs, oldest first."""
        return [(key_id, self._keys[key_id]) for key_id in self._ids]

    def current_key_id(self) -> str:
        return self._ids[-1]

    def key(self, key_id: str) -> bytes:
        try:
            return self._keys[key_id]
        except (KeyError, TypeError):
            # An unknown id comes from a record, so it is reported like any other bad record.
            raise InvalidRecord() from None

    def __len__(self) -> int:
        return len(self._ids)

    def __repr__(self) -> str:
        return f"Keyring(key_ids={list(self._ids)!r})"


def listed_key_ids(keys: KeySource) -> tuple[str, ...]:
    """The ids a source can give keys for, oldest first (the current one alone if it cannot
    list them)."""
    listed = getattr(keys, "key_ids", None) or getattr(keys, "key_names", None)
    return tuple(listed) if listed else (keys.current_key_id(),)


class MigratingKeys:
    """Two key sources during a move from one to the other (managed keys <-> a key hook).

    New records are encrypted under the current key of ``new``; a record opens under whichever
    source knows its key id, so every conversation stays readable while ``keys migrate``
    re-encrypts the old ones. The two sources must not share a key id (a record names only its
    key id, so a shared one would be ambiguous): that is refused with :class:`KeyringError`.
    Implements :class:`KeySource`.
    """

    __slots__ = ("new", "old", "_new_ids", "_old_ids")

    def __init__(self, new: KeySource, old: KeySource) -> None:
        for name, source in (("new", new), ("old", old)):
            if not isinstance(source, KeySource):
                raise KeyringError(f"the {name} key source must provide current_key_id and key")
        self.new = new
        self.old = old
        self._new_ids = listed_key_ids(new)
        self._old_ids = listed_key_ids(old)
        shared = sorted(set(self._new_ids) & set(self._old_ids))
        if shared:
            raise KeyringError(
                f"key id {shared[0]!r} is in both key sources; rename the enterprise key name "
                "so that records of the two sources can be told apart"
            )

    @property
    def key_ids(self) -> tuple[str, ...]:
        """Ids of both sources, the old source's first; the last is current."""
        return (*self._old_ids, *self._new_ids)

    def source_of(self, key_id: str) -> str:
        """``"new"``, ``"old"`` or ``"unknown"``: which source a record's key id belongs to."""
        if key_id in self._new_ids:
            return "new"
        return "old" if key_id in self._old_ids else "unknown"

    def current_key_id(self) -> str:
        return self.new.current_key_id()

    def key(self, key_id: str) -> bytes:
        if key_id in self._old_ids and key_id not in self._new_ids:
            return self.old.key(key_id)
        return self.new.key(key_id)

    def __repr__(self) -> str:
        return f"MigratingKeys(new={self.new!r}, old={self.old!r})"
