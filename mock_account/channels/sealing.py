"""How channel records are kept unreadable at rest: keyed hashes for lookups, AES-GCM for the rest.

- An identity is found by its **keyed hash**: ``HMAC-SHA256(k_id, account | channel | sender)``,
  32 hex characters, where ``k_id`` is derived with HKDF from the account's *first* key (so
  rotating the encryption key does not lose anyone's conversation). The store never sees a sender
  address; the hash is also the identity's public id in the Inbox.
- The sender's address, the contact name and the identity's memory are encrypted with the
  account's ``StateCipher`` (purposes ``identity``, ``contact``, ``memory``), bound to the
  identity; a turn record is encrypted bound to its conversation and owner (purpose ``turn``).
  A record copied to another identity or conversation fails to open.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from mock_account.crypto import Keyring, KeySource, StateCipher

HASH_INFO = b"search2o-channels/v1|identity-hash"
IDENTITY_ID_LENGTH = 32


def _first_key(keys: KeySource) -> bytes:
    """The account's first (oldest) key: the one identity hashes are keyed on."""
    if isinstance(keys, Keyring):
        return keys.key(keys.key_ids[0])
    names = getattr(keys, "key_names", None)
    if names:
        return keys.key(names[0])
    return keys.key(keys.current_key_id())


def identity_scope(identity: str) -> str:
    """What an identity's records are bound to (in place of a conversation id)."""
    return f"identity/{identity}"


class ChannelSealer:
    """Keyed hashes and encrypted records of one account's channel data."""

    def __init__(self, cipher: StateCipher) -> None:
        self.cipher = cipher
        self._hash_key: bytes | None = None
        self._lock = threading.Lock()

    def _key(self) -> bytes:
        with self._lock:
            if self._hash_key is None:
                self._hash_key = HKDF(
                    algorithm=hashes.SHA256(), length=32, salt=None, info=HASH_INFO
                ).derive(_first_key(self.cipher.keys))
            return self._hash_key

    def identity_id(self, account: str, channel: str, sender: str) -> str:
        """The keyed hash naming a sender on a channel of an account (normalized sender)."""
        message = b"\x00".join(part.encode("utf-8") for part in (account, channel, sender))
        return hmac.new(self._key(), message, hashlib.sha256).hexdigest()[:IDENTITY_ID_LENGTH]

    def contact_hash(self, account: str, contact: str) -> str:
        """The keyed hash of a contact name (what filtering by contact compares)."""
        message = b"contact\x00" + account.encode() + b"\x00" + contact.casefold().encode()
        return hmac.new(self._key(), message, hashlib.sha256).hexdigest()[:IDENTITY_ID_LENGTH]

    # --- identity records ------------------------------------------------------------------

    def seal_text(self, text: str, *, account: str, identity: str, purpose: str) -> bytes:
        return self.cipher.encrypt(
            text.encode("utf-8"),
            convid=identity_scope(identity),
            owner=account,
            purpose=purpose,  # type: ignore[arg-type]
        )

    def open_text(self, blob: bytes, *, account: str, identity: str, purpose: str) -> str:
        plain = self.cipher.decrypt(
            blob,
            convid=identity_scope(identity),
            owner=account,
            purpose=purpose,  # type: ignore[arg-type]
        )
        return plain.decode("utf-8")

    def seal_memory(self, plain: bytes, *, account: str, identity: str) -> bytes:
        return self.cipher.encrypt(
            plain, convid=identity_scope(identity), owner=account, purpose="memory"
        )

    def open_memory(self, blob: bytes, *, account: str, identity: str) -> dict[str, Any]:
        plain = self.cipher.decrypt(
            blob, convid=identity_scope(identity), owner=account, purpose="memory"
        )
        return json.loads(plain)

    # --- turn records ----------------------------------------------------------------------

    def seal_turn(self, turn: dict[str, Any], *, convid: str, owner: str) -> bytes:
        plain = json.dumps(turn, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return self.cipher.encrypt(plain, convid=convid, owner=owner, purpose="turn")

    def open_turn(self, blob: bytes, *, convid: str, owner: str) -> dict[str, Any]:
        return json.loads(self.cipher.decrypt(blob, convid=convid, owner=owner, purpose="turn"))
