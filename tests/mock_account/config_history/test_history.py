"""Saving, listing, diffing, restoring and cloning agent configurations, on every backend,
and edits applied live: the next search and run, in this process and in another one."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fixture_agents import write_account
from server_stores import PLAIN_BACKENDS, fresh_url, unreachable

from mock_account.config_history import (
    ConfigFormatError,
    ConfigHistory,
    ConfigRefused,
    UnknownAgent,
)
from mock_account.config_history import history as history_module
from mock_account.deployment import (
    AccountConfig,
    Deployment,
    build_deployment,
    default_account_dir,
)
from mock_account.stores import StoreUnavailable, VersionConflict

# Two deployments share only a store outside the process (a memory store is per deployment).
SHARED_STORES = pytest.mark.parametrize("store_url", ["sqlite", "postgres", "redis"], indirect=True)
AUTHOR = "owner@acme.example"


@pytest.fixture(scope="module")
def account_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_account(tmp_path_factory.mktemp("account"))


@pytest.fixture(params=PLAIN_BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url, cleanup = fresh_url(request.param, tmp_path, "confighist")
    yield url
    cleanup()


def _deploy(url: str, tmp_path: Path, account_dir: Path, **options: Any) -> Deployment:
    config = AccountConfig(
        data_dir=tmp_path, store_url=url, account_dir=account_dir, search="bm25", **options
    )
    try:
        return build_deployment(config)
    except StoreUnavailable as exc:
        unreachable(url.split(":", 1)[0], exc)
        raise


@pytest.fixture
def deployment(store_url: str, tmp_path: Path, account_dir: Path) -> Iterator[Deployment]:
    built = _deploy(store_url, tmp_path, account_dir)
    yield built
    built.close()


def _description(history: ConfigHistory, agent: str) -> dict[str, Any]:
    return dict(history.versions(agent, "description")[0].content)


def _run(deployment: Deployment, agent: str, inputs: dict[str, Any], convid: str | None = None):
    user = deployment.users.users[0]
    return deployment.account.exec_agent(user, agent, inputs, convid)


def test_an_edit_is_searched_and_run_at_once(deployment: Deployment) -> None:
    history = deployment.config_history
    account = deployment.account
    assert account.search("zebra herding at the zoo today") == []
    description = _description(history, "InvoiceStatus")
    description["description"] = "Zebra herding at the zoo: " + description["description"]
    result = history.save("InvoiceStatus", "description", description, author=AUTHOR)
    assert result.changed == ("description",) and result.revision == 1
    assert result.version == "1.0.1"
    hits = account.search("zebra herding at the zoo today")
    assert [hit.agent_name for hit in hits] == ["InvoiceStatus"]

    commands = history.versions("IssueRefund", "commands")[0].content
    commands["main"] = [
        {"prompt": {"name": "chat", "user": "{sys.query}"}},
        {"llm": {"prompt": "chat", "reply": "Refund edited live."}},
        {"output": "{result}"},
        {"end": {}},
    ]
    history.save("IssueRefund", "commands", commands, author=AUTHOR)
    outcome = _run(deployment, "IssueRefund", {"query": "refund the payment please"})
    assert outcome.result_code == "success"
    assert "Refund edited live." in outcome.parts[0]["text"]


def test_identical_saves_add_nothing(deployment: Deployment) -> None:
    history = deployment.config_history
    unchanged = history.save(
        "InvoiceStatus", "description", _description(history, "InvoiceStatus"), author=AUTHOR
    )
    assert unchanged.changed == () and unchanged.revision == 0
    assert [v.origin for v in history.versions("InvoiceStatus", "description")] == ["file"]
    description = _description(history, "InvoiceStatus")
    description["title"] = "Invoice status, edited"
    history.save("InvoiceStatus", "description", description, author=AUTHOR)
    again = history.save("InvoiceStatus", "description", description, author=AUTHOR)
    assert again.changed == () and again.revision == 1
    kept = history.versions("InvoiceStatus", "description")
    assert [(v.revision, v.origin) for v in kept] == [(1, "edit"), (0, "file")]
    assert kept[0].author == AUTHOR and kept[0].current and not kept[1].current


def test_a_restore_is_undone_by_restoring_the_edit(deployment: Deployment) -> None:
    history = deployment.config_history
    original = _description(history, "OpenTicket")
    edited = dict(original, title="Open a ticket, edited")
    history.save("OpenTicket", "description", edited, author=AUTHOR)
    restored = history.restore("OpenTicket", "description", 0, author=AUTHOR)
    assert restored.changed == ("description",)
    assert deployment.account.agents["OpenTicket"].title == original["title"]
    kept = history.versions("OpenTicket", "description")
    assert [(v.revision, v.origin) for v in kept] == [(2, "restore"), (1, "edit"), (0, "file")]
    # Undo the restore: the edited version is still there.
    history.restore("OpenTicket", "description", 1, author=AUTHOR)
    assert deployment.account.agents["OpenTicket"].title == "Open a ticket, edited"
    diff = history.diff("OpenTicket", "description", 0)
    assert '-  "title": "' + original["title"] in diff
    assert '+  "title": "Open a ticket, edited"' in diff


def test_versions_beyond_the_limit_are_dropped(
    store_url: str, tmp_path: Path, account_dir: Path
) -> None:
    deployment = _deploy(store_url, tmp_path, account_dir, config_keep=3)
    try:
        history = deployment.config_history
        for i in range(6):
            description = dict(_description(history, "OpenTicket"), title=f"Ticket v{i}")
            history.save("OpenTicket", "description", description, author=AUTHOR)
        kept = history.versions("OpenTicket", "description")
        assert [v.revision for v in kept] == [6, 5, 4]
        with pytest.raises(UnknownAgent, match="keeps no version 1"):
            history.restore("OpenTicket", "description", 1, author=AUTHOR)
    finally:
        deployment.close()


def test_bad_input_is_refused_with_a_clear_error(deployment: Deployment) -> None:
    history = deployment.config_history
    with pytest.raises(ConfigFormatError, match="unknown section 'workflows'"):
        history.save("OpenTicket", "workflows", {}, author=AUTHOR)
    with pytest.raises(UnknownAgent, match="no agent named 'Nobody'"):
        history.save("Nobody", "description", {}, author=AUTHOR)
    with pytest.raises(ConfigFormatError, match="title"):
        history.save(
            "OpenTicket",
            "description",
            dict(_description(history, "OpenTicket"), title=""),
            author=AUTHOR,
        )
    with pytest.raises(ConfigFormatError, match="no field 'colour'"):
        history.save("OpenTicket", "description", {"colour": "red"}, author=AUTHOR)
    with pytest.raises(ConfigFormatError, match="refer to ask 3"):
        commands = history.versions("BookTrip", "commands")[0].content
        commands["main"][1] = {"ask": {"ref": 3}}
        history.save("BookTrip", "commands", commands, author=AUTHOR)
    with pytest.raises(ConfigFormatError, match="used by no command"):
        asks = history.versions("BookTrip", "asks")[0].content
        history.save("BookTrip", "asks", asks + asks, author=AUTHOR)
    # Nothing of a refused save was kept.
    for agent in ("OpenTicket", "BookTrip"):
        for section in ("description", "commands", "asks"):
            assert [v.origin for v in history.versions(agent, section)] == ["file"]


def test_a_save_that_breaks_the_naming_scheme_is_refused(deployment: Deployment) -> None:
    history = deployment.config_history
    commands = history.versions("InvoiceStatus", "commands")[0].content
    commands["main"].insert(1, {"var": {"name": "conv.trips", "value": {"destination": "Oslo"}}})
    with pytest.raises(ConfigRefused, match="NS003") as refused:
        history.save("InvoiceStatus", "commands", commands, author=AUTHOR)
    assert any(f["suggestion"] == "conv.trip" for f in refused.value.findings)
    assert history.versions("InvoiceStatus", "commands")[0].origin == "file"


def test_with_warn_the_save_is_kept_with_its_findings(
    store_url: str, tmp_path: Path, account_dir: Path
) -> None:
    deployment = _deploy(store_url, tmp_path, account_dir, config_conformance="warn")
    try:
        history = deployment.config_history
        commands = history.versions("InvoiceStatus", "commands")[0].content
        commands["main"].insert(1, {"var": {"name": "conv.trips", "value": {"x": "Oslo"}}})
        result = history.save("InvoiceStatus", "commands", commands, author=AUTHOR)
        assert result.changed == ("commands",)
        assert any(f["rule"] == "NS003" for f in result.warnings)
    finally:
        deployment.close()


def test_an_ask_edit_is_a_version_of_asks_alone(deployment: Deployment) -> None:
    history = deployment.config_history
    asks = history.versions("BookTrip", "asks")[0].content
    asks[0]["message"] = "Aisle or window?"
    result = history.save("BookTrip", "asks", asks, author=AUTHOR)
    assert result.changed == ("asks",)
    # Commands written as in an agent file (asks inline) split the same way: a change of
    # the ask's wording alone is again a version of asks alone.
    commands = history.versions("BookTrip", "commands")[0].content
    commands["main"][1] = {"ask": dict(asks[0], message="Window or aisle?")}
    assert history.save("BookTrip", "commands", commands, author=AUTHOR).changed == ("asks",)
    outcome = _run(deployment, "BookTrip", {"query": "book a trip to Paris"})
    assert outcome.result_code == "ask"
    assert outcome.ask_input["message"] == "Window or aisle?"


def test_clone_copies_the_configuration_not_the_history(deployment: Deployment) -> None:
    history = deployment.config_history
    history.save(
        "OpenTicket",
        "description",
        dict(_description(history, "OpenTicket"), title="Open a damage ticket"),
        author=AUTHOR,
    )
    clone = history.clone("OpenTicket", "OpenTicketCopy", author=AUTHOR)
    assert clone.revision == 1
    assert [v.origin for v in history.versions("OpenTicketCopy", "description")] == ["clone"]
    assert history.versions("OpenTicketCopy", "description")[0].content["title"] == (
        "Open a damage ticket"
    )
    assert "OpenTicketCopy" in deployment.account.agents
    outcome = _run(deployment, "OpenTicketCopy", {"query": "my order arrived damaged"})
    assert outcome.result_code == "success"
    with pytest.raises(VersionConflict, match="already an agent named 'OpenTicket'"):
        history.clone("OpenTicketCopy", "OpenTicket", author=AUTHOR)
    with pytest.raises(ConfigFormatError, match="invalid"):
        history.clone("OpenTicket", "bad name!", author=AUTHOR)


def test_a_paused_conversation_resumes_on_the_version_that_asked(deployment: Deployment) -> None:
    history = deployment.config_history
    asked = _run(deployment, "BookTrip", {"query": "book a trip to Paris"})
    assert asked.result_code == "ask"
    commands = history.versions("BookTrip", "commands")[0].content
    commands["main"][3] = {"llm": {"prompt": "chat", "reply": "New wording of the booking."}}
    history.save("BookTrip", "commands", commands, author=AUTHOR)
    resumed = _run(deployment, "BookTrip", {"seat": "aisle", "note": "none"}, asked.convid)
    assert resumed.result_code == "success"
    assert "Booked your trip to Berlin, aisle seat." in resumed.parts[0]["text"]
    fresh = _run(deployment, "BookTrip", {"query": "book a trip to Paris"})
    done = _run(deployment, "BookTrip", {"seat": "window", "note": "none"}, fresh.convid)
    assert "New wording of the booking." in done.parts[0]["text"]


def _reply(deployment: Deployment, text: str) -> None:
    history = deployment.config_history
    commands = history.versions("BookTrip", "commands")[0].content
    commands["main"][3] = {"llm": {"prompt": "chat", "reply": text}}
    history.save("BookTrip", "commands", commands, author=AUTHOR)


@SHARED_STORES
def test_a_version_no_process_holds_is_rebuilt_from_the_history(
    store_url: str, tmp_path: Path, account_dir: Path, deployment: Deployment
) -> None:
    _reply(deployment, "Reply one.")
    asked = _run(deployment, "BookTrip", {"query": "book a trip to Paris"})  # on 1.0.1
    _reply(deployment, "Reply two.")
    other = _deploy(store_url, tmp_path, account_dir)  # started later: it never held 1.0.1
    try:
        resumed = _run(other, "BookTrip", {"seat": "aisle", "note": "none"}, asked.convid)
        assert resumed.result_code == "success", resumed.error
        assert "Reply one." in resumed.parts[0]["text"]
    finally:
        other.close()


@SHARED_STORES
def test_a_version_no_longer_kept_gets_a_clear_result(
    store_url: str, tmp_path: Path, account_dir: Path
) -> None:
    deployment = _deploy(store_url, tmp_path, account_dir, config_keep=1)
    try:
        _reply(deployment, "Reply one.")
        asked = _run(deployment, "BookTrip", {"query": "book a trip to Paris"})  # on 1.0.1
        _reply(deployment, "Reply two.")  # keeps only this version of commands
        other = _deploy(store_url, tmp_path, account_dir, config_keep=1)
        try:
            resumed = _run(other, "BookTrip", {"seat": "aisle", "note": "none"}, asked.convid)
        finally:
            other.close()
        assert resumed.result_code == "unknownConversation"
        assert "version 1.0.1 of BookTrip" in resumed.error
        assert "start a new conversation" in resumed.error
    finally:
        deployment.close()


@SHARED_STORES
def test_an_edit_in_one_process_is_used_by_another(
    store_url: str, tmp_path: Path, account_dir: Path, deployment: Deployment
) -> None:
    other = _deploy(store_url, tmp_path, account_dir)
    try:
        other.account.search("warm up the other process")
        description = _description(deployment.config_history, "InvoiceStatus")
        description["examples"] = ["where is the platypus invoice"]
        deployment.config_history.save("InvoiceStatus", "description", description, author=AUTHOR)
        hits = other.account.search("where is the platypus invoice")
        assert hits and hits[0].agent_name == "InvoiceStatus"
        assert other.account.agents["InvoiceStatus"].examples == ["where is the platypus invoice"]
    finally:
        other.close()


def test_concurrent_edits_of_different_sections_are_all_kept(
    store_url: str, tmp_path: Path, account_dir: Path, deployment: Deployment
) -> None:
    """8 threads each save their own title or their own ask message 3 times at once, half of
    them through a second deployment sharing the store (another server process): every save
    is kept (a lost compare-and-swap is retried on top of the winner), none is lost."""
    shared = not store_url.startswith("memory")
    other = _deploy(store_url, tmp_path, account_dir) if shared else deployment
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def editor(i: int) -> None:
        history = (other if i >= 4 else deployment).config_history
        try:
            barrier.wait()
            for round_ in range(3):
                if i % 2:
                    description = _description(history, "BookTrip")
                    history.save(
                        "BookTrip",
                        "description",
                        dict(description, title=f"Trip by {i} round {round_}"),
                        author=f"editor{i}@acme.example",
                    )
                else:
                    asks = history.versions("BookTrip", "asks")[0].content
                    asks[0]["message"] = f"Seat? asked by {i} round {round_}"
                    history.save("BookTrip", "asks", asks, author=f"editor{i}@acme.example")
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=editor, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if shared:
        other.close()
    assert errors == []
    history = deployment.config_history
    titles = [v.content["title"] for v in history.versions("BookTrip", "description")[:-1]]
    messages = [v.content[0]["message"] for v in history.versions("BookTrip", "asks")[:-1]]
    assert len(titles) == 12 and len(set(titles)) == 12
    assert len(messages) == 12 and len(set(messages)) == 12
    deployment.account.search("book a trip to Paris")  # the next use applies the last saves
    agent = deployment.account.agents["BookTrip"]
    assert agent.title == titles[0]
    assert agent.version == "1.0.24"


def test_a_stale_base_revision_is_refused(deployment: Deployment) -> None:
    history = deployment.config_history
    description = _description(history, "OpenTicket")
    history.save("OpenTicket", "description", dict(description, title="A"), author=AUTHOR)
    with pytest.raises(VersionConflict, match="revision 1, not 0"):
        history.save(
            "OpenTicket",
            "description",
            dict(description, title="B"),
            author=AUTHOR,
            base_revision=0,
        )


def test_versions_are_encrypted_at_rest(tmp_path: Path, account_dir: Path) -> None:
    """No saved configuration is readable in the SQLite file (nor its journal)."""
    url = f"sqlite:///{tmp_path / 'plain' / 'conversations.db'}"
    deployment = _deploy(url, tmp_path, account_dir)
    try:
        history = deployment.config_history
        description = dict(_description(history, "OpenTicket"), title="Marmalade pelican desk")
        history.save("OpenTicket", "description", description, author="secret.author@acme.example")
        assert history.versions("OpenTicket", "description")[0].content["title"] == (
            "Marmalade pelican desk"
        )
    finally:
        deployment.close()
    dump = b"".join(p.read_bytes() for p in (tmp_path / "plain").iterdir() if p.is_file())
    assert b"Open a support ticket" not in dump  # the file's version 0, kept too
    assert b"Marmalade" not in dump and b"secret.author" not in dump


def test_definition_at_a_version(deployment: Deployment) -> None:
    history = deployment.config_history
    _reply(deployment, "Reply one.")
    _reply(deployment, "Reply two.")
    replies = {
        version: history.definition_at("BookTrip", version)
        for version in ("1.0.0", "1.0.1", "1.0.2", "1.0.3", "2.0.1", "1.0", "x.y.z")
    }
    assert replies["1.0.0"] == deployment.config_history.files["BookTrip"]
    assert "Reply one." in str(replies["1.0.1"]) and "Reply two." in str(replies["1.0.2"])
    assert replies["1.0.2"] == deployment.account.agents["BookTrip"]
    for unknown in ("1.0.3", "2.0.1", "1.0", "x.y.z"):
        assert replies[unknown] is None, unknown


def test_key_rotation_reencrypts_every_version(deployment: Deployment, tmp_path: Path) -> None:
    from mock_account.config_history import reencrypt_versions
    from mock_account.crypto import StateCipher, load_keyring_file, rotate_keyring_file

    history = deployment.config_history
    for title in ("First", "Second"):
        description = dict(_description(history, "OpenTicket"), title=title)
        history.save("OpenTicket", "description", description, author=AUTHOR)
    keyring = deployment.config.resolved_keyring_path()
    new_key = rotate_keyring_file(keyring)
    rotated = StateCipher(load_keyring_file(keyring))
    report = reencrypt_versions(history.store, rotated)
    assert (report.reencrypted, report.current, report.unreadable) == (3, 0, [])
    assert all(
        not rotated.needs_reencryption(v.blob) and v.blob.count(new_key.encode()) == 1
        for v in history.store.all_versions(history.scope)
    )
    again = reencrypt_versions(history.store, rotated)
    assert (again.reencrypted, again.current) == (0, 3)
    history.cipher = rotated  # a server restarted with the new keyring reads them all
    assert [v.content["title"] for v in history.versions("OpenTicket", "description")][:2] == [
        "Second",
        "First",
    ]


def test_a_store_with_group_commit_keeps_the_history(tmp_path: Path, account_dir: Path) -> None:
    url = f"sqlite:///{tmp_path / 'batched' / 'conversations.db'}?batch=64"
    deployment = _deploy(url, tmp_path, account_dir)
    try:
        history = deployment.config_history
        description = dict(_description(history, "OpenTicket"), title="Batched store")
        assert history.save("OpenTicket", "description", description, author=AUTHOR).revision == 1
    finally:
        deployment.close()
    again = _deploy(url, tmp_path, account_dir)
    try:
        assert again.account.agents["OpenTicket"].title == "Batched store"
    finally:
        again.close()


def test_bad_settings_are_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MOCK_ACCOUNT_CONFIG_KEEP", "0")
    with pytest.raises(ValueError, match="MOCK_ACCOUNT_CONFIG_KEEP must be a whole number"):
        AccountConfig()
    monkeypatch.setenv("MOCK_ACCOUNT_CONFIG_KEEP", "5")
    assert AccountConfig().config_keep == 5


def test_a_workflow_is_a_section_of_its_own_and_survives_other_edits(tmp_path: Path) -> None:
    account = write_account(tmp_path / "agents")
    agent = "CompleteNewHireOnboarding"
    shutil.copy(default_account_dir() / f"{agent}.yaml", account)
    built = _deploy("memory://", tmp_path, account)
    try:
        history = built.config_history
        workflow = history.versions(agent, "workflow")[0].content
        assert workflow["name"] == "new_hire_onboarding"
        # Another section's edit keeps the workflow.
        description = _description(history, agent)
        description["title"] = "Walk me through onboarding as a new hire"
        history.save(agent, "description", description, author=AUTHOR)
        assert history.current(agent).workflow is not None
        # A workflow edit is a version of that section alone, and a restore undoes it.
        edited = {**workflow, "title": "Onboarding for new starters"}
        saved = history.save(agent, "workflow", edited, author=AUTHOR)
        assert saved.changed == ("workflow",)
        assert history.current(agent).workflow.title == "Onboarding for new starters"
        history.restore(agent, "workflow", 0, author=AUTHOR)
        assert history.current(agent).workflow.title == workflow["title"]
        with pytest.raises(ConfigFormatError, match="workflow section"):
            history.save(agent, "workflow", ["not", "a", "workflow"], author=AUTHOR)
    finally:
        built.close()


def test_the_revision_is_read_only_when_the_stamp_moved_or_is_old(
    tmp_path: Path, account_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(history_module, "RECHECK_S", 3600.0)
    url, cleanup = fresh_url("sqlite", tmp_path, "stamp")
    one, two = _deploy(url, tmp_path, account_dir), _deploy(url, tmp_path, account_dir)
    try:
        reads: list[str] = []
        store = two.config_history.store
        revision = store.scope_revision
        monkeypatch.setattr(store, "scope_revision", lambda s: reads.append(s) or revision(s))
        for _ in range(3):
            two.account.search("where is the platypus invoice")
        assert reads == []  # nothing saved since the deployment applied the configuration
        description = _description(one.config_history, "InvoiceStatus")
        description["examples"] = ["where is the platypus invoice"]
        one.config_history.save("InvoiceStatus", "description", description, author=AUTHOR)
        hits = two.account.search("where is the platypus invoice")
        assert hits and hits[0].agent_name == "InvoiceStatus"
        assert reads
        reads.clear()
        two.account.search("where is the platypus invoice")
        assert reads == []
        monkeypatch.setattr(history_module, "RECHECK_S", 0.0)
        two.account.search("where is the platypus invoice")
        assert reads  # read again, however still the stamp
    finally:
        one.close()
        two.close()
        cleanup()
