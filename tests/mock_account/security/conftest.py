"""Fixtures of the security tests: the real 200-agent account built once, accounts per test.

``make_account`` gives a fresh ``MockAccount`` on any store, with its own keyring, an injectable
clock and optional state hooks. Hook modules for a test are written to a temporary folder put on
``sys.path`` (``hook_module``) under a unique name, so every test imports its own copy.
"""

from __future__ import annotations

import itertools
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sec_support import Base, FakeClock

from agents_catalog.loader import load_account
from mock_account.business.data import BusinessData
from mock_account.conversations.account import MockAccount
from mock_account.conversations.hooks import LoadedHooks
from mock_account.crypto import Keyring, StateCipher
from mock_account.deployment import DEFAULT_SEED, default_account_dir
from mock_account.engine.mock_model import MockModel
from mock_account.engine.runtime import Engine, RunLimits
from mock_account.search.index import SearchIndex
from mock_account.stores import ConversationStore, open_store
from mock_account.users import UserDirectory


@pytest.fixture(scope="session")
def base() -> Base:
    agents = load_account(default_account_dir())
    engine = Engine(
        {a.name: a for a in agents},
        MockModel(),
        BusinessData(seed=DEFAULT_SEED),
        RunLimits(time_limit_s=30.0),
    )
    users = UserDirectory.generate(DEFAULT_SEED).users
    return Base(agents, engine, SearchIndex.build(agents), users)


MakeAccount = Callable[..., MockAccount]


@pytest.fixture
def make_account(base: Base) -> Iterator[MakeAccount]:
    opened: list[ConversationStore] = []

    def make(
        store: ConversationStore | None = None,
        *,
        cipher: StateCipher | None = None,
        clock: FakeClock | None = None,
        state_hooks: LoadedHooks | None = None,
        hooks_error: str | None = None,
    ) -> MockAccount:
        if store is None:
            store = open_store("memory://")
            opened.append(store)
        return MockAccount(
            agents=base.agents,
            engine=base.engine,
            index=base.index,
            store=store,
            cipher=cipher or StateCipher(Keyring.generate()),
            clock=clock or FakeClock(),
            state_hooks=state_hooks,
            hooks_error=hooks_error,
        )

    yield make
    for store in opened:
        store.close()


_counter = itertools.count()


@pytest.fixture
def hook_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """Write a hook module from source and return its (unique) import name."""
    folder = tmp_path / "hook_modules"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))

    def write(source: str) -> str:
        name = f"sec_test_hooks_{next(_counter)}"
        (folder / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        return name

    return write


@pytest.fixture
def hooks_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example hook module's folder for this test."""
    folder = tmp_path / "hook-states"
    monkeypatch.setenv("EXAMPLE_HOOKS_DIR", str(folder))
    return folder
