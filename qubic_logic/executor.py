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
raised again in the parent. A run with ``wrap_up=S`` first gives local units
that can end early (they poll :func:`~qubic_logic.supervisor.wrapping_up`,
as the opening book's searches do) up to S seconds after Ctrl-C to hand in
what they have, and yields those results too; on Dask, Ctrl-C stops at once.

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
from typing import Any, Callable, Iterable, Iterator, Sequence

from .errors import EngineUnavailableError, QubicError
from .supervisor import sigint_held

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

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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


class DaskExecutor(Executor):
    """Units as Dask tasks: on a ``LocalCluster`` of ``jobs`` worker processes, or on ``scheduler``.

    With ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``) the units
    run on an existing cluster, whose workers must have qubic-logic installed;
    on Ctrl-C they are cancelled (a unit already running finishes its own time
    limit). Without it a ``LocalCluster`` on loopback is started, and stopped
    on Ctrl-C or by :meth:`close`.
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
                        silence_logs=logging.CRITICAL, preload=[__name__],  # dask_setup: die with this process
                    )
                self.client = Client(self.cluster)
        except OSError as exc:
            raise QubicError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}; expected the "
                             "address a running `dask scheduler` prints, e.g. tcp://127.0.0.1:8786") from None

    def _start(self, fn: Callable, units: list) -> Any:
        from dask.distributed import as_completed

        # One unit per worker at a time, the next one handed out as one finishes: Dask would
        # otherwise queue a unit behind a long one on a busy worker while another worker idles.
        waiting = iter(enumerate(units))
        futures: list = []
        finished: queue.Queue = queue.Queue()
        stopping, handing_out = threading.Event(), threading.Lock()

        def submit(index: int, unit: Any) -> Any:
            futures.append(self.client.submit(_indexed, (fn, index, unit), pure=False))
            return futures[-1]

        running = as_completed([submit(i, u) for i, u in itertools.islice(waiting, self.jobs)])

        def collect() -> None:  # as_completed has no timeout: a thread hands finished futures over
            for future in running:
                finished.put(future)
                with handing_out:
                    following = None if stopping.is_set() else next(waiting, None)
                    if following is not None:
                        running.add(submit(*following))
            finished.put(None)

        threading.Thread(target=collect, daemon=True).start()
        return futures, finished, stopping, handing_out

    def _next(self, handle: Any, timeout: float) -> tuple[int, Any] | None:
        try:
            future = handle[1].get(timeout=timeout)
        except queue.Empty:
            return None
        if future is None:
            raise StopIteration
        return future.result()

    def _stop(self, handle: Any, final: bool = True) -> None:
        with handle[3]:
            handle[2].set()  # no unit is handed out after this
        try:
            self.client.cancel(handle[0], force=True)
            if final and self.cluster is not None:  # our own workers: end the units running in them now
                for pid in self.client.run(os.getpid).values():
                    os.kill(pid, signal.SIGKILL)
        except Exception:  # noqa: BLE001 - connections already closing (Ctrl-C): close() ends the rest
            pass
        if final and self.cluster is not None:
            self.close()

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
