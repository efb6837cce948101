"""Enterprise state hooks: state kept by the customer's module, the cloud keeping only the entry."""

from __future__ import annotations

import asyncio
import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sec_support import EXPENSES, TRIP, Base, converse

from mock_account.conversations import example_hooks
from mock_account.conversations.hooks import HookFailed, HooksError, call_hook, load_hooks
from mock_account.deployment import AccountConfig, build_cipher, load_configured_hooks

EXAMPLE = "mock_account.conversations.example_hooks"

# Wraps the example module; a test switches failures on by adding a hook's name to FAIL.
FLAKY = """
from mock_account.conversations import example_hooks

FAIL = set()
CALLS = []


def _check(name, event):
    CALLS.append((name, dict(event)))
    if name in FAIL:
        raise RuntimeError("customer store offline")


def save(event):
    _check("save", event)
    example_hooks.save(event)


def restore(event):
    _check("restore", event)
    return example_hooks.restore(event)


def deleteConversation(event):
    _check("deleteConversation", event)
    example_hooks.deleteConversation(event)


def onAgentStart(event):
    CALLS.append(("onAgentStart", dict(event)))
    if "onAgentStart" in FAIL:
        raise RuntimeError("observer broken")


def onAgentEnd(event):
    CALLS.append(("onAgentEnd", dict(event)))
"""


def _flaky(hook_module: Callable[[str], str]):
    hooks = load_hooks(hook_module(FLAKY))
    return hooks, sys.modules[hooks.module]


# --- loading ---------------------------------------------------------------------------------


def test_a_module_missing_one_of_the_three_is_refused_by_name(hook_module) -> None:
    name = hook_module("def save(e):\n    pass\n\ndef restore(e):\n    return None\n")
    with pytest.raises(HooksError) as caught:
        load_hooks(name)
    message = str(caught.value)
    assert "not deleteConversation" in message and name in message
    assert "\n" not in message


def test_a_module_that_cannot_be_imported_is_a_load_error(hook_module) -> None:
    with pytest.raises(HooksError, match="cannot be imported: ModuleNotFoundError"):
        load_hooks("no_such_hooks_module_here")
    broken = hook_module("raise ImportError('missing customer SDK')\n")
    with pytest.raises(HooksError, match="missing customer SDK"):
        load_hooks(broken)


def test_a_hook_that_is_not_a_function_is_refused(hook_module) -> None:
    name = hook_module("save = 1\nrestore = None\ndeleteConversation = None\n")
    with pytest.raises(HooksError, match="save is not a function"):
        load_hooks(name)


def test_notification_hooks_alone_load_without_state_hooks(hook_module) -> None:
    hooks = load_hooks(hook_module("def onAgentEnd(e):\n    pass\n"))
    assert hooks.on_agent_end is not None and not hooks.keeps_state


def test_async_hooks_are_run_to_completion(hook_module) -> None:
    name = hook_module(
        "import asyncio\n"
        "async def restore(e):\n"
        "    await asyncio.sleep(0)\n"
        "    return {'who': e['userEmail']}\n"
    )
    hook = importlib.import_module(name).restore
    assert call_hook(hook, {"convid": "c", "userEmail": "a@x"}) == {"who": "a@x"}


# --- the example module -------------------------------------------------------------------------


def test_example_module_keeps_state_as_files_and_the_cloud_only_the_entry(
    base: Base, make_account, hooks_dir: Path
) -> None:
    account = make_account(state_hooks=load_hooks(EXAMPLE))
    alice = base.user("acme")
    first = converse(account, alice, TRIP)
    assert first.success, first.error
    second = converse(account, alice, EXPENSES, first.convid)
    assert second.success, second.error
    assert {"variable": "conv.trip", "from": first.agent_name} in second.handoffs

    stored = account.store.load(alice.account, first.convid)
    assert stored is not None and stored.blob is None
    assert stored.entry.state_version >= 2 and stored.entry.title  # the entry is still kept
    document = json.loads((hooks_dir / f"{first.convid}.json").read_text())
    assert document["owner"] == alice.email
    agents = [run["agent"] for run in document["state"]["runs"]]
    assert agents[0] == first.agent_name and agents[-1] == second.agent_name
    assert account.state_view(alice, first.convid)["state"] == document["state"]
    assert not list(hooks_dir.glob("*.tmp"))  # atomic writes leave no temporary file


def test_example_module_refuses_another_users_state(
    base: Base, make_account, hooks_dir: Path
) -> None:
    account = make_account(state_hooks=load_hooks(EXAMPLE))
    alice, bob = base.user("acme", 0), base.user("acme", 1)
    first = converse(account, alice, TRIP)
    assert first.success, first.error
    event = {"convid": first.convid, "userEmail": bob.email}
    assert example_hooks.restore(event) is None
    assert example_hooks.restore({**event, "userEmail": alice.email}) is not None
    with pytest.raises(PermissionError):
        example_hooks.save({**event, "state": {}, "agentName": "x", "isValidation": False})
    with pytest.raises(PermissionError):
        example_hooks.deleteConversation(event)
    assert (hooks_dir / f"{first.convid}.json").exists()
    with pytest.raises(ValueError):
        example_hooks.restore({"convid": "../../etc/passwd", "userEmail": alice.email})


def test_a_validation_run_keeps_its_state_in_the_cloud(
    base: Base, make_account, hooks_dir: Path
) -> None:
    account = make_account(state_hooks=load_hooks(EXAMPLE))
    alice = base.user("acme")
    result = converse(account, alice, TRIP, validation=True)
    assert result.success, result.error
    stored = account.store.load(alice.account, result.convid)
    assert stored is not None and stored.blob is not None
    assert not (hooks_dir / f"{result.convid}.json").exists()
    assert account.state_view(alice, result.convid)["record"]["keyId"]
    assert account.state_view(alice, result.convid)["state"]["conv"]["trip"]


# --- failures lose nothing ------------------------------------------------------------------


def test_a_failing_save_gives_call_failed_and_keeps_the_previous_state(
    base: Base, make_account, hooks_dir: Path, hook_module
) -> None:
    hooks, module = _flaky(hook_module)
    account = make_account(state_hooks=hooks)
    alice = base.user("acme")
    first = converse(account, alice, TRIP)
    assert first.success, first.error
    before_entry = account.store.get_entry(alice.account, first.convid)
    before_state = account.state_view(alice, first.convid)["state"]

    module.FAIL.add("save")
    account.clock.advance(hours=1)
    failed = converse(account, alice, EXPENSES, first.convid)
    assert not failed.success and failed.result_code == "callFailed"
    assert failed.error.startswith("The state hook failed: save: RuntimeError")
    after_entry = account.store.get_entry(alice.account, first.convid)
    assert after_entry.state_version == before_entry.state_version
    assert after_entry.last_executed == before_entry.last_executed

    module.FAIL.clear()
    assert account.state_view(alice, first.convid)["state"] == before_state
    retried = converse(account, alice, EXPENSES, first.convid)
    assert retried.success, retried.error


def test_a_failing_restore_gives_call_failed_and_changes_nothing(
    base: Base, make_account, hooks_dir: Path, hook_module
) -> None:
    hooks, module = _flaky(hook_module)
    account = make_account(state_hooks=hooks)
    alice = base.user("acme")
    first = converse(account, alice, TRIP)
    saved = (hooks_dir / f"{first.convid}.json").read_bytes()
    module.FAIL.add("restore")
    failed = account.exec_agent(alice, first.agent_name, {"query": EXPENSES}, first.convid)
    assert failed.result_code == "callFailed"
    assert "The state hook failed: restore" in failed.error
    assert (hooks_dir / f"{first.convid}.json").read_bytes() == saved
    assert account.store.get_entry(alice.account, first.convid).state_version == 1
    with pytest.raises(HookFailed):
        account.state_view(alice, first.convid)


def test_hooks_that_cannot_load_stop_agent_runs(base: Base, make_account, hook_module) -> None:
    name = hook_module("def save(e):\n    pass\n")
    hooks, error = load_configured_hooks(AccountConfig(hooks=name))
    assert hooks is None and error is not None
    account = make_account(hooks_error=error)
    result = converse(account, base.user("acme"), TRIP)
    assert result.result_code == "callFailed" and not result.success
    assert result.error.startswith("State hooks could not be loaded: hooks module")
    assert "deleteConversation" in result.error
    assert list(account.store.iter_entries()) == []


def test_delete_calls_the_hook_then_removes_the_entry(
    base: Base, make_account, hooks_dir: Path, hook_module
) -> None:
    hooks, module = _flaky(hook_module)
    account = make_account(state_hooks=hooks)
    alice = base.user("acme")
    first = converse(account, alice, TRIP)
    state_file = hooks_dir / f"{first.convid}.json"

    module.FAIL.add("deleteConversation")
    with pytest.raises(HookFailed, match="deleteConversation"):
        account.delete(alice, first.convid)
    assert state_file.exists()
    assert account.store.get_entry(alice.account, first.convid) is not None

    module.FAIL.clear()
    account.delete(alice, first.convid)
    assert not state_file.exists()
    assert account.store.get_entry(alice.account, first.convid) is None
    assert ("deleteConversation", {"convid": first.convid, "userEmail": alice.email}) in (
        module.CALLS
    )


def test_notification_hooks_see_each_run_and_cannot_break_it(
    base: Base, make_account, hooks_dir: Path, hook_module
) -> None:
    hooks, module = _flaky(hook_module)
    account = make_account(state_hooks=hooks)
    alice = base.user("acme")
    module.FAIL.add("onAgentStart")
    result = converse(account, alice, TRIP)
    assert result.success, result.error
    names = [name for name, _ in module.CALLS]
    assert names[0] == "onAgentStart" and names[-1] == "onAgentEnd"
    end = module.CALLS[-1][1]
    assert end["convid"] == result.convid and end["resultCode"] == "success"
    assert end["isValidation"] is False
    saves = [event for name, event in module.CALLS if name == "save"]
    assert saves and saves[-1]["userEmail"] == alice.email
    assert set(saves[-1]) == {"convid", "state", "userEmail", "agentName", "isValidation"}


def test_the_deployment_config_passes_the_module_through(tmp_path: Path, hooks_dir: Path) -> None:
    hooks, error = load_configured_hooks(AccountConfig(data_dir=tmp_path, hooks=EXAMPLE))
    assert error is None and hooks is not None and hooks.keeps_state
    assert load_configured_hooks(AccountConfig(data_dir=tmp_path, hooks=None)) == (None, None)


def test_an_encryption_key_hook_supplies_the_account_keys(
    base: Base, make_account, hook_module, tmp_path: Path
) -> None:
    name = hook_module(
        "async def encryptionKey(event):\n    return bytes([len(event['keyName'])]) * 32\n"
    )
    config = AccountConfig(data_dir=tmp_path, hooks=name, key_names=("old-key", "current"))
    hooks, error = load_configured_hooks(config)
    assert error is None and hooks is not None and not hooks.keeps_state
    cipher = build_cipher(config, hooks)
    account = make_account(cipher=cipher, state_hooks=hooks)
    alice = base.user("acme")
    result = converse(account, alice, TRIP)
    assert result.success, result.error
    assert account.state_view(alice, result.convid)["record"]["keyId"] == "current"
    assert not (tmp_path / "keyring.json").exists()  # no managed keyring was made


def test_a_hook_conversation_without_the_hooks_is_refused_not_reset(
    base: Base, make_account, hooks_dir: Path
) -> None:
    with_hooks = make_account(state_hooks=load_hooks(EXAMPLE))
    alice = base.user("acme")
    first = converse(with_hooks, alice, TRIP)
    without = make_account(with_hooks.store, cipher=with_hooks.vault.cipher)
    result = without.exec_agent(alice, first.agent_name, {"query": EXPENSES}, first.convid)
    assert result.result_code == "callFailed" and "none are configured" in result.error
    assert with_hooks.store.get_entry(alice.account, first.convid).state_version == 1


def test_an_async_hook_runs_even_when_called_inside_an_event_loop(hook_module) -> None:
    name = hook_module("async def restore(e):\n    return {'id': e['convid']}\n")
    hook = importlib.import_module(name).restore

    async def server_handler() -> object:
        return call_hook(hook, {"convid": "c1", "userEmail": "a@x"})

    assert asyncio.run(server_handler()) == {"id": "c1"}
