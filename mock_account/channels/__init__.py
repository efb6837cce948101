"""Channels, identities, per-identity memory and the owner's Inbox (SPEC §9).

- ``model``: the channels (``web``, ``widget``, ``api``, ``a2a``, ``email``, ``im``,
  ``schedule``, ``webhook``), which of them resume a returning sender's conversation, and what a
  sender id looks like on each.
- ``sealing``: keyed hashes (an identity's id) and the encryption of senders, contacts, memory
  and turn records.
- ``records``: where identities, conversation links and turn records are kept, next to the
  conversations of every store backend.
- ``service``: the facade the API calls: delivering a message as a sender, the Inbox,
  contacts, memory. Behind it, one job a module:
  - ``delivery``: a message from a sender on a channel, run into their conversation;
  - ``conversations``: which conversation that is (continued, or started);
  - ``turns``: what a run leaves behind (the link, memory facts, the sealed turn record);
  - ``identities``: a sender's identity, contact and memory, sealed and opened;
  - ``views``: what the administrator reads (identities, contacts, the Inbox, a conversation);
  - ``access``: who may do what.
- ``retention``: identities unused past their plan's retention go, with their memory; links
  and turns of conversations that are gone go too.
"""

from mock_account.channels.delivery import Delivery
from mock_account.channels.model import (
    CHANNEL_NAMES,
    CHANNELS,
    ChannelError,
    ChannelPolicy,
    NotAccountAdmin,
    UnknownIdentity,
    channel_policy,
    normalize_sender,
)
from mock_account.channels.records import ChannelRecords, records_for
from mock_account.channels.retention import ChannelSweepReport, sweep_channels
from mock_account.channels.sealing import ChannelSealer
from mock_account.channels.service import ChannelService

__all__ = [
    "CHANNELS",
    "CHANNEL_NAMES",
    "ChannelError",
    "ChannelPolicy",
    "ChannelRecords",
    "ChannelSealer",
    "ChannelService",
    "ChannelSweepReport",
    "Delivery",
    "NotAccountAdmin",
    "UnknownIdentity",
    "channel_policy",
    "normalize_sender",
    "records_for",
    "sweep_channels",
]
