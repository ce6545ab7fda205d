"""The jobs of a two-level search, run in workers: a leaf's df-pn search, and the check of a settled root's proof.

Both are plain data in and out, for any :class:`~qubic_logic.executor.Executor`.
A leaf search (:class:`LeafSearch`) is the book's work unit
(:class:`~qubic_logic.book.unit.Unit`: the native df-pn with a node budget,
a saved table to go on from, the run's deadline) and, when it wins, the native
verifier's check of its proof in the same worker: a proof counts only when
the verifier passes it. A :class:`ProofCheck` verifies a settled root's whole
proof (the union of its leaves' proofs) before the root counts.

>>> done = run_job(LeafSearch(Unit('x2x16o4o', None, 500, None, None, 100_000)))
>>> done.result.status, done.verdict
('won', 'verified')
"""

from __future__ import annotations

import os
import socket
import time
from typing import NamedTuple

from .unit import Result, Unit, solve_position_unit
from .verify import verify_unit


class LeafSearch(NamedTuple):
    """Search a leaf (X to move) within ``unit``'s budget, and verify the proof if it wins."""

    unit: Unit


class ProofCheck(NamedTuple):
    """Verify ``strategy`` (Patashnik's format) as the proof that ``position``'s side to move has ``value``."""

    value: str
    position: str
    strategy: str


class LeafOutcome(NamedTuple):
    """A leaf search's result, the verifier's verdict on its proof (None: not won) and its seconds."""

    result: Result
    verdict: str | None
    verify_seconds: float
    worker: str


class CheckOutcome(NamedTuple):
    """A proof check's verdict, positions visited and seconds."""

    verdict: str
    positions: int
    seconds: float
    worker: str


def worker_name() -> str:
    """Where a job ran: ``host pid N``."""
    return f"{socket.gethostname()} pid {os.getpid()}"


def run_job(job: LeafSearch | ProofCheck) -> LeafOutcome | CheckOutcome:
    """Run one job in a worker (see the module docstring)."""
    if isinstance(job, ProofCheck):
        check = verify_unit((job.value, job.position, job.strategy))
        return CheckOutcome(check.verdict, check.positions, check.seconds, worker_name())
    result = solve_position_unit(job.unit)
    if result.status != "won":
        return LeafOutcome(result, None, 0.0, worker_name())
    start = time.monotonic()
    verdict = verify_unit(("win", job.unit.text, result.strategy)).verdict
    return LeafOutcome(result, verdict, time.monotonic() - start, worker_name())
