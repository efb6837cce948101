"""A client of the agents' configuration history, in process or over HTTP.

Both answer in the wire shapes of the harness extras (``/api/harness/getAgentConfig``,
``listAgentConfigVersions``, ``diffAgentConfig``, ``saveAgentConfig``, ``restoreAgentConfig``,
``cloneAgent``), so a page or a script works the same on the embedded account and on a server.
Every refusal is a ``ClientError`` with the server's message (and, for a save the naming scheme
refuses, its findings in ``findings``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import httpx

from demo_app.http_transport import post_json
from demo_app.views import ClientError
from mock_account.config_history import (
    SECTIONS,
    ConfigFormatError,
    ConfigHistory,
    ConfigRefused,
    UnknownAgent,
    split_agent,
)
from mock_account.stores.errors import StoreError, VersionConflict


class ConfigRefusedError(ClientError):
    """A save refused because of the naming scheme, with the checker's findings."""

    def __init__(self, message: str, findings: list[dict[str, Any]]) -> None:
        super().__init__(message)
        self.findings = findings


class ConfigClient(ABC):
    """The history's calls, each one endpoint and its JSON body; a subclass answers them, from
    the embedded account or from a server, so both build their requests in one place."""

    @abstractmethod
    def _answer(self, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
        """What ``endpoint`` answers to ``body``; a refusal is a ``ClientError``."""

    def get(self, agent: str) -> dict[str, Any]:
        return self._answer("getAgentConfig", {"agentName": agent})

    def versions(self, agent: str, section: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"agentName": agent}
        if section:
            body["section"] = section
        return self._answer("listAgentConfigVersions", body)

    def diff(self, agent: str, section: str, revision: int, against: int | None = None) -> str:
        body: dict[str, Any] = {"agentName": agent, "section": section, "revision": revision}
        if against is not None:
            body["against"] = against
        return str(self._answer("diffAgentConfig", body)["diff"])

    def save(
        self,
        agent: str,
        section: str,
        content: Any,
        base_revision: int | None = None,
        origin: str = "edit",
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "agentName": agent,
            "section": section,
            "content": content,
            "origin": origin,
        }
        if base_revision is not None:
            body["baseRevision"] = base_revision
        return self._answer("saveAgentConfig", body)

    def restore(self, agent: str, section: str, revision: int) -> dict[str, Any]:
        return self._answer(
            "restoreAgentConfig", {"agentName": agent, "section": section, "revision": revision}
        )

    def clone(self, agent: str, new_name: str) -> dict[str, Any]:
        return self._answer("cloneAgent", {"agentName": agent, "newName": new_name})


class InProcessConfigClient(ConfigClient):
    """The history of an embedded account, acting as ``author``."""

    def __init__(self, history: ConfigHistory, author: str) -> None:
        self.history = history
        self.author = author

    def _answer(self, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
        try:
            return self._call(endpoint, body)
        except ConfigRefused as exc:
            raise ConfigRefusedError(str(exc), exc.findings) from exc
        except (ConfigFormatError, UnknownAgent, VersionConflict) as exc:
            raise ClientError(str(exc)) from exc
        except StoreError as exc:
            raise ClientError(f"The store is unavailable: {exc}") from exc

    def _call(self, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
        """The history's call for ``endpoint``, answered as the server would (without its
        ``success``)."""
        history, agent = self.history, body["agentName"]
        if endpoint == "getAgentConfig":
            current = history.current(agent)
            return {
                "agentName": agent,
                "revision": history.store.agent_revisions(history.scope).get(agent, 0),
                "version": current.version,
                "sections": split_agent(current),
            }
        if endpoint == "listAgentConfigVersions":
            sections = [body["section"]] if body.get("section") else list(SECTIONS)
            return {
                "agentName": agent,
                "keep": history.keep,
                "sections": {
                    s: [v.to_dict() for v in history.versions(agent, s)] for s in sections
                },
            }
        if endpoint == "diffAgentConfig":
            return {
                "diff": history.diff(agent, body["section"], body["revision"], body.get("against"))
            }
        if endpoint == "saveAgentConfig":
            saved = history.save(
                agent,
                body["section"],
                body["content"],
                author=self.author,
                origin=body["origin"],
                base_revision=body.get("baseRevision"),
            )
            return saved.to_dict()
        if endpoint == "restoreAgentConfig":
            restored = history.restore(agent, body["section"], body["revision"], author=self.author)
            return restored.to_dict()
        if endpoint == "cloneAgent":
            return history.clone(agent, body["newName"], author=self.author).to_dict()
        raise ClientError(f"unknown call {endpoint}")


class HttpConfigClient(ConfigClient):
    """The history of a server, through its harness extras, as the user of ``token``."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout_s: float = 10.0,
        transport: httpx.BaseTransport | None = None,
        http: httpx.Client | None = None,
    ) -> None:
        """``http``: an httpx client to send through (a test's ``TestClient``)."""
        self.base_url = base_url.rstrip("/")
        self._http = http or httpx.Client(
            base_url=self.base_url, timeout=timeout_s, transport=transport
        )
        self._http.headers["Authorization"] = f"Bearer {token}"

    def _answer(self, endpoint: str, body: dict[str, Any]) -> dict[str, Any]:
        data, response = post_json(self._http, self.base_url, f"/api/harness/{endpoint}", body)
        if response.status_code >= 400 or not isinstance(data, dict):
            error = data.get("error") if isinstance(data, dict) else None
            message = error.get("message", "") if isinstance(error, dict) else ""
            message = message or f"the server answered {response.status_code} to {endpoint}"
            if isinstance(data, dict) and data.get("findings"):
                raise ConfigRefusedError(message, data["findings"])
            raise ClientError(message)
        return data

    def close(self) -> None:
        self._http.close()


def config_client(client: Any, user: str) -> ConfigClient:
    """The configuration client that goes with a demo client (embedded or server)."""
    deployment = getattr(client, "deployment", None)
    if deployment is not None:
        return InProcessConfigClient(deployment.config_history, user)
    base_url, token = getattr(client, "base_url", None), getattr(client, "token", None)
    if base_url and token:
        return HttpConfigClient(base_url, token)
    raise ClientError("This client cannot reach the agents' configuration history.")
