"""A deployment served over real HTTP from a thread (uvicorn), for streaming and contract tests.

Streaming needs a real socket: lines must reach the client while the run goes on, and a client
that closes its connection must be seen by the server. The small agent account of the API tests
gets one more agent here, ``TwoParts``, that sends a part, thinks (a model call a test can hold
back), then sends a second part.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from fixture_agents import write_account

from loadtests.server import free_port

TWO_PARTS = """
name: TwoParts
title: Answer in two parts
tag: support
description: Answer a support question in two parts, a quick note first and the full answer after.
examples: ["answer my support question in two parts please"]
main:
  - prompt: {name: chat, user: "{sys.query}"}
  - output: "First part: working on it."
  - llm: {prompt: chat, reply: "Second part: done."}
  - output: "{result}"
  - end: {}
"""


def write_streaming_account(folder: Path) -> Path:
    write_account(folder)
    (folder / "TwoParts.yaml").write_text(TWO_PARTS.lstrip(), encoding="utf-8")
    return folder


class HeldModel:
    """Wraps the mock model: ``TwoParts``'s model call waits until the test releases it."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.entered = threading.Event()
        self.release = threading.Event()

    def answer(self, **kwargs: Any) -> str:
        if kwargs.get("agent") == "TwoParts":
            self.entered.set()
            self.release.wait(timeout=30)
        return str(self.model.answer(**kwargs))


@contextmanager
def serve(app: FastAPI) -> Iterator[str]:
    """``app`` on a free loopback port for the ``with`` block; yields its base URL."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)
