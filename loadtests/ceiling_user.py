"""The HTTP ceiling: signed-in ``POST``s with a small JSON body that the server answers without
doing anything (``/api/harness/ping``).

The users are the conversation users' kind (``ApiUser``: the same HTTP client, bearer token,
JSON checks and Locust request events, grouped under the name ``/api/harness/ping``), but never
wait between calls: a ceiling is what the server stack gives when it is saturated. Their
requests per second, on the same server, processes and Locust settings as a conversation run,
is the figure that run's req/s and execAgent/s are divided by (``loadtests run --scenario
ceiling``, or ``--with-ceiling`` after another scenario).

    locust -f loadtests/ceiling_user.py --host http://127.0.0.1:9020
"""

from __future__ import annotations

from locust import constant, task

from loadtests.conversation_user import ApiUser

PING = "/api/harness/ping"
#: Small, and read and validated by the server like any call's body.
BODY = {"note": "ceiling"}


class CeilingUser(ApiUser):
    """Pings the server as fast as it answers."""

    wait_time = constant(0)

    @task
    def ping(self) -> None:
        self.call(PING, BODY)
