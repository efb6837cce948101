"""The agent server over HTTP, wire-compatible with the Search2o REST API.

``create_app(deployment)`` builds the FastAPI application; ``mock-account serve`` runs it with
uvicorn. See ``docs.DESCRIPTION`` (also the OpenAPI description) for the endpoints and errors.
"""

from mock_account.api.app import create_app

__all__ = ["create_app"]
