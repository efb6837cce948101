"""Messages on channels, identities, per-identity memory and the owner's Inbox: one facade.

What the API layer calls. Each job is its own module, named for what it is:

- ``delivery``: a message from a sender on a channel, into their conversation;
- ``conversations``: which conversation that is (continued, or started);
- ``turns``: what a run leaves behind (link, memory, the sealed turn record);
- ``identities``: a sender's identity, contact and memory, sealed and opened;
- ``views``: what the administrator reads (identities, contacts, the Inbox, a conversation);
- ``access``: who may do what;
- ``retention``: what goes when its conversation or its time is gone.
"""

from __future__ import annotations

from typing import Any

from mock_account.channels import access
from mock_account.channels.delivery import Delivery, DeliveryPipeline, Message
from mock_account.channels.identities import Identities
from mock_account.channels.model import UnknownIdentity, normalize_contact
from mock_account.channels.retention import forget_gone_conversations
from mock_account.channels.sealing import ChannelSealer
from mock_account.channels.views import ChannelViews
from mock_account.conversations.account import MockAccount
from mock_account.stores.channel_records import ChannelRecords
from mock_account.users import User, UserDirectory


class ChannelService(ChannelViews):
    """Channels, identities, memory and the Inbox of one deployment.

    What the administrator reads (``identity``, ``contacts``, ``inbox``, ``conversation``...)
    is ``ChannelViews``'; delivering a message is the ``DeliveryPipeline``'s.
    """

    def __init__(self, account: MockAccount, records: ChannelRecords, users: UserDirectory):
        self.sealer = ChannelSealer(account.vault.cipher)
        super().__init__(account, users, Identities(records, self.sealer))
        self.delivery = DeliveryPipeline(account, users, self.identities)

    @property
    def records(self) -> ChannelRecords:
        """The channel records every part reads (through the identities)."""
        return self.identities.records

    @records.setter
    def records(self, records: ChannelRecords) -> None:
        # Swapped in one place for every part (a test puts a failing store in).
        self.identities.records = records

    # --- who may do what ---------------------------------------------------------------------

    def is_admin(self, user: User) -> bool:
        """The account's administrator: its first user in the directory."""
        return access.is_admin(self.users, user)

    def require_admin(self, user: User) -> None:
        access.require_admin(self.users, user)

    # --- delivering a message ----------------------------------------------------------------

    def deliver(
        self,
        caller: User,
        *,
        channel: str,
        sender: str | None = None,
        query: str | None = None,
        inputs: dict[str, Any] | None = None,
        agent_name: str | None = None,
        convid: str | None = None,
        contact: str | None = None,
    ) -> Delivery:
        """Deliver a message from ``sender`` on ``channel`` into their conversation.

        Anyone may write on ``web`` as themselves; writing as another sender, or on another
        channel, is the administrator's (a gateway acting for outside senders).
        """
        message = Message(channel, sender, query, inputs, agent_name, convid, contact)
        return self.delivery.deliver(caller, message)

    # --- contacts (administrator) ------------------------------------------------------------

    def set_contact(self, caller: User, identity: str, contact: str | None) -> None:
        """Group an identity under a contact (for viewing only), or take it out (``None``)."""
        self.require_admin(caller)
        name = normalize_contact(contact)
        if not self.identities.set_contact(caller.account, identity, name):
            raise UnknownIdentity(UnknownIdentity.MESSAGE)

    # --- retention ---------------------------------------------------------------------------

    def forget_orphans(self) -> int:
        """Drop links and turns whose conversation is gone (a backend that cannot cascade)."""
        return forget_gone_conversations(self.records, self.account.store)
