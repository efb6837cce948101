"""The agent configuration endpoints (harness extras): save, list, diff, restore, clone, and
that an acknowledged edit is what the next search and run use."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

H = "/api/harness"


def _post(client: TestClient, endpoint: str, body: dict[str, Any], status: int = 200) -> Any:
    reply = client.post(f"{H}/{endpoint}", json=body)
    assert reply.status_code == status, reply.text
    return reply.json()


def test_edit_then_search_and_run_use_it(client: TestClient) -> None:
    config = _post(client, "getAgentConfig", {"agentName": "InvoiceStatus"})
    assert config["revision"] == 0 and config["version"] == "1.0.0"
    description = config["sections"]["description"]
    description["examples"] = ["where is the wombat invoice"]
    saved = _post(
        client,
        "saveAgentConfig",
        {"agentName": "InvoiceStatus", "section": "description", "content": description},
    )
    assert saved["changedSections"] == ["description"]
    assert saved["revision"] == 1 and saved["version"] == "1.0.1"
    found = _post(client, "../exec/search", {"query": "where is the wombat invoice"})
    assert found["searchResults"][0]["agentName"] == "InvoiceStatus"

    commands = config["sections"]["commands"]
    commands["main"][1] = {"llm": {"prompt": "chat", "reply": "Wombat invoice is paid."}}
    _post(
        client,
        "saveAgentConfig",
        {"agentName": "InvoiceStatus", "section": "commands", "content": commands},
    )
    ran = client.post(
        "/api/exec/execAgent",
        json={"agentName": "InvoiceStatus", "inputs": {"query": "where is the wombat invoice"}},
    ).json()
    assert ran["resultCode"] == "success", ran
    assert "Wombat invoice is paid." in ran["output"]["parts"][0]["text"]


def test_list_diff_restore_and_undo(client: TestClient) -> None:
    config = _post(client, "getAgentConfig", {"agentName": "OpenTicket"})
    original = config["sections"]["description"]["title"]
    edited = dict(config["sections"]["description"], title="Open a damage ticket")
    body = {"agentName": "OpenTicket", "section": "description", "content": edited}
    _post(client, "saveAgentConfig", body)
    again = _post(client, "saveAgentConfig", body)
    assert again["changedSections"] == [] and again["revision"] == 1
    listed = _post(client, "listAgentConfigVersions", {"agentName": "OpenTicket"})
    kept = listed["sections"]["description"]
    assert [(v["revision"], v["origin"], v["current"]) for v in kept] == [
        (1, "edit", True),
        (0, "file", False),
    ]
    assert kept[0]["author"].endswith("@acme.example")
    assert [v["origin"] for v in listed["sections"]["commands"]] == ["file"]
    diff = _post(
        client,
        "diffAgentConfig",
        {"agentName": "OpenTicket", "section": "description", "revision": 0},
    )["diff"]
    assert f'-  "title": "{original}"' in diff and '+  "title": "Open a damage ticket"' in diff

    restore = {"agentName": "OpenTicket", "section": "description", "revision": 0}
    assert _post(client, "restoreAgentConfig", restore)["revision"] == 2
    title = _post(client, "getAgentConfig", {"agentName": "OpenTicket"})["sections"]
    assert title["description"]["title"] == original
    undo = dict(restore, revision=1)
    assert _post(client, "restoreAgentConfig", undo)["revision"] == 3
    now = _post(client, "getAgentConfig", {"agentName": "OpenTicket"})["sections"]
    assert now["description"]["title"] == "Open a damage ticket"


def test_clone_is_searchable_and_runnable(client: TestClient) -> None:
    cloned = _post(client, "cloneAgent", {"agentName": "OpenTicket", "newName": "OpenTicketTwo"})
    assert cloned["agentName"] == "OpenTicketTwo" and cloned["revision"] == 1
    ran = client.post(
        "/api/exec/execAgent",
        json={"agentName": "OpenTicketTwo", "inputs": {"query": "my order arrived damaged"}},
    ).json()
    assert ran["resultCode"] == "success"
    listed = _post(client, "listAgentConfigVersions", {"agentName": "OpenTicketTwo"})
    assert [v["origin"] for v in listed["sections"]["description"]] == ["clone"]
    taken = _post(
        client, "cloneAgent", {"agentName": "OpenTicket", "newName": "OpenTicketTwo"}, 409
    )
    assert "already an agent named 'OpenTicketTwo'" in taken["error"]["message"]


def test_refusals_are_clear(client: TestClient, anonymous: TestClient) -> None:
    unknown = _post(client, "getAgentConfig", {"agentName": "NoSuchAgent"}, 404)
    assert unknown["success"] is False
    assert "no agent named 'NoSuchAgent'" in unknown["error"]["message"]
    bad_section = _post(
        client,
        "saveAgentConfig",
        {"agentName": "OpenTicket", "section": "workflow", "content": {}},
        422,
    )
    assert "section" in bad_section["error"]["message"]
    invalid = _post(
        client,
        "saveAgentConfig",
        {"agentName": "OpenTicket", "section": "description", "content": {"title": ""}},
        422,
    )
    assert invalid["problems"] and "not a valid agent" in invalid["error"]["message"]
    config = _post(client, "getAgentConfig", {"agentName": "InvoiceStatus"})
    commands = config["sections"]["commands"]
    commands["main"].insert(1, {"var": {"name": "conv.trips", "value": {"x": "Oslo"}}})
    refused = _post(
        client,
        "saveAgentConfig",
        {"agentName": "InvoiceStatus", "section": "commands", "content": commands},
        422,
    )
    assert any(f["rule"] == "NS003" for f in refused["findings"])
    stale = _post(
        client,
        "saveAgentConfig",
        {
            "agentName": "OpenTicket",
            "section": "description",
            "content": dict(config["sections"]["description"], title="x"),
            "baseRevision": 5,
        },
        409,
    )
    assert "not 5" in stale["error"]["message"]
    gone = _post(
        client,
        "restoreAgentConfig",
        {"agentName": "OpenTicket", "section": "asks", "revision": 9},
        404,
    )
    assert "keeps no version 9" in gone["error"]["message"]
    extra = _post(client, "getAgentConfig", {"agentName": "OpenTicket", "x": 1}, 422)
    assert "x" in extra["error"]["message"]
    assert (
        anonymous.post(f"{H}/getAgentConfig", json={"agentName": "OpenTicket"}).status_code == 401
    )
