"""Errors of the encryption layer.

    CryptoError
    ├── InvalidRecord   an encrypted record cannot be opened (always the same opaque message)
    └── KeyringError    a key source cannot be used (readable, one line, never key material)

``InvalidRecord`` is deliberately uninformative: wrong key, tampering, truncation, a record copied
to another conversation, owner or purpose, an unknown key id and plain garbage all look the same,
so a caller (or an attacker probing the server) learns nothing about why.  ``KeyringError`` is an
operational problem (a keyring file with loose permissions, a key hook that fails) and says what
to fix; it must never be mistaken for a bad record, or a server could discard good state.
"""

from __future__ import annotations


class CryptoError(Exception):
    """Base of the encryption layer's errors."""


class InvalidRecord(CryptoError):
    """An encrypted record is invalid, tampered with, or not meant for this context."""

    MESSAGE = "invalid encrypted record"

    def __init__(self) -> None:
        super().__init__(self.MESSAGE)


class KeyringError(CryptoError):
    """A keyring or key source is missing, malformed, unsafe, or failing."""
