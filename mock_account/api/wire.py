"""The JSON bodies the routes send, built from the core's results.

``models`` documents these shapes for OpenAPI; this module writes them. Keys a client of the
Search2o agent server does not expect when they are empty (``askInput``, ``error`` on
``execAgent``) are left out rather than sent as ``null``.
"""

from __future__ import annotations

from typing import Any

from mock_account.conversations.account import ConversationView, ExecResult
from mock_account.engine.state import ResultCode


def exec_agent_body(result: ExecResult) -> dict[str, Any]:
    """The ``execAgent`` response of a run."""
    body: dict[str, Any] = {
        "success": result.success,
        "convid": result.convid,
        "agentName": result.agent_name,
        "output": (
            {"agentName": result.agent_name, "parts": result.parts}
            if result.parts is not None
            else None
        ),
        "resultCode": result.result_code,
    }
    if result.ask_input is not None:
        body["askInput"] = result.ask_input
    if result.error is not None:
        body["error"] = {"message": result.error}
    return body


def refusal_body(agent_name: str, code: ResultCode, message: str) -> dict[str, Any]:
    """The ``execAgent`` response of a request that did not run."""
    return exec_agent_body(ExecResult(False, code, None, agent_name, error=message))


def conversation_item(view: ConversationView) -> dict[str, Any]:
    """One conversation of the lists and of ``getConversation``."""
    return {
        "convid": view.convid,
        "title": view.title,
        "lastExecuted": view.last_executed.isoformat(),
        "pinned": view.pinned,
    }
