"""The demo's access to channels and the Inbox, in-process or over HTTP (same JSON shapes).

Both answer like the HTTP endpoints (``/api/harness/deliverMessage``, ``getInbox``,
``getInboxConversation``, ``getContacts``, ``getIdentity``); refusals become ``ClientError``.
"""

from __future__ import annotations

from typing import Any

from demo_app.http_client import HttpClient
from demo_app.inprocess_client import InProcessClient
from demo_app.views import ClientError
from mock_account.api.wire import exec_agent_body
from mock_account.errors import MockAccountError
from mock_account.stores import StoreError


class ChannelsClient:
    """Channels for the demo's current client and user."""

    def __init__(self, client: Any, user: str) -> None:
        self.client = client
        self.user = user

    def _call(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        if isinstance(self.client, HttpClient):
            data, _ = self.client._post(f"/api/harness/{path}", body)
            return data
        if not isinstance(self.client, InProcessClient):
            raise ClientError("This client has no channels.")
        user = self.client._user(self.user)
        service = self.client.deployment.channels
        try:
            if path == "deliverMessage":
                delivery = service.deliver(user, **body)
                return {
                    **exec_agent_body(delivery.result),
                    "channel": delivery.channel,
                    "identity": delivery.identity,
                    "resumed": delivery.resumed,
                    "reply": delivery.reply,
                    "answered": delivery.answered,
                }
            if path == "getInbox":
                items, cursor = service.inbox(user, **body)
                return {"conversations": items, "nextCursor": cursor}
            if path == "getInboxConversation":
                return {"conversation": service.conversation(user, body["convid"])}
            if path == "getContacts":
                return {"contacts": service.contacts(user)}
            if path == "getIdentity":
                return {"identity": service.identity(user, body["identity"])}
        except (MockAccountError, StoreError, ValueError) as exc:
            raise ClientError(str(exc)) from exc
        raise ClientError(f"unknown call {path}")

    def deliver(
        self, channel: str, sender: str, query: str, contact: str | None = None
    ) -> dict[str, Any]:
        body: dict[str, Any] = {"channel": channel, "sender": sender, "query": query}
        if contact:
            body["contact"] = contact
        return self._call("deliverMessage", body)

    def inbox(self, channel: str | None = None, contact: str | None = None) -> list[dict]:
        body: dict[str, Any] = {"limit": 50}
        if channel:
            body["channel"] = channel
        if contact:
            body["contact"] = contact
        return list(self._call("getInbox", body)["conversations"])

    def conversation(self, convid: str) -> dict[str, Any]:
        return dict(self._call("getInboxConversation", {"convid": convid})["conversation"])

    def contacts(self) -> list[dict[str, Any]]:
        return list(self._call("getContacts", {})["contacts"])

    def identity(self, identity: str) -> dict[str, Any]:
        return dict(self._call("getIdentity", {"identity": identity})["identity"])
