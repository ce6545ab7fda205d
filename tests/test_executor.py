"""The executor: local processes and a Dask LocalCluster give the same results and stop alike."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from qubic_logic.errors import QubicError
from qubic_logic.executor import make_executor, run_all
from qubic_logic.notation import parse_patashnik
from qubic_logic.proof.split import solve_split
from qubic_logic.strategy.verify import verify


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _fails(unit: int) -> int:
    if unit == 2:
        raise QubicError("unit 2 is bad")
    return unit


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
