"""Build an opening book: every position up to N stones, settled by search and by propagation.

The positions are enumerated level by level from the root (the empty board
unless given), one per class up to symmetry. The book proves the first
player's wins: the *frontier* is the deepest level with X to move — level N,
or N + 1 when O is to move at N stones — and each frontier position is a work
unit (plain data: the position as text, the time and memory limits) that
:func:`~qubic_logic.proof.solve.solve` settles in a worker of an
:class:`~qubic_logic.executor.Executor`: ``win`` with its strategy, ``no win``
(proven: X cannot force a win there) or ``open`` (not settled within the
budget; never guessed).

Values then propagate towards the root, minimax over the classes of moves:

* a position with a move to a **loss** (for the side then to move) is a **win**:
  its best move is the one whose proof is smallest, its strategy that move
  plus the strategy proving the loss;
* a position whose every move leads to a **win** (for the side then to move)
  is a **loss**: its "best" move is the reply that holds out longest (largest
  proof), its strategy the union of the replies' strategies;
* anything else stays ``open`` (a ``no win`` child proves only that its mover
  cannot force a win, not that it loses, so it settles nothing above it).

So the book's own propagation *is* the split of
:func:`~qubic_logic.proof.split.solve_split`: after X's first move each
class of O replies is a book position of its own, searched in its own table.

Each settled position is one SQLite transaction (its search logged in the
``solves`` table), so a build killed at any point resumes where it stopped:
settled positions are never searched again, and an ``open`` one only with a
larger budget than it had. A search left open keeps the most-worked part of
its table in the book (:func:`~qubic_logic.proof.solve.solve`'s saved
tables), so a build with a larger budget goes on from it for the difference:
the budget is the total time a position's searches may take.

A build runs in rounds of growing budgets (:func:`rounds`: 60 s, then 8 times
more, up to the budget): every position gets a short search before any gets
a long one, so the easy ones, and what propagates from them, are settled
first, and the hard ones go on from their saved tables.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..core import core_module
from ..errors import QubicError
from ..executor import Executor, make_executor
from ..notation import format_patashnik
from ..position import Position, other
from ..strategy.dictionary import Entry, StrategyDictionary
from .classes import Key, children, parents
from .leafjobs import LeafOutcome, LeafSearch, run_job
from .store import BookEntry, OpeningBook, SearchLog, canonical_key
from .unit import GRACE, NOT_STARTED, Result, Unit

DEFAULT_BUDGET = 60.0
DEFAULT_MEMORY = 4000.0
FIRST_ROUND = 60.0  # seconds every open position gets before any gets more (see rounds())
ROUND_FACTOR = 8

Progress = Callable[["BuildReport"], None]


def settle_upwards(book: OpeningBook, keys: Iterable[Key],
                   progress: Callable[[int], None] | None = None) -> list[Key]:
    """Settle what the settled entries ``keys`` settle above them in ``book`` (minimax, :func:`derived`),
    deepest first and on upwards; returns the keys it settled. ``progress(n)``: after each level.

    Unlike a build's propagation it needs no tree: the positions above an entry are its :func:`parents`
    that the book holds open. Call it inside the caller's transaction (it uses :meth:`OpeningBook.write`).
    """
    waiting: dict[int, set[Key]] = {}
    for key in keys:
        for parent in parents(key):
            waiting.setdefault(Position(*parent).count, set()).add(parent)
    settled: list[Key] = []
    while waiting:
        stones = max(waiting)
        for key in waiting.pop(stones):
            if book.value(key) != "open":
                continue
            found = derived(book, Position(*key))
            if found is not None:
                book.write(found)
                settled.append(key)
                for parent in parents(key):
                    waiting.setdefault(stones - 1, set()).add(parent)
        if progress:
            progress(len(settled))
    return settled


@dataclass
class BookTree:
    """The positions of a book: ``levels[k]`` maps each canonical key with ``root.count + k`` stones to its parents.

    >>> tree = BookTree(Position(), 2)
    >>> [len(level) for level in tree.levels], len(tree.frontier)
    ([1, 2, 35], 35)
    """

    root: Position
    stones: int
    levels: list[dict[Key, set[Key]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.root.count > self.stones:
            raise QubicError(f"the root has {self.root.count} stones, more than --stones {self.stones}; "
                             "expected at least as many stones as the root has")
        x, o, _ = canonical_key(self.root)
        self.levels = [{(x, o): set()}]
        depth = self.stones - self.root.count
        if self.side(depth) == "o":
            depth += 1  # O to move at N stones: settled through its replies, the X-to-move positions after them
        for _ in range(depth):
            level: dict[Key, set[Key]] = {}
            for key in self.levels[-1]:
                for child in children(Position(*key)):
                    level.setdefault(child, set()).add(key)
            self.levels.append(level)

    def side(self, depth: int) -> str:
        """Who is to move ``depth`` moves below the root."""
        return self.root.to_move if depth % 2 == 0 else other(self.root.to_move)

    @property
    def frontier(self) -> list[Key]:
        """The positions searched on their own (the deepest level, X to move)."""
        return list(self.levels[-1])

    def parents(self, key: Key, stones: int) -> set[Key]:
        depth = stones - self.root.count
        return self.levels[depth].get(key, set()) if 0 <= depth < len(self.levels) else set()

    def positions(self) -> list[Position]:
        return [Position(*key) for level in self.levels for key in level]


VALUE_OF_STATUS = {"won": "win", "not won": "no win", "unknown": "open"}


def totals(result: Result, before: BookEntry | None) -> tuple[int, float, float]:
    """A position's nodes, seconds and the time its searches were given, over ``result``'s search and, when it
    went on from that entry's saved table, the searches ``before`` it (a fresh search's numbers start at 0)."""
    earlier = before if result.went_on and before is not None else BookEntry(Position(), "open")
    spent = result.seconds if result.stopped_by == "interrupted" else result.limit  # wrapped up early: what it used
    given = 0.0 if spent is None else spent + (earlier.budget or 0.0)
    return result.nodes + earlier.nodes, result.seconds + earlier.seconds, given


def refuted(book: OpeningBook, position: Position, log: SearchLog, spent: tuple[int, float, float], verdict: str,
            claim: str) -> QubicError:
    """Log a search whose proof the verifier did not pass (``position`` stays open; ``spent``: its nodes,
    seconds and time given, as :func:`totals` counts them) and return the error that stops the run: a bug to
    report."""
    nodes, seconds, given = spent
    book.settle(BookEntry(position, "open", None, None, nodes, seconds, "", given),
                log._replace(status=f"{log.status}, refuted by the verifier ({verdict})"))
    return QubicError(f"the verifier does not pass the proof found that {claim} ({verdict}); it is logged as "
                      "refuted: please report it")


@dataclass
class BuildReport:
    """Where a build stands: positions settled, open, still to search; how it stopped."""

    path: str
    total: int = 0
    settled: int = 0
    open: int = 0
    units: int = 0
    searched: int = 0
    propagated: int = 0
    solves: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    jobs: int = 1
    executor: str = "local"
    round: int = 0  # the round running (see rounds()), of ``rounds``
    rounds: int = 0
    round_budget: float | None = None

    @property
    def remaining(self) -> int:
        return self.units - self.searched


def _needs_entry(position: Position) -> bool:
    """Whether the side to move's choice is a strategic move (no win now, no three to block)."""
    core = core_module()
    me = position.to_move
    a, d = position.mask(me), position.mask(other(me))
    return not core.threat_cells(a, d) and not core.threat_cells(d, a)


def _merged(position: Position, move: int | None, parts: list[BookEntry], winner: str) -> StrategyDictionary:
    """``move`` at ``position`` (when strategic) plus the strategies of ``parts``; first entry wins a clash."""
    header = [f"Opening book strategy (qubic-logic): {winner.upper()} wins from {format_patashnik(position)}.",
              f"root: {format_patashnik(position)}",
              "Rule order: (1) win, (2) block a three, (3) the move below (up to symmetry), (4) a forced sequence."]
    own = [Entry(position, move)] if move is not None and _needs_entry(position) else []
    return StrategyDictionary.union([own, *(part.strategy() or () for part in parts)], header)


def propagated(position: Position, kids: dict[Key, BookEntry | None], moves: dict[Key, int]) -> BookEntry | None:
    """The value of ``position`` from its children's entries (keys in ``position``'s frame), or None (open).

    A move to a loss wins (the smallest proof is chosen); when every move leads
    to a win, the position is lost (the longest-holding reply is its move).
    """
    entries = list(kids.values())
    losses = [(e.proof_size or 0, moves[k], e) for k, e in kids.items() if e is not None and e.value == "loss"]
    if losses:
        size, move, child = min(losses, key=lambda t: t[:2])
        strategy = _merged(position, move, [child], position.to_move)
        return BookEntry(position, "win", move, len(strategy), child.nodes, child.seconds, "replies",
                         strategy_text=strategy.dumps())
    if entries and all(e is not None and e.value == "win" for e in entries):
        _, move = max((e.proof_size or 0, -moves[k]) for k, e in kids.items())
        strategy = _merged(position, None, entries, other(position.to_move))
        return BookEntry(position, "loss", -move, len(strategy), sum(e.nodes for e in entries),
                         sum(e.seconds for e in entries), "replies", strategy_text=strategy.dumps())
    return None


def derived(book: OpeningBook, position: Position, moves: dict[Key, int] | None = None) -> BookEntry | None:
    """The value of ``position`` from its children's entries in ``book`` (see :func:`propagated`), or None.

    ``moves``: :func:`children` of ``position``, when the caller has them. A finished game is its own value.
    """
    if position.is_over:  # the last move completed four (or filled the board)
        return BookEntry(position, "loss" if position.winner else "no win", how="over", proof_size=0)
    moves = children(position) if moves is None else moves
    values = [book.value(k) for k in moves]
    if "loss" not in values and any(v != "win" for v in values):
        return None  # nothing to derive yet: skip reading the entries
    return propagated(position, {k: book.get(Position(*k)) for k in moves}, moves)


class Builder:
    """One build of a book: the tree, the store, and propagation after each settled position."""

    def __init__(self, book: OpeningBook, tree: BookTree, build: int, report: BuildReport) -> None:
        self.book, self.tree, self.build, self.report = book, tree, build, report
        self._children: dict[Key, dict[Key, int]] = {}

    def propagate(self, key: Key, stones: int) -> None:
        """Re-derive the values of ``key``'s parents (and theirs, upwards) after ``key`` settled."""
        for parent in self.tree.parents(key, stones):
            self._derive(parent)

    def _derive(self, key: Key) -> None:
        position = Position(*key)
        current = self.book.get(position)
        if current is not None and current.how in ("solved", "over"):
            return
        moves = self._children.get(key) or self._children.setdefault(key, children(position))
        found = derived(self.book, position, moves)
        if found is None or (current is not None and current.settled and
                             (current.value, current.move, current.proof_size) ==
                             (found.value, found.move, found.proof_size)):
            return
        if current is None or not current.settled:
            self.report.settled += 1
            self.report.open -= current is not None
            self.report.propagated += 1
        self.book.settle(found)
        self.propagate(key, position.count)

    def propagate_all(self) -> None:
        """Settle finished games, then derive every interior position, deepest first.

        (Also repairs a build killed between a search's commit and its propagation.)
        """
        for key in self.tree.levels[-1]:
            if Position(*key).is_over:
                self._derive(key)
        for level in reversed(self.tree.levels[:-1]):
            for key in level:
                self._derive(key)

    def record(self, unit: "Search", outcome: "LeafOutcome") -> None:
        """Store a search's result: its entry (totals over the searches it went on from) and, when open, its table.

        The entry's budget is the time its searches were given in all, so a
        search cut short by the build's time limit goes on in the next build.
        A win counts only when the verifier (run in the worker) passed its
        proof; one it does not pass is logged as refuted and stops the build.
        """
        result = outcome.result
        status, move, text, size, nodes, seconds, stopped_by, table, limit, pn, dn, went_on = result
        if stopped_by == NOT_STARTED:
            self.report.stopped = "time limit"
            return
        value = VALUE_OF_STATUS[status]
        position = Position(*unit.key)
        total_nodes, total_seconds, given = totals(result, unit.before)
        if unit.budget and given < unit.budget - 1e-6:
            self.report.stopped = "time limit"  # cut short by the build's time limit
        if value == "win":
            entry = BookEntry(position, value, move, size, total_nodes, total_seconds, "solved", given, text)
        else:
            entry = BookEntry(position, value, None, None, total_nodes, total_seconds,
                              "solved" if value != "open" else "", given)
        log = (f"{status} ({stopped_by})" if stopped_by else status) + (" (went on)" if went_on else "")
        if value == "win" and outcome.verdict != "verified":
            raise refuted(self.book, position, SearchLog(self.build, log, nodes, seconds),
                          (total_nodes, total_seconds, given), outcome.verdict,
                          f"{position.to_move.upper()} wins at {format_patashnik(position)}")
        numbers = (pn, dn) if value == "open" else (None, None)
        self.book.settle(entry, SearchLog(self.build, log, nodes, seconds, *numbers), table)
        self.report.searched += 1
        self.report.solves += 1
        if entry.settled:
            self.report.settled += 1
            self.report.open -= 1
            self.propagate(unit.key, position.count)


def build_book(
    path: str | os.PathLike,
    stones: int,
    *,
    root: Position | None = None,
    budget: float | None = DEFAULT_BUDGET,
    memory_limit: float | None = DEFAULT_MEMORY,
    executor: Executor | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    time_limit: float | None = None,
    first_round: float | None = FIRST_ROUND,
) -> BuildReport:
    """Build (or continue) the book at ``path`` to ``stones`` stones; see the module docstring.

    ``budget``: seconds per frontier position, in all its searches (None: no limit); ``memory_limit``:
    MB per search. ``time_limit``: seconds for the whole build; every search
    ends by then and keeps its table, so the same call goes on later (the
    report's ``stopped`` says ``'time limit'``). ``first_round``: the budget
    of the first of the :func:`rounds`. On Ctrl-C the running
    searches end (on local workers and on Dask alike) and keep their
    tables, and every settled position is kept (``stopped``: ``'interrupted'``).
    Each search runs as a :class:`~qubic_logic.book.leafjobs.LeafSearch`: a win
    counts once the verifier passed its proof in the same worker.

    >>> import tempfile, os
    >>> from qubic_logic.notation import parse_position
    >>> r = build_book(os.path.join(tempfile.mkdtemp(), 'b.sqlite'), 6, jobs=1,
    ...                root=parse_position('1-2,22-52,27'))     # O to move: 59 replies, each an X win
    >>> r.settled, r.total, r.units, r.stopped
    (60, 60, 59, None)
    """

    start = time.monotonic()
    root = root or Position()
    own = executor is None
    with OpeningBook.open(path, create=True, check=True) as book:
        known = book.meta("root")
        if known is not None and known != format_patashnik(root):
            raise QubicError(f"{path} is a book from the root {known or 'empty'!r}, not "
                             f"{format_patashnik(root) or 'empty'!r}; expected the same --root (or a new file)")
        tree = BookTree(root, stones)
        book.set_meta(root=format_patashnik(root), stones=max(stones, book.stones or 0))
        book.add_positions(tree.positions())
        executor = executor or make_executor("local", jobs)
        report = BuildReport(str(path), jobs=executor.jobs, executor=executor.name)
        try:
            build = book.start_build(stones, budget, executor.name, executor.jobs)
            builder = Builder(book, tree, build, report)
            counts = book.counts()
            report.total = len(book)
            report.settled = sum(n for (_, v), n in counts.items() if v != "open")
            report.open = report.total - report.settled
            builder.propagate_all()
            deadline = time.time() + time_limit if time_limit else None  # wall clock: workers may be elsewhere
            plan = rounds(budget, first_round)
            report.rounds = len(plan)
            for report.round, report.round_budget in enumerate(plan, 1):
                units = _units(book, tree, report.round_budget)
                report.units += len(units)
                if progress and (units or report.round == 1):  # (a round with nothing to search says nothing)
                    progress(report)
                if not units:
                    continue
                left = deadline - time.time() if deadline else None
                if left is not None and left <= 0:
                    report.stopped = "time limit"
                    break
                run = executor.run(run_job, [LeafSearch(u.work(memory_limit, deadline)) for u in units],
                                   time_limit=left and left + GRACE, wrap_up=GRACE)
                try:
                    for index, outcome in run:
                        builder.record(units[index], outcome)
                        if progress:
                            progress(report)
                except KeyboardInterrupt:
                    run.stopped = "interrupted"
                report.stopped = run.stopped or report.stopped
                if report.stopped:
                    break
            report.seconds = time.monotonic() - start
            book.finish_build(build, report.stopped)
        finally:
            if own:
                executor.close()
    return report


@dataclass
class Search:
    """A frontier position to search: its entry so far and saved table (when it goes on from one)."""

    key: Key
    before: BookEntry
    table: bytes | None
    budget: float  # the total time its searches may take (0: no limit)

    def work(self, memory_limit: float | None, deadline: float | None = None) -> Unit:
        """The work unit: a search going on from a saved table gets what the budget leaves."""
        tried = self.before.budget or 0.0
        limit = self.budget - tried if self.table is not None and self.budget else self.budget
        return Unit(format_patashnik(Position(*self.key)), limit or None, memory_limit, self.table, deadline)


def rounds(budget: float | None, first: float | None = FIRST_ROUND) -> list[float | None]:
    """The budgets of a build's rounds: a short search of every position first, then more for those left open.

    Each round goes on from the tables the last one saved, so the easy
    positions (and what propagates from them) are settled before any
    position gets its whole budget.

    >>> rounds(3600), rounds(60), rounds(None), rounds(5, first=1)
    ([60.0, 480.0, 3600], [60], [60.0, 480.0, 3840.0, None], [1, 5])
    """
    if first is None:  # no limit on the first round: one round
        return [budget]
    plan: list[float | None] = []
    step = first
    while step < (budget if budget is not None else first * ROUND_FACTOR ** 3):
        plan.append(step)
        step *= ROUND_FACTOR
    return plan + [budget]


def _units(book: OpeningBook, tree: BookTree, budget: float | None) -> list[Search]:
    """Frontier positions still to search: open, and never given this much time; grouped by parent."""
    wanted = []
    for key in tree.frontier:
        entry = book.get(Position(*key))
        if entry is None or entry.settled or entry.position.is_over:
            continue
        tried = entry.budget
        if tried is None or (tried and (budget is None or budget > tried)):
            wanted.append(Search(key, entry, book.saved_table(entry.position), budget or 0.0))
    order = {k: i for i, k in enumerate(tree.levels[-2])} if len(tree.levels) > 1 else {}
    return sorted(wanted, key=lambda u: min((order.get(p, 0) for p in tree.parents(u.key, Position(*u.key).count)),
                                            default=0))
