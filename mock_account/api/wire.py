"""The JSON bodies the routes send, built from the core's results (SPEC §5, exactly).

``models`` documents these shapes for OpenAPI; this module writes them. Every key a client of the
Search2o agent server reads is present: ``askInput`` and ``error`` are ``null`` when empty, and
each ask input has all seven keys. Times go out as epoch milliseconds.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from mock_account.conversations.account import ConversationView, ExecResult, Turn
from mock_account.engine.state import ResultCode

ASK_INPUT_KEYS = ("name", "type", "label", "description", "options", "default", "hidden")


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since the epoch (a naive time is read as UTC, as the stores keep it)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def ask_input_body(ask: dict[str, Any]) -> dict[str, Any]:
    """An ``askInput`` with all seven keys on every input (``null`` / ``false`` when unset)."""
    inputs = []
    for spec in ask.get("inputs") or []:
        shown = {key: spec.get(key) for key in ASK_INPUT_KEYS}
        shown["label"] = shown["label"] if shown["label"] is not None else spec["name"]
        shown["type"] = shown["type"] or "str"
        shown["hidden"] = bool(shown["hidden"])
        inputs.append(shown)
    return {"message": ask.get("message", ""), "inputs": inputs}


def exec_agent_body(result: ExecResult, *, streamed: bool = False) -> dict[str, Any]:
    """The ``execAgent`` response of a run (``output`` null in the last line of a stream)."""
    output = None
    if result.parts is not None and result.success and not streamed:
        output = {"agentName": result.agent_name, "parts": result.parts}
    return {
        "success": result.success,
        "convid": result.convid if result.success else None,
        "agentName": result.agent_name,
        "output": output,
        "resultCode": result.result_code,
        "askInput": (
            ask_input_body(result.ask_input)
            if result.result_code == "ask" and result.ask_input is not None
            else None
        ),
        "error": (
            {"message": result.error, "data": {}}
            if result.error is not None and not result.success
            else None
        ),
    }


def refusal_body(agent_name: str, code: ResultCode, message: str) -> dict[str, Any]:
    """The ``execAgent`` response of a request that did not run."""
    return exec_agent_body(ExecResult(False, code, None, agent_name, error=message))


def conversation_item(view: ConversationView) -> dict[str, Any]:
    """One conversation of the pinned and unpinned lists."""
    return {
        "convid": view.convid,
        "title": view.title,
        "lastExecuted": epoch_ms(view.last_executed),
        "pinned": view.pinned,
    }


def conversation_turn(turn: Turn) -> dict[str, Any]:
    """One saved run of ``getConversation``."""
    return {
        "query": turn.query,
        "response": {"agentName": turn.agent_name, "parts": turn.parts},
        "resultCode": turn.result_code,
        "respondedAt": epoch_ms(turn.responded_at),
    }
