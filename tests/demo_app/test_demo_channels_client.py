"""The demo's channels client answers the same in-process and over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from demo_app.channels_client import ChannelsClient
from demo_app.http_client import HttpClient
from demo_app.inprocess_client import InProcessClient
from demo_app.views import ClientError
from mock_account.api import create_app
from mock_account.deployment import AccountConfig, Deployment, build_deployment

VPN = "The VPN keeps disconnecting on my laptop"


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    folder: Path = tmp_path_factory.mktemp("demo-channels")
    built = build_deployment(
        AccountConfig(data_dir=folder, store_url="memory://", search="bm25", today="2026-11-30")
    )
    yield built
    built.close()


def _token(deployment: Deployment, n: int) -> str:
    return deployment.users.tokens()[n].token


def _client(kind: str, deployment: Deployment, n: int) -> ChannelsClient:
    user = deployment.users.users[n].email
    if kind == "in-process":
        return ChannelsClient(InProcessClient(deployment), user)
    server = TestClient(create_app(deployment))

    def relay(request: httpx.Request) -> httpx.Response:
        # The app answers through TestClient; the demo's own httpx client sends the request.
        answer = server.request(
            request.method, request.url.path, content=request.content, headers=request.headers
        )
        return httpx.Response(answer.status_code, headers=answer.headers, content=answer.content)

    transport = httpx.MockTransport(relay)
    return ChannelsClient(
        HttpClient("http://testserver", _token(deployment, n), transport=transport), user
    )


@pytest.mark.parametrize("kind", ["in-process", "http"])
def test_a_sender_resumes_and_the_inbox_shows_it(kind: str, deployment: Deployment) -> None:
    admin = _client(kind, deployment, 0)
    sender = f"{kind}@example.com"
    first = admin.deliver("email", sender, VPN, contact=f"{kind} person")
    second = admin.deliver("email", sender, "It still drops every ten minutes")
    assert first["resumed"] is False and second["resumed"] is True
    assert second["convid"] == first["convid"] and first["agentName"] == "FixVpnConnection"
    listed = admin.inbox("email", f"{kind} person")
    assert [c["convid"] for c in listed] == [first["convid"]]
    detail = admin.conversation(first["convid"])
    assert [t["agentName"] for t in detail["turns"]] == ["FixVpnConnection"] * 2
    assert admin.identity(first["identity"])["contact"] == f"{kind} person"
    assert any(g["contact"] == f"{kind} person" for g in admin.contacts())


@pytest.mark.parametrize("kind", ["in-process", "http"])
def test_a_member_is_refused_with_one_clear_error(kind: str, deployment: Deployment) -> None:
    member = _client(kind, deployment, 1)
    with pytest.raises(ClientError, match="administrator"):
        member.contacts()
    with pytest.raises(ClientError, match="administrator"):
        member.deliver("im", "slack:U1", VPN)
