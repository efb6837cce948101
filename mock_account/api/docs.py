"""What the OpenAPI document says about the API as a whole, its tags and its error answers."""

from __future__ import annotations

from typing import Any

from mock_account.api.models import ErrorResponse

TITLE = "Mock agent server (Search2o-compatible)"

DESCRIPTION = """
The agent server of the conversation-state harness, wire-compatible with the Search2o agent
server: search the account's agents, run one (`execAgent`), and manage the caller's
conversations. Shapes, messages and operation ids are the reference's.

* Every call is `POST` with a JSON body and `Authorization: Bearer <token>` (security scheme
  `bearerAuth`) or the `search2o_session` cookie (`cookieAuth`), except `GET /health`.
  `mock-account users` prints the tokens of the mock users. A body without a `Content-Type` is
  read as JSON; a call signed in with the cookie must declare `application/json` (415).
* Scalars are coerced as the reference does (`"5"`, `"true"`); unknown fields are refused.
  Refusals answer `{"success": false, "error": {"message": ..., "data": {}}}`: 401 without a
  valid token, 404 for a conversation that does not exist, expired or is another user's (the
  same bytes for all three: "Could not get this conversation. It probably expired."), 409 when
  the pin limit is reached, 413 for a body over the size limit (1 MiB by default), 422 for a bad
  body (the message names the field; `data.fields` lists them), 502 when a configured state hook
  fails, 503 when the conversation store is unavailable.
* `execAgent` always answers HTTP 200 (also `mustLogin` without a valid token); its
  `resultCode` says what happened. With `stream: true` it answers `application/x-ndjson`: a
  `progress` line, a `data` line per output part as the run produces it, `noop` heartbeats,
  `trace` lines (the Server-Timing phases) and last the `agent` line (the response with
  `output: null`). A client that closes the connection stops the run; nothing of it is saved.

**Harness extras** (tag `harness`, not part of the Search2o API): a `score` per search result, `POST
/api/harness/getConversationState` (the owner's decrypted state), `POST /api/harness/ping` (signed
in like every call, then `{"success": true}` and nothing else: the load tests' HTTP ceiling), the
`Server-Timing` header of `execAgent` (restore, run, serialize, encrypt, write and total, in ms),
the field list in a 422's `error.data.fields`, and the `Idempotency-Key` header of `execAgent` (a
retry with the same key and body returns the first answer with `Idempotent-Replayed: true` and does
not run the agent again; the same key with another body is refused with 422; not with `stream:
true`); the caller's workflow progress (`listWorkflows`, `getWorkflowProgress`,
`submitWorkflowValues`, `advanceWorkflow`) and actions with an effect outside, approved and then run
at most once (`listActions`, `createAction`, `approveAction`, `rejectAction`, `getOutbox`). Channels
and the Inbox (SPEC §9): `/api/harness/deliverMessage` (a message from a sender on a channel: a
returning email or IM sender continues their conversation), `getInbox`, `getInboxConversation`,
`getContacts`, `getIdentity` and `setIdentityContact`, the account administrator's (403 for anyone
else). The agents' configuration history (SPEC §10): `getAgentConfig`, `listAgentConfigVersions`,
`diffAgentConfig`, `saveAgentConfig` (live at once in every server process), `restoreAgentConfig`
(undoable) and `cloneAgent`. """

TAGS: list[dict[str, Any]] = [
    {"name": "exec", "description": "Search the agents and run them (Search2o API)."},
    {"name": "user", "description": "The caller's conversations (Search2o API)."},
    {
        "name": "harness",
        "description": "Harness extras, not part of the Search2o API: state inspection, "
        "Server-Timing, Idempotency-Key, workflow progress, approved actions and the outbox,"
        " channels and the Inbox, agent configuration history.",
    },
    {"name": "service", "description": "Liveness."},
]


def error_doc(description: str) -> dict[str, Any]:
    return {"model": ErrorResponse, "description": description}


UNAUTHORIZED = {401: error_doc("No valid token.")}
FORBIDDEN = {403: error_doc("Only the account's administrator may do this.")}
BAD_BODY = {
    413: error_doc("The request body is over the size limit."),
    422: error_doc("The body is not valid; the message names the field."),
}
UNKNOWN = {
    404: error_doc(
        "Could not get this conversation. It probably expired. (The same for an unknown, an "
        "expired and another user's conversation.)"
    )
}
STORE_DOWN = {
    502: error_doc("A configured state hook failed; nothing was changed."),
    503: error_doc("The conversation store is unavailable."),
}
