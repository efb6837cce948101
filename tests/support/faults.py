"""A fault-injecting TCP proxy for reliability tests (loopback only, one thread per connection).

``FaultProxy(target_port)`` listens on a free loopback port and passes every connection through
to the target, unless a fault is armed: then the next connection carries one HTTP request to the
target and its answer never reaches the client.

- ``Fault.LOSE_RESPONSE``: the request is forwarded, the target answers in full, and the client's
  connection is closed without a byte of that answer (the network failed on the way back).
- ``Fault.HANG_UP``: the client's connection is closed as soon as its request was forwarded (the
  client gave up while the target was still working); the target still answers, to nobody.

Either way the proxy keeps the answer the client never saw (``lost_answers``), so a test can
compare it with what a retry gets.
"""

from __future__ import annotations

import enum
import socket
import threading
from collections import deque
from types import TracebackType

LOOPBACK = "127.0.0.1"
CHUNK = 65536
HEAD_END = b"\r\n\r\n"


class Fault(enum.Enum):
    LOSE_RESPONSE = "lose-response"
    HANG_UP = "hang-up"


def _content_length(head: bytes) -> int:
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value.strip())
    return 0


def read_message(sock: socket.socket) -> bytes:
    """One HTTP/1.1 message (head and a Content-Length body) from ``sock``; what came if cut."""
    data = b""
    while HEAD_END not in data:
        chunk = sock.recv(CHUNK)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(HEAD_END)
    wanted = _content_length(head)
    while len(body) < wanted:
        chunk = sock.recv(CHUNK)
        if not chunk:
            break
        body += chunk
    return head + HEAD_END + body


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy bytes until ``source`` ends, then end ``sink``'s sending side."""
    try:
        while chunk := source.recv(CHUNK):
            sink.sendall(chunk)
    except OSError:
        pass  # either side went away: the other learns it from the shutdown below
    finally:
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass


class FaultProxy:
    """``with FaultProxy(port) as proxy: proxy.arm(Fault.LOSE_RESPONSE); ... proxy.url``."""

    def __init__(self, target_port: int, *, target_host: str = LOOPBACK) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server((LOOPBACK, 0))
        self.port = int(self._listener.getsockname()[1])
        self._faults: deque[Fault] = deque()
        self._lock = threading.Lock()
        self._answered = threading.Condition(self._lock)
        self._threads: list[threading.Thread] = []
        self._closed = False
        self.connections = 0
        self.lost_answers: list[bytes] = []
        self._accepter = threading.Thread(target=self._accept, name="fault-proxy", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def arm(self, fault: Fault, count: int = 1) -> None:
        """Apply ``fault`` to each of the next ``count`` connections."""
        with self._lock:
            self._faults.extend([fault] * count)

    def take_lost_answer(self, timeout_s: float = 60.0) -> bytes:
        """The oldest answer a client never saw, waiting for the target to give it."""
        with self._answered:
            if not self._answered.wait_for(lambda: self.lost_answers, timeout_s):
                raise TimeoutError(f"no lost answer within {timeout_s:g} s")
            return self.lost_answers.pop(0)

    def start(self) -> FaultProxy:
        self._accepter.start()
        return self

    def close(self) -> None:
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        self._listener.close()
        self._accepter.join(5)
        for thread in threads:
            thread.join(5)

    def __enter__(self) -> FaultProxy:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def _accept(self) -> None:
        while True:
            try:
                downstream, _ = self._listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                if self._closed:
                    downstream.close()
                    return
                self.connections += 1
                fault = self._faults.popleft() if self._faults else None
                thread = threading.Thread(target=self._serve, args=(downstream, fault), daemon=True)
                self._threads.append(thread)
            thread.start()

    def _serve(self, downstream: socket.socket, fault: Fault | None) -> None:
        try:
            upstream = socket.create_connection(self.target, timeout=120)
        except OSError:
            downstream.close()  # the target is down: so is the proxy, for this client
            return
        with downstream, upstream:
            if fault is None:
                back = threading.Thread(target=_pump, args=(upstream, downstream), daemon=True)
                back.start()
                _pump(downstream, upstream)
                back.join()
                return
            upstream.sendall(read_message(downstream))
            if fault is Fault.HANG_UP:
                downstream.close()
            answer = read_message(upstream)
            with self._answered:
                self.lost_answers.append(answer)
                self._answered.notify_all()
