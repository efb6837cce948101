"""The JSON error body every refusal uses.

``{"success": false, "error": {"message": ..., "data": {}}}``, as the agent server sends it; on 422
``data`` carries the harness extra ``fields`` (each offending field and why).
"""

from __future__ import annotations

from typing import Any

from starlette.responses import JSONResponse

from mock_account.api.errors import ApiError, public_message, status_for
from mock_account.api.problems import Problem


def error_body(message: str, fields: list[Problem] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if fields:
        data["fields"] = [{"field": p.field, "message": p.message} for p in fields]
    return {"success": False, "error": {"message": message, "data": data}}


def error_response(
    status: int,
    message: str,
    *,
    headers: dict[str, str] | None = None,
    fields: list[Problem] | None = None,
    extra: dict[str, Any] | None = None,
) -> JSONResponse:
    body = error_body(message, fields)
    body.update(extra or {})
    return JSONResponse(body, status_code=status, headers=headers)


def exception_response(exc: BaseException, extra: dict[str, Any] | None = None) -> JSONResponse:
    """The answer to an error of the table in ``api.errors`` (500 if not in it)."""
    headers = exc.headers if isinstance(exc, ApiError) else None
    return error_response(status_for(exc) or 500, public_message(exc), headers=headers, extra=extra)
