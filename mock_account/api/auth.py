"""Who is calling: ``Authorization: Bearer <token>`` or the ``search2o_session`` cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from mock_account.api.errors import NotAuthenticated
from mock_account.deployment import Deployment
from mock_account.users import User

SESSION_COOKIE = "search2o_session"
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="search2o"'}

bearer = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="A user's token, as printed by `mock-account users`.",
)
session_cookie = APIKeyCookie(
    name=SESSION_COOKIE,
    auto_error=False,
    scheme_name="session",
    description="The same token in the session cookie, as a browser sends it.",
)


# The dependencies are ``async`` (they never block): a sync one would cost a thread-pool hop.
async def get_deployment(request: Request) -> Deployment:
    return request.app.state.deployment


async def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
    cookie: Annotated[str | None, Depends(session_cookie)],
) -> User:
    """The authenticated user, or ``NotAuthenticated`` (answered with 401)."""
    token = credentials.credentials if credentials is not None else cookie
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


CurrentUser = Annotated[User, Depends(current_user)]
DeploymentDep = Annotated[Deployment, Depends(get_deployment)]
