"""Graphviz ``dot`` for the server: one process per layout, a few at once, each under a time limit.

``POST /api/layout`` hands its boxes to :meth:`Layouts.lay_out`, which runs
``dot`` as a child process of the event loop (no thread: the engines' workers
never wait on a layout). At most ``slots`` layouts run at once (default: half
the cores, at least one), so layouts leave cores to the engines; more wait
their turn. Each ``dot`` runs in a session of its own (a Ctrl-C at the
terminal reaches the server, which decides), with an address-space limit of
:data:`MEMORY_MB` and a CPU-time limit a second past the request's time limit
(the kernel ends it even if the server itself is killed). It is killed when
its request's :data:`SECONDS` pass (waiting for a slot counts; HTTP 408), when
its client leaves, and when the server stops (:meth:`Layouts.stop`; the
request gets 503).

>>> import asyncio
>>> async def demo():
...     return await Layouts(1).lay_out({0: (80, 40), 1: (80, 40)}, [(0, 1)])
>>> laid = asyncio.run(demo())
>>> laid.nodes[0][1] < laid.nodes[1][1]
True
"""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import signal
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import anyio

from ..errors import QubicError
from ..render.layout import layout_dot, read_layout, Layout
from .runner import CallTimeout

SECONDS = 30.0  # for one layout, waiting for a slot included
MEMORY_MB = 1024  # address space of one dot (the largest layout allowed peaks near 30 MB)
POLL = 0.2  # seconds between looks at the client while dot works


class ServerStopping(QubicError):
    """A request cut short because the server is stopping (HTTP 503)."""


class ClientGone(Exception):
    """The client left before its layout was done: nobody is waiting for an answer."""


class Layouts:
    """The server's ``dot`` processes: at most ``slots`` at once (see the module text)."""

    def __init__(self, slots: int | None = None) -> None:
        self.slots = slots or max(1, (os.cpu_count() or 2) // 2)
        self._free: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.running: set[asyncio.subprocess.Process] = set()
        self.stopping = False

    async def lay_out(self, boxes: dict[int, tuple[float, float]], edges: Sequence[tuple[int, int]],
                      rankdir: str = "TB", gone: Callable[[], Awaitable[bool]] | None = None,
                      seconds: float = SECONDS) -> Layout:
        """The layout of a checked graph (:func:`~qubic_logic.render.layout.check_graph`); raises
        :class:`CallTimeout` past ``seconds``, :class:`ClientGone` when ``gone()`` says the client left,
        :class:`ServerStopping` when the server stops."""
        exe = shutil.which("dot")
        if exe is None:
            raise QubicError("Graphviz 'dot' is not installed on the server; install graphviz "
                             "(apt-get install graphviz)")
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # (a semaphore belongs to one event loop)
            self._free, self._loop = asyncio.Semaphore(self.slots), loop
        deadline = loop.time() + seconds
        text = layout_dot(boxes, edges, rankdir).encode()
        slot = asyncio.ensure_future(self._free.acquire())
        try:
            await self._until(slot, deadline, seconds, gone)
        except BaseException:
            if slot.done() and not slot.cancelled():  # taken just as the wait ended: given back
                self._free.release()
            raise
        try:
            out = await self._dot(exe, text, deadline, seconds, gone)
        finally:
            self._free.release()
        return await anyio.to_thread.run_sync(read_layout, out)  # megabytes of JSON: off the event loop

    async def _dot(self, exe: str, text: bytes, deadline: float, seconds: float,
                   gone: Callable[[], Awaitable[bool]] | None) -> bytes:
        if self.stopping:
            raise ServerStopping("the server is stopping")
        proc = await asyncio.create_subprocess_exec(exe, "-Tjson", stdin=asyncio.subprocess.PIPE,
                                                    stdout=asyncio.subprocess.PIPE,
                                                    stderr=asyncio.subprocess.PIPE, start_new_session=True)
        self.running.add(proc)
        try:
            if self.stopping:  # stop() came while the process started
                raise ServerStopping("the server is stopping")
            _limit(proc.pid, seconds)
            out, err = await self._until(asyncio.ensure_future(proc.communicate(text)), deadline, seconds, gone)
        finally:
            self.running.discard(proc)
            if proc.returncode is None:
                _kill(proc)
                await proc.wait()
        if self.stopping:
            raise ServerStopping("the server is stopping; the layout was not finished")
        if proc.returncode != 0:
            why = err.decode(errors="replace").strip()[:200] or f"exit status {proc.returncode}"
            raise QubicError(f"Graphviz dot failed on the graph: {why}")
        return out

    async def _until(self, task: asyncio.Future, deadline: float, seconds: float,
                     gone: Callable[[], Awaitable[bool]] | None) -> Any:
        """``task``'s result, looking at the client every :data:`POLL` seconds; cancelled on the way out."""
        loop = asyncio.get_running_loop()
        try:
            while True:
                if self.stopping:
                    raise ServerStopping("the server is stopping; the layout was not finished")
                left = deadline - loop.time()
                if left <= 0:
                    raise CallTimeout(f"laying out the graph took longer than the server's limit of {seconds:g} s; "
                                      "send fewer boxes and edges")
                done, _ = await asyncio.wait({task}, timeout=min(POLL, left))
                if done:
                    return task.result()
                if gone is not None and await gone():
                    raise ClientGone()
        finally:
            task.cancel()  # (nothing when it is done; a cancelled wait for a slot takes none)

    def stop(self) -> None:
        """Kill every running ``dot`` now; their requests get 503, and no layout starts after this."""
        self.stopping = True
        for proc in list(self.running):
            _kill(proc)


def _limit(pid: int, seconds: float) -> None:
    """Caps on a started ``dot``: address space, and CPU time a second past the time limit."""
    if not hasattr(resource, "prlimit"):  # not Linux: the time limit and the kills still hold
        return
    cpu = int(seconds) + 2
    try:
        resource.prlimit(pid, resource.RLIMIT_AS, (MEMORY_MB << 20, MEMORY_MB << 20))
        resource.prlimit(pid, resource.RLIMIT_CPU, (cpu, cpu))
        resource.prlimit(pid, resource.RLIMIT_CORE, (0, 0))  # ended by SIGXCPU: no core file
    except (ProcessLookupError, PermissionError, OSError):  # already done
        pass


def _kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL to ``dot``'s session (its process group)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
