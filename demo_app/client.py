"""The one interface the demo's pages use to talk to an agent account.

Two implementations: ``InProcessClient`` (an embedded mock account, SQLite under the
project's data folder) and ``HttpClient`` (any server speaking the Search2o API, given a
base URL and a bearer token). Every failure reaches the pages as ``ClientError`` with a
one-line message.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from .http_client import HttpClient
from .inprocess_client import InProcessClient
from .views import (
    AnswerView,
    ClientError,
    ConversationLists,
    DemoUser,
    Match,
    SearchOutcome,
    StateView,
)

__all__ = [
    "ClientError",
    "DemoClient",
    "HttpClient",
    "InProcessClient",
]


@runtime_checkable
class DemoClient(Protocol):
    """What the pages need of an agent account, per user (``user`` is a ``DemoUser.key``)."""

    description: str

    def users(self) -> list[DemoUser]:
        """Who the demo can act as (over HTTP: the one user of the given token)."""
        ...

    def search(self, user: str, query: str, tag: str | None = None) -> list[Match]:
        """Ranked matches for a request, best first."""
        ...

    def find(self, user: str, query: str, convid: str | None = None) -> SearchOutcome:
        """Search a request and report the account's search behaviour with the matches."""
        ...

    def run(
        self,
        user: str,
        agent: str,
        query: str,
        convid: str | None = None,
        matches: tuple[Match, ...] = (),
    ) -> AnswerView:
        """Run ``agent`` on ``query`` (a new conversation without ``convid``)."""
        ...

    def ask(self, user: str, query: str, convid: str | None = None) -> AnswerView:
        """A new request (no ``convid``) or a follow-up: the best match runs.

        When nothing matches in a conversation, the agent that answered last runs again.
        """
        ...

    def answer_ask(self, user: str, pending: AnswerView, answers: dict[str, Any]) -> AnswerView:
        """Answer the questions of an answer paused on ``ask``; the run continues."""
        ...

    def conversations(self, user: str) -> ConversationLists:
        """The user's pinned and most recent conversations."""
        ...

    def rename(self, user: str, convid: str, title: str) -> None: ...

    def pin(self, user: str, convid: str, pinned: bool) -> None: ...

    def delete(self, user: str, convid: str) -> None: ...

    def state(self, user: str, convid: str) -> StateView:
        """The owner's decrypted state and the encrypted record (the inspector)."""
        ...

    def close(self) -> None: ...
