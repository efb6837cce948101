"""A run's prompts: the histories ``prompt`` commands declare and ``llm`` and ``data``
commands add to.

A prompt's scope says where its history lives: ``local`` ones only as long as the run (and a
pause of it), ``agent`` ones in the state under this agent's key, shared ones in the state
under their name.
"""

from __future__ import annotations

from typing import Any

from agents_catalog.agent_format import PromptArgs
from mock_account.engine.errors import AgentError
from mock_account.engine.setting import RunSetting
from mock_account.engine.state import prompt_key
from mock_account.engine.variables import Variables


class Prompts:
    """Finds and declares the prompt histories of one run."""

    def __init__(self, setting: RunSetting, variables: Variables) -> None:
        self.setting = setting
        self.variables = variables
        self.local: dict[str, dict[str, Any]] = {}

    def history(self, name: str) -> dict[str, Any]:
        """The history of the prompt ``name``: the run's own first, then this agent's, then
        the shared one."""
        if name in self.local:
            return self.local[name]
        prompts = self.setting.state["prompts"]
        own = prompts.get(prompt_key(name, "agent", self.setting.agent.name))
        if own is not None:
            return own
        shared = prompts.get(name)
        if shared is None:
            raise AgentError(f"prompt '{name}' is used before a 'prompt' command declares it")
        return shared

    def declare(self, frame: dict[str, Any], args: PromptArgs) -> None:
        agent = self.setting.agent.name
        if args.scope == "local":
            table, key = self.local, args.name
        else:
            table, key = self.setting.state["prompts"], prompt_key(args.name, args.scope, agent)
        history = table.get(key)
        if history is None:
            history = {
                "name": args.name,
                "scope": args.scope,
                "agent": agent if args.scope == "agent" else None,
                "system": "",
                "messages": [],
            }
            table[key] = history
        if args.system is not None:
            history["system"] = self.variables.text(frame, args.system)
        if args.user is not None:
            history["messages"].append(
                {"role": "user", "content": self.variables.text(frame, args.user), "agent": agent}
            )
