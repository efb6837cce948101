"""Who is calling: ``Authorization: Bearer <token>`` or the ``search2o_session`` cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from mock_account.api.errors import CookieNeedsJson, NotAuthenticated
from mock_account.deployment import Deployment
from mock_account.users import User

SESSION_COOKIE = "search2o_session"
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="search2o"'}

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearerAuth",
    description="A user's token, as printed by `mock-account users`.",
)
session_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    scheme_name="cookieAuth",
    description="The same token in the session cookie, as a browser sends it.",
)


# The dependencies are ``async`` (they never block): a sync one would cost a thread-pool hop.
async def get_deployment(request: Request) -> Deployment:
    return request.app.state.deployment


def _declares_json(request: Request) -> bool:
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media_type == "application/json" or media_type.endswith("+json")


def _signed_in(
    request: Request,
    credentials: HTTPAuthorizationCredentials | None,
    cookie: str | None,
) -> User:
    token = credentials.credentials if credentials is not None else cookie
    if token and credentials is None and request.method == "POST" and not _declares_json(request):
        raise CookieNeedsJson(
            f"A call signed in with the {SESSION_COOKIE} cookie must be sent with "
            "Content-Type: application/json."
        )
    if not token:
        raise NotAuthenticated(
            f"Sign in first: send 'Authorization: Bearer <token>' or the {SESSION_COOKIE} cookie.",
            headers=CHALLENGE,
        )
    deployment: Deployment = request.app.state.deployment
    user = deployment.users.authenticate(token)
    if user is None:
        raise NotAuthenticated("The token is not valid.", headers=CHALLENGE)
    return user


async def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    cookie: Annotated[str | None, Depends(session_cookie)],
) -> User:
    """The authenticated user, or ``NotAuthenticated`` (answered with 401).

    A bearer token may send its body without a content type (it is read as JSON); the session
    cookie, which a browser attaches to cross-site forms too, needs ``application/json``.
    """
    return _signed_in(request, credentials, cookie)


async def optional_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    cookie: Annotated[str | None, Depends(session_cookie)],
) -> User | NotAuthenticated:
    """The user, or the refusal itself: ``execAgent`` answers it with HTTP 200 ``mustLogin``."""
    try:
        return _signed_in(request, credentials, cookie)
    except NotAuthenticated as refused:
        return refused


CurrentUser = Annotated[User, Depends(current_user)]
UserOrRefusal = Annotated[User | NotAuthenticated, Depends(optional_user)]
DeploymentDep = Annotated[Deployment, Depends(get_deployment)]
