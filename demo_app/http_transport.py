"""One JSON request to a server, for the demo's HTTP clients: a server that cannot be reached
is a ``ClientError`` with a one-line message; what each endpoint answers is the caller's."""

from __future__ import annotations

from typing import Any

import httpx

from .views import ClientError


def post_json(
    http: httpx.Client, base_url: str, path: str, body: dict[str, Any]
) -> tuple[Any, httpx.Response]:
    """The decoded answer (``None`` when it is not JSON) and the response."""
    try:
        response = http.post(path, json=body)
    except httpx.TimeoutException as exc:
        raise ClientError(f"The server at {base_url} did not answer in time.") from exc
    except httpx.HTTPError as exc:
        raise ClientError(f"Cannot reach the server at {base_url}: {type(exc).__name__}.") from exc
    try:
        return response.json(), response
    except ValueError:
        return None, response
