"""Conversations: the vault (the one save / restore path) and the account facade over it.

- ``vault`` saves and restores states and titles (check, encrypt, write; read, decrypt, parse),
  timing every stage;
- ``account`` is what the HTTP layer and the clients call (search, run, list, rename, pin,
  delete);
- ``hooks`` loads enterprise state hooks (``example_hooks`` is a working example);
- ``retention`` deletes conversations past their time;
- ``key_rotation`` re-encrypts every record under the current key.
"""

from mock_account.conversations.account import ConversationView, ExecResult, MockAccount
from mock_account.conversations.hooks import LoadedHooks, load_hooks
from mock_account.conversations.key_rotation import key_status, reencrypt_store
from mock_account.conversations.retention import RetentionPolicy, sweep
from mock_account.conversations.vault import Restored, Saved, StageTimes, Vault

__all__ = [
    "ConversationView",
    "ExecResult",
    "LoadedHooks",
    "MockAccount",
    "Restored",
    "RetentionPolicy",
    "Saved",
    "StageTimes",
    "Vault",
    "key_status",
    "load_hooks",
    "reencrypt_store",
    "sweep",
]
