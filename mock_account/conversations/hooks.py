"""Enterprise state hooks: the customer's module keeps conversation state instead of the cloud.

A hook module is named by its import path (``--hooks mycompany.state_hooks``) and may define:

    save(event)                {convid, state, userEmail, agentName, isValidation} -> ignored
    restore(event)             {convid, userEmail} -> the state dict, or None when there is none
    deleteConversation(event)  {convid, userEmail} -> ignored
    onAgentStart(event)        {convid, userEmail, agentName, isValidation}            (optional)
    onAgentEnd(event)          the same plus resultCode                                 (optional)
    onAgentError(event)        the same plus resultCode and error                       (optional)
    encryptionKey(event)       {keyName} -> 32 key bytes (enterprise keys, see crypto.hooks)

``save``, ``restore`` and ``deleteConversation`` come as a set: all three or none. Every hook takes
one dict and may be a plain function or a coroutine function; coroutines run to completion on a
private event loop, because the account itself is synchronous.

Errors: a module that cannot be used is a :class:`HooksError` (raised by :func:`load_hooks`, one
line, names the module and what is wrong); a state hook that raises or returns something unusable
at run time is a :class:`HookFailed` carrying the hook's name and the reason. Notification hooks
(``onAgent*``) only observe: their failures are logged and never change a run's result.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import inspect
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mock_account.errors import HookFailed, HooksError

log = logging.getLogger(__name__)

STATE_HOOKS = ("save", "restore", "deleteConversation")
NOTIFY_HOOKS = ("onAgentStart", "onAgentEnd", "onAgentError")
KEY_HOOK = "encryptionKey"

Hook = Callable[[dict[str, Any]], Any]


def call_hook(hook: Hook, event: Mapping[str, Any]) -> Any:
    """Call ``hook`` with a copy of ``event``; a coroutine is run to completion and its value used.

    When the calling thread already runs an event loop (an async server handler), the coroutine
    runs on a fresh loop in a helper thread, since a loop cannot be re-entered.
    """
    result = hook(dict(event))
    if not inspect.isawaitable(result):
        return result
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_awaited(result))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _awaited(result)).result()


async def _awaited(awaitable: Any) -> Any:
    return await awaitable


def _describe(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


@dataclass(frozen=True)
class LoadedHooks:
    """The hooks found in one module (``None`` for the ones it does not define)."""

    module: str
    save: Hook | None = None
    restore: Hook | None = None
    delete_conversation: Hook | None = None
    on_agent_start: Hook | None = None
    on_agent_end: Hook | None = None
    on_agent_error: Hook | None = None
    encryption_key: Hook | None = None

    @property
    def keeps_state(self) -> bool:
        """Whether the state lives in the customer's systems (the three state hooks are set)."""
        return self.save is not None

    def save_state(
        self,
        *,
        convid: str,
        state: dict[str, Any],
        user_email: str,
        agent_name: str,
        is_validation: bool,
    ) -> None:
        event = {
            "convid": convid,
            "state": state,
            "userEmail": user_email,
            "agentName": agent_name,
            "isValidation": is_validation,
        }
        self._call("save", self.save, event)

    def restore_state(self, *, convid: str, user_email: str) -> dict[str, Any] | None:
        found = self._call("restore", self.restore, {"convid": convid, "userEmail": user_email})
        if found is not None and not isinstance(found, dict):
            raise HookFailed("restore", f"returned {type(found).__name__}, expected a dict or None")
        return found

    def delete_state(self, *, convid: str, user_email: str) -> None:
        self._call(
            "deleteConversation",
            self.delete_conversation,
            {"convid": convid, "userEmail": user_email},
        )

    def notify(self, name: str, event: Mapping[str, Any]) -> None:
        """Call a notification hook if defined; its failure is logged, never raised."""
        hook = {
            "onAgentStart": self.on_agent_start,
            "onAgentEnd": self.on_agent_end,
            "onAgentError": self.on_agent_error,
        }[name]
        if hook is None:
            return
        try:
            call_hook(hook, event)
        except Exception as exc:  # an observer must not break the run it observes
            log.warning("hook %s.%s failed: %s", self.module, name, _describe(exc))

    def _call(self, name: str, hook: Hook | None, event: Mapping[str, Any]) -> Any:
        if hook is None:
            raise HookFailed(name, f"module {self.module} defines no {name} hook")
        try:
            return call_hook(hook, event)
        except Exception as exc:
            raise HookFailed(name, _describe(exc)) from exc


def load_hooks(module_path: str) -> LoadedHooks:
    """Import ``module_path`` and collect its hooks; :class:`HooksError` if it cannot be used."""
    if not isinstance(module_path, str) or not module_path.strip():
        raise HooksError("the hooks module name is empty")
    module_path = module_path.strip()
    try:
        module = importlib.import_module(module_path)
    except Exception as exc:  # any import-time failure of customer code is a load failure
        raise HooksError(
            f"hooks module {module_path} cannot be imported: {_describe(exc)}"
        ) from exc
    found: dict[str, Hook | None] = {}
    for name in (*STATE_HOOKS, *NOTIFY_HOOKS, KEY_HOOK):
        hook = getattr(module, name, None)
        if hook is not None and not callable(hook):
            raise HooksError(f"hooks module {module_path}: {name} is not a function")
        found[name] = hook
    present = [name for name in STATE_HOOKS if found[name] is not None]
    if present and len(present) != len(STATE_HOOKS):
        missing = [name for name in STATE_HOOKS if found[name] is None]
        raise HooksError(
            f"hooks module {module_path} defines {', '.join(present)} but not "
            f"{', '.join(missing)}: save, restore and deleteConversation come together"
        )
    if not any(found.values()):
        raise HooksError(
            f"hooks module {module_path} defines no hook (expected save, restore, "
            "deleteConversation, onAgentStart, onAgentEnd, onAgentError or encryptionKey)"
        )
    return LoadedHooks(
        module=module_path,
        save=found["save"],
        restore=found["restore"],
        delete_conversation=found["deleteConversation"],
        on_agent_start=found["onAgentStart"],
        on_agent_end=found["onAgentEnd"],
        on_agent_error=found["onAgentError"],
        encryption_key=found[KEY_HOOK],
    )
