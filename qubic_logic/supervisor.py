"""Declarative work under supervision: a worker process with a time limit and a memory limit.

User rules, raw queries, rule checks and forced-win queries through clingo or
SWI-Prolog can run for ever (``p(X+1) :- p(X).``), eat memory without bound
(grounding) or ignore Ctrl-C inside C code. A :class:`Supervisor` runs such
work in one worker process that it starts once and keeps: the worker's
address space is capped (``memory_limit`` in MB, default
:data:`DEFAULT_MEMORY_MB`), it ignores SIGINT, and the parent waits for each
answer in short slices. When the time limit passes (plus a short grace
period, so that an engine's own limit can answer first with its partial
result) or Ctrl-C comes, the worker is killed at once and the call raises
:class:`~qubic_logic.errors.QueryTimeout` or
:class:`~qubic_logic.errors.Interrupted`, carrying the last progress the work
reported with :func:`report`. The next call starts a fresh worker.

Because the worker lives on between calls, so do the engines in it: a
grounded clingo program or a consulted Prolog session kept by the code that
runs there (module state, e.g. pyswip's one database) serves every later call,
and a call costs one round trip on a pipe (tens of microseconds), not a start:

>>> with Supervisor(memory_limit=1024) as worker:
...     worker.call(pow, 2, 10), worker.call(pow, 3, 2)
(1024, 9)

:class:`~qubic_logic.engines.supervised.SupervisedEngine` is an
:class:`~qubic_logic.engines.base.Engine` whose questions are answered by the
ASP or Prolog engine inside such a worker;
:func:`~qubic_logic.engines.supervised.engine_for` gives one for ``asp`` and
``prolog`` and the plain engine for the native and Python cores (which stop by
themselves).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from contextlib import contextmanager
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterator

from .errors import Interrupted, QubicError, QueryTimeout

DEFAULT_MEMORY_MB = 4096  # address space of a worker: a runaway grounding stops here
GRACE = 1.0  # seconds past the time limit before the worker is killed (its own limit answers first)
POLL = 0.05  # seconds between looks at the clock and the keyboard while waiting

_channel: Connection | None = None  # in a worker: the pipe to the parent
WRAP_UP = signal.SIGUSR1  # from the parent: end the running work early and hand in what it has
_wrapping_up = False  # in a worker: WRAP_UP came during the current work
_thread = threading.local()  # in a thread running a cluster's task: its own wrap-up flag (wrapped_up_by)


def wrapping_up() -> bool:
    """In a worker: whether the parent asked the current work to end early (:meth:`Supervisor.wrap_up`,
    or on a Dask worker the flag of :func:`wrapped_up_by`).

    Long work that can stop with a partial result polls it (a search's
    progress callback does), then returns what it has.
    """
    flag = getattr(_thread, "flag", None)
    return _wrapping_up or (flag is not None and flag.is_set())


@contextmanager
def wrapped_up_by(flag: threading.Event) -> Iterator[None]:
    """Within it, :func:`wrapping_up` in this thread also says whether ``flag`` is set: work in a thread of
    a Dask worker, which no signal reaches.

    >>> flag = threading.Event()
    >>> with wrapped_up_by(flag):
    ...     before = wrapping_up(); flag.set(); after = wrapping_up()
    >>> before, after, wrapping_up()
    (False, True, False)
    """
    _thread.flag = flag
    try:
        yield
    finally:
        _thread.flag = None


def _on_wrap_up(signum: int, frame: Any) -> None:
    global _wrapping_up
    _wrapping_up = True


def report(value: Any) -> None:
    """From work running in a supervised worker: tell the parent how far it got.

    The parent hands ``value`` to the call's ``progress`` callback and keeps the
    last one as the partial result of a call that is stopped. Outside a worker
    this does nothing.

    >>> report({'checked': 3})
    """
    if _channel is not None:
        _channel.send(("progress", value))


def report_progress(done: int, total: int) -> None:
    """A ``progress(done, total)`` callback for work in a worker: :func:`report` of ``(done, total)``."""
    report((done, total))


PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when the thread that started it ends


def die_with_parent(parent: int, *, kernel: bool = True) -> None:
    """In a child process: end (SIGKILL) as soon as ``parent`` ends, however it ends, SIGKILL included.

    On Linux the kernel sends the signal (``prctl(PR_SET_PDEATHSIG)``; it
    fires when the *thread* that started the child ends, so ``kernel=False``
    for a child started from a thread other than the main one); a daemon
    thread also watches the parent's id twice a second and kills the child's
    process group, with whatever it started, when the parent is gone.
    """
    if kernel:
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # not Linux: the thread below does it
            pass
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        group = os.getpgrp()
        os.killpg(group, signal.SIGKILL) if group == os.getpid() else os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


NOISE = (b"[FATAL ERROR", b"tcmalloc: ")  # an engine's own last words when it runs out of memory


def _quiet_dying_words() -> None:
    """In a worker: its stderr goes through a thread that passes every line but SWI-Prolog's
    ``[FATAL ERROR ... Could not allocate memory]`` block and tcmalloc's reports: a worker killed at
    its memory limit is reported by the parent in one line, and those would be raw lines around it."""
    read, write = os.pipe()
    real = os.dup(2)
    os.dup2(write, 2)
    os.close(write)

    def forward() -> None:
        skipping = False
        with os.fdopen(read, "rb") as lines:
            for line in lines:
                skipping = skipping or line.startswith(NOISE[0])
                if not skipping and not line.startswith(NOISE[1]):
                    os.write(real, line)
                skipping = skipping and not line.rstrip().endswith(b"]")

    threading.Thread(target=forward, name="stderr", daemon=True).start()


def _worker(conn: Connection, memory_limit: float | None, parent: int, main_thread: bool = True) -> None:
    """The worker's loop: run each ``(fn, args, kwargs)`` received, send back the outcome.

    It ends when its parent does, however the parent ends (:func:`die_with_parent`; a forked
    sibling may hold the other end of its pipe open, so the end of the pipe alone does not tell)."""
    global _channel, _wrapping_up
    os.setpgrp()  # its own process group: stopping it stops any process it started (swipl)
    ignore_sigint()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the command's handler: a killed worker just ends,
    die_with_parent(parent, kernel=main_thread)     # and its parent gives its job back
    _quiet_dying_words()
    signal.signal(WRAP_UP, _on_wrap_up)
    if memory_limit:
        import resource

        limit = int(memory_limit * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    _channel = conn
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent:
                    return
            job = conn.recv()
        except (EOFError, OSError):
            return
        fn, args, kwargs = job
        try:
            conn.send(("ok", fn(*args, **kwargs)))
        except MemoryError:
            conn.send(("memory", None))
        except BaseException as exc:  # noqa: BLE001 - everything goes back to the parent
            try:
                conn.send(("error", exc))
            except Exception:  # an exception that does not pickle: its text does
                conn.send(("error", QubicError(f"{type(exc).__name__}: {exc}")))
        _wrapping_up = False  # (only after the answer: a WRAP_UP sent before the work began applies to it)


@contextmanager
def sigint_held(*also: int) -> Iterator[None]:
    """Ctrl-C (and the signals ``also``) held back (blocked, not lost: it arrives when the block ends)
    while processes start, or while work that must not stop half-way (a commit) runs.

    Ctrl-C reaches the terminal's whole process group, and a worker still importing must not print a
    traceback: a process started inside begins with SIGINT blocked (the mask survives ``exec``) until
    it ignores it (:func:`_worker`); the parent then sees its Ctrl-C and decides.
    """
    held = {signal.SIGINT, *also}
    signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, held)


def ignore_sigint() -> None:
    """In a started process: ignore SIGINT (the parent decides), then let signals through again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def cpu_seconds(pid: int) -> float | None:
    """CPU seconds used so far by process ``pid`` and its finished children (None: gone, or no psutil).

    >>> cpu_seconds(os.getpid()) > 0
    True
    """
    try:
        import psutil

        t = psutil.Process(pid).cpu_times()
    except Exception:  # noqa: BLE001 - gone already, or no psutil
        return None
    return t.user + t.system + t.children_user + t.children_system


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (none when it is gone or psutil is missing)."""
    try:
        import psutil

        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except Exception:  # noqa: BLE001 - gone already, or no psutil: the group kill covers the rest
        return []


class Supervisor:
    """One supervised worker process; see the module docstring.

    ``memory_limit`` (MB, None for none) caps the worker's address space;
    ``start_method`` is ``'spawn'`` (a fresh interpreter: safe whatever the
    parent has started, the default) or ``'fork'``.
    """

    def __init__(self, memory_limit: float | None = DEFAULT_MEMORY_MB, *, start_method: str = "spawn") -> None:
        self.memory_limit = memory_limit
        self._context = multiprocessing.get_context(start_method)
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self.peak_memory = 0  # largest resident size of a worker seen while waiting, bytes

    @property
    def pid(self) -> int | None:
        """The worker's process id (None: no worker running)."""
        return self._process.pid if self._process is not None and self._process.is_alive() else None

    def _ensure(self) -> Connection:
        if self._process is None or not self._process.is_alive():
            self.stop()
            me = multiprocessing.current_process()
            if me.daemon:  # a worker (local or Dask) may supervise work of its own: that worker dies with it
                me.daemon = False
            parent, child = self._context.Pipe()
            main = threading.current_thread() is threading.main_thread()
            self._process = self._context.Process(
                target=_worker, args=(child, self.memory_limit, os.getpid(), main), daemon=True)
            with sigint_held():
                self._process.start()
            child.close()
            self._conn = parent
        return self._conn

    def start(self) -> None:
        """Start the worker now (else the first :meth:`submit` does): forked before the parent grows."""
        self._ensure()

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Connection:
        """Send ``fn(*args, **kwargs)`` to the worker (started if need be); returns the connection that
        becomes readable when :meth:`outcome` has something (for ``multiprocessing.connection.wait``)."""
        conn = self._ensure()
        conn.send((fn, args, kwargs))
        return conn

    def outcome(self, what: str = "the work", partial: Any = None) -> tuple[str, Any]:
        """The worker's next message, once its connection is readable: ``('progress', value)`` or
        ``('ok', result)``. Raises what the work raised, or :class:`QubicError` when the worker
        ran out of memory or died."""
        try:
            kind, value = self._conn.recv()
        except (EOFError, OSError):
            raise self._died(what, partial) from None
        if kind == "memory":
            self.stop()
            raise self._memory_error(what, partial)
        if kind == "error":
            raise value
        return kind, value

    def call(self, fn: Callable[..., Any], *args: Any, limit: float | None = None, cpu_limit: float | None = None,
             on_progress: Callable[[Any], None] | None = None, what: str = "the query", grace: float = GRACE,
             **kwargs: Any) -> Any:
        """``fn(*args, **kwargs)`` in the worker; its result, or the exception it raised.

        Past ``limit`` seconds (plus ``grace``, for work with a limit of its own), or once the work has
        used ``cpu_limit`` seconds of CPU time (the worker's and its children's: a busy machine does not
        count against it), raises :class:`QueryTimeout` (``cpu`` True for the CPU limit), on Ctrl-C
        :class:`Interrupted`, when the worker
        exceeds the memory limit or dies a :class:`QubicError`; ``what`` names
        the work in those messages, whose ``partial`` is the last
        :func:`report`. ``fn`` and its arguments must pickle (module-level
        functions, plain data).
        """
        conn = self.submit(fn, *args, **kwargs)
        deadline = time.monotonic() + limit + grace if limit else None
        cpu_start = cpu_seconds(self._process.pid) if cpu_limit else None
        partial = None
        try:
            while True:
                if conn.poll(POLL if deadline is None else max(0.0, min(POLL, deadline - time.monotonic()))):
                    kind, value = self.outcome(what, partial)
                    if kind == "ok":
                        return value
                    partial = value
                    if on_progress:
                        on_progress(value)
                    continue
                self._watch()
                if not self._process.is_alive():
                    raise self._died(what, partial)
                if deadline is not None and time.monotonic() >= deadline:
                    self.stop()
                    raise QueryTimeout(f"{what} did not finish within the time limit of {limit:.3g} s",
                                       partial=partial)
                if cpu_start is not None and (cpu_seconds(self._process.pid) or 0.0) - cpu_start >= cpu_limit:
                    self.stop()
                    late = QueryTimeout(f"{what} did not finish within {cpu_limit:.3g} s of CPU time", partial=partial)
                    late.cpu = True  # type: ignore[attr-defined]
                    raise late
        except KeyboardInterrupt:
            self.stop()
            raise Interrupted(f"{what} was interrupted", partial=partial) from None

    def _watch(self) -> None:
        try:
            import psutil

            rss = psutil.Process(self._process.pid).memory_info().rss
        except Exception:  # the worker is gone, or psutil is missing: nothing to record
            return
        self.peak_memory = max(self.peak_memory, rss)

    def _memory_error(self, what: str, partial: Any) -> QubicError:
        if self.memory_limit:
            error = QubicError(f"{what} ran out of memory at the memory limit of {self.memory_limit:g} MB; "
                               "raise --memory-limit, or bound the rules (a rule like p(X+1) :- p(X) "
                               "grounds for ever)")
        else:  # no limit of its own: the machine's memory ran out
            error = QubicError(f"{what} ran out of memory (no memory limit was set: the machine's memory ran "
                               "out); expected work that fits in memory")
        error.partial = partial  # type: ignore[attr-defined]
        return error

    def _died(self, what: str, partial: Any) -> QubicError:
        process = self._process
        process.join(1.0)
        code = process.exitcode
        self._process = None
        self._conn = None
        if code is not None and code < 0 and self.memory_limit:
            return self._memory_error(what, partial)  # killed by a signal: clingo aborts on bad_alloc
        if code == 0 or code is None:
            return QubicError(f"{what} ended the engine's process without an answer (did the rules call "
                              "halt/0? rules must not end the process)")
        return QubicError(f"{what} ended the engine's process with status {code}")

    def wrap_up(self) -> None:
        """Ask the running work to end early with what it has (:func:`wrapping_up`); it answers as usual."""
        if self.pid is not None:
            try:
                os.kill(self.pid, WRAP_UP)
            except ProcessLookupError:
                pass

    def stop(self) -> None:
        """Kill the worker now (a later call starts a new one)."""
        process, self._process = self._process, None
        if process is not None:  # killed before its pipe closes: a worker busy sending a result
            # must not see the broken pipe (it would print a traceback); its group (what it
            # started), itself, in case it was stopped before it made its own group, and whatever
            # runs below it in groups of their own (a worker's own supervised worker, a shell it ran)
            for pid in [process.pid, *_descendants(process.pid)]:
                for kill in (os.killpg, os.kill):
                    try:
                        kill(pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if process is not None:
            process.join()

    close = stop

    def __enter__(self) -> "Supervisor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_finding = False  # in a worker: a user's query is running, whose answers go to the parent as found


def found(kind: str, value: Any) -> None:
    """From an engine: an answer (``'model'`` or ``'solution'``) of the user's query running in a worker
    (:meth:`~qubic_logic.engines.supervised.SupervisedEngine.query`), sent to the parent as found. Elsewhere this does nothing.

    >>> found('model', (['p(1)'], []))
    """
    if _finding:
        report((kind, value))


@contextmanager
def sending_found(on: bool = True) -> Iterator[None]:
    """In a worker, while the block runs: :func:`found` sends the answers of the user's query to the parent
    (``on``), or drops them (any other work)."""
    global _finding
    _finding = on
    try:
        yield
    finally:
        _finding = False
