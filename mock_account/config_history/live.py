"""Attach a configuration history to a running account: edits live, with no restart.

``attach_history`` makes the account call ``history.refresh()`` before every search and run.
When the store's scope revision moved (a save in this process or any other), the agents are
rebuilt and swapped in at once: the account's agent list, the engine's agents and a search
index rebuilt over them (the sentence vectors of unchanged texts come from the encoder's cache).
Each is replaced by a new object, never changed in place: a run or search in flight keeps the
objects it started with. The definitions an edit replaces stay with the engine, by name and
version, so a conversation paused on an ask resumes on the version that asked; a version
this process never held (it started later) is rebuilt from the kept versions, as long as they
still hold it.

A store that cannot be read while refreshing does not stop the account: it keeps serving the
configuration it applied last and tries again at the next request.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import yaml

from agents_catalog.agent_format import AgentDefinition
from agents_catalog.checker.engine import check_text, load_account_index
from mock_account.config_history.history import Checker, ConfigHistory
from mock_account.config_history.sections import agent_json
from mock_account.search.index import SearchIndex
from mock_account.stores.errors import StoreError

log = logging.getLogger(__name__)
MAX_EARLIER = 500  # replaced definitions a process keeps in memory


def apply_agents(account: Any, agents: dict[str, AgentDefinition]) -> None:
    """Swap ``agents`` into a running account (see the module's documentation)."""
    engine = account.engine
    for name, old in engine.agents.items():
        new = agents.get(name)
        if new is not None and new.version != old.version:
            engine.earlier[(name, old.version)] = old
    # Bounded: older ones are rebuilt from the store when a paused conversation needs them.
    for key in list(engine.earlier)[: max(0, len(engine.earlier) - MAX_EARLIER)]:
        del engine.earlier[key]
    old_index: SearchIndex = account.index
    index = SearchIndex.build(list(agents.values()), old_index.params, old_index.encoder)
    engine.agents = dict(agents)
    account.agents = dict(agents)
    account.index = index


def attach_history(account: Any, history: ConfigHistory) -> ConfigHistory:
    """Make ``account`` follow ``history`` live, and apply what is saved already."""
    history.apply = lambda agents: apply_agents(account, agents)

    def before_use() -> None:
        try:
            history.refresh()
        except StoreError as exc:
            log.warning("agent configurations not refreshed: %s", exc)

    account.before_use = before_use

    def find_earlier(name: str, version: str) -> AgentDefinition | None:
        try:
            return history.definition_at(name, version)
        except StoreError as exc:
            log.warning("earlier version %s of %s not rebuilt: %s", version, name, exc)
            return None

    account.engine.find_earlier = find_earlier
    history.refresh(force=True)
    account.config_history = history
    return history


def scheme_checker(account_dir: str | Path) -> Checker:
    """The naming-scheme check of one agent, against who writes and reads what in the account
    folder (read once, on the first check)."""
    cached: dict[str, Any] = {}

    def check(agent: AgentDefinition) -> list[dict[str, Any]]:
        if "index" not in cached:
            cached["index"] = load_account_index(account_dir)
        text = yaml.safe_dump(agent_json(agent), sort_keys=False, allow_unicode=True)
        report = check_text(text, f"{agent.name}.yaml", account=cached["index"])
        return [finding.to_dict() for finding in report.findings]

    return check
