"""The errors the core raises; the HTTP layer maps them to statuses in ``api.errors``.

    Exception
    ├── MockAccountError                 base of what the account refuses
    │   ├── UnknownConversation          no such conversation for this user (it may exist for
    │   │                                someone else: the caller is never told)
    │   └── PinLimitReached              the user already pinned the maximum number
    ├── HooksError                       a state-hook module cannot be used (load time)
    ├── HookFailed                       a state hook failed while serving a request
    ├── mock_account.stores.StoreError   StoreUnavailable, VersionConflict, InvalidCursor,
    │                                    StoreConfigError (``stores.errors``)
    ├── mock_account.crypto.CryptoError  InvalidRecord, KeyringError (``crypto.errors``)
    └── mock_account.engine.StateInvalid a state that cannot be saved (a ``ValueError``)

Stores and crypto keep their errors in their own packages, since they stand alone; this module
holds the conversation service's own. ``api.errors`` adds the refusals of the HTTP layer and the
one table from error class to HTTP status.
"""

from __future__ import annotations


class MockAccountError(Exception):
    """Base of the errors the account refuses a request with."""


class UnknownConversation(MockAccountError, LookupError):
    """No conversation with that id for this user (it may exist for someone else)."""

    MESSAGE = "Unknown conversation"


class PinLimitReached(MockAccountError, ValueError):
    """The user already has the maximum number of pinned conversations."""


class HooksError(Exception):
    """A hook module cannot be used (not importable, incomplete set, a hook not callable)."""


class HookFailed(Exception):
    """A state hook raised or returned something unusable while serving a request."""

    def __init__(self, hook: str, reason: str) -> None:
        super().__init__(f"{hook}: {reason}")
        self.hook = hook
        self.reason = reason
