"""The reference shapes of SPEC §5, written by hand as JSON Schemas (draft 2020-12).

Not generated from the server's models: these say what a client of the Search2o agent server
reads, so the server is checked against the reference, not against itself. Objects are closed
(``additionalProperties: false``); the only keys beyond the reference are the harness extras the
spec names (``score`` per search result, always sent; ``fields`` in a 422's ``error.data``).
"""

from __future__ import annotations

from typing import Any

CONVID = {"type": "string", "pattern": "^[0-9A-Za-z]{22}$"}
EPOCH_MS = {"type": "integer", "minimum": 1_000_000_000_000}
RESULT_CODES = [
    "success",
    "ask",
    "failCommand",
    "errorInAgent",
    "callFailed",
    "unknownConversation",
    "timedOut",
    "stopped",
    "mustLogin",
    "unexpected",
]
BEHAVIORS = ["executeTopMatch", "executeOnlyMatch", "showResults"]


def closed(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object with exactly these keys (the optional ones may be left out)."""
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
        "additionalProperties": False,
    }


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


PART = closed(
    {"contentType": {"enum": ["text", "html", "image"]}, "text": {"type": "string"}},
    {"mimeType": {"type": "string"}},
)
OUTPUT = closed({"agentName": {"type": "string"}, "parts": {"type": "array", "items": PART}})
ASK_FIELD = closed(
    {
        "name": {"type": "string"},
        "type": {"enum": ["str", "password", "text", "chooseOne", "chooseMany"]},
        "label": {"type": "string"},
        "description": nullable({"type": "string"}),
        "options": nullable({"type": "array", "items": {"type": "string"}}),
        "default": {},
        "hidden": {"type": "boolean"},
    }
)
ASK_INPUT = closed({"message": {"type": "string"}, "inputs": {"type": "array", "items": ASK_FIELD}})
FIELD_PROBLEM = closed({"field": {"type": "string"}, "message": {"type": "string"}})
ERROR_DATA = closed({}, {"fields": {"type": "array", "items": FIELD_PROBLEM}})
EXEC_ERROR = closed({"message": {"type": "string", "minLength": 1}, "data": closed({})})

EXEC_AGENT = {
    **closed(
        {
            "success": {"type": "boolean"},
            "convid": nullable(CONVID),
            "agentName": {"type": "string"},
            "output": nullable(OUTPUT),
            "resultCode": {"enum": RESULT_CODES},
            "askInput": nullable(ASK_INPUT),
            "error": nullable(EXEC_ERROR),
        }
    ),
    "allOf": [
        {  # on failure convid and output are null, and the error says why
            "if": {"properties": {"success": {"const": False}}},
            "then": {
                "properties": {
                    "convid": {"type": "null"},
                    "output": {"type": "null"},
                    "error": EXEC_ERROR,
                }
            },
            "else": {"properties": {"convid": CONVID, "error": {"type": "null"}}},
        },
        {  # askInput is null unless the result is ask
            "if": {"properties": {"resultCode": {"const": "ask"}}},
            "then": {"properties": {"askInput": ASK_INPUT}},
            "else": {"properties": {"askInput": {"type": "null"}}},
        },
    ],
}
#: The last line of a stream: the execAgent response with ``output: null``.
STREAMED_AGENT = {"allOf": [EXEC_AGENT, {"properties": {"output": {"type": "null"}}}]}

SEARCH = closed(
    {
        "success": {"const": True},
        "searchResults": {
            "type": "array",
            "items": closed(
                {
                    "agentName": {"type": "string"},
                    "agentTitle": {"type": "string"},
                    "score": {"type": "number", "minimum": 0, "maximum": 1},  # harness extra
                }
            ),
        },
        "searchBehavior": {"enum": BEHAVIORS},
        "followupBehavior": {"enum": [*BEHAVIORS, "executePrevious"]},
    }
)
ITEM = closed(
    {
        "convid": CONVID,
        "title": {"type": "string", "minLength": 1, "maxLength": 200},
        "lastExecuted": EPOCH_MS,
        "pinned": {"type": "boolean"},
    }
)
GET_CONVERSATION = closed(
    {
        "success": {"const": True},
        "convid": CONVID,
        "conversation": {
            "type": "array",
            "items": closed(
                {
                    "query": {"type": "string"},
                    "response": OUTPUT,
                    "resultCode": {"enum": ["success", "ask"]},
                    "respondedAt": EPOCH_MS,
                }
            ),
        },
    }
)
PINNED = closed(
    {"success": {"const": True}, "pinnedConversations": {"type": "array", "items": ITEM}}
)
UNPINNED = closed(
    {
        "success": {"const": True},
        "unpinnedConversations": {"type": "array", "items": ITEM},
        "nextCursor": nullable({"type": "string", "minLength": 1}),
    }
)
DONE = closed({"success": {"const": True}})
ERROR = closed(
    {
        "success": {"const": False},
        "error": closed({"message": {"type": "string", "minLength": 1}, "data": ERROR_DATA}),
    }
)
STREAM_LINE = {
    "oneOf": [
        closed({"type": {"const": "progress"}, "value": {"type": "string"}}),
        closed({"type": {"const": "data"}, "value": PART}),
        closed(
            {
                "type": {"const": "trace"},
                "traceType": {"type": "string"},
                "value": closed(
                    {
                        "path": {"type": "string"},
                        "duration": {"type": "number", "minimum": 0},
                        "message": {"type": "string"},
                    }
                ),
            }
        ),
        closed({"type": {"const": "noop"}}),
        closed({"type": {"const": "agent"}, "value": STREAMED_AGENT}),
    ]
}

#: Operation id -> the reference schema of its 200 JSON body.
SUCCESS_BODIES: dict[str, dict[str, Any]] = {
    "search": SEARCH,
    "execAgent": EXEC_AGENT,
    "getConversation": GET_CONVERSATION,
    "getPinnedConversations": PINNED,
    "getUnpinnedConversations": UNPINNED,
    "setConversationTitle": DONE,
    "setPinned": DONE,
    "deleteConversation": DONE,
}


def reference(operation: str, status: int) -> dict[str, Any]:
    """The reference schema of an answer: the endpoint's body on 200, the error body else."""
    return SUCCESS_BODIES[operation] if status == 200 else ERROR
