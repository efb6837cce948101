"""Where channel records live: next to the conversations, in the same store and connection.

The contract (``ChannelRecords`` and its records) is ``mock_account.stores.channel_records``; each
backend package of ``mock_account.stores`` implements it (``channels.py``).
``records_for(store)`` gives the ``ChannelRecords`` of a conversation store (any backend, also
behind group commit): ``mock_account.stores.registry.channel_records``.
"""

from mock_account.stores.channel_records import (
    ChannelRecords,
    ConversationLink,
    IdentityRecord,
    TurnRecord,
)
from mock_account.stores.registry import channel_records as records_for

__all__ = ["ChannelRecords", "ConversationLink", "IdentityRecord", "TurnRecord", "records_for"]
