"""Hypothesis strategies for hostile agent files and templates.

``yamlish_text`` glues YAML syntax fragments (anchors, aliases, tags, flow and block
collections, directives) with random text, so most examples reach the parser's corners
instead of failing on the first character. ``agent_documents`` starts from a valid agent
and puts random values at known and unknown fields, so most examples reach validation.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import strategies as st

from agents_catalog.agent_format import COMMAND_NAMES

YAML_FRAGMENTS = [
    "\n",
    "\n  ",
    "\n    ",
    "- ",
    ": ",
    "? ",
    "{",
    "}",
    "[",
    "]",
    ", ",
    "&a ",
    "*a",
    "&b ",
    "*b",
    "<<: *a",
    "!!python/object/apply:os.system ",
    "!!python/name:os.system",
    "!!binary ",
    "!!set ",
    "!!omap ",
    "!!str ",
    "!!int ",
    "!!float ",
    "!local ",
    "%YAML 1.1\n",
    "%TAG ! x:\n",
    "---\n",
    "...\n",
    "|\n  ",
    ">-\n  ",
    "'",
    '"',
    "\\u0000",
    "\t",
    "#",
    "name",
    "main",
    "prompt",
    "llm",
    "ask",
    "var",
    "if",
    "for",
    "data",
    "output",
    "end",
    "fail",
    "func",
    "conv.trip",
    "{sys.query}",
    "2001-02-30",
    "0x1F",
    ".nan",
    "~",
    "null",
    "true",
    "1e999",
    "\ufeff",
    "\u202e",
    "\ud7ff",
    "9" * 50,
]

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=20)
)


def json_values(max_leaves: int = 20) -> st.SearchStrategy[Any]:
    return st.recursive(
        JSON_LEAVES,
        lambda inner: (
            st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=max_leaves,
    )


yamlish_text = st.lists(st.sampled_from(YAML_FRAGMENTS) | st.text(max_size=6), max_size=40).map(
    "".join
)

VALID_AGENT: dict[str, Any] = {
    "name": "BookTrip",
    "title": "Book a business trip",
    "tag": "travel",
    "description": "Book a flight for a business trip.",
    "examples": ["fly to Berlin next week"],
    "main": [
        {"prompt": {"name": "chat", "user": "{sys.query}"}},
        {"llm": {"prompt": "chat", "reply": "Booked {conv.trip.destination}."}},
        {"var": {"name": "conv.trip", "value": {"destination": "Berlin"}}},
        {"output": "{result}"},
        {"end": {}},
    ],
}

AGENT_FIELDS = ["name", "title", "tag", "description", "examples", "version", "main", "functions"]
COMMANDS = list(COMMAND_NAMES)
COMMAND_FIELDS = [
    "name",
    "scope",
    "system",
    "user",
    "prompt",
    "reply",
    "message",
    "inputs",
    "value",
    "when",
    "then",
    "else",
    "in",
    "do",
    "source",
    "match",
    "type",
    "options",
    "exists",
    "equals",
]

commands = st.dictionaries(
    st.sampled_from(COMMANDS),
    json_values(8) | st.dictionaries(st.sampled_from(COMMAND_FIELDS), json_values(6), max_size=4),
    min_size=1,
    max_size=2,
)


@st.composite
def agent_documents(draw: st.DrawFn) -> dict[str, Any]:
    """A valid agent with random values at some fields and random commands in ``main``."""
    document = dict(VALID_AGENT)
    changes = draw(
        st.dictionaries(
            st.sampled_from(AGENT_FIELDS) | st.text(max_size=6), json_values(), max_size=3
        )
    )
    document.update(changes)
    if draw(st.booleans()):
        document["main"] = [*VALID_AGENT["main"][:2], *draw(st.lists(commands, max_size=4))]
    return document


def dump(document: Any) -> str:
    """YAML text of a value (unicode kept, keys in the order given)."""
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


TEMPLATE_FRAGMENTS = [
    "{",
    "}",
    "{{",
    "}}",
    ".",
    "_",
    "a",
    "b",
    "0",
    "12",
    "conv",
    "trip",
    "{a}",
    "{a.b}",
    "{a.0}",
    "{list.1.x}",
    "{missing.path}",
    "{a.b.c.d}",
    "{__class__}",
    "{a.__dict__}",
    "{0}",
    "{ a }",
    "{a-b}",
    "\u202e",
    "\x00",
]

templates = st.lists(st.sampled_from(TEMPLATE_FRAGMENTS) | st.text(max_size=4), max_size=30).map(
    "".join
)

roots = st.fixed_dictionaries(
    {"a": json_values(), "list": st.lists(json_values(6), max_size=4)},
    optional={"conv": json_values(), "trip": json_values()},
)
