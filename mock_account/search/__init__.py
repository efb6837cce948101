"""Search: which agents match a request (BM25 blended with embeddings) and which one runs.

``index`` ranks the agents, ``text`` and ``embeddings`` are its two views of a text,
``routing`` decides between the matches and the previous agent for a follow-up, and
``evaluation`` measures accuracy on labelled requests.
"""

from mock_account.search.index import BM25Params, Searchable, SearchHit, SearchIndex
from mock_account.search.routing import (
    DEFAULT_FOLLOWUP_BEHAVIOR,
    FOLLOWUP_BEHAVIORS,
    FollowupBehavior,
    RoutingDecision,
    choose_agent,
)

__all__ = [
    "DEFAULT_FOLLOWUP_BEHAVIOR",
    "FOLLOWUP_BEHAVIORS",
    "BM25Params",
    "FollowupBehavior",
    "RoutingDecision",
    "SearchHit",
    "SearchIndex",
    "Searchable",
    "choose_agent",
]
