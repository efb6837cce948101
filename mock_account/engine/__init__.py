"""The engine: the conversation-state contract and the runtime that runs agents on it.

``state`` defines what a conversation state holds and checks it before every save; ``runtime``
runs an agent's program on a state (``Engine.run``), through ``interpreter`` (the loop over a
run's frames) and the parts of a run it hands commands to (``request``, ``variables``,
``prompts``, ``history``, ``forms``, ``data_command``, ``effects``); ``program`` compiles agent
commands; ``templates`` substitutes dotted paths; ``mock_model`` is the deterministic language
model.
"""

from mock_account.engine.mock_model import LanguageModel, MockModel
from mock_account.engine.runtime import Engine, RunLimits, RunOutcome
from mock_account.engine.state import (
    DEFAULT_MAX_STATE_BYTES,
    StateInvalid,
    check_state,
    empty_state,
    parse_state,
    serialize_state,
)

__all__ = [
    "DEFAULT_MAX_STATE_BYTES",
    "Engine",
    "LanguageModel",
    "MockModel",
    "RunLimits",
    "RunOutcome",
    "StateInvalid",
    "check_state",
    "empty_state",
    "parse_state",
    "serialize_state",
]
