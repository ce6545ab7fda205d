"""The executor: local processes and a Dask LocalCluster give the same results and stop alike."""

from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import nullcontext

import pytest

from qubic_logic.errors import QubicError
from qubic_logic.executor import make_executor, run_all
from qubic_logic.notation import parse_patashnik
from qubic_logic.proof.split import solve_split
from qubic_logic.strategy.verify import verify
from qubic_logic.supervisor import wrapping_up


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _fails(unit: int) -> int:
    if unit == 2:
        raise QubicError("unit 2 is bad")
    return unit


def _until_told(seconds: float) -> str:
    """Work that hands in what it has once told to wrap up."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if wrapping_up():
            return "wrapped up"
        time.sleep(0.02)
    return "ran out"


@pytest.fixture(scope="module")
def dask_executor():
    with make_executor("dask", jobs=2) as ex:
        yield ex


@pytest.mark.parametrize("kind", ["local", "dask"])
def test_results_by_unit_index(kind, dask_executor):
    units = [(-1) ** i * i for i in range(20)]
    if kind == "dask":
        results, stopped = run_all(dask_executor, abs, units)
    else:
        with make_executor("local", jobs=2) as ex:
            results, stopped = run_all(ex, abs, units)
    assert stopped is None
    assert results == {i: abs(u) for i, u in enumerate(units)}


@pytest.mark.parametrize("kind", ["local", "dask"])
def test_no_unit_waits_behind_a_long_one_while_a_worker_is_free(kind, dask_executor):
    units = [3.0, 1.5] + [0.05] * 12  # once the 1.5 s unit ends, its worker should take every short one
    if kind == "dask":
        order = [i for i, _ in dask_executor.run(_nap, units)]
    else:
        with make_executor("local", jobs=2) as ex:
            order = [i for i, _ in ex.run(_nap, units)]
    assert order[-1] == 0, order


def test_time_limit_stops_running_units_and_keeps_finished_ones():
    with make_executor("local", jobs=2) as ex:
        run_limited = ex.run(_nap, [0.05, 30, 30], time_limit=1.5)
        results = dict(run_limited)
        assert run_limited.stopped == "time limit"
        assert results == {0: 0.05}


def test_ctrl_c_stops_workers_and_reports_interrupted(ctrl_c):
    with make_executor("local", jobs=2) as ex:
        timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        run = ex.run(_nap, [0.05, 30, 30])
        results = dict(run)
        timer.join()
    assert run.stopped == "interrupted"
    assert results == {0: 0.05}


def test_a_failing_unit_raises_in_the_parent():
    with make_executor("local", jobs=2) as ex:
        with pytest.raises(QubicError, match="unit 2 is bad"):
            run_all(ex, _fails, [0, 1, 2, 3])


def test_memory_limit_turns_a_runaway_unit_into_an_error_naming_the_limit():
    with make_executor("local", jobs=1, memory_limit=300) as ex:
        with pytest.raises(QubicError, match="memory limit of 300 MB"):
            run_all(ex, bytearray, [2**31])


def test_unknown_executor_and_unreachable_scheduler_are_clear_errors():
    with pytest.raises(QubicError, match="expected one of local, dask"):
        make_executor("cloud")
    with pytest.raises(QubicError, match="Dask scheduler"):
        make_executor(scheduler="tcp://127.0.0.1:9")


def test_split_solve_gives_a_verified_strategy_through_dask(dask_executor):
    root = parse_patashnik("x2x16o4o")
    local = solve_split(root, move=5, jobs=2)
    on_dask = solve_split(root, move=5, executor=dask_executor)
    assert local.status == on_dask.status == "won"
    assert local.extra["replies"] == on_dask.extra["replies"] == 59
    assert verify(on_dask.strategy, root, jobs=1).verdict == "verified"
    assert len(on_dask.strategy) == len(local.strategy)


@pytest.mark.parametrize("kind", ["local", "dask"])
def test_a_stream_tells_one_running_unit_to_wrap_up_and_its_outcome_comes_back(kind, dask_executor):
    with (make_executor("local", jobs=2) if kind == "local" else nullcontext(dask_executor)) as ex, \
            ex.stream(_until_told) as stream:
        first, second = stream.submit(60), stream.submit(60)
        time.sleep(2.0)                                  # both running
        stream.wrap_up([first])
        found = []
        deadline = time.monotonic() + 30
        while not found and time.monotonic() < deadline:
            found += stream.poll(1.0)
        assert [(o.job, o.kind, o.value) for o in found] == [(first, "done", "wrapped up")]
        assert list(stream.running) == [second]          # the other one goes on
        stream.wrap_up()
        while not (more := stream.poll(1.0)) and time.monotonic() < deadline:
            pass
        assert [(o.job, o.kind, o.value) for o in more] == [(second, "done", "wrapped up")]


@pytest.mark.parametrize("kind", ["local", "dask"])
def test_ctrl_c_gives_running_units_time_to_hand_in_what_they_have(kind):
    with make_executor(kind, jobs=2) as ex:
        timer = threading.Timer(3.0, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        try:
            run = ex.run(_until_told, [60, 60, 60], wrap_up=30)
            results = sorted(run)
        finally:
            timer.cancel()
    assert run.stopped == "interrupted"
    assert results == [(0, "wrapped up"), (1, "wrapped up")]   # the third was never handed out


def test_the_dask_cluster_the_executor_starts_listens_on_loopback_only(dask_executor):
    scheduler = dask_executor.cluster.scheduler
    assert scheduler.address.startswith("tcp://127.0.0.1:")
    assert scheduler.http_server.address == "127.0.0.1" and scheduler.http_server.port != 8787
    assert all(address.startswith("tcp://127.0.0.1:") for address in scheduler.workers)
