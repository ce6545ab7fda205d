"""A verification for the server, run in its own process group so that it can be stopped.

A dictionary is checked by :func:`qubic_logic.strategy.verify.verify`, a
strategy source (a shipped rule file or ``player:NAME``) by
:func:`qubic_logic.strategy.judge.judge`. Both run native code (and worker
processes) for many seconds; a thread could not be stopped when the client
goes away or the server shuts down. A :class:`VerificationJob` runs it in a
child process (its own process group, workers included) that reports
``progress`` and then ``result`` (or ``error``) events on a queue, and
:meth:`VerificationJob.stop` ends it: SIGTERM to its whole process group (the
child stops as on Ctrl-C), then after :data:`GRACE` seconds SIGKILL to whatever
of the group is left, workers included, so a stopped job is gone within a second.

The child is not a fresh interpreter (which takes a second or more to start and
import): it is forked from a *fork server*, a single-threaded process that
:func:`warm_up` starts with the server and that has imported the verification's
code once, so a job starts in milliseconds, with nothing of the server's threads
or state (forking the server itself, which has threads, would not be safe).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import multiprocessing.forkserver
import os
import queue as queues
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import anyio

from ..errors import QubicError
from ..notation import parse_position, root_of
from ..position import Game
from ..strategy.dictionary import StrategyDictionary
from ..strategy.judge import judge
from ..strategy.sources import load_strategy
from ..strategy.verify import verify
from ..supervisor import ignore_sigint, sigint_held
from .boards import board

PRELOAD = ("clingo", "qubic_logic.players")  # imported by the fork server beside this module: what judging a
# rule file's strategy (clingo) or a player's (every player) needs
SECONDS = 300.0
GRACE = 0.5  # seconds a stopped child has to end before its group is killed (native code does not see signals)
POLL = 0.2  # seconds between checks that the client is still there
FAILURES_SHOWN = 24


def _processes() -> multiprocessing.context.BaseContext:
    """How verifications start: forked from the fork server (see the module docstring)."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([__name__, *PRELOAD])
    return context


def warm_up() -> None:
    """Start the fork server now (the server calls it as it starts), so that its imports are done
    before the first verification; a fork server that died is started again by the next job."""
    _processes()
    with sigint_held():  # its children begin with Ctrl-C held, until _run ignores it: no traceback
        multiprocessing.forkserver.ensure_running()


def _interrupt(*_: object) -> None:
    """The child's first SIGTERM: stop the work as Ctrl-C would (it reports what it had). A second one,
    or one after the work, ends the child quietly: nothing is left to report, and no traceback."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    raise KeyboardInterrupt


def _run(text: str | None, path: str | None, source: str | None, root: str | None, events: Any) -> None:
    """The child: verify and put its events on the queue; SIGTERM stops it as Ctrl-C would. It started
    with Ctrl-C held and ignores it: a Ctrl-C at the server's terminal is the server's to act on."""
    os.setpgrp()  # a group of its own: stop() can end the workers with it
    ignore_sigint()
    signal.signal(signal.SIGTERM, _interrupt)

    def progress(phase: str, done: int, total: int) -> None:
        events.put(("progress", {"phase": phase, "done": done, "total": total}))

    try:
        events.put(("result", _judge(source, root, progress) if source else _verify(text, path, root, progress)))
    except QubicError as exc:
        events.put(("error", {"error": str(exc)}))
    except KeyboardInterrupt:
        events.put(("error", {"error": "the verification was stopped"}))
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the work is over: a stop now just ends the process
        events.put(("end", None))


def _verify(text: str | None, path: str | None, root: str | None, progress: Callable) -> dict:
    """A dictionary (pasted ``text`` or the shipped file at ``path``) checked from ``root``."""
    d = StrategyDictionary.parse(text, "the pasted dictionary") if text is not None else StrategyDictionary.load(path)
    v = verify(d, parse_position(root) if root else d.root, jobs=os.cpu_count(), time_limit=SECONDS,
               progress=progress)
    out = v.to_json()
    out["failures"] = [{**f.to_json(), "board": board(f.position)} for f in v.failures[:FAILURES_SHOWN]]
    out["failure_count"] = len(v.failures)
    out["entries"] = len(d)
    return out


def _judge(source: str, root: str | None, progress: Callable) -> dict:
    """A strategy source judged from ``root`` (a game or a position; default the empty board):
    the verdict, and for a refutation the board it ends on."""
    position, moves = root_of(root or "empty")
    strategy = load_strategy(source)
    try:
        j = judge(strategy, position, root_moves=moves, time_limit=SECONDS, progress=progress)
    finally:
        strategy.close()
    out = j.to_json()
    out["source"] = os.path.basename(source)  # the name the page offered, not the server's path
    if j.refutation is not None:
        out["refutation"]["board"] = board(Game(list(j.refutation.moves)).position)
    return out


class VerificationJob:
    """One verification from ``root`` (text, or None): of dictionary ``text``, of the dictionary file
    at ``path``, or of the strategy ``source`` (a shipped rule file's path or ``player:NAME``)."""

    def __init__(self, text: str | None, path: str | None, root: str | None, source: str | None = None) -> None:
        context = _processes()
        self.events = context.Queue()
        self.process = context.Process(target=_run, args=(text, path, source, root, self.events))
        self._stopping = threading.RLock()
        self._stopped = False  # no process starts after stop()
        self._killed = False  # the started process was ended (once)

    def _next(self) -> tuple[str, Any] | None:
        try:
            return self.events.get(timeout=POLL)
        except queues.Empty:
            return None

    async def run(self, gone: Callable[[], Awaitable[bool]] | None = None) -> AsyncIterator[tuple[str, Any]]:
        """Start the child and yield its events until it ends, or until ``gone()`` says the client
        left or the server stops (asked every :data:`POLL` seconds); the child is stopped on exit. A job
        stopped before it started yields one error event."""
        if gone is not None and await gone():
            self._stopped = True
        with self._stopping:  # (re-entrant: the server's stop may come in this thread, in a signal handler)
            stopped = self._stopped
            if not stopped:
                with sigint_held():  # a Ctrl-C at the terminal while the child imports: no traceback
                    self.process.start()
        if stopped:
            yield "error", {"error": "the verification was stopped before it began"}
            return
        try:
            while not (gone and await gone()):
                alive = self.process.is_alive()
                item = await asyncio.to_thread(self._next)  # after a child's end, what it had put
                if item is None and not alive:
                    status = self.process.exitcode
                    yield "error", {"error": f"the verification stopped (exit status {status})"}
                    return
                if item is not None and item[0] == "end":
                    return
                if item is not None:
                    yield item
        finally:
            with anyio.CancelScope(shield=True):  # a cancelled response still stops its job
                await anyio.to_thread.run_sync(self.stop)

    async def collect(self) -> list[tuple[str, Any]]:
        """Every event of a run, in a list."""
        return [event async for event in self.run()]

    def stop(self) -> None:
        """End the child and its workers: SIGTERM to its process group, then after :data:`GRACE`
        seconds SIGKILL to what is left of it (once; later calls return at once). A job not started
        yet never starts."""
        with self._stopping:
            self._stopped = True
            if self.process.pid is None or self._killed:
                return
            self._killed = True
            group = self.process.pid  # the child's group is its own pid (os.setpgrp in _run)
            if not _signal_group(group, signal.SIGTERM):
                self.process.terminate()  # not in its own group yet: it has no workers either
            self.process.join(GRACE)
            _signal_group(group, signal.SIGKILL)  # workers outlive a child that ended: end them too
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)


def _signal_group(group: int, sig: int) -> bool:
    """Send ``sig`` to process group ``group``; False if there is no such group."""
    try:
        os.killpg(group, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False
