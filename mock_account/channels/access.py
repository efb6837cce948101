"""Who may do what on the channels of an account.

Anyone may write on ``web`` as themselves. The account's administrator (its first user, as
``mock-account users`` lists them) may also write as other senders and on other channels (a
gateway acting for outside senders), and is the only one who sees the Inbox and contacts.
"""

from __future__ import annotations

from mock_account.channels.model import NotAccountAdmin
from mock_account.users import User, UserDirectory


def is_admin(users: UserDirectory, user: User) -> bool:
    """The account's administrator: its first user in the directory."""
    first = next((u for u in users.users if u.account == user.account), None)
    return first is not None and first.email == user.email


def require_admin(users: UserDirectory, user: User) -> None:
    if not is_admin(users, user):
        raise NotAccountAdmin(
            "Only the account's administrator may see the Inbox and write as other senders."
        )
