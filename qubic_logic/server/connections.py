"""HTTP connections that cannot hold the server: each request must arrive whole within a deadline.

uvicorn closes a kept-alive connection only after a response, and its timer is
reset by every byte received, so a client that connects and sends nothing, or
sends its request a byte at a time, would keep a file descriptor for ever (a
few hundred such clients exhaust the process's descriptors and the server stops
answering). :func:`guarded_protocol` gives an h11 protocol with one more timer:
from the moment a connection is made, and again after each response, the next
request (head and body) must have arrived within ``seconds``, or the connection
is closed. A request that has arrived is never cut: a verification streaming
its events for minutes keeps its connection. And past ``max_connections`` open
connections a new one is answered 503 and closed at once, so the process never
runs out of descriptors (asyncio's accept loop would then log a traceback for
every waiting connection, over and over).

>>> protocol = guarded_protocol(10.0, 200)
>>> protocol.request_seconds, protocol.max_connections, protocol.__name__
(10.0, 200, 'GuardedH11Protocol')
"""

from __future__ import annotations

import asyncio
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


_BODY = json.dumps({"error": "the server has too many open connections; try again in a few seconds",
                    "field": None}).encode()
BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\n"
        b"connection: close\r\ncontent-length: " + str(len(_BODY)).encode() + b"\r\n\r\n" + _BODY)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request to arrive (see the module docstring)."""

    request_seconds = 10.0
    max_connections = 1000

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        if len(self.connections) > self.max_connections:
            transport.write(BUSY)
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        if self.request_seconds != float("inf"):
            self._deadline = self.loop.call_later(self.request_seconds, self._expire)

    def _expire(self) -> None:
        self._deadline = None
        waiting = self.conn.their_state in (h11.IDLE, h11.SEND_BODY)  # no whole request yet
        if waiting and not self.transport.is_closing():
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        super().connection_lost(exc)


def guarded_protocol(seconds: float, max_connections: int) -> type[GuardedH11Protocol]:
    """The protocol class (uvicorn's ``http=``) with a deadline of ``seconds`` for each request and at
    most ``max_connections`` open connections."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,),
                {"request_seconds": seconds, "max_connections": max_connections})
