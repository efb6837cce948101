"""The HTTP protocol the server runs: uvicorn's httptools one, one send per response.

uvicorn writes a response's status line and headers as soon as the application starts the
response, then its body when the application sends it: two ``send`` system calls, two TCP
segments and two wake-ups of the client for each answer. On loopback each ``send`` does the
receiver's TCP work too, with the GIL held: under a saturating load test the header write
alone was 14 % of the server's samples holding the GIL. Here the writes made in one step of
the event loop are joined and sent at the start of the next one (the header and body of a
JSON answer go out together); a streamed response still sends each line as soon as the
loop gets back to it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class CoalescingTransport:
    """A transport whose writes within one step of the event loop become one write.

    Everything but writing and closing is the underlying transport's. ``close`` sends what
    is pending first (a response followed by ``Connection: close``); ``abort`` drops it.
    """

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(bytes(data))

    def _flush(self) -> None:
        if not self._pending:
            return
        data = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol over a ``CoalescingTransport`` (``uvicorn.run(http=...)``)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(CoalescingTransport(transport, self.loop))  # type: ignore[arg-type]
