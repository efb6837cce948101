"""Suggested follow-ups for the chat page.

The suggestions themselves are the account's (``mock_account.conversations.followups``):
requests for agents that read what the last run saved, written from the saved values.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mock_account.conversations.followups import Suggestion

from .catalog import Catalog


def suggest_followups(
    catalog: Catalog,
    last_agent: str,
    written: list[str] | None = None,
    already_ran: set[str] | None = None,
    limit: int = 3,
    conv: Mapping[str, Any] | None = None,
    user: str = "",
) -> list[Suggestion]:
    """Up to ``limit`` follow-ups after ``last_agent`` (see ``Followups.suggest``)."""
    return catalog.followups.suggest(
        last_agent, written=written, conv=conv, already_ran=already_ran, limit=limit, user=user
    )


__all__ = ["Suggestion", "suggest_followups"]
