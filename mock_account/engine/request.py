"""A run's reading of its request (``sys.query``): what it states, over what the request
before it stated when it follows on from it; the facts templates read as ``sys.stated``;
what it says of the record the agent makes; and the request with what it points back to.

Each reading is made once a run and only when something asks for it: most runs need few.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from mock_account.engine.agent_facts import creating_command, vocabulary_of
from mock_account.engine.setting import RunSetting
from mock_account.world import first_sentence
from mock_account.world.details import Details, carried_over, points_back
from mock_account.world.units import with_units

# What a request that points back is about, from the request before it, by detail key.
_CONTEXT = ("company", "person", "product")
_THERE_RE = re.compile(r"\bthere\b|\b(?:that|the same)\s+(?:city|place|office|site)\b", re.I)
_THAT_DAY_RE = re.compile(r"\b(?:that|the same)\s+(?:day|date)\b", re.IGNORECASE)


class RequestReading:
    """What the request of one run says, read lazily and kept for the run."""

    def __init__(self, setting: RunSetting) -> None:
        self.setting = setting
        self._stated: dict[str, Any] | None = None
        self._record_stated: dict[str, Any] | None = None
        self._details: Details | None = None

    @property
    def query(self) -> str:
        return str(self.setting.sys.get("query", ""))

    @property
    def today(self) -> date:
        return date.fromisoformat(self.setting.sys["today"])

    def read_in_context(self) -> None:
        """Read the request as the conversation says it: a value it says alone, in the unit
        of what the request before it asked ("make that 55 instead": 55 ergonomic chairs).
        Before the run's first step, so every command and template reads the same."""
        query = self.setting.sys.get("query")
        earlier = self._earlier_details()
        if not query or not isinstance(earlier, dict):
            return
        stated = self.setting.engine.world.understand(query, self.today)
        if self._follows_own_run() or points_back(query):
            self.setting.sys["query"] = with_units(query, stated, earlier)

    def details(self) -> Details:
        """What the request states, over what the request before it stated when it follows on
        from it (``conv.request``)."""
        if self._details is None:
            stated = self.setting.engine.world.understand(self.setting.sys["query"], self.today)
            earlier = self._earlier_details()
            self._details = carried_over(
                stated,
                earlier if isinstance(earlier, dict) else None,
                same_agent=self._follows_own_run(),
                known=vocabulary_of(self.setting.agent),
            )
        return self._details

    def stated(self) -> dict[str, Any]:
        """What the request states, as templates read it under ``sys.stated``."""
        if self._stated is None:
            query = self.setting.sys["query"]
            parsed = self.setting.engine.world.understand(query, self.today)
            # What happened, as a note, without the ask around it ("Our payroll service is
            # down", not "..., declare a sev1 incident"); whether it asks how a thing is done
            # rather than for it (agents that act then do nothing).
            self._stated = {
                **parsed.summary(),
                "note": first_sentence(query),
                **({"asks_how": True} if parsed.asks_how else {}),
                **({"change_of_it": parsed.change_of_it} if parsed.change_of_it else {}),
                **({"moves_days": True} if parsed.moves_days else {}),
                **({"when_said": parsed.when_said} if parsed.when_said else {}),
            }
        return self._stated

    def name_said(self) -> str | None:
        """The name the request gives the record this agent makes, if it gives one."""
        creating = creating_command(self.setting.agent)
        if creating is None:
            return None
        return self.setting.engine.world.name_said(creating.source, self.query, self.today)

    def record_said(self) -> dict[str, Any]:
        """What the request states of the record this agent makes ({} when it makes none),
        kept: a form field's opening asks for it twice (exists, then value)."""
        if self._record_stated is None:
            creating = creating_command(self.setting.agent)
            self._record_stated = (
                {}
                if creating is None
                else self.setting.engine.world.stated_fields(
                    creating.source, self.query, self.today
                )
            )
        return self._record_stated

    def in_context(self, text: str) -> str:
        """The request with what it points back to, from the request before it: "our
        agreement with them" is with Apex Print, "my flight there for that day" to Barcelona
        on 2026-12-09 (said after it, so its own facts come first)."""
        kept = self.details()
        if not kept.carried or not points_back(text):
            return text
        values, carried = kept.values, kept.carried
        said = [
            f"with {values[k]}" if k == "company" else values[k] for k in _CONTEXT if k in carried
        ]
        place = next((values[k] for k in ("to", "place") if k in carried), None)
        if place and _THERE_RE.search(text):
            said.append(f"to {place}")
        day = next((values[k] for k in ("date", "dates") if k in carried), None)
        if day and _THAT_DAY_RE.search(text):
            said.append(f"on {day.split(' to ')[0]}")
        return f"{text} ({'; '.join(said)})" if said else text

    def _earlier_details(self) -> Any:
        """The details of the request before this one, as the conversation keeps them."""
        before = self.setting.state["conv"].get("request")
        return before.get("details") if isinstance(before, dict) else None

    def _follows_own_run(self) -> bool:
        """Whether the conversation's last successful run was this agent's."""
        runs = [r for r in self.setting.state["runs"] if r.get("resultCode") == "success"]
        return bool(runs) and runs[-1].get("agent") == self.setting.agent.name
