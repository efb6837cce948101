"""Conversations over the agent server's HTTP API, the way people use it.

A journey searches a request, runs the best match, answers its asks (defaults, else the first
option), then sends follow-ups that hand off along the account's hand-off graph: an example
request of an agent that reads a variable the last agent wrote. Now and then a user lists its
conversations, pins or unpins one, renames one or deletes one. Requests are grouped by ``name``
(``/api/exec/execAgent [follow-up]``...), and the ``Server-Timing`` phases of every run (restore,
run, serialize, encrypt, write, total) go into microsecond histograms, overall and per kind of
request (``server write [follow-up]``; see ``locust_support``).

The ``stream`` task (``LOADTEST_WEIGHT_STREAM``, default 1 against 8 plain journeys) runs the same
journey with ``stream: true``: its requests are named ``[new, stream]``..., the phases come from
the trailing trace lines, and the time to the first byte of the body and to the final ``agent``
line go into the ``stream first-byte`` and ``stream final-line`` histograms (printed with the
server phases). Only the Search2o shapes are used.

The journeys are planned from an agent folder (``LOADTEST_AGENTS_DIR``, default the embedded
account): the target account's own agents. Each step counts the agent the server's search chose
(``locust_support.count_agent_run``), under its own name even when the folder lacks it. Users
take the run's bearer tokens in turn (``loadtests.identities``).

Run it with:

    locust -f loadtests/conversation_user.py --host http://127.0.0.1:9020

Weights, think time and the token come from environment variables (see ``loadtests.settings``).
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from typing import Any

import gevent
from locust import FastHttpUser, between, task

from loadtests.identities import bearer_tokens, token_for
from loadtests.journeys import JourneyPlanner, Request, answer_ask, read_stream
from loadtests.locust_support import (
    count_agent_run,
    fail,
    record_us,
    run_user_number,
    status_problem,
)
from loadtests.settings import (
    agents_dir,
    env_int,
    exec_rate_per_user,
    random_seed,
    think_time,
    tls_insecure,
    weight,
)
from mock_account.api.timing import parse_server_timing
from mock_account.engine.state import SERVER_FAILURES
from mock_account.search.routing import choose_agent

PLANNER = JourneyPlanner.from_account(agents_dir())
bearer_tokens()  # reading the file, or generating the mock users, blocks: at import, not per user
MAX_FOLLOWUPS = env_int("LOADTEST_MAX_FOLLOWUPS", 3)
MAX_ASKS = 3
KEPT_CONVERSATIONS = 20
EXEC_RATE = exec_rate_per_user()
#: How far behind its pace a user may fall and still catch up (by not waiting).
MAX_LAG_S = 1.0


def _arriving(response: Any) -> Iterator[bytes]:
    """The body of a streamed response line by line, each as soon as it has arrived.

    ``iter_content(n)`` waits for ``n`` bytes (or the end), which would time every line at the
    end of the stream; the HTTP client's own ``readline`` returns a line once it is complete.
    """
    raw = getattr(response, "_response", None)
    if raw is None or not hasattr(raw, "readline"):
        yield from response.iter_content(1, decode_content=False)
        return
    while line := raw.readline(b"\n"):
        yield bytes(line)


def _run_failed(response: Any, data: dict[str, Any]) -> bool:
    """Whether the run's answer is a failure of the server, marked failed in the statistics."""
    code = data.get("resultCode")
    if code in SERVER_FAILURES or code is None:
        fail(response, f"{code}: {(data.get('error') or {}).get('message')}")
        return True
    return False


class ApiUser(FastHttpUser):
    """A signed-in user of the API: JSON calls with the bearer token, phases recorded."""

    abstract = True
    wait_time = between(*think_time())
    # Locust's own default is not to verify certificates.
    insecure = tls_insecure()
    _numbers = itertools.count()

    def on_start(self) -> None:
        number = run_user_number(self.environment, next(self._numbers))
        self.headers = {"Authorization": f"Bearer {token_for(number)}"}
        self.streaming = False
        seed = random_seed()
        # Each user its own stream, reproducible when a seed is given.
        self.rng = random.Random(None if seed is None else seed * 100_003 + number)
        # Paced users start at a random phase, so their runs spread over each interval.
        interval = 1.0 / EXEC_RATE if EXEC_RATE else 0.0
        self.next_run = time.monotonic() + self.rng.uniform(0, interval)

    def pace(self) -> None:
        """With ``LOADTEST_EXEC_RATE_PER_USER``: wait for this user's next execAgent slot."""
        if not EXEC_RATE:
            return
        now = time.monotonic()
        self.next_run = max(self.next_run, now - MAX_LAG_S)
        if self.next_run > now:
            gevent.sleep(self.next_run - now)
        self.next_run += 1.0 / EXEC_RATE

    def call(self, path: str, body: dict[str, Any], name: str | None = None) -> dict[str, Any]:
        """POST a JSON body; a non-200 answer or a body with ``success: false`` is a failure."""
        with self.client.post(
            path, json=body, headers=self.headers, name=name or path, catch_response=True
        ) as response:
            data = self._json(response)
            if data is not None and data.get("success") is False:
                fail(response, f"{path}: {(data.get('error') or {}).get('message')}")
            return data or {}

    @staticmethod
    def _json(response: Any) -> dict[str, Any] | None:
        if response.status_code != 200:
            fail(response, status_problem(response))
            return None
        try:
            data = response.json()
        except ValueError:
            fail(response, "the answer is not JSON")
            return None
        if not isinstance(data, dict):
            fail(response, "the answer is not a JSON object")
            return None
        return data

    def _post_exec(self, body: dict[str, Any], label: str, **options: Any) -> Any:
        """The ``execAgent`` request, named by ``label`` in the statistics; its response is
        judged by the caller (``catch_response``)."""
        return self.client.post(
            "/api/exec/execAgent",
            json=body,
            headers=self.headers,
            name=f"/api/exec/execAgent {label}",
            catch_response=True,
            **options,
        )

    def exec_agent(
        self, agent: str, convid: str | None, inputs: dict[str, Any], kind: str
    ) -> dict[str, Any] | None:
        """Run ``agent``; the answer, or ``None`` when the server failed."""
        self.pace()
        body: dict[str, Any] = {"agentName": agent, "inputs": inputs, "stream": self.streaming}
        if convid:
            body["convid"] = convid
        if self.streaming:
            return self._exec_streamed(body, kind)
        with self._post_exec(body, f"[{kind}]") as response:
            data = self._json(response)
            if data is None or _run_failed(response, data):
                return None
            for phase, ms in parse_server_timing(response.headers.get("Server-Timing")).items():
                record_us(f"server {phase}", ms * 1000.0)
                record_us(f"server {phase} [{kind}]", ms * 1000.0)
            return data

    def _exec_streamed(self, body: dict[str, Any], kind: str) -> dict[str, Any] | None:
        """``execAgent`` with ``stream: true``: the final line's answer, lines timed."""
        started = time.perf_counter()
        with self._post_exec(body, f"[{kind}, stream]", stream=True) as response:
            if response.status_code != 200:
                fail(response, status_problem(response))
                return None
            outcome = read_stream(_arriving(response), started)
            if outcome.problem or outcome.final is None:
                fail(response, outcome.problem or "no final line")
                return None
            data = outcome.final
            if _run_failed(response, data):
                return None
            if outcome.first_byte_s is not None:
                record_us("stream first-byte", outcome.first_byte_s * 1e6)
            if outcome.final_line_s is not None:
                record_us("stream final-line", outcome.final_line_s * 1e6)
            for phase, ms in outcome.phases_ms.items():
                record_us(f"server {phase}", ms * 1000.0)
            return data


class ConversationUser(ApiUser):
    """Searches, runs, answers, follows up and tidies its conversations."""

    def on_start(self) -> None:
        super().on_start()
        self.conversations: list[str] = []

    def run_request(
        self, request: Request, convid: str | None, last_agent: str | None, kind: str
    ) -> tuple[str, str] | None:
        """Search, run the best match and answer its asks: ``(convid, agent)`` or ``None``."""
        found = self.call("/api/exec/search", {"query": request.query})
        names = [hit["agentName"] for hit in found.get("searchResults") or []]
        # With no match, the agent that answered last answers again; on a first request that
        # nothing matched, the planned agent.
        agent = choose_agent(names, previous_agent=last_agent).agent_name or request.agent
        data = self.exec_agent(agent, convid, {"query": request.query}, kind)
        if data is not None:
            # Under the name the server chose, in the planning folder or not: a target's account
            # may hold agents its folder lacks, and running them is no failure.
            count_agent_run(agent)
        asks = 0
        while data is not None and data.get("resultCode") == "ask" and asks < MAX_ASKS:
            asks += 1
            answers = answer_ask(data.get("askInput") or {})
            data = self.exec_agent(agent, data.get("convid") or convid, answers, "answer")
        if data is None or not data.get("success") or not data.get("convid"):
            return None
        return data["convid"], agent

    @task(weight("journey", 8))
    def conversation(self) -> None:
        self.streaming = False
        self.journey()

    @task(weight("stream", 1))
    def streamed_conversation(self) -> None:
        """The same journey, every execAgent with ``stream: true``."""
        self.streaming = True
        try:
            self.journey()
        finally:
            self.streaming = False

    def journey(self) -> None:
        ran = self.run_request(PLANNER.first_request(self.rng), None, None, "new")
        if ran is None:
            return
        convid, agent = ran
        self.conversations = [*self.conversations, convid][-KEPT_CONVERSATIONS:]
        for _ in range(self.rng.randint(1, max(1, MAX_FOLLOWUPS))):
            ran = self.run_request(PLANNER.follow_up(agent, self.rng), convid, agent, "follow-up")
            if ran is None:
                return
            agent = ran[1]

    @task(weight("list", 2))
    def list_conversations(self) -> None:
        self.call("/api/user/getUnpinnedConversations", {"limit": 10})
        self.call("/api/user/getPinnedConversations", {})

    @task(weight("pin", 1))
    def pin(self) -> None:
        if not self.conversations:
            return
        convid = self.rng.choice(self.conversations)
        pinned = self.rng.random() < 0.5
        with self.client.post(
            "/api/user/setPinned",
            json={"convid": convid, "pinned": pinned},
            headers=self.headers,
            name="/api/user/setPinned",
            catch_response=True,
        ) as response:
            # 409 is the pin limit, shared by every simulated user of one account user: expected.
            if response.status_code == 409:
                response.success()
            else:
                self._json(response)

    @task(weight("rename", 1))
    def rename(self) -> None:
        if self.conversations:
            convid = self.rng.choice(self.conversations)
            title = f"Load test {self.rng.randrange(10_000):04d}"
            self.call("/api/user/setConversationTitle", {"convid": convid, "title": title})

    @task(weight("delete", 1))
    def delete(self) -> None:
        if self.conversations:
            convid = self.conversations.pop(0)
            self.call("/api/user/deleteConversation", {"convid": convid})
