"""``execAgent`` with ``stream: true``: the run's progress as ``application/x-ndjson`` lines.

One JSON object per line, as the Search2o agent server sends them:

    {"type": "progress", "value": "Running BookTrip"}        when the run starts
    {"type": "data", "value": {"contentType": "text", ...}}  each output part, as it is produced
    {"type": "noop"}                                         a heartbeat while the run is idle
    {"type": "trace", "traceType": "serverTiming",
     "value": {"path": "restore", "duration": 0.41, "message": "restore;dur=0.410"}}
                                                             each phase, after the run
    {"type": "agent", "value": <execAgent response, output null>}   last; then the stream ends

The run goes on in a worker thread; parts reach the response through a queue as the engine
produces them. A client that leaves (the connection closes, or a line cannot be sent) sets the
run's stop event: the engine stops at its next step and nothing of the run is saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio.to_thread
from starlette.requests import ClientDisconnect
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from mock_account.api.timing import PHASES
from mock_account.api.wire import exec_agent_body
from mock_account.conversations.account import ExecResult
from mock_account.engine.runtime import PartListener

MEDIA_TYPE = "application/x-ndjson"
#: Seconds without a line before a ``noop`` heartbeat goes out.
DEFAULT_HEARTBEAT_S = 1.0
TRACE_TYPE = "serverTiming"

#: Runs a request: given the stop event and the part listener, the result.
Runner = Callable[[threading.Event, PartListener], ExecResult]

# Worker tasks are kept referenced until they finish (asyncio holds only weak references).
_running: set[asyncio.Task[None]] = set()


def line(obj: dict[str, Any]) -> bytes:
    """One NDJSON line (a lone surrogate goes out as a ``\\u`` escape, still valid JSON)."""
    try:
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(obj, separators=(",", ":")) + "\n").encode("ascii")


def trace_lines(timings: dict[str, float]) -> list[bytes]:
    """The ``Server-Timing`` phases (milliseconds) as trailing trace lines."""
    return [
        line(
            {
                "type": "trace",
                "traceType": TRACE_TYPE,
                "value": {
                    "path": phase,
                    "duration": round(timings[phase] * 1000, 3),
                    "message": f"{phase};dur={timings[phase] * 1000:.3f}",
                },
            }
        )
        for phase in PHASES
        if phase in timings
    ]


def final_line(result: ExecResult) -> bytes:
    return line({"type": "agent", "value": exec_agent_body(result, streamed=True)})


async def run_lines(
    agent_name: str, runner: Runner, stop: threading.Event, heartbeat_s: float
) -> AsyncIterator[bytes]:
    """The lines of one streamed run; leaving early sets ``stop``."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def on_part(part: dict[str, Any]) -> None:
        loop.call_soon_threadsafe(queue.put_nowait, ("data", dict(part)))

    def work() -> None:
        result = runner(stop, on_part)
        loop.call_soon_threadsafe(queue.put_nowait, ("done", result))

    async def in_thread() -> None:
        await anyio.to_thread.run_sync(work)

    task = asyncio.create_task(in_thread())
    _running.add(task)
    task.add_done_callback(_running.discard)
    try:
        yield line({"type": "progress", "value": f"Running {agent_name}"})
        sent = 0
        while True:
            try:
                kind, item = await asyncio.wait_for(queue.get(), timeout=heartbeat_s)
            except TimeoutError:
                if stop.is_set():
                    return  # the client left: no one to send the rest to
                yield line({"type": "noop"})
                continue
            if kind == "data":
                sent += 1
                yield line({"type": "data", "value": item})
                continue
            result: ExecResult = item
            # Parts the engine did not hand out while running (an ask repeated because the
            # answers did not fit) still reach the client before the final line.
            for part in (result.parts or [])[sent:]:
                yield line({"type": "data", "value": part})
            for trace in trace_lines(result.timings):
                yield trace
            yield final_line(result)
            return
    finally:
        stop.set()  # a run still going stops at its next step; a finished one is unaffected


async def single_line(result: ExecResult) -> AsyncIterator[bytes]:
    """A stream of a request that did not run (``mustLogin``...): the final line alone."""
    yield final_line(result)


class RunStream(StreamingResponse):
    """A streamed run that stops when the client leaves.

    Besides a failed send, the request's channel is watched for ``http.disconnect``, so a client
    that leaves while the run is quiet stops it at once.
    """

    def __init__(self, content: AsyncIterator[bytes], stop: threading.Event, **kwargs: Any) -> None:
        super().__init__(content, media_type=MEDIA_TYPE, **kwargs)
        self.stop = stop

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def watch() -> None:
            while not self.stop.is_set():
                message = await receive()
                if message["type"] == "http.disconnect":
                    self.stop.set()
                    return

        watcher = asyncio.create_task(watch())
        try:
            await self.stream_response(send)
        except (OSError, ClientDisconnect):
            self.stop.set()  # the client left mid-stream
        finally:
            self.stop.set()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            aclose = getattr(self.body_iterator, "aclose", None)
            if aclose is not None:
                await aclose()
