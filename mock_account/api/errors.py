"""The HTTP layer's own refusals and the one table from error class to HTTP status.

    MockAccountError                 (``mock_account.errors``)
    └── ApiError                     refused by the HTTP layer itself
        ├── NotAuthenticated         no valid bearer token or session cookie (401)
        ├── BodyTooLarge             the request body is over the size limit (413)
        ├── IdempotencyKeyReused     an Idempotency-Key sent again with another body (422)
        ├── IdempotencyInProgress    the first request with that key has not answered yet (409)
        ├── StreamNotReplayable      an Idempotency-Key on a streamed execAgent (422)
        └── CookieNeedsJson          a session-cookie call without a JSON content type (415)

The core's errors (``mock_account.errors``, ``stores.errors``, ``crypto.errors``) are answered
through the same table: ``STATUS_CODES`` is the one the exception handlers use; ``status_for``
looks an exception up by its class hierarchy, most specific first, and ``public_message`` says
what the caller may be told.

``/api/exec/execAgent`` is the exception: it always answers HTTP 200 with a ``resultCode``
(``unknownConversation``, ``callFailed``, ``mustLogin``...), as the agent server it is compatible
with does; only a body it cannot read at all is refused with 422 (or 413).

Every refusal's body is ``{"success": false, "error": {"message": ..., "data": {}}}``.
"""

from __future__ import annotations

from mock_account.channels.model import ChannelError, NotAccountAdmin, UnknownIdentity
from mock_account.crypto.errors import InvalidRecord, KeyringError
from mock_account.errors import HookFailed, MockAccountError, PinLimitReached, UnknownConversation
from mock_account.stores.errors import (
    InvalidCursor,
    StoreError,
    StoreUnavailable,
    VersionConflict,
    unavailable_message,
)


class ApiError(MockAccountError):
    """A request refused by the HTTP layer; ``headers`` go out with the response."""

    def __init__(self, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.headers = headers or {}


class NotAuthenticated(ApiError):
    """No valid ``Authorization: Bearer`` token and no valid ``search2o_session`` cookie."""


class BodyTooLarge(ApiError):
    """The request body is larger than the server accepts."""


class IdempotencyKeyReused(ApiError):
    """The same ``Idempotency-Key`` came back with a different request body."""


class IdempotencyInProgress(ApiError):
    """The first request with this ``Idempotency-Key`` is still running (or never answered)."""


class StreamNotReplayable(ApiError):
    """An ``Idempotency-Key`` sent with ``stream: true``: a stream cannot be replayed."""


class CookieNeedsJson(ApiError):
    """A call signed in with the session cookie but not sent as ``application/json``.

    Bodies are read as JSON whatever their declared type (as the agent server does), but a
    browser can send a cross-site form with the cookie: such a call must declare JSON, which
    a cross-site form cannot do without the server's consent.
    """


#: What every endpoint but ``execAgent`` says of a conversation that does not exist, expired or
#: belongs to someone else: the same words, byte for byte.
CONVERSATION_GONE = "Could not get this conversation. It probably expired."


#: Error class -> HTTP status. Looked up along the exception's MRO, so subclasses inherit.
STATUS_CODES: dict[type[BaseException], int] = {
    UnknownConversation: 404,
    PinLimitReached: 409,
    NotAuthenticated: 401,
    BodyTooLarge: 413,
    IdempotencyKeyReused: 422,
    IdempotencyInProgress: 409,
    StreamNotReplayable: 422,
    CookieNeedsJson: 415,
    InvalidCursor: 422,
    VersionConflict: 409,
    StoreUnavailable: 503,
    StoreError: 503,
    KeyringError: 503,
    InvalidRecord: 500,
    HookFailed: 502,
    ChannelError: 422,
    NotAccountAdmin: 403,
    UnknownIdentity: 404,
}


def status_for(exc: BaseException) -> int | None:
    """The status code for an exception, or ``None`` when the table does not know it."""
    for cls in type(exc).__mro__:
        if cls in STATUS_CODES:
            return STATUS_CODES[cls]
    return None


def public_message(exc: BaseException) -> str:
    """What the caller is told: never more about a conversation than that it is unknown."""
    if isinstance(exc, UnknownConversation):
        return CONVERSATION_GONE
    if isinstance(exc, InvalidRecord):
        return "This conversation's stored record cannot be opened; nothing was changed."
    if isinstance(exc, InvalidCursor):
        return "nextCursor: not a cursor this server handed out"
    if isinstance(exc, HookFailed):
        return f"A state hook failed ({exc}); nothing was changed."
    if isinstance(exc, VersionConflict):
        return "The conversation changed meanwhile; nothing was changed, please try again."
    if isinstance(exc, StoreError | KeyringError):
        return unavailable_message(exc)
    return str(exc)
