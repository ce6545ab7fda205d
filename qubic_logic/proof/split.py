"""Solve a position one defender reply at a time, in worker processes.

For the empty board one proof-number search would keep every node of a
huge proof in one table. Splitting at the root keeps the tables small and
uses every core: the attacker's first move is fixed (given, or the most
promising one), each class of defender replies up to symmetry is solved on
its own (a work unit of plain data: the position as text and the limits),
and the strategies are merged, verified from the root, minimised (a
strategic move may be replaced by one reaching positions another reply
class already handles, see :mod:`~qubic_logic.proof.minimise`), verified
again and pruned to the entries the verification plays.

>>> from qubic_logic.notation import parse_patashnik
>>> r = solve_split(parse_patashnik('x2x16o4o'), move=5, jobs=1)   # 4 marks: 59 reply classes
>>> r.status, r.extra['replies'], r.extra['verified']
('won', 59, 'verified')
"""

from __future__ import annotations

import time
from typing import Callable

from ..core import core_module
from ..errors import QubicError
from ..executor import Executor, make_executor
from ..notation import format_patashnik, parse_patashnik
from ..position import Position, other
from ..symmetry import canonical_masks
from ..strategy.dictionary import Entry, StrategyDictionary
from .minimise import minimised
from .solve import SolveResult, solve
from ..strategy.verify import pruned, verify


def reply_classes(position: Position, move: int) -> list[Position]:
    """After ``move``, the defender's replies that matter, one position per class up to symmetry.

    With a threat on the board only its cells matter (any other reply loses at once).

    >>> [p.count for p in reply_classes(Position(), 0)][:3], len(reply_classes(Position(), 0))
    ([2, 2, 2], 12)
    """
    after = position.play(move)
    core = core_module()
    attacker = position.to_move
    threats = core.threat_cells(after.mask(attacker), after.mask(other(attacker)))
    cells = [c for c in after.legal_moves() if not threats or threats >> c & 1]
    classes: dict[tuple[int, int], Position] = {}
    for c in cells:
        child = after.play(c)
        classes.setdefault(canonical_masks(child.x, child.o)[:2], child)
    return list(classes.values())


def solve_unit(unit: tuple) -> tuple[str, str, int, float]:
    """One work unit ``(position in Patashnik's format, time limit, memory limit[, first move])``: solve it
    (with the first move fixed when one is given: does that move win?).

    Returns ``(status, strategy text or '', nodes, seconds)``.

    >>> solve_unit(('x2x16o4o', None, None))[0]
    'won'
    """
    text, time_limit, memory_limit, *move = unit
    r = solve(parse_patashnik(text), time_limit=time_limit, memory_limit=memory_limit, move=move[0] if move else None)
    return r.status, r.strategy.dumps() if r.strategy is not None else "", r.nodes, r.seconds


def _first_move(position: Position) -> int:
    """The block when the defender threatens, else the cell with the most 2-0 lines and major cells."""
    core = core_module()
    me = position.to_move
    a, d = position.mask(me), position.mask(other(me))
    theirs = core.threat_cells(d, a)
    if theirs:
        return (theirs & -theirs).bit_length() - 1

    def score(c: int) -> tuple[int, int]:
        a2 = a | 1 << c
        return (4 * core.major_cells(a2, d).bit_count() + core.forcing_moves(a2, d).bit_count(), -c)

    return max(position.legal_moves(), key=score)


def solve_split(
    position: Position,
    *,
    move: int | None = None,
    jobs: int | None = None,
    time_limit: float | None = None,
    memory_limit: float | None = None,
    progress: Callable[[int, int, int], None] | None = None,
    executor: Executor | None = None,
) -> SolveResult:
    """Solve ``position`` by fixing the first move and solving each reply class apart.

    The reply classes are work units for ``executor`` (default: ``jobs``
    local worker processes; see :mod:`qubic_logic.executor` for Dask).
    ``memory_limit`` (MB) is shared among the workers. The result is
    ``'won'`` with a verified, pruned strategy when every reply class is won,
    else ``'unknown'`` (this first move was not proven; other moves are not tried).
    ``progress(done, total, nodes)`` follows the work units.
    """
    start = time.monotonic()
    quick = solve(position, node_limit=1000)  # settles easy positions at once
    if quick.status != "unknown":
        return quick
    move = _first_move(position) if move is None else move
    units = [format_patashnik(p) for p in reply_classes(position, move)]
    own = executor is None
    executor = executor or make_executor("local", jobs)
    per_job_memory = memory_limit / executor.jobs if memory_limit else None
    results: dict[str, tuple[str, str, int, float]] = {}
    try:
        run = executor.run(solve_unit, [(u, time_limit, per_job_memory) for u in units], time_limit=time_limit)
        for i, result in run:
            results[units[i]] = result
            if progress:
                progress(len(results), len(units), sum(r[2] for r in results.values()))
    finally:
        if own:
            executor.close()
    nodes = sum(r[2] for r in results.values())
    extra = {"replies": len(units), "units": {u: r[0] for u, r in results.items()}}
    if len(results) < len(units) or any(r[0] != "won" for r in results.values()):
        stopped = run.stopped or "a reply not proven"
        return SolveResult("unknown", position, move, nodes, time.monotonic() - start, stopped_by=stopped,
                           extra=extra)
    header = [
        "Winning strategy found by qubic solve --split (qubic-logic: proof-number search over threat",
        "sequences, one search per class of replies to the first move).",
        f"root: {format_patashnik(position)}",
        "Rule order: (1) win, (2) block a three, (3) the move below (up to symmetry), (4) a forced sequence.",
        "Check: qubic verify dictionary FILE",
    ]
    merged = StrategyDictionary.union(
        [[Entry(position, move)], *(StrategyDictionary.parse(results[u][1], u) for u in units)], header)
    extra["merged"] = len(merged)
    strategy = polish(merged, position, extra, jobs=executor.jobs,
                      time_limit=time_left(time_limit, time.monotonic() - start))
    if strategy is None:
        return SolveResult("unknown", position, move, nodes, time.monotonic() - start,
                           stopped_by=f"merged strategy {extra['verified']}", extra=extra)
    return SolveResult("won", position, move, nodes, time.monotonic() - start, strategy, 0, 0, "", extra)


def time_left(limit: float | None, spent: float) -> float | None:
    """The seconds a ``limit`` (None: no limit) leaves after ``spent`` seconds.

    >>> time_left(10.0, 2.5), time_left(1.0, 3.0), time_left(None, 3.0)
    (7.5, 0.0, None)
    """
    return None if limit is None else max(limit - spent, 0.0)


def phase_summary(phases: dict[str, float]) -> str:
    """The minimising pass's time by phase, as :func:`polish` records it in ``extra['phases']``.

    >>> phase_summary({"verifying": 1.0, "proof graph": 6.0, "choosing": 2.5})
    '9.5 s (verifying 1.0 s, proof graph 6.0 s, choosing 2.5 s)'
    """
    parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in phases.items())
    return f"{sum(phases.values()):.1f} s ({parts})"


def polish(strategy: StrategyDictionary, position: Position, extra: dict, jobs: int | None = None,
           time_limit: float | None = None, report: Callable[[str], None] = lambda text: None,
           ) -> StrategyDictionary | None:
    """``strategy`` minimised, verified and pruned to the entries played; None if not verified.

    The minimiser checks the move of every entry it keeps (docs/solving.md), so one verification,
    of its result, suffices. Records the verdict in ``extra['verified']`` (``'refuted'`` when an
    entry's move does not win) and the seconds (wall clock) of each phase in ``extra['phases']``
    (``proof graph`` and ``choosing``, see :func:`~qubic_logic.proof.minimise.minimised`, then
    ``verifying``). ``time_limit`` and ``report`` go to the minimiser (past the limit, or on
    Ctrl-C, it keeps the smallest strategy found so far).

    >>> from qubic_logic.notation import parse_patashnik
    >>> p = parse_patashnik('x2x1o6o20o14x')
    >>> extra = {}
    >>> len(polish(solve(p).strategy, p, extra, jobs=1)), extra['verified']
    (1, 'verified')
    """
    phases = extra["phases"] = {}
    try:
        strategy = minimised(strategy, position, time_limit=time_limit, report=report, phases=phases)
    except QubicError:
        extra["verified"] = "refuted"
        return None
    clock = time.perf_counter()
    check = verify(strategy, position, jobs=jobs)
    phases["verifying"] = time.perf_counter() - clock
    extra["verified"] = check.verdict
    return pruned(strategy, check) if check.verdict == "verified" else None
