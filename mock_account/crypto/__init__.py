"""Encryption of conversation state and titles (AES-256-GCM, per-conversation keys).

- ``StateCipher`` encrypts and decrypts records bound to a conversation, owner and purpose.
- Key sources: ``Keyring`` (managed keys, kept in a 0600 JSON file by ``load_or_create_keyring``
  and ``rotate_keyring_file``) and ``EnterpriseKeySource`` (keys from the customer's key hook,
  kept in memory only); ``MigratingKeys`` joins the two while records move from one to the
  other (the new one encrypts, both decrypt).
- ``record_info`` / ``record_key_id`` describe a stored record without opening it; the record
  format is documented in ``mock_account.crypto.records``.
- Errors: ``InvalidRecord`` (opaque, every bad record) and ``KeyringError`` (readable).
"""

from mock_account.crypto.cipher import Purpose, StateCipher
from mock_account.crypto.errors import CryptoError, InvalidRecord, KeyringError
from mock_account.crypto.hooks import EnterpriseKeySource, KeyHook
from mock_account.crypto.keyfile import (
    load_keyring_file,
    load_or_create_keyring,
    rotate_keyring_file,
)
from mock_account.crypto.keys import KEY_SIZE, Keyring, KeySource, MigratingKeys
from mock_account.crypto.records import FORMAT_VERSION, RecordInfo, record_info, record_key_id

__all__ = [
    "FORMAT_VERSION",
    "KEY_SIZE",
    "CryptoError",
    "EnterpriseKeySource",
    "InvalidRecord",
    "KeyHook",
    "KeySource",
    "Keyring",
    "KeyringError",
    "MigratingKeys",
    "Purpose",
    "RecordInfo",
    "StateCipher",
    "load_keyring_file",
    "load_or_create_keyring",
    "record_info",
    "record_key_id",
    "rotate_keyring_file",
]
