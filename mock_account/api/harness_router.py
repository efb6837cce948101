"""The router every group of harness extras is built on: one prefix, one tag, the same answers.

The extras are not part of the Search2o API, so they live apart under ``/api/harness`` and the
``harness`` tag; each group adds only the refusals of its own (a 404 or 409 said its way).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import APIRouter

from mock_account.api.docs import BAD_BODY, FORBIDDEN, STORE_DOWN, UNAUTHORIZED


def harness_router(
    refusals: Mapping[int, dict[str, Any]],
    *,
    admin_only: bool = False,
    uses_store: bool = True,
    **options: Any,
) -> APIRouter:
    """A router of harness extras documenting ``refusals`` between the answers all of them
    may give; ``admin_only``: some of its calls are the account administrator's (403);
    ``uses_store``: its calls reach the store or its hooks (502, 503). ``options`` go to the
    ``APIRouter`` (a ``route_class``...)."""
    return APIRouter(
        prefix="/api/harness",
        tags=["harness"],
        responses={
            **UNAUTHORIZED,
            **(FORBIDDEN if admin_only else {}),
            **BAD_BODY,
            **refusals,
            **(STORE_DOWN if uses_store else {}),
        },
        **options,
    )
