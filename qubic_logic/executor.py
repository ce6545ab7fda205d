"""Run work units in worker processes: locally, or on a Dask cluster, through one interface.

A *work unit* is plain data (a position as text, limits, options) and a
function of the package that turns it into a picklable result. Every pool
of the project (solving reply classes, settling forced wins, matches, the
opening book) hands its units to an :class:`Executor` and reads the results
back as they finish:

>>> from qubic_logic.executor import make_executor
>>> with make_executor("local", jobs=2) as ex:
...     run = ex.run(abs, [-3, 1, -2])
...     print(sorted(run), run.stopped)
[(0, 3), (1, 1), (2, 2)] None

On Ctrl-C or when the run's time limit passes, the workers are stopped at
once (local worker processes are terminated; a Dask cluster the executor
started is shut down, units on an existing cluster are cancelled), the
iteration ends, and ``run.stopped`` says why: whatever finished before is
kept by the caller. An exception raised by a unit stops the others and is
raised again in the parent. A run with ``wrap_up=S`` first gives units
that can end early (they poll :func:`~qubic_logic.supervisor.wrapping_up`,
as the opening book's searches do) up to S seconds after Ctrl-C to hand in
what they have, and yields those results too: a local worker is told by a
signal, a Dask task by a Dask ``Event`` of its own (:func:`_wrappable`).

Work that decides its next unit from the results of the last ones (a search
that hands out leaves of a tree) opens a :meth:`Executor.stream` instead: it
submits units one at a time while others run, polls for outcomes, and learns
of a unit whose worker died (the unit comes back ``lost``, to be handed out
again) instead of the whole run failing:

>>> with make_executor("local", jobs=2) as ex, ex.stream(abs) as stream:
...     first, second = stream.submit(-3), stream.submit(4)
...     found = []
...     while len(found) < 2:
...         found += stream.poll(1.0)
...     sorted((o.job, o.kind, o.value) for o in found)
[(0, 'done', 3), (1, 'done', 4)]

Local workers ignore SIGINT (the parent decides) and can be given an
address-space limit (``memory_limit`` in MB per worker), so a runaway unit
fails in its worker (a one-line error naming the limit) instead of exhausting
the machine.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Sequence

from .errors import EngineUnavailableError, QubicError
from .supervisor import sigint_held, wrapped_up_by

EXECUTORS = ("local", "dask")
POLL = 0.2  # seconds between looks at the clock while waiting for results


class UnitRun:
    """The results of one :meth:`Executor.run`, as ``(index, result)`` pairs in finishing order.

    After the iteration ends, ``stopped`` is ``None`` when every unit
    finished, else ``'interrupted'`` or ``'time limit'``; ``done`` counts
    the results yielded and ``total`` the units handed in.
    """

    def __init__(self, results: Iterator[tuple[int, Any]], total: int) -> None:
        self._results = results
        self.total = total
        self.done = 0
        self.stopped: str | None = None

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        return self

    def __next__(self) -> tuple[int, Any]:
        item = next(self._results)
        self.done += 1
        return item

    def close(self) -> None:
        """Stop the units still running or waiting (the caller has what it needs); ``stopped`` stays None."""
        self._results.close()


class Executor(ABC):
    """Runs ``fn(unit)`` for many units on ``jobs`` workers; see the module docstring."""

    name: str
    jobs: int

    def run(
        self, fn: Callable[[Any], Any], units: Sequence[Any], *, time_limit: float | None = None,
        wrap_up: float = 0.0,
    ) -> UnitRun:
        """Start every unit; iterate the returned run for ``(index, fn(units[index]))``."""
        deadline = time.monotonic() + time_limit if time_limit else None
        run = UnitRun(iter(()), len(units))
        run._results = self._supervised(run, fn, list(units), deadline, wrap_up)
        return run

    def _supervised(
        self, run: UnitRun, fn: Callable, units: list, deadline: float | None, wrap_up: float
    ) -> Iterator[tuple[int, Any]]:
        if not units:
            return
        results = self._start(fn, units)
        try:
            yield from self._results_until(results, deadline, run)
        except KeyboardInterrupt:
            run.stopped = "interrupted"
            if wrap_up and self._wrap_up(results):  # (a second Ctrl-C stops at once)
                yield from self._results_until(results, time.monotonic() + wrap_up)
        finally:
            if run.stopped is not None or run.done < run.total:
                self._stop(results, final=run.stopped is not None)

    def _results_until(self, handle: Any, deadline: float | None, run: UnitRun | None = None) -> Iterator[tuple[int, Any]]:
        """Results as they come, until the last one or ``deadline`` (then ``run.stopped``: time limit)."""
        while deadline is None or time.monotonic() < deadline:
            try:
                item = self._next(handle, POLL)
            except StopIteration:
                return
            if item is not None:
                yield item
        if run is not None:
            run.stopped = "time limit"

    @abstractmethod
    def _start(self, fn: Callable, units: list) -> Any:
        """Submit every unit; returns a handle that :meth:`_next` reads results from."""

    @abstractmethod
    def _next(self, handle: Any, timeout: float) -> tuple[int, Any] | None:
        """The next finished ``(index, result)``, ``None`` after ``timeout`` s; StopIteration at the end."""

    @abstractmethod
    def _stop(self, handle: Any, final: bool = True) -> None:
        """Stop every unit still running or waiting, promptly; ``final``: on Ctrl-C or the time limit
        (not: the caller has what it needs, and may run more units on this executor)."""

    def _wrap_up(self, handle: Any) -> bool:
        """Hand out no more units and ask the running ones to end early; False when this executor cannot."""
        return False

    @abstractmethod
    def stream(self, fn: Callable[[Any], Any]) -> "UnitStream":
        """An open run of ``fn``: units submitted one at a time while others run (see :class:`UnitStream`)."""

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Outcome(NamedTuple):
    """What came back of a streamed unit: ``kind`` is ``'done'`` (``value``: its result) or ``'lost'``
    (``value``: why — its worker died or ran out of memory, or it was cancelled). A lost unit did not
    finish: the caller may submit it again."""

    job: int
    kind: str
    value: Any


class UnitStream(ABC):
    """Units handed in one at a time while others run; their outcomes come back as they finish.

    ``capacity`` is how many units run at once (the workers), :meth:`free` how many more would start
    now; ``running`` maps each running unit's id to the worker it runs on. A unit that raises is raised
    again by :meth:`poll` (a bug, not a lost worker). A context manager: leaving it stops what runs.
    """

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        self.fn = fn
        self.running: dict[int, str] = {}
        self._ids = itertools.count()

    @property
    @abstractmethod
    def capacity(self) -> int:
        """How many units run at once."""

    def free(self) -> int:
        """How many more units would start at once."""
        return max(0, self.capacity - len(self.running))

    @abstractmethod
    def submit(self, unit: Any) -> int:
        """Start ``fn(unit)`` (or queue it for the next free worker); returns the unit's id."""

    @abstractmethod
    def poll(self, timeout: float) -> list[Outcome]:
        """The outcomes that came back within ``timeout`` seconds (at least one, or none at the timeout)."""

    def progress(self, job: int) -> Any:
        """The last progress a running unit reported (:func:`~qubic_logic.supervisor.report`), or None."""
        return None

    @abstractmethod
    def wrap_up(self, jobs: Iterable[int] | None = None) -> None:
        """Ask the given running units (default: all) to end early with what they have; their outcomes
        come back as usual."""

    @abstractmethod
    def stop(self) -> list[Outcome]:
        """Stop every running unit now; returns their outcomes (lost)."""

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> "UnitStream":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _LocalStream(UnitStream):
    """:class:`UnitStream` on ``jobs`` supervised worker processes; a worker that dies is replaced."""

    def __init__(self, fn: Callable[[Any], Any], jobs: int, memory_limit: float | None, start_method: str) -> None:
        from .supervisor import Supervisor

        super().__init__(fn)
        self.workers = [Supervisor(memory_limit, start_method=start_method) for _ in range(jobs)]
        for worker in self.workers:  # now, while the caller is small: a fork copies what its memory holds
            worker.start()
        self.busy: dict[Any, tuple[Any, int]] = {}  # connection -> (supervisor, unit id)
        self.reported: dict[int, Any] = {}

    @property
    def capacity(self) -> int:
        return len(self.workers)

    def submit(self, unit: Any) -> int:
        taken = {id(worker) for worker, _ in self.busy.values()}
        worker = next((w for w in self.workers if id(w) not in taken), None)
        if worker is None:
            raise QubicError(f"all {len(self.workers)} workers are busy; expected a unit only when one is free")
        job = next(self._ids)
        self.busy[worker.submit(self.fn, unit)] = (worker, job)  # (a worker that died is started again)
        self.running[job] = f"pid {worker.pid}"
        return job

    def _lose(self, conn: Any, why: str) -> Outcome:
        _, job = self.busy.pop(conn)
        self.reported.pop(job, None)
        return Outcome(job, "lost", f"its worker ({self.running.pop(job)}) {why}")

    def poll(self, timeout: float) -> list[Outcome]:
        if not self.busy:
            return []
        out = []
        for conn in multiprocessing.connection.wait(list(self.busy), timeout):
            worker, job = self.busy[conn]
            try:
                kind, value = worker.outcome(f"work unit {job}")
            except QubicError as exc:
                if worker.pid is not None:  # alive: the unit's own error
                    self._lose(conn, "")
                    raise
                out.append(self._lose(conn, "ran out of memory" if "out of memory" in str(exc) else "died"))
                continue
            except BaseException:
                self._lose(conn, "")
                raise
            if kind == "ok":
                del self.busy[conn]
                self.running.pop(job)
                self.reported.pop(job, None)
                out.append(Outcome(job, "done", value))
            else:
                self.reported[job] = value
        for conn, (worker, job) in list(self.busy.items()):  # killed without its pipe closing (a forked sibling)
            if worker.pid is None:
                worker.stop()
                out.append(self._lose(conn, "died"))
        return out

    def progress(self, job: int) -> Any:
        return self.reported.get(job)

    def wrap_up(self, jobs: Iterable[int] | None = None) -> None:
        wanted = None if jobs is None else set(jobs)
        for worker, job in self.busy.values():
            if wanted is None or job in wanted:
                worker.wrap_up()

    def stop(self) -> list[Outcome]:
        lost = [Outcome(job, "lost", "stopped") for _, job in self.busy.values()]
        for worker in self.workers:
            worker.stop()
        self.busy.clear()
        self.running.clear()
        self.reported.clear()
        return lost


WATCH = 0.5  # seconds a Dask task's watcher waits on its wrap-up Event at a time


def _wrappable(job: tuple[Callable[[Any], Any], Any, str]) -> Any:
    """On a Dask worker: ``fn(unit)`` of ``job = (fn, unit, name)``, which sees
    :func:`~qubic_logic.supervisor.wrapping_up` once the cluster's ``Event(name)`` is set
    (:func:`_wrap_up_tasks`): a thread beside the task waits on the Event."""
    from distributed import Event, get_client

    fn, unit, name = job
    flag, done = threading.Event(), threading.Event()
    event = Event(name, client=get_client())  # (the watcher's thread cannot find the worker's client itself)

    def watch() -> None:
        while not done.is_set():
            try:
                if event.wait(timeout=WATCH):
                    flag.set()
                    return
            except Exception:  # noqa: BLE001 - the scheduler is going away: so is the run
                return

    threading.Thread(target=watch, daemon=True).start()
    try:
        with wrapped_up_by(flag):
            return fn(unit)
    finally:
        done.set()


def _wrap_up_tasks(client: Any, names: Iterable[str], *, forget: bool = False) -> None:
    """Set the wrap-up Events ``names`` (:func:`_wrappable`) on ``client``'s scheduler; ``forget``: clear
    ones that were set instead, so the scheduler drops them."""
    from distributed import Event

    for name in names:
        try:
            event = Event(name, client=client)
            if forget:
                event.clear()
            else:
                event.set()
        except Exception:  # noqa: BLE001 - a scheduler that is gone has no task left to tell
            pass


_EVENTS = itertools.count()


def _event_name() -> str:
    """A wrap-up Event's name, unique on a cluster that several commands share."""
    return f"qubic-logic-wrap-up-{os.getpid()}-{next(_EVENTS)}-{time.time_ns()}"


class _DaskStream(UnitStream):
    """:class:`UnitStream` on a Dask cluster: a worker that dies has its unit run again by the scheduler
    (after several deaths Dask gives up on it: it comes back lost). Each unit runs under
    :func:`_wrappable`, so :meth:`wrap_up` tells it to hand in what it has, as a local worker does."""

    REFRESH = 5.0  # seconds between looks at how many workers the cluster has

    def __init__(self, executor: "DaskExecutor", fn: Callable[[Any], Any]) -> None:
        super().__init__(fn)
        self.executor = executor
        self.client = executor.client
        self.futures: dict[int, Any] = {}
        self.events: dict[int, str] = {}  # job -> the name of its wrap-up Event
        self.told: set[str] = set()  # Events set, to clear once their job is back
        self.finished: queue.Queue = queue.Queue()
        self._capacity, self._looked = executor.jobs, time.monotonic()

    @property
    def capacity(self) -> int:
        if self.executor.cluster is None and time.monotonic() - self._looked > self.REFRESH:
            self._looked = time.monotonic()
            try:  # workers may join or leave a cluster started elsewhere
                self._capacity = sum(w["nthreads"] for w in self.client.scheduler_info()["workers"].values())
            except Exception:  # noqa: BLE001 - the scheduler is slow to answer: keep the last count
                pass
        return self._capacity

    def submit(self, unit: Any) -> int:
        job = next(self._ids)
        self.events[job] = _event_name()
        future = self.client.submit(_wrappable, (self.fn, unit, self.events[job]), pure=False)
        self.futures[job] = future
        self.running[job] = "dask"
        future.add_done_callback(lambda _, job=job: self.finished.put(job))
        return job

    def poll(self, timeout: float) -> list[Outcome]:
        from distributed import KilledWorker

        if not self.futures:
            return []
        try:
            ready = [self.finished.get(timeout=timeout)]
        except queue.Empty:
            return []
        while not self.finished.empty():
            ready.append(self.finished.get_nowait())
        out = []
        for job in ready:
            future = self.futures.pop(job, None)
            if future is None:
                continue  # cancelled by stop(): reported then
            self.running.pop(job, None)
            self._forget(job)
            if future.status == "finished":
                out.append(Outcome(job, "done", future.result()))
            elif future.status == "cancelled":
                out.append(Outcome(job, "lost", "cancelled"))
            else:
                error = future.exception()
                if isinstance(error, KilledWorker):
                    out.append(Outcome(job, "lost", "its workers died each time it ran"))
                else:
                    raise error
        return out

    def wrap_up(self, jobs: Iterable[int] | None = None) -> None:
        names = [self.events[job] for job in (list(self.futures) if jobs is None else jobs) if job in self.futures]
        self.told.update(names)
        _wrap_up_tasks(self.client, names)

    def _forget(self, job: int) -> None:
        name = self.events.pop(job, None)
        if name in self.told:
            self.told.discard(name)
            _wrap_up_tasks(self.client, [name], forget=True)

    def stop(self) -> list[Outcome]:
        lost = [Outcome(job, "lost", "stopped") for job in self.futures]
        try:
            self.client.cancel(list(self.futures.values()), force=True)
        except Exception:  # noqa: BLE001 - a client already closing has nothing left to cancel
            pass
        for job in list(self.futures):
            self._forget(job)
        self.futures.clear()
        self.running.clear()
        return lost


def _indexed(job: tuple[Callable, int, Any]) -> tuple[int, Any]:
    fn, index, unit = job
    return index, fn(unit)


class LocalExecutor(Executor):
    """Worker processes on this machine, killed at once on Ctrl-C or the limit.

    Each worker is a :class:`~qubic_logic.supervisor.Supervisor` worker: it
    ignores SIGINT (the parent decides), has its own process group (so
    whatever it starts dies with it) and an address-space cap when
    ``memory_limit`` is given; it takes one unit at a time. Stopping kills the
    workers; no pool machinery is left to wait for (``multiprocessing.Pool``'s
    ``terminate`` can block on a lock a busy worker holds).
    ``start_method`` is ``'fork'`` (fast, the default) or ``'spawn'`` (fresh
    interpreters: for units that start an embedded engine such as SWI-Prolog).
    """

    name = "local"

    def __init__(
        self, jobs: int | None = None, *, memory_limit: float | None = None, start_method: str = "fork"
    ) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self.memory_limit = memory_limit
        self.start_method = start_method

    def _start(self, fn: Callable, units: list) -> Any:
        from .supervisor import Supervisor

        pool = _Pool(fn, list(enumerate(units)))
        for _ in range(min(self.jobs, len(units))):
            pool.feed(Supervisor(self.memory_limit, start_method=self.start_method))
        return pool

    def _next(self, handle: Any, timeout: float) -> tuple[int, Any] | None:
        return handle.next(timeout)

    def _stop(self, handle: Any, final: bool = True) -> None:
        handle.stop()

    def _wrap_up(self, handle: Any) -> bool:
        handle.wrap_up()
        return True

    def stream(self, fn: Callable[[Any], Any]) -> UnitStream:
        return _LocalStream(fn, self.jobs, self.memory_limit, self.start_method)


class _Pool:
    """The units of one local run: those waiting, and the worker each running one is on."""

    def __init__(self, fn: Callable, units: list[tuple[int, Any]]) -> None:
        self.fn = fn
        self.waiting = units[::-1]  # popped from the end: in order
        self.busy: dict[Any, Any] = {}  # connection -> (supervisor, index)
        self.idle: list[Any] = []

    def feed(self, worker: Any) -> None:
        """Give ``worker`` the next unit, or keep it idle."""
        if self.waiting:
            index, unit = self.waiting.pop()
            self.busy[worker.submit(self.fn, unit)] = (worker, index)
        else:
            self.idle.append(worker)

    def next(self, timeout: float) -> tuple[int, Any] | None:
        if not self.busy:
            self.stop()
            raise StopIteration
        for conn in multiprocessing.connection.wait(list(self.busy), timeout):
            worker, index = self.busy[conn]
            kind, value = worker.outcome(f"work unit {index}")
            if kind != "ok":
                continue  # progress reports: the unit goes on
            del self.busy[conn]
            self.feed(worker)
            if not self.busy:  # the last result: no worker is left waiting for a caller that may stop asking
                self.stop()
            return index, value
        return None

    def wrap_up(self) -> None:
        """No more units; the running ones are asked to end early."""
        self.waiting.clear()
        for worker, _ in self.busy.values():
            worker.wrap_up()

    def stop(self) -> None:
        for worker, _ in list(self.busy.values()):
            worker.stop()
        for worker in self.idle:
            worker.stop()
        self.busy.clear()
        self.idle.clear()


@dataclass
class _DaskRun:
    """A run's futures on the cluster (handed out one per free worker), their wrap-up Events and the
    ones set (cleared at the end), and the finished futures in the order they came."""

    futures: list = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    told: list[str] = field(default_factory=list)
    finished: queue.Queue = field(default_factory=queue.Queue)
    stopping: threading.Event = field(default_factory=threading.Event)
    handing_out: threading.Lock = field(default_factory=threading.Lock)


class DaskExecutor(Executor):
    """Units as Dask tasks: on a ``LocalCluster`` of ``jobs`` worker processes, or on ``scheduler``.

    With ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``) the units
    run on an existing cluster, whose workers must have qubic-logic installed;
    on Ctrl-C the running ones are told to wrap up (a run's ``wrap_up``) and
    then cancelled. Without it a ``LocalCluster`` on loopback is started, and
    stopped on Ctrl-C or by :meth:`close`.
    """

    name = "dask"

    def __init__(
        self, jobs: int | None = None, *, scheduler: str | None = None, memory_limit: float | None = None
    ) -> None:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError as exc:  # pragma: no cover - dask is a dependency
            raise EngineUnavailableError(f"the dask executor needs dask.distributed ({exc})") from None
        self.cluster = None
        try:
            if scheduler:
                self.client = Client(scheduler, timeout=5)
                self.jobs = sum(w["nthreads"] for w in self.client.scheduler_info()["workers"].values()) or 1
            else:
                self.jobs = jobs or os.cpu_count() or 1
                with sigint_held():  # its workers start with Ctrl-C held: the command decides
                    self.cluster = LocalCluster(
                        n_workers=self.jobs, threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address=None, memory_limit=f"{memory_limit}MB" if memory_limit else "auto",
                        # (its HTTP endpoint on any free loopback port, not 8787: two clusters do not clash)
                        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                        silence_logs=logging.CRITICAL, preload=[__name__],  # dask_setup: die with this process
                    )
                self.client = Client(self.cluster)
        except OSError as exc:
            raise QubicError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}; expected the "
                             "address a running `dask scheduler` prints, e.g. tcp://127.0.0.1:8786") from None

    def _start(self, fn: Callable, units: list) -> "_DaskRun":
        from dask.distributed import as_completed

        # One unit per worker at a time, the next one handed out as one finishes: Dask would
        # otherwise queue a unit behind a long one on a busy worker while another worker idles.
        waiting = iter(enumerate(units))
        run = _DaskRun()

        def submit(index: int, unit: Any) -> Any:
            run.events.append(_event_name())
            run.futures.append(self.client.submit(_wrappable, (_indexed, (fn, index, unit), run.events[-1]),
                                                  pure=False))
            return run.futures[-1]

        running = as_completed([submit(i, u) for i, u in itertools.islice(waiting, self.jobs)])

        def collect() -> None:  # as_completed has no timeout: a thread hands finished futures over
            for future in running:
                run.finished.put(future)
                with run.handing_out:
                    following = None if run.stopping.is_set() else next(waiting, None)
                    if following is not None:
                        running.add(submit(*following))
            run.finished.put(None)

        threading.Thread(target=collect, daemon=True).start()
        return run

    def _next(self, handle: "_DaskRun", timeout: float) -> tuple[int, Any] | None:
        try:
            future = handle.finished.get(timeout=timeout)
        except queue.Empty:
            return None
        if future is None:
            raise StopIteration
        return future.result()

    def _wrap_up(self, handle: "_DaskRun") -> bool:
        with handle.handing_out:
            handle.stopping.set()  # no unit is handed out after this
            running = [name for future, name in zip(handle.futures, handle.events) if not future.done()]
        handle.told.extend(running)
        _wrap_up_tasks(self.client, running)
        return True

    def _stop(self, handle: "_DaskRun", final: bool = True) -> None:
        with handle.handing_out:
            handle.stopping.set()  # no unit is handed out after this
        try:
            _wrap_up_tasks(self.client, handle.told, forget=True)
            self.client.cancel(handle.futures, force=True)
            if final and self.cluster is not None:  # our own workers: end the units running in them now
                for pid in self.client.run(os.getpid).values():
                    os.kill(pid, signal.SIGKILL)
        except Exception:  # noqa: BLE001 - connections already closing (Ctrl-C): close() ends the rest
            pass
        if final and self.cluster is not None:
            self.close()

    def stream(self, fn: Callable[[Any], Any]) -> UnitStream:
        return _DaskStream(self, fn)

    def close(self) -> None:
        # the cluster's connections close under work that was cancelled: those are no errors to show
        for name in ("distributed", "tornado", "asyncio"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)
        try:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        except Exception:  # noqa: BLE001 - a cluster already going down (Ctrl-C) has nothing left to close
            pass
        self.cluster = None


def dask_setup(worker: Any) -> None:
    """Run by Dask in each worker of a cluster the executor starts: the worker dies with the command,
    SIGKILL of the command included (see :func:`~qubic_logic.supervisor.die_with_parent`)."""
    from .supervisor import die_with_parent

    die_with_parent(os.getppid())


def make_executor(
    kind: str = "local",
    jobs: int | None = None,
    *,
    scheduler: str | None = None,
    memory_limit: float | None = None,
    start_method: str = "fork",
) -> Executor:
    """The executor called ``kind`` (``'local'`` or ``'dask'``); a ``scheduler`` address implies Dask.

    >>> make_executor("cloud")
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: unknown executor 'cloud'; expected one of local, dask
    """
    if scheduler:
        kind = "dask"
    if kind == "local":
        return LocalExecutor(jobs, memory_limit=memory_limit, start_method=start_method)
    if kind == "dask":
        return DaskExecutor(jobs, scheduler=scheduler, memory_limit=memory_limit)
    raise QubicError(f"unknown executor {kind!r}; expected one of {', '.join(EXECUTORS)}")


def run_all(
    executor: Executor, fn: Callable[[Any], Any], units: Iterable[Any], *, time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[dict[int, Any], str | None]:
    """Every result of :meth:`Executor.run` by unit index, and why the run stopped (``None``: complete).

    >>> with make_executor(jobs=1) as ex:
    ...     run_all(ex, abs, [-1, -2])
    ({0: 1, 1: 2}, None)
    """
    run = executor.run(fn, list(units), time_limit=time_limit)
    results: dict[int, Any] = {}
    for index, result in run:
        results[index] = result
        if progress:
            progress(run.done, run.total)
    return dict(sorted(results.items())), run.stopped
