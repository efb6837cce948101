"""Enterprise keys: account keys returned by the customer's key hook.

The account is configured with a list of key names (the last is current) and a hook,
``encryptionKey({"keyName": name}) -> bytes``, that returns the 32 key bytes for a name.  The key
bytes are kept in this process's memory only: nothing here writes them anywhere, and the records
carry only the key name.

The current key is fetched when the source is built, so a misconfigured hook fails at start-up;
older keys are fetched the first time a record needs them.  Only synchronous hooks are supported.
"""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable, Iterable, Mapping

from mock_account.crypto.errors import InvalidRecord, KeyringError
from mock_account.crypto.keys import check_key, check_key_id

KeyHook = Callable[[Mapping[str, str]], bytes]
"""``encryptionKey({"keyName": name}) -> bytes``."""


class EnterpriseKeySource:
    """A :class:`~mock_account.crypto.keys.KeySource` backed by a key hook."""

    __slots__ = ("_hook", "_names", "_keys", "_lock")

    def __init__(self, hook: KeyHook, key_names: Iterable[str]) -> None:
        if not callable(hook):
            raise KeyringError("the encryption key hook is not callable")
        names = tuple(key_names)
        if not names:
            raise KeyringError("enterprise keys need at least one key name")
        for name in names:
            check_key_id(name)
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise KeyringError(f"duplicate key name {duplicates[0]!r}")
        self._hook = hook
        self._names = names
        self._keys: dict[str, bytes] = {}
        self._lock = threading.Lock()
        self.key(self.current_key_id())

    @property
    def key_names(self) -> tuple[str, ...]:
        """Configured key names, oldest first; the last is current."""
        return self._names

    def current_key_id(self) -> str:
        return self._names[-1]

    def key(self, key_id: str) -> bytes:
        cached = self._keys.get(key_id)
        if cached is not None:
            return cached
        if key_id not in self._names:
            # The id comes from a record: an unconfigured name is just another bad record.
            raise InvalidRecord()
        with self._lock:
            if key_id not in self._keys:
                self._keys[key_id] = self._fetch(key_id)
            return self._keys[key_id]

    def _fetch(self, name: str) -> bytes:
        try:
            result = self._hook({"keyName": name})
        except Exception as exc:
            raise KeyringError(
                f"the encryption key hook failed for key name {name!r}: {type(exc).__name__}"
            ) from exc
        if inspect.isawaitable(result):
            if inspect.iscoroutine(result):
                result.close()  # never awaited: close it rather than leak a warning
            raise KeyringError(
                "the encryption key hook must be synchronous (it returned an awaitable)"
            )
        if result is None:
            raise KeyringError(f"the encryption key hook returned no key for key name {name!r}")
        return check_key(name, result)

    def __repr__(self) -> str:
        return f"EnterpriseKeySource(key_names={list(self._names)!r})"
