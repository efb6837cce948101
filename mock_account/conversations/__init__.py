"""Conversations: the account facade over search, engine, store, cipher and hooks.

``account`` is what the HTTP layer and the clients call (search, run, list, rename, pin,
delete); ``hooks`` loads enterprise state hooks (``example_hooks`` is a working example);
``retention`` deletes conversations past their time; ``key_rotation`` re-encrypts under the
current key.
"""

from mock_account.conversations.account import ConversationView, ExecResult, MockAccount
from mock_account.conversations.hooks import LoadedHooks, load_hooks
from mock_account.conversations.key_rotation import key_status, reencrypt_store
from mock_account.conversations.retention import RetentionPolicy, sweep

__all__ = [
    "ConversationView",
    "ExecResult",
    "LoadedHooks",
    "MockAccount",
    "RetentionPolicy",
    "key_status",
    "load_hooks",
    "reencrypt_store",
    "sweep",
]
