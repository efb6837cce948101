"""Agents edited while conversations run: no run fails because of an edit, and no search after
an acknowledged edit is stale.

The conversation users of ``conversation_user`` run their journeys; one editor (``fixed_count``;
``LOADTEST_EDITORS`` for more) keeps editing agents over the harness extras. Each edit gives an
agent's examples a made-up word of its own (``quorv…``), saves it, and at once searches for
that word: the answer must put the edited agent first, whichever server process answers
(``/api/exec/search [after edit]``; a miss is a failure named "stale search"). Then it runs the
agent on the word, and now and then restores the version before the edit (an undo) and
checks the word is gone from search. It also rewords the forms of agents that ask
(``saveAgentConfig [asks]``) while conversations wait on them: their answers must still be
taken, on the version that asked. Run it with ``loadtests run --scenario config-edit`` or:

    locust -f loadtests/config_edit_user.py --host http://127.0.0.1:9020
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from locust import between, task

import loadtests.conversation_user as conversations
from loadtests.conversation_user import ApiUser
from loadtests.edit_words import made_up_word
from loadtests.settings import env_int

EDITED_AGENTS = (
    "BookBusinessFlight",
    "SubmitExpenseClaim",
    "LookUpCustomerAccount",
    "DeclareProductionIncident",
    "BookHotelStay",
    "AnswerOutageQuestion",
)
# Agents with a form that the conversation journeys reach (expenses, incidents).
ASKING_AGENTS = ("SubmitExpenseClaim", "DeclareProductionIncident")
H = "/api/harness"
_words = itertools.count()

__all__ = ["ConfigEditor", "EditedConversationUser"]

# When each agent last asked a conversation user of this process for a form's answers: the
# editor rewords those forms, so edits land while conversations wait on them.
ASKED: dict[str, float] = {}
RECENT_S = 5.0


class EditedConversationUser(conversations.ConversationUser):
    """The conversation journeys, noting which agents just asked."""

    def exec_agent(
        self, agent: str, convid: str | None, inputs: dict[str, Any], kind: str
    ) -> dict[str, Any] | None:
        data = super().exec_agent(agent, convid, inputs, kind)
        if data is not None and data.get("resultCode") == "ask":
            ASKED[agent] = time.monotonic()
        return data


class ConfigEditor(ApiUser):
    """Edits agents' examples live, checks search sees each edit at once, undoes some."""

    fixed_count = env_int("LOADTEST_EDITORS", 1)
    wait_time = between(0.5, 1.5)

    def _post(self, endpoint: str, body: dict[str, Any], name: str | None = None) -> dict[str, Any]:
        return self.call(f"{H}/{endpoint}", body, name=name)

    @task(2)
    def edit_form(self) -> None:
        """Reword the form of an agent that asks, while conversations wait on that very form:
        they resume on the version that asked (the answers must still be taken)."""
        now = time.monotonic()
        recent = sorted(name for name, at in ASKED.items() if now - at < RECENT_S)
        agent = self.rng.choice(recent or ASKING_AGENTS)
        config = self._post("getAgentConfig", {"agentName": agent})
        asks = (config.get("sections") or {}).get("asks") or []
        if not asks:
            return
        message = asks[0]["message"].split(" (wording ")[0]
        asks[0]["message"] = f"{message} (wording {self.rng.randrange(1_000_000)})"
        self._post(
            "saveAgentConfig",
            {"agentName": agent, "section": "asks", "content": asks},
            name=f"{H}/saveAgentConfig [asks]",
        )

    @task(3)
    def edit(self) -> None:
        agent = self.rng.choice(EDITED_AGENTS)
        config = self._post("getAgentConfig", {"agentName": agent})
        if not config:
            return
        description = config["sections"]["description"]
        word = made_up_word(next(_words) * 1000 + self.rng.randrange(1000))
        examples = [e for e in description.get("examples", []) if "quorv" not in e]
        description["examples"] = [*examples, f"{word} request"]
        saved = self._post(
            "saveAgentConfig",
            {"agentName": agent, "section": "description", "content": description},
        )
        if not saved.get("changedSections"):
            return
        self._expect_first(word, agent, present=True)
        self.exec_agent(agent, None, {"query": f"{word} request"}, "edited agent")
        if self.rng.random() < 0.3:
            versions = self._post(
                "listAgentConfigVersions", {"agentName": agent, "section": "description"}
            )
            kept = (versions.get("sections") or {}).get("description") or []
            if len(kept) >= 2:
                self._post(
                    "restoreAgentConfig",
                    {"agentName": agent, "section": "description", "revision": kept[1]["revision"]},
                )
                self._expect_first(word, agent, present=False)

    def _expect_first(self, word: str, agent: str, *, present: bool) -> None:
        name = f"/api/exec/search [after {'edit' if present else 'undo'}]"
        with self.client.post(
            "/api/exec/search",
            json={"query": f"{word} request"},
            headers=self.headers,
            name=name,
            catch_response=True,
        ) as response:
            data = self._json(response)
            if data is None:
                return
            names = [hit["agentName"] for hit in data.get("searchResults") or []]
            found = bool(names) and names[0] == agent
            if found != present:
                response.failure(
                    f"stale search: '{word}' {'missed' if present else 'still finds'} {agent} "
                    f"after the {'edit' if present else 'undo'} was acknowledged ({names[:2]})"
                )
