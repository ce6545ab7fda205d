"""The supervisor: declarative work in a worker process with a time and a memory limit."""

from __future__ import annotations

import os
import time

import psutil
import pytest

from qubic_logic.engines import asp
from qubic_logic.errors import QubicError, QueryTimeout
from qubic_logic.notation import parse_position
from qubic_logic.engines.supervised import engine_for
from qubic_logic.supervisor import Supervisor, report

RUNAWAY = "p(0). p(X+1) :- p(X). #show p/1."


def _slow_count(n: int) -> int:
    """Work that reports its progress, then takes too long."""
    for i in range(n):
        report(i)
    time.sleep(60)
    return n


def _gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_the_worker_lives_across_calls():
    with Supervisor(memory_limit=1024) as worker:
        first = worker.call(os.getpid)
        assert worker.call(os.getpid) == first != os.getpid()
        assert worker.call(sorted, [3, 1, 2]) == [1, 2, 3]


def test_errors_of_the_work_come_back_as_they_were():
    with Supervisor() as worker:
        with pytest.raises(QubicError, match="ASP rules do not load"):
            worker.call(asp.solve, "p(.")
        assert worker.call(pow, 2, 5) == 32  # the same worker goes on


def test_a_runaway_grounding_stops_at_the_time_limit_and_the_worker_is_killed():
    worker = Supervisor()
    worker.call(int)
    pid = worker.pid
    with pytest.raises(QueryTimeout, match="time limit of 1 s"):
        worker.call(asp.solve, RUNAWAY, limit=1)
    assert _gone(pid) and worker.pid is None
    assert worker.call(pow, 3, 2) == 9  # a fresh worker


def test_a_runaway_grounding_stops_at_the_memory_limit():
    with Supervisor(memory_limit=400) as worker:
        with pytest.raises(QubicError, match="memory limit of 400 MB"):
            worker.call(asp.solve, RUNAWAY, limit=120)
        assert worker.peak_memory < 400 * 2**20


def test_a_stopped_call_carries_the_last_progress_reported():
    seen = []
    with Supervisor() as worker:
        with pytest.raises(QueryTimeout) as info:
            worker.call(_slow_count, 5, limit=0.5, on_progress=seen.append)
    assert info.value.partial == 4 and seen == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("name", ["asp", "prolog"])
def test_a_supervised_engine_answers_as_the_engine_does(name):
    engine = engine_for(name)
    try:
        win = engine.shortest_forced_win(parse_position("1-2,22-52,27-4"), None, 60)
        assert (win.engine, win.length) == (name, 6)
        assert engine.threats(parse_position("1-2,22-52,27-4")).x == engine.threats(
            parse_position("1-2,22-52,27-4")).x
    finally:
        engine.close()


def test_supervised_asp_query_gives_symbols():
    engine = engine_for("asp")
    try:
        result = engine.query(None, 'p(1..2). q("a b"). #show p/1. #show q/1.')
        assert result.atoms == [['p(1)', 'p(2)', 'q("a b")']]
        assert result.models[0][0].arguments[0].number == 1
    finally:
        engine.close()


def test_prolog_halt_in_user_code_is_an_error_and_the_caller_survives():
    engine = engine_for("prolog")
    try:
        with pytest.raises(QubicError, match="halt"):
            engine.query(None, "halt")
        assert engine.query(None, "X = 1") == [{"X": 1}]
    finally:
        engine.close()
