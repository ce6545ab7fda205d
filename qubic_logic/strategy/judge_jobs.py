"""Judge a strategy on several workers: the opponent's first choices become work units.

The search of :mod:`~qubic_logic.strategy.judge` is split where the opponent's
open choices first number at least ``units``: every worker runs the same
short opening search from the root (the strategy's first moves; deterministic,
so every worker finds the same *frontier*) and then searches the frontier
choices of its unit, ``frontier[index::units]``. A worker process opens the
strategy once (a clingo or SWI-Prolog session cannot be pickled: units carry
the source text, and each process keeps its session for every unit it runs)
and shares one table of settled positions between its units, so a position
two subtrees reach is settled once per process. Each unit returns the
positions it settled with their rule, its strategic moves and forced wins;
the parent merges them up to symmetry, so a verification gives the counts and
certificate of the one-process search.

A refutation stops the round: the units not finished run again looking only
for shorter games, until a round ends without a shorter one (then the
refutation is proven shortest, as in one process). Units run on an
:class:`~qubic_logic.executor.Executor`: local worker processes or a Dask
cluster.

>>> from qubic_logic.executor import make_executor
>>> from qubic_logic.notation import parse_position
>>> with make_executor('local', 2, start_method='spawn') as ex:
...     j = judge_on(ex, 'player:citrenbaum-pdp4:preset=seven-file', parse_position('1-2,4-26,13-6'),
...                  root_moves=(0, 1, 3, 25, 12, 5))
>>> j.verdict, j.refutation.length, j.shortest_proven, j.jobs
('refuted', 8, True, 2)
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..errors import IllegalPositionError, QubicError
from ..executor import Executor
from ..position import Position, Side
from .dictionary import Entry
from .judge import CORE, NO_BOUND, Judgement, Refutation, _Search
from .sources import CALL_LIMIT, Strategy, check_source, game_moves, load_strategy
from .verify import Witness

UNITS_PER_JOB = 8  # work units per worker: enough that a worker left with a large subtree is rare
GRACE = 5.0  # seconds past the time limit before the executor stops a unit (units stop themselves first)
Key = tuple[int, int]


@dataclass(frozen=True)
class Round:
    """What every unit of one round shares (plain data: it travels to the workers)."""

    source: str
    call_limit: float | None
    root: tuple[int, int]  # X's and O's marks
    root_moves: tuple[int, ...]
    side: Side
    pure: bool
    units: int
    bound: int  # only refutations shorter than this are looked for
    deadline: float | None  # time.time() when units stop themselves
    name: str  # a fresh name per round: a worker's table of settled positions serves one round only
    memory_limit: float | None = None  # MB for the worker a rule file runs in


@dataclass
class UnitResult:
    """What one unit found: settled positions by rule, strategic moves, forced wins, the best game."""

    settled: list[tuple[Key, str]]
    choices: list[tuple[Key, int, int, int]]  # key, X's marks, O's marks, the strategy's move
    witnesses: list[tuple[Key, int, int, tuple[int, ...]]]  # key, X's marks, O's marks, the forced win
    best: Refutation | None
    stopped: str  # why the unit ended before every choice was settled or ruled out by the bound
    open: int
    promising: tuple[int, tuple[int, ...]] | None  # bound and game of the best open choice
    frontier: str  # a digest of the frontier: every worker must split the same way


# ----------------------------------------------------------------------- in the worker

_strategies: dict[tuple[str, float | None], Strategy] = {}
_rounds: dict[str, tuple[_Search, list, int]] = {}  # round name -> search, frontier, positions of the opening


def _strategy(task: Round) -> Strategy:
    """The round's strategy, loaded once per process; a rule file in a supervised worker of its own."""
    key = (task.source, task.call_limit)
    if key not in _strategies:
        left = None if task.deadline is None else max(task.deadline - time.time(), 0.01)
        _strategies[key] = load_strategy(task.source, task.call_limit, supervised=True, load_limit=left,
                                         memory_limit=task.memory_limit)
    return _strategies[key]


def _round(task: Round) -> tuple[_Search, list, int]:
    """This process's search of the round: the opening search done once, its frontier and table."""
    if task.name not in _rounds:
        _rounds.clear()  # an older round's table is no use
        root = Position(*task.root)
        search = _Search(_strategy(task), root, task.root_moves, task.side, task.pure,
                         None, 0)  # unbounded, whatever the round's bound: every round splits the same way
        search.begin()
        frontier = _opening(search, task.units)
        _rounds[task.name] = (search, frontier, len(search.seen))
    return _rounds[task.name]


def _opening(search: _Search, units: int) -> list:
    """Search until ``units`` distinct opponent choices are open (or none is left); those choices,
    each position once up to symmetry, best first. The heap is left empty."""
    while True:
        frontier, keys = [], set()
        for item in sorted(search.heap):
            key = CORE.canonical(item[3], item[4])[:2]
            if key not in keys and key not in search.seen:
                keys.add(key)
                frontier.append(item)
        if len(frontier) >= units or not frontier or search.j.stopped:
            search.heap = []
            return frontier
        search.search(frontier=len(search.heap) + 1)  # settle the best open choice, at least


def judge_unit(unit: tuple[Round, int]) -> UnitResult:
    """Search the frontier choices ``frontier[index::units]`` of the round (runs in a worker)."""
    task, index = unit
    search, frontier, opening = _round(task)
    start = len(search.seen)
    search.deadline = None if task.deadline is None else time.monotonic() + task.deadline - time.time()
    search.bound = task.bound
    search.heap = frontier[index::task.units]
    heapq.heapify(search.heap)
    search.j.stopped = ""
    search.search()
    items = search.seen.items()  # the opening's positions are reported by unit 0, the unit's own by it
    settled = [*itertools.islice(items, opening if index == 0 else 0), *itertools.islice(items, start, None)]
    best_open = min(search.heap) if search.heap else None
    return UnitResult(
        settled=settled,
        choices=[(k, e.position.x, e.position.o, e.move) for k, _ in settled if (e := search.choices.get(k))],
        witnesses=[(k, w.position.x, w.position.o, w.sequence) for k, _ in settled
                   if (w := search.witnesses.get(k))],
        best=search.best, stopped=search.j.stopped, open=len(search.heap),
        promising=(best_open[0], search.game(best_open[5])) if best_open else None,
        frontier=hashlib.blake2b(b"|".join(item[5] for item in frontier), digest_size=8).hexdigest(),
    )


# ----------------------------------------------------------------------- in the parent


@dataclass
class _Merged:
    """The units' findings, each position once up to symmetry."""

    seen: dict[Key, str] = field(default_factory=dict)
    choices: dict[Key, Entry] = field(default_factory=dict)
    witnesses: dict[Key, Witness] = field(default_factory=dict)
    frontier: str | None = None

    def add(self, r: UnitResult) -> None:
        if self.frontier is not None and r.frontier != self.frontier:
            raise QubicError("the workers split the search differently (a strategy call or forced-win search "
                             "hit its time limit in the opening); expected a deterministic strategy: run with "
                             "--jobs 1")
        self.frontier = r.frontier
        for key, rule in r.settled:
            self.seen.setdefault(key, rule)
        for key, x, o, move in r.choices:
            self.choices.setdefault(key, Entry(Position(x, o), move))
        for key, x, o, seq in r.witnesses:
            self.witnesses.setdefault(key, Witness(Position(x, o), seq))


def judge_on(
    executor: Executor,
    source: str,
    root: Position | None = None,
    *,
    side: Side | None = None,
    root_moves: Sequence[int] | None = None,
    pure: bool = False,
    time_limit: float | None = None,
    call_limit: float | None = CALL_LIMIT,
    progress: Callable[[str, int, int], None] | None = None,
    memory_limit: float | None = None,
) -> Judgement:
    """:func:`~qubic_logic.strategy.judge.judge` of the strategy ``source`` (a source text, see
    :func:`~qubic_logic.strategy.sources.load_strategy`) on ``executor``'s workers; a rule file runs in
    a supervised worker of each (``call_limit`` s a call, ``memory_limit`` MB)."""
    root = root or Position()
    if root.is_over:
        raise IllegalPositionError("the root position is already over; expected a live position")
    check_source(source)
    side = side or root.to_move
    moves = tuple(root_moves) if root_moves is not None else game_moves(root)
    start = time.monotonic()
    deadline = time.time() + time_limit if time_limit else None
    units = UNITS_PER_JOB * executor.jobs
    merged = _Merged()
    results: dict[int, UnitResult] = {}
    pending = list(range(units))
    best: Refutation | None = None
    stopped = ""
    while pending:
        task = Round(source, call_limit, (root.x, root.o), moves, side, pure, units,
                     best.length if best else NO_BOUND, deadline, uuid.uuid4().hex, memory_limit)
        left = None if deadline is None else max(deadline - time.time(), 0.01) + GRACE
        run = executor.run(judge_unit, [(task, i) for i in pending], time_limit=left)
        shorter = False
        for n, result in run:
            index = pending[n]
            merged.add(result)
            results[index] = result
            if progress:
                progress("work units", len(results), units)
            if result.best is not None and (best is None or result.best.length < best.length):
                best = result.best
                shorter = True
                break
        run.close()  # after a shorter game: the units not finished run again, bounded by it
        pending = [i for i in pending if i not in results]
        if run.stopped:
            stopped = run.stopped
            break
        if not shorter:
            break
    return _judgement(source, root, side, pure, merged, results, pending, best, stopped, executor.jobs,
                      time.monotonic() - start)


def _judgement(source: str, root: Position, side: Side, pure: bool, merged: _Merged, results: dict[int, UnitResult],
               pending: list[int], best: Refutation | None, stopped: str, jobs: int, seconds: float) -> Judgement:
    j = Judgement("unknown", source, side, root, pure, jobs=jobs, seconds=seconds)
    j.settle(merged.seen)
    j.choices, j.witnesses = list(merged.choices.values()), list(merged.witnesses.values())
    j.stopped = stopped or next((r.stopped for r in results.values() if r.stopped), "")
    j.refutation = best
    j.shortest_proven = best is not None and not j.stopped and not pending
    j.verdict = "refuted" if best else "unknown" if j.stopped or pending else "verified"
    if j.verdict == "unknown":
        j.open = sum(r.open for r in results.values()) + len(pending)
        lines = [r.promising for r in results.values() if r.promising]
        j.promising = min(lines)[1] if lines else ()
    return j
