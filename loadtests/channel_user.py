"""Senders who come back: many email and IM senders writing again and again through channels.

Each simulated user delivers messages (``/api/harness/deliverMessage``, as the account's
administrator, like an email gateway or an IM bot) for senders of its own:
``LOADTEST_SENDERS`` email addresses and as many IM ids (default 10 each), so a person writes
one message at a time, as people do, while many people write at once. A sender's first message
starts their conversation; every later one must come back to it (``resumed: true``, the same
``convid``), or the request is a failure. An ask is answered at once (the default, else the
first option). Now and then a user reads the Inbox.

    locust -f loadtests/channel_user.py --host http://127.0.0.1:9020
    loadtests run --scenario channels --users 20 --spawn-rate 5 --run-time 30s --out out/ch
"""

from __future__ import annotations

import itertools
import os
import random
import threading
from typing import Any

from locust import FastHttpUser, between, task

from loadtests.identities import bearer_tokens, token_for
from loadtests.journeys import JourneyPlanner, answer_ask
from loadtests.locust_support import fail, run_user_number, status_problem
from loadtests.settings import agents_dir, env_int, random_seed, think_time, tls_insecure

PLANNER = JourneyPlanner.from_account(agents_dir())
bearer_tokens()  # reading the file, or generating the mock users, blocks: at import, not per user
SENDERS = env_int("LOADTEST_SENDERS", 10)
MAX_ASKS = 3

# The conversation each sender is in, as this process saw it first: a returning sender must be
# put back into it.
_conversations: dict[tuple[str, str], str] = {}
_lock = threading.Lock()


def sender_of(channel: str, user: str, number: int) -> str:
    if channel == "email":
        return f"sender-{user}-{number}@customers.example"
    return f"im:U{user}-{number}"


class ReturningSender(FastHttpUser):
    """Delivers messages as returning email and IM senders and checks they resume."""

    wait_time = between(*think_time())
    # Locust's own default is not to verify certificates.
    insecure = tls_insecure()
    _numbers = itertools.count()

    def on_start(self) -> None:
        self.number = next(self._numbers)
        token = token_for(run_user_number(self.environment, self.number))
        self.headers = {"Authorization": f"Bearer {token}"}
        seed = random_seed()
        self.rng = random.Random(None if seed is None else seed * 100_003 + self.number)
        # Unique per process and user: workers of a distributed run each number from 0.
        self.user_id = f"{os.getpid()}x{self.number}"

    def deliver(self, body: dict[str, Any], name: str) -> dict[str, Any] | None:
        with self.client.post(
            "/api/harness/deliverMessage",
            json=body,
            headers=self.headers,
            name=name,
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                fail(response, status_problem(response))
                return None
            data = response.json()
            if not data.get("success"):
                fail(response, f"{data.get('resultCode')}: {data.get('error')}")
                return None
            key = (body["channel"], body["sender"])
            with _lock:
                known = _conversations.setdefault(key, data["convid"])
            if known != data["convid"]:
                fail(response, f"{key[1]} came back to another conversation")
                return None
            return data

    @task(10)
    def message(self) -> None:
        channel = self.rng.choice(("email", "im"))
        sender = sender_of(channel, self.user_id, self.rng.randrange(SENDERS))
        with _lock:
            returning = (channel, sender) in _conversations
        kind = "return" if returning else "first"
        query = PLANNER.first_request(self.rng).query
        data = self.deliver(
            {"channel": channel, "sender": sender, "query": query},
            f"/api/harness/deliverMessage [{channel} {kind}]",
        )
        asks = 0
        while data is not None and data.get("resultCode") == "ask" and asks < MAX_ASKS:
            asks += 1
            data = self.deliver(
                {
                    "channel": channel,
                    "sender": sender,
                    "agentName": data["agentName"],
                    "inputs": answer_ask(data.get("askInput") or {}),
                },
                f"/api/harness/deliverMessage [{channel} answer]",
            )

    @task(1)
    def inbox(self) -> None:
        with self.client.post(
            "/api/harness/getInbox",
            json={"limit": 25},
            headers=self.headers,
            name="/api/harness/getInbox",
            catch_response=True,
        ) as response:
            if response.status_code != 200:
                fail(response, status_problem(response))
