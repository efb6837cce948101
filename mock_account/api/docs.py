"""What the OpenAPI document says about the API as a whole, its tags and its error answers."""

from __future__ import annotations

from typing import Any

from mock_account.api.models import ErrorResponse

TITLE = "Mock agent server (Search2o-compatible)"

DESCRIPTION = """
The agent server of the conversation-state harness, wire-compatible with the Search2o REST API:
search the account's agents, run one (`execAgent`), and manage the caller's conversations.

* Every call is `POST` with a JSON body (`Content-Type: application/json`) and
  `Authorization: Bearer <token>` (or the `search2o_session` cookie), except `GET /health`.
  `mock-account users` prints the tokens of the mock users.
* Unknown fields are refused. Refusals answer `{"success": false, "error": {"message": ...}}`:
  401 without a valid token, 404 for an unknown (or another user's) conversation, 409 when the
  pin limit is reached, 413 for a body over the size limit (1 MiB by default), 422 for a bad body
  (the message names the field), 502 when a configured state hook fails, 503 when the
  conversation store is unavailable.
* `execAgent` always answers HTTP 200; its `resultCode` says what happened.

**Harness extras** (tag `harness`, not part of the Search2o API): a `score` per search result,
`POST /api/harness/getConversationState` (the owner's decrypted state), the `Server-Timing`
header of `execAgent` (restore, run, serialize, encrypt, write and total, in ms), and the
`Idempotency-Key` header of `execAgent` (a retry with the same key and body returns the first
answer with `Idempotent-Replayed: true` and does not run the agent again; the same key with
another body is refused with 422).
"""

TAGS: list[dict[str, Any]] = [
    {"name": "exec", "description": "Search the agents and run them (Search2o API)."},
    {"name": "user", "description": "The caller's conversations (Search2o API)."},
    {
        "name": "harness",
        "description": "Harness extras, not part of the Search2o API: state inspection, "
        "Server-Timing, Idempotency-Key.",
    },
    {"name": "service", "description": "Liveness."},
]


def error_doc(description: str) -> dict[str, Any]:
    return {"model": ErrorResponse, "description": description}


UNAUTHORIZED = {401: error_doc("No valid token.")}
BAD_BODY = {
    413: error_doc("The request body is over the size limit."),
    422: error_doc("The body is not valid; the message names the field."),
}
UNKNOWN = {404: error_doc("Unknown conversation (also another user's).")}
STORE_DOWN = {
    502: error_doc("A configured state hook failed; nothing was changed."),
    503: error_doc("The conversation store is unavailable."),
}
