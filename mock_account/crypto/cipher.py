"""StateCipher: AES-256-GCM encryption of conversation state and titles.

For a record of conversation ``convid`` under account key ``K`` (key id ``kid``):

- conversation key: ``HKDF-SHA256(ikm=K, salt=None, info=b"search2o-state/v1|conv|" + convid)``,
  32 bytes.  Derived keys are cached (bounded LRU) because saves are hot, and so are the header
  and associated data of each (key, conversation, owner, purpose).
- nonce: 12 fresh random bytes per encryption.
- associated data: the record header (magic, format version, length-prefixed key id, see
  ``records``) followed by ``purpose``, ``convid`` and ``owner``, each as a 4-byte big-endian
  length and its UTF-8 bytes.  Length prefixes make the encoding unambiguous, so a record only
  opens for the exact conversation, owner, purpose, key id and format it was written for.

Lookup keys (``lookup_keys``): an HMAC-SHA256 of a name under
``HKDF-SHA256(ikm=K, info=b"search2o-state/v1|lookup")``, hex. They let the server find a record by
a name the client chose (an ``Idempotency-Key``) without storing that name: without the account key
nobody can tell which name a lookup key stands for, nor test a guess.

``owner`` is compared byte for byte: callers pass the owner in the one canonical form the server
uses for identities.  Errors: a bad record is :class:`InvalidRecord`; a key source that fails is
:class:`KeyringError` (propagated, never turned into ``InvalidRecord``); bad arguments are
``ValueError`` / ``TypeError``.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
from collections.abc import Callable
from typing import Literal, get_args

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mock_account.crypto.errors import InvalidRecord
from mock_account.crypto.keys import KEY_SIZE, KeySource, listed_key_ids
from mock_account.crypto.records import (
    NONCE_SIZE,
    build_record,
    encode_header,
    record_key_id,
    split_record,
)

# "idempotency": sealed execAgent answers; "workflow", "action" and "outbox": per-identity
# workflow progress and approved actions; "identity", "contact", "memory" and "turn": the
# records of ``mock_account.channels``.
Purpose = Literal[
    "state",
    "title",
    "idempotency",
    "workflow",
    "action",
    "outbox",
    "identity",
    "contact",
    "memory",
    "turn",
]
PURPOSES: tuple[str, ...] = get_args(Purpose)
CONVERSATION_INFO_PREFIX = b"search2o-state/v1|conv|"
LOOKUP_INFO = b"search2o-state/v1|lookup"
DEFAULT_CACHE_SIZE = 4096
_BYTES_LIKE = (bytes, bytearray, memoryview)
_Context = tuple[AESGCM, bytes, bytes]


def derive_conversation_key(account_key: bytes, convid: str) -> bytes:
    """The 32-byte key of one conversation, derived from an account key."""
    return HKDF(
        algorithm=hashes.SHA256(),
        length=KEY_SIZE,
        salt=None,  # the account key is uniformly random, so HKDF needs no salt (RFC 5869 §3.1)
        info=CONVERSATION_INFO_PREFIX + convid.encode("utf-8"),
    ).derive(account_key)


def derive_lookup_key(account_key: bytes) -> bytes:
    """The 32-byte HMAC key of lookup keys, derived from an account key."""
    return HKDF(algorithm=hashes.SHA256(), length=KEY_SIZE, salt=None, info=LOOKUP_INFO).derive(
        account_key
    )


def _known_key_ids(keys: KeySource) -> tuple[str, ...]:
    """The ids a source can give keys for, current first."""
    current = keys.current_key_id()
    return (current, *[k for k in reversed(listed_key_ids(keys)) if k != current])


def _length_prefixed(*fields: bytes) -> bytes:
    return b"".join(len(field).to_bytes(4, "big") + field for field in fields)


def associated_data(header: bytes, *, convid: str, owner: str, purpose: str) -> bytes:
    """The associated data binding a record to its header, purpose, conversation and owner."""
    return header + _length_prefixed(
        purpose.encode("utf-8"), convid.encode("utf-8"), owner.encode("utf-8")
    )


def _check_context(convid: object, owner: object, purpose: object) -> None:
    for name, value in (("convid", convid), ("owner", owner)):
        if not isinstance(value, str) or not value:
            raise ValueError(f"{name} must be a non-empty string")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"{name} is not valid Unicode text") from exc
    if purpose not in PURPOSES:
        raise ValueError(f"purpose must be one of {', '.join(PURPOSES)}, not {purpose!r}")


class StateCipher:
    """Encrypts and decrypts records for one key source.

    ``random_bytes`` exists for known-answer tests only; production code keeps ``os.urandom``.
    Thread-safe: the cipher holds no mutable state besides its (thread-safe) key cache.
    """

    def __init__(
        self,
        keys: KeySource,
        *,
        random_bytes: Callable[[int], bytes] = os.urandom,
        cache_size: int = DEFAULT_CACHE_SIZE,
    ) -> None:
        if not isinstance(keys, KeySource):
            raise TypeError("keys must provide current_key_id() and key(key_id)")
        self._keys = keys
        self._random_bytes = random_bytes
        # Per instance, so keys of one cipher never outlive it in a global cache.  The key bytes
        # are part of the cache key, so a source that changes a key's bytes is never served stale.
        self._aead: Callable[[str, bytes, str], AESGCM] = functools.lru_cache(maxsize=cache_size)(
            self._new_aead
        )
        self._lookup_key: Callable[[str, bytes], bytes] = functools.lru_cache(maxsize=64)(
            lambda key_id, account_key: derive_lookup_key(account_key)
        )
        # The cipher, header and associated data of one (key, conversation, owner, purpose):
        # a save of a conversation encrypts under the same context every time.
        self._context: Callable[[str, bytes, str, str, str], _Context] = functools.lru_cache(
            maxsize=cache_size
        )(self._new_context)

    @property
    def keys(self) -> KeySource:
        return self._keys

    @staticmethod
    def _new_aead(key_id: str, account_key: bytes, convid: str) -> AESGCM:
        return AESGCM(derive_conversation_key(account_key, convid))

    def _new_context(
        self, key_id: str, account_key: bytes, convid: str, owner: str, purpose: str
    ) -> _Context:
        # Checked here, on a cache miss: a context in the cache was built from values that
        # passed, and only equal values find it (exceptions are never cached).
        _check_context(convid, owner, purpose)
        header = encode_header(key_id)
        aad = associated_data(header, convid=convid, owner=owner, purpose=purpose)
        return self._aead(key_id, account_key, convid), header, aad

    def encrypt(self, plaintext: bytes, *, convid: str, owner: str, purpose: Purpose) -> bytes:
        """Encrypt ``plaintext`` under the current key into a version-1 record."""
        if not isinstance(plaintext, _BYTES_LIKE):
            raise TypeError(f"plaintext must be bytes, not {type(plaintext).__name__}")
        key_id = self._keys.current_key_id()
        aead, header, aad = self._context(key_id, self._keys.key(key_id), convid, owner, purpose)
        nonce = self._random_bytes(NONCE_SIZE)
        if not isinstance(nonce, bytes) or len(nonce) != NONCE_SIZE:
            raise ValueError(f"random_bytes must return {NONCE_SIZE} bytes")
        return build_record(header, nonce, aead.encrypt(nonce, plaintext, aad))

    def decrypt(self, blob: bytes, *, convid: str, owner: str, purpose: Purpose) -> bytes:
        """Open a record written for exactly this conversation, owner and purpose."""
        header, key_id, nonce, ciphertext = split_record(blob)
        aead, expected, aad = self._context(key_id, self._keys.key(key_id), convid, owner, purpose)
        if header != expected:  # another format's header: bind that one
            aad = associated_data(header, convid=convid, owner=owner, purpose=purpose)
        try:
            # Views of the record: the ciphertext is not copied out of it first.
            return aead.decrypt(nonce, ciphertext, aad)
        except InvalidTag:
            # Opaque on purpose: no chained cause, nothing that tells why it failed.
            raise InvalidRecord() from None

    def lookup_keys(self, name: bytes) -> list[str]:
        """The lookup key of ``name`` under every key the source knows, the current key's first.

        A record is written under the first; a reader tries them all, so records written before
        a key rotation are still found.
        """
        if not isinstance(name, bytes | bytearray | memoryview):
            raise TypeError(f"a lookup name must be bytes, not {type(name).__name__}")
        found: list[str] = []
        for key_id in _known_key_ids(self._keys):
            mac_key = self._lookup_key(key_id, self._keys.key(key_id))
            found.append(hmac.new(mac_key, bytes(name), hashlib.sha256).hexdigest())
        return found

    def needs_reencryption(self, blob: bytes) -> bool:
        """True when the record is not under the current key (rotation should rewrite it)."""
        return record_key_id(blob) != self._keys.current_key_id()

    def reencrypt(self, blob: bytes, *, convid: str, owner: str, purpose: Purpose) -> bytes:
        """The same plaintext, encrypted again under the current key with a fresh nonce."""
        plaintext = self.decrypt(blob, convid=convid, owner=owner, purpose=purpose)
        return self.encrypt(plaintext, convid=convid, owner=owner, purpose=purpose)
