"""A search as a work unit: one native df-pn of a position within a time, memory and node budget.

Plain data in (:class:`Unit`) and out (:class:`Result`), so that any
:class:`~qubic_logic.executor.Executor` runs it: the book's build, the
two-level search's leaf jobs and the search for alternative moves share it.
A search left open hands back its table, for the next unit to go on from.

>>> r = solve_position_unit(Unit('x2x16o4o', None, None, None, None, node_limit=100_000))
>>> r.status, r.nodes > 0
('won', True)
"""

from __future__ import annotations

import time
from typing import NamedTuple

from ..errors import DataFormatError
from ..notation import parse_patashnik
from ..proof.solve import DFPN_NATIVE, solve
from ..supervisor import report, wrapping_up


class Unit(NamedTuple):
    """A search as a work unit (plain data): the position in Patashnik's format, the time limit (s), the
    memory limit (MB), a saved table to go on from, the deadline (``time.time()`` seconds) no search
    passes, and optionally a node limit and the solver's options (:func:`~qubic_logic.proof.solve.solve`).
    A plain tuple of the first five is one too."""

    text: str
    limit: float | None
    memory: float | None
    table: bytes | None
    deadline: float | None
    node_limit: int | None = None
    weak_pns: int = 0
    pass_nodes: int | None = None
    thresholds: tuple[int, int] | None = None  # the root's numbers at which the search stops unsettled
    known: bytes | None = None  # wins proven elsewhere (:class:`~qubic_logic.proof.known.KnownWins`)
    move: int | None = None  # a fixed first move: does it win?


class Result(NamedTuple):
    """What a work unit's search gives back (the move in the unit's own frame)."""

    status: str
    move: int | None
    strategy: str  # in Patashnik's format, '' unless won
    size: int  # strategic positions
    nodes: int
    seconds: float
    stopped_by: str
    table: bytes | None  # saved, when left open
    limit: float | None  # the time limit it had
    proof_number: int = 0  # the root's, when it stopped
    disproof_number: int = 0
    went_on: bool = False  # from the saved table it was given (not when that table was refused)


NOT_STARTED = "build time limit"  # a unit handed out after the build's deadline: no search, nothing to record
GRACE = 60.0  # seconds past the build's deadline for the searches to hand in their results and tables


def _unless_wrapping_up(nodes: int, pn: int, dn: int) -> None:
    """A search's progress callback in a worker: tell the parent how far it got (local workers), and stop as
    on Ctrl-C (keeping the table) when asked to wrap up."""
    report((nodes, pn, dn))
    if wrapping_up():
        raise KeyboardInterrupt


def solve_position_unit(unit: Unit | tuple) -> Result:
    """One work unit (a :class:`Unit`: position in Patashnik's format, time limit, memory limit MB, saved
    table, deadline, and optionally a node limit and solver options).

    The saved table (or None) is an earlier search's, to go on from; the
    deadline (``time.time()`` seconds, or None) is the build's, which the
    search's time limit never passes.

    >>> r = solve_position_unit(('x2x16o4o', None, None, None, None))
    >>> r.status, len(r.strategy.splitlines()) > r.size > 0
    ('won', True)
    """
    text, limit, memory, table, deadline, node_limit, weak_pns, pass_nodes, thresholds, known, move = Unit(*unit)
    if deadline is not None:
        left = deadline - time.time()
        if left <= 0:
            return Result("unknown", None, "", 0, 0, 0.0, NOT_STARTED, None, 0.0)
        limit = left if limit is None else min(limit, left)
    position = parse_patashnik(text)
    options = dict(time_limit=limit, memory_limit=memory, node_limit=node_limit, weak_pns=weak_pns,
                   pass_nodes=pass_nodes, thresholds=thresholds, known=known, move=move,
                   save_table=DFPN_NATIVE is not None,
                   progress=_unless_wrapping_up)
    try:
        r = solve(position, table=table, **options)
    except DataFormatError:  # saved by another version of the solver: start afresh
        table = None
        r = solve(position, **options)
    strategy = r.strategy.dumps() if r.strategy is not None else ""
    return Result(r.status, r.move, strategy, r.strategy_size, r.nodes, r.seconds, r.stopped_by, r.table, limit,
                  r.proof_number, r.disproof_number, table is not None)
