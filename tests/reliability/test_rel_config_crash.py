"""Crash-safe configuration saves: a process killed (SIGKILL) at random moments while it saves
agent configurations never leaves a torn configuration behind.

Each save of the child writes BookTrip's commands with the ask inline, both numbered ``n``
(the reply says ``reply n``, the ask asks ``question n``): one commit that changes two sections,
commands and asks. After a random 5-80 ms the parent kills the child, opens the store and
checks that the agent is exactly the last save acknowledged or the one being written (both
sections of the same ``n``), that its revision is the newest version of each section, and
that every kept version decrypts. Kills per backend: ``CONFIG_KILLS`` (default 40).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest
from fixture_agents import write_account
from rel_support import SERVER_BACKENDS, fresh_store_url, report, start_forked

from agents_catalog.loader import load_account
from mock_account.config_history import ConfigHistory, open_config_store
from mock_account.crypto import StateCipher, load_or_create_keyring
from mock_account.stores import open_store

pytestmark = pytest.mark.slow  # real server processes and stores

KILLS = int(os.environ.get("CONFIG_KILLS", "40"))
KILL_AFTER_S = (0.005, 0.080)
FORK = multiprocessing.get_context("fork")
AGENT = "BookTrip"


def _commands(n: int) -> dict[str, Any]:
    return {
        "main": [
            {"prompt": {"name": "chat", "user": "{sys.query}"}},
            {
                "ask": {
                    "message": f"question {n}",
                    "inputs": [{"name": "seat", "type": "str", "label": "Seat"}],
                }
            },
            {"llm": {"prompt": "chat", "reply": f"reply {n}"}},
            {"output": "{result}"},
            {"end": {}},
        ],
        "functions": {},
    }


def _history(url: str, cipher: StateCipher, agents: list[Any]) -> tuple[Any, ConfigHistory]:
    store = open_store(url)
    history = ConfigHistory(
        open_config_store(store),
        cipher,
        agents,
        clock=lambda: datetime.now(UTC),
        keep=5,
        conformance="off",
    )
    return store, history


def _save_forever(
    pipe: Connection, url: str, cipher: StateCipher, agents: list[Any], n: int
) -> None:
    store, history = _history(url, cipher, agents)  # never the parent's connections
    history.current(AGENT)  # connect before the parent's clock starts
    pipe.send(("ready",))
    while True:
        n += 1
        pipe.send(("writing", n))
        result = history.save(AGENT, "commands", _commands(n), author="crash@test")
        pipe.send(("saved", n, result.revision))


def _numbers(history: ConfigHistory) -> tuple[int | None, int | None]:
    agent = history.current(AGENT)
    data = agent.model_dump(mode="json", by_alias=True)
    reply = data["main"][2]["llm"]["reply"]
    question = data["main"][1]["ask"]["message"]
    number = int(reply.split()[1]) if reply.startswith("reply ") else None
    asked = int(question.split()[1]) if question.startswith("question ") else None
    return number, asked


@pytest.mark.parametrize("backend", SERVER_BACKENDS)
def test_config_saves_survive_sigkill(backend: str, tmp_path: Path) -> None:
    agents = load_account(write_account(tmp_path / "agents"))
    cipher = StateCipher(load_or_create_keyring(tmp_path / "keyring.json"))
    rng = random.Random(20261130)
    last_saved = 0
    torn = broken = mid_save = landed = saves = 0
    problems: list[str] = []
    with fresh_store_url(backend, tmp_path) as url:
        for number in range(KILLS):
            reader, writer = FORK.Pipe(duplex=False)
            child = FORK.Process(
                target=_save_forever, args=(writer, url, cipher, agents, last_saved), daemon=True
            )
            start_forked(child)
            writer.close()
            assert reader.poll(60) and reader.recv() == ("ready",), "the child did not start"
            time.sleep(rng.uniform(*KILL_AFTER_S))
            os.kill(child.pid or 0, signal.SIGKILL)
            child.join(10)
            pending = None
            while True:
                try:
                    message = reader.recv()
                except (EOFError, OSError):
                    break
                if message[0] == "writing":
                    pending = message[1]
                elif message[0] == "saved":
                    last_saved, pending = message[1], None
                    saves += 1
            reader.close()
            mid_save += pending is not None
            store, history = _history(url, cipher, agents)
            try:
                commands_n, asks_n = _numbers(history)
                revision = history.store.agent_revisions(history.scope).get(AGENT, 0)
                newest = [
                    history.store.history(history.scope, AGENT, s) for s in ("commands", "asks")
                ]
                for kept in newest:
                    for stored in kept:
                        history._open(stored)  # every kept version decrypts
            except Exception as exc:  # anything that stops a read is what this test looks for
                broken += 1
                problems.append(f"kill {number}: {type(exc).__name__}: {exc}")
                continue
            finally:
                store.close()
            allowed = {last_saved} | ({pending} if pending is not None else set())
            if last_saved == 0:
                allowed.add(None)  # nothing saved yet: the file's configuration
            if commands_n != asks_n:
                torn += 1
                problems.append(f"kill {number}: commands at {commands_n}, asks at {asks_n}")
            elif commands_n not in allowed:
                broken += 1
                problems.append(f"kill {number}: at {commands_n}, expected one of {allowed}")
            elif newest[0] and (
                newest[0][0].revision != revision or newest[1][0].revision != revision
            ):
                broken += 1
                problems.append(f"kill {number}: revision {revision} is not the newest version")
            if pending is not None and commands_n == pending:
                landed += 1
                last_saved = pending
            elif commands_n is not None:
                last_saved = commands_n
    report(
        f"config crash {backend}: {KILLS} kills, {saves} saves acknowledged, {mid_save} killed "
        f"mid-save ({landed} of those landed), {torn} torn, {broken} broken"
    )
    assert problems == []
    assert saves > 0
