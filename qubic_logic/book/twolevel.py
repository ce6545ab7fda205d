"""Settle a position by a two-level proof-number search kept in the book: ``qubic book solve BOOK POSITION``.

The master keeps a proof-number tree (:mod:`~qubic_logic.book.prooftree`) in
the book's SQLite file and hands its most-proving leaves to workers as jobs
(:mod:`~qubic_logic.book.leafjobs`: the native df-pn within a node budget),
through an :class:`~qubic_logic.executor.Executor` (local processes or a Dask
cluster). This is Wu et al.'s job-level proof-number search (IEEE TCIAIG 2013)
and the two-level search of Čížek, Balko and Schmid (2025): neither one
search's table nor one run's length bounds the proof, and every finished job
is kept.

**A leaf's jobs.** A leaf (X to move) first gets a job of at most ``job_nodes``
nodes, which also stops once the leaf is no longer the most-proving one (the
thresholds of :meth:`~qubic_logic.book.prooftree.ProofTree.select`). A job that
comes back unsettled gives the leaf the numbers the df-pn's root had and its
saved table, which the leaf's next job goes on from; a job that used its whole
budget gives the next one ``growth`` times as much. Once the leaf's jobs have
spent ``split_at`` nodes, the next time it is the most-proving leaf the master
expands it instead (its O replies become nodes, and their X answers leaves).
O's turns are always expanded by the master.

**Values propagate at once.** A leaf that wins is settled only when the native
verifier, in the same worker, passes its proof; the numbers then propagate to
the root, and every node settled on the way gets its book entry (its value,
move and proof, as a build's propagation makes them). When the root is
proven, its whole proof (the union of its leaves' proofs) is verified as one
job before it counts: the root's entry is then settled by its own search
(``how`` ``solved``), so ``qubic book export`` writes its proof as one file.

**Several roots at once.** The positions given are searched together: a free
worker takes the most-proving leaf of the open root that has had the fewest
nodes so far (its finished jobs' and the budgets of its running ones, over
every run), so each open root gets an equal share of the workers: an easy one
settles while a hard one goes on, and a root added later catches up.

**Saved tables are pruned.** A leaf back unsettled keeps its search table in
the book for its next job. When the leaf is expanded, settled, or no longer
below an open root (of this run or an earlier one), the table is deleted: at
the start and end of a run, when a root settles, and every ten minutes.

**Every stop is a pause.** Each job's start and result is one SQLite
transaction (with the nodes, edges and numbers it changed), so the master
killed at any point (SIGKILL included) loses only the jobs then running:
the same call goes on from the tree in the book, and no finished job is run
again. A worker that dies gives its job back (it is handed out again). On
Ctrl-C or at ``time_limit`` the running jobs hand in what they have (on local
workers and on Dask alike); a disk that fills up stops the search with
what was written kept.

>>> import tempfile, os
>>> from qubic_logic.notation import parse_position
>>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
>>> r = solve_in_book(path, [parse_position('moves:0,27,3,12')], jobs=1)
>>> r.results[0].value, r.results[0].verdict
('win', 'verified')
"""

from __future__ import annotations

import os
import signal
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

from ..errors import QubicError
from ..executor import Executor, Outcome, UnitStream, make_executor
from ..notation import format_patashnik
from ..position import Position, other
from ..proof.known import KnownWins
from ..proof.solve import INFINITY
from ..strategy.dictionary import StrategyDictionary
from .build import DEFAULT_MEMORY, propagated, settle_upwards
from .unit import NOT_STARTED, Unit
from .leafjobs import CheckOutcome, LeafOutcome, LeafSearch, ProofCheck, run_job
from .prooftree import EPSILON, Choice, Node, ProofTree, numbers_of_value
from .store import BookEntry, OpeningBook, _now, _signed, _unsigned, canonical_key, position_name

DEFAULT_JOB_NODES = 1_000_000
DEFAULT_GROWTH = 4
LOST_TRIES = 3  # a leaf whose job is lost this often in one run (its worker killed each time) stops the run
GRACE = 60.0  # seconds for the running jobs to hand in what they have after Ctrl-C or the time limit
POLL = 0.2
TRACE_EVERY = 10.0  # seconds between samples of the root's numbers while they stay the same
PRUNE_EVERY = 600.0  # seconds between two deletions of the saved tables no job will go on from
Progress = Callable[["SolveReport"], None]


@dataclass(frozen=True)
class SearchPlan:
    """How the search spends its jobs (see the module docstring).

    ``policy``: how a leaf whose job is running counts (``win``, ``loss``,
    ``equal``: :mod:`~qubic_logic.book.prooftree`). ``saved_tables``: a leaf's
    next job goes on from its last one's table (else it starts afresh).
    ``job_time``: seconds a job may take besides its node budget (None: no
    limit). ``weak_pns`` and ``pass_nodes``: the df-pn's options
    (:func:`~qubic_logic.proof.solve.solve`). ``thresholds``: a job stops
    once its leaf is no longer the most-proving one (the df-pn's thresholds,
    widened by ``epsilon``); else it uses its whole budget. ``known_wins``:
    every job takes the book's proofs as known wins
    (:mod:`~qubic_logic.proof.known`), so that it stops where a proof of
    another leaf or root already goes.
    """

    job_nodes: int = DEFAULT_JOB_NODES
    growth: int = DEFAULT_GROWTH
    split_at: int | None = None  # default: job_nodes * (1 + growth), two jobs
    job_time: float | None = None
    memory_limit: float | None = DEFAULT_MEMORY
    policy: str = "win"
    saved_tables: bool = True
    weak_pns: int = 0
    pass_nodes: int | None = None
    thresholds: bool = True
    epsilon: float = EPSILON
    known_wins: bool = True

    @property
    def split_nodes(self) -> int:
        return self.split_at if self.split_at is not None else self.job_nodes * (1 + self.growth)


@dataclass
class RootResult:
    """How a root ended: ``value`` for its side to move (``win``/``loss``, proven and verified; ``no win``:
    X cannot force a win; None: open), its proof size, and the jobs and nodes all its runs spent."""

    position: str
    value: str | None = None
    verdict: str | None = None
    proof_size: int | None = None
    jobs: int = 0
    nodes: int = 0
    seconds: float = 0.0
    pn: int = 0
    dn: int = 0

    @property
    def settled(self) -> bool:
        """Proven and its proof verified (or in the book before), or disproven."""
        return self.verdict is not None


@dataclass
class SolveReport:
    """Where a search stands: the root being solved, jobs and nodes of this run, how it stopped."""

    path: str
    executor: str = "local"
    workers: int = 1
    root: str = ""
    pn: int = 0
    dn: int = 0
    jobs: int = 0  # finished this run
    settled_jobs: int = 0  # of which settled their leaf
    lost: int = 0
    running: int = 0
    nodes: int = 0  # of the finished jobs of this run
    running_nodes: int = 0  # reported so far by the running jobs (local workers)
    tree: int = 0  # nodes of the proof-number tree
    seconds: float = 0.0
    master_seconds: float = 0.0  # the master's own work: choosing, expanding, storing
    verify_seconds: float = 0.0  # spent verifying proofs in the workers
    stopped: str | None = None  # None, 'interrupted', 'time limit', 'disk full'
    why: str = ""  # what could not be written, when the disk was full
    verifying: bool = False  # the root is proven, its proof being verified
    pruned_tables: int = 0  # saved tables deleted: their leaf expanded, settled or no longer below an open root
    pruned_bytes: int = 0
    results: list[RootResult] = field(default_factory=list)

    @property
    def open_jobs(self) -> int:
        return self.jobs - self.settled_jobs

    @property
    def rate(self) -> float:
        """Nodes per second of this run (running jobs' reported nodes included)."""
        return (self.nodes + self.running_nodes) / self.seconds if self.seconds > 0 else 0.0


class NoRoom(QubicError):
    """The disk (or the file-size limit) is full: nothing more can be stored."""


def _no_room(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR) or "full" in str(exc)


class StopRequests:
    """Ctrl-C and SIGTERM set :attr:`requested` (the search then winds down); a second one stops at once.

    Only in the main thread (elsewhere signals go on as they were)."""

    def __init__(self) -> None:
        self.requested = False
        self._old: dict[int, Any] = {}

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True

    def __enter__(self) -> "StopRequests":
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._old[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for sig, old in self._old.items():
            signal.signal(sig, old)


@dataclass(eq=False)
class RootRun:
    """A root of this run: its node, its row in ``tree_roots``, and its jobs and nodes over every run."""

    node: Node
    rid: int
    result: RootResult
    seconds_before: float  # the wall clock during which it had a job running, in the runs before this one
    last_sample: tuple[float, int, int] = (0.0, -1, -1)
    check: int | None = None  # the row of the job verifying its proof, while it runs
    ended: float | None = None  # when it was settled, in this run
    running: int = 0  # its jobs running now
    busy_since: float | None = None  # since when it has had a job running (time.monotonic())

    @property
    def done(self) -> bool:
        return self.ended is not None

    @property
    def seconds(self) -> float:
        """The wall-clock time it has been searched: while at least one of its jobs ran, over every run."""
        return self.seconds_before + (time.monotonic() - self.busy_since if self.busy_since is not None else 0.0)

    def job_started(self) -> None:
        if not self.running:
            self.busy_since = time.monotonic()
        self.running += 1

    def job_ended(self) -> None:
        self.running -= 1
        if not self.running and self.busy_since is not None:
            self.seconds_before += time.monotonic() - self.busy_since
            self.busy_since = None


class Running(NamedTuple):
    """A job handed out: its row in ``tree_jobs``, its node, kind and root."""

    row: int
    node: Node
    kind: str  # search | verify
    root: RootRun
    budget: int = 0  # nodes


class Master:
    """The master of one run: the tree, the stream of jobs, and the book they are stored in.

    The roots are searched at once, in equal shares: a free worker takes the
    most-proving leaf of the open root that has had the fewest nodes (:meth:`_share`).
    """

    def __init__(self, book: OpeningBook, plan: SearchPlan, stream: UnitStream, report: SolveReport,
                 progress: Progress | None, deadline: float | None, stop: StopRequests) -> None:
        self.book, self.plan, self.stream, self.report = book, plan, stream, report
        self.progress, self.deadline, self.stop = progress, deadline, stop
        self.db = book.db
        self.tree = ProofTree(plan.policy, known=self._known, epsilon=plan.epsilon)
        self.tree.load(self.db)
        self.jobs: dict[int, Running] = {}
        self.lost: Counter = Counter()
        self.start = time.monotonic()
        self.shown = 0.0
        self.wrapped: set[int] = set()
        self.looked_at = -1  # settled jobs when running jobs were last checked for use
        self.pruned = -PRUNE_EVERY  # when saved tables were last pruned (time.monotonic())
        self.wins = KnownWins()  # every proof in the book, for the jobs to stop where one already goes
        if plan.known_wins:
            for strategy in book.strategies():
                self.wins.add(strategy)
        with self._writing():
            self.db.execute("UPDATE tree_jobs SET state = 'lost', note = 'the search stopped while it ran', "
                            "finished_at = ? WHERE state = 'running'", (time.time(),))
            for node in self.tree.nodes.values():  # values the book learnt since (an import, a build)
                if node.leaf and not node.settled:
                    known = self._known(node.key)
                    if known is not None:
                        self.tree.set_leaf(node, *known, "book")
            self._store_settled(None)
            self.tree.flush(self.db)
        self.book.set_meta(solve_pid=os.getpid(), solve_started=_now())

    # ------------------------------------------------------------------ storing

    def _known(self, key: tuple[int, int]) -> tuple[int, int] | None:
        return numbers_of_value(self.book.value(key), key[0].bit_count() == key[1].bit_count())

    class _Writing:
        def __init__(self, master: "Master") -> None:
            self.master = master

        def __enter__(self) -> None:
            self.master.db.__enter__()

        def __exit__(self, kind: Any, exc: Any, tb: Any) -> bool:
            master = self.master
            try:
                master.db.__exit__(kind, exc, tb)
            except sqlite3.Error as error:  # the commit itself failed
                exc = error
            if isinstance(exc, sqlite3.Error):
                master.tree.discard()
                if _no_room(exc):
                    raise NoRoom(f"cannot write to {master.book.path} ({exc})") from None
                if kind is None:
                    raise exc
            return False

    def _writing(self) -> "Master._Writing":
        """One transaction (a full disk raises :class:`NoRoom`; the tree's unwritten changes are dropped)."""
        return Master._Writing(self)

    def _entry_of(self, node: Node) -> BookEntry | None:
        """``node``'s value as a book entry: stored, or (settled by the checks of a new node) made up."""
        if node.how == "threats" and node.settled:
            value = ("win" if node.x_to_move else "loss") if node.proven else ("no win" if node.x_to_move else None)
            return None if value is None else BookEntry(node.position, value, proof_size=0, how="threats")
        return self.book.get(node.position)

    def _store_settled(self, leaf: Node | None) -> None:
        """The book entries of the nodes that settled (inside the caller's transaction)."""
        for n in self.tree.take_settled():
            if n is leaf or n.how in ("threats", "book", "search"):
                continue  # the leaf's entry is written with its job; the others have theirs (or need none)
            entry = None
            if n.proven:
                kids = {c.key: self._entry_of(c) for _, _, c in n.edges}
                entry = propagated(n.position, kids, {c.key: move for _, move, c in n.edges})
                if entry is None:
                    raise QubicError(f"the tree says {n.name} is proven, but its children's entries do not show it")
            elif n.x_to_move:  # X cannot force a win: every move leads to a position where it cannot
                entry = BookEntry(n.position, "no win", how="replies")
            if entry is not None:
                self.book.write(entry)

    def _sample(self, run: RootRun, force: bool = False) -> None:
        """A sample of a root's numbers for the plot, when they changed or every TRACE_EVERY seconds
        (inside the caller's transaction)."""
        now = time.monotonic()
        at, pn, dn = run.last_sample
        root = run.node
        if not force and (root.pn, root.dn) == (pn, dn) and now - at < TRACE_EVERY:
            return
        self.db.execute("INSERT INTO tree_trace (root, at, seconds, nodes, jobs, proof_number, disproof_number) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (run.rid, time.time(), run.seconds, run.result.nodes, run.result.jobs, root.pn, root.dn))
        self.db.execute("UPDATE tree_roots SET seconds = ? WHERE id = ?", (run.seconds, run.rid))
        run.last_sample = (now, root.pn, root.dn)

    # ------------------------------------------------------------------ jobs

    def _next_leaf(self, root: Node) -> Choice | None:
        """The most-proving leaf to search, expanding on the way the ones the plan says to expand."""
        while True:
            choice = self.tree.select(root)
            if choice is None or (choice.node.x_to_move and choice.node.nodes < self.plan.split_nodes):
                return choice
            self.tree.expand(choice.node)

    def _submit(self, choice: Choice, run: RootRun) -> None:
        plan, node = self.plan, choice.node
        node.target = node.target or plan.job_nodes
        table = self.book.saved_table(node.position) if plan.saved_tables else None
        budget = max(1, node.target - node.spent) if table is not None else node.target
        # (the proof number only: a job switched to another of O's replies whenever a disproof number grows
        # would stop after a few nodes, and every reply has to be proven anyway)
        thresholds = (choice.pn_threshold, INFINITY) if plan.thresholds else None
        unit = Unit(node.name, plan.job_time, plan.memory_limit, table, self.deadline, budget, plan.weak_pns,
                    plan.pass_nodes, thresholds, self.wins.packed() if len(self.wins) else None)
        job = self.stream.submit(LeafSearch(unit))
        self.tree.set_busy(node, True)
        with self._writing():
            self._store_settled(None)
            self.tree.flush(self.db)
            row = self.db.execute("INSERT INTO tree_jobs (root, x, o, kind, state, budget, went_on, worker, "
                                  "started_at) VALUES (?, ?, ?, 'search', 'running', ?, ?, ?, ?)",
                                  (run.rid, _signed(node.key[0]), _signed(node.key[1]), budget, table is not None,
                                   self.stream.running.get(job), time.time())).lastrowid
        self.jobs[job] = Running(row, node, "search", run, budget)
        run.job_started()

    def _share(self, run: RootRun) -> int:
        """The nodes ``run``'s root has had: its finished jobs' over every run, and its running jobs' budgets."""
        return run.result.nodes + sum(job.budget for job in self.jobs.values() if job.root is run)

    def _fill(self, runs: list[RootRun]) -> None:
        """Hand a job to every free worker: the most-proving leaf of the open root with the smallest share
        (the next one when it has no leaf to give)."""
        started = time.monotonic()
        while self.stream.free() > 0:
            for run in sorted((run for run in runs if not run.node.settled), key=self._share):
                leaf = self._next_leaf(run.node)
                if leaf is not None:
                    self._submit(leaf, run)
                    break
            else:
                break
        if self.tree.changed or self.tree.new_edges or self.tree.settled:  # expansions with no job after them
            with self._writing():
                self._store_settled(None)
                self.tree.flush(self.db)
        self.report.master_seconds += time.monotonic() - started

    def _handle(self, outcome: Outcome) -> None:
        """Store what came back of a job (the master's own time)."""
        started = time.monotonic()
        try:
            self._take(outcome)
        finally:
            self.report.master_seconds += time.monotonic() - started

    def _take(self, outcome: Outcome) -> None:
        running = self.jobs.pop(outcome.job)
        node, run = running.node, running.root
        run.job_ended()
        self.wrapped.discard(outcome.job)
        if outcome.kind == "lost":
            self.report.lost += 1
            with self._writing():
                self.db.execute("UPDATE tree_jobs SET state = 'lost', note = ?, finished_at = ? WHERE id = ?",
                                (str(outcome.value), time.time(), running.row))
            if running.kind == "search":
                self.tree.set_busy(node, False)
            else:
                run.check = None  # handed out again
            if str(outcome.value).startswith("its worker"):
                self.lost[node.key] += 1
                if self.lost[node.key] >= LOST_TRIES:
                    raise QubicError(f"the job of {node.name} was lost {LOST_TRIES} times ({outcome.value}); "
                                     "expected workers that live through a job (lower --memory-limit?)")
            return
        if running.kind == "verify":
            self._checked(run, running.row, outcome.value)
        else:
            self._record(running, outcome.value)

    def _record(self, running: Running, out: LeafOutcome) -> None:
        """Store a leaf's job: its numbers, table, book entry, and what they settle above it."""
        r, node, run, plan = out.result, running.node, running.root, self.plan
        self.tree.set_busy(node, False)
        if r.stopped_by == NOT_STARTED:
            with self._writing():
                self.db.execute("UPDATE tree_jobs SET state = 'lost', note = 'not started: the time was up', "
                                "finished_at = ? WHERE id = ?", (time.time(), running.row))
            return
        refuted = r.status == "won" and out.verdict != "verified"
        status = (f"{r.status} ({r.stopped_by})" if r.stopped_by else r.status) + (" (went on)" if r.went_on else "")
        with self._writing():
            node.nodes += r.nodes
            spent_before = self.db.execute("SELECT coalesce(sum(seconds), 0) FROM tree_jobs WHERE x = ? AND o = ? "
                                           "AND kind = 'search' AND state = 'done'",
                                           (_signed(node.key[0]), _signed(node.key[1]))).fetchone()[0]
            seconds = spent_before + r.seconds
            if r.status == "won" and not refuted:
                self.book.write(BookEntry(node.position, "win", r.move, r.size, node.nodes, seconds, "solved",
                                          None, r.strategy))
                self.tree.set_leaf(node, 0, INFINITY, "search")
                if plan.known_wins:
                    self.wins.add(StrategyDictionary.parse(r.strategy, node.name))
            elif r.status == "not won":
                self.book.write(BookEntry(node.position, "no win", None, None, node.nodes, seconds, "solved"))
                self.tree.set_leaf(node, INFINITY, 0, "search")
            elif not refuted:
                node.spent = (node.spent if r.went_on else 0) + r.nodes
                cut = r.stopped_by in ("time limit", "interrupted", "threshold") and not (
                    r.stopped_by == "time limit" and plan.job_time and (r.limit or 0) >= plan.job_time * (1 - 1e-9))
                if not cut:  # its whole budget used: the next job gets `growth` times more
                    node.searches += 1
                    node.target *= plan.growth
                    node.spent = 0
                if plan.saved_tables and r.table is not None:
                    self.db.execute("INSERT OR REPLACE INTO tables (x, o, saved_at, blob) VALUES (?, ?, ?, ?)",
                                    (_signed(node.key[0]), _signed(node.key[1]), _now(), r.table))
                else:
                    self.db.execute("DELETE FROM tables WHERE x = ? AND o = ?",
                                    (_signed(node.key[0]), _signed(node.key[1])))
                self.tree.set_leaf(node, max(1, r.proof_number), max(1, r.disproof_number), "search")
            self.db.execute("UPDATE tree_jobs SET state = ?, status = ?, nodes = ?, seconds = ?, proof_number = ?, "
                            "disproof_number = ?, verify_seconds = ?, worker = ?, went_on = ?, finished_at = ?, "
                            "note = ? WHERE id = ?",
                            ("refuted" if refuted else "done", status, r.nodes, r.seconds,
                             min(r.proof_number, INFINITY), min(r.disproof_number, INFINITY), out.verify_seconds,
                             out.worker, int(r.went_on), time.time(),
                             f"the verifier: {out.verdict}" if refuted else None, running.row))
            self._store_settled(node)
            self.tree.flush(self.db)
            run.result.nodes += r.nodes
            run.result.jobs += 1
            try:
                self._sample(run)
            finally:  # (counted once the transaction holds)
                run.result.nodes -= r.nodes
                run.result.jobs -= 1
        run.result.nodes += r.nodes
        run.result.jobs += 1
        self.report.jobs += 1
        self.report.nodes += r.nodes
        self.report.settled_jobs += node.settled
        self.report.verify_seconds += out.verify_seconds
        if refuted:
            raise QubicError(f"the verifier does not pass the proof a search found for {node.name} "
                             f"({out.verdict}); its job is kept in the book as refuted: please report it")

    def _drop_useless(self, runs: list[RootRun]) -> None:
        """Ask running jobs whose leaf no longer matters to any open root to hand in what they have."""
        if self.looked_at == self.report.settled_jobs + sum(r.done for r in runs):
            return
        self.looked_at = self.report.settled_jobs + sum(r.done for r in runs)
        live = [r.node for r in runs if not r.node.settled]
        for job, running in self.jobs.items():
            if running.kind == "search" and job not in self.wrapped and \
                    not any(self.tree.live(running.node, root) for root in live):
                self.wrapped.add(job)
                self.stream.wrap_up([job])

    def _prune_tables(self, force: bool = False) -> None:
        """Delete the saved tables of tree nodes no job will go on from: expanded, settled, or below no
        open root (of this run or another); at most every :data:`PRUNE_EVERY` seconds unless ``force``."""
        now = time.monotonic()
        if not force and now - self.pruned < PRUNE_EVERY:
            return
        self.pruned = now
        started = now
        keys = [(_unsigned(x), _unsigned(o)) for x, o in
                self.db.execute("SELECT x, o FROM tree_roots WHERE verdict IS NULL")]
        roots = [self.tree.nodes[key] for key in keys if key in self.tree.nodes]
        wanted = self.tree.open_leaves(roots)
        stale = [(x, o, size) for x, o, size in self.db.execute("SELECT x, o, length(blob) FROM tables")
                 if (key := (_unsigned(x), _unsigned(o))) in self.tree.nodes and key not in wanted]
        if stale:
            with self._writing():
                self.db.executemany("DELETE FROM tables WHERE x = ? AND o = ?", [(x, o) for x, o, _ in stale])
            self.report.pruned_tables += len(stale)
            self.report.pruned_bytes += sum(size for _, _, size in stale)
        self.report.master_seconds += time.monotonic() - started

    def _show(self, runs: list[RootRun], force: bool = False) -> None:
        now = time.monotonic()
        if self.progress is None or (not force and now - self.shown < 0.5):
            return
        self.shown = now
        r = self.report
        first = next((run for run in runs if not run.done), runs[-1])
        r.root, r.verifying = first.result.position, first.check is not None
        r.pn, r.dn = first.node.pn, first.node.dn
        r.seconds = now - self.start
        r.running = len(self.jobs)
        r.tree = len(self.tree)
        r.running_nodes = sum((self.stream.progress(job) or (0,))[0] for job in self.jobs)
        self.progress(r)

    # ------------------------------------------------------------------ the roots

    def _open(self, position: Position) -> RootRun:
        """The run of ``position``'s root: its node and row (made if new), and its jobs and nodes so far."""
        with self._writing():
            root = self.tree.root(position)
            self._store_settled(None)
            self.tree.flush(self.db)
            x, o = root.key
            self.db.execute("INSERT OR IGNORE INTO tree_roots (x, o, position, added_at) VALUES (?, ?, ?, ?)",
                            (_signed(x), _signed(o), root.name, _now()))
            rid = self.db.execute("SELECT id FROM tree_roots WHERE x = ? AND o = ?",
                                  (_signed(x), _signed(o))).fetchone()[0]
        nodes, jobs = self.db.execute("SELECT coalesce(sum(nodes), 0), count(*) FROM tree_jobs WHERE root = ? AND "
                                      "kind = 'search' AND state = 'done'", (rid,)).fetchone()
        run = RootRun(root, rid, RootResult(root.name, jobs=jobs, nodes=nodes), self._searched(rid))
        if not self.db.execute("SELECT count(*) FROM tree_trace WHERE root = ?", (rid,)).fetchone()[0]:
            with self._writing():
                self._sample(run, force=True)  # where it starts from
        return run

    def _searched(self, rid: int) -> float:
        """The wall clock during which root ``rid`` had a job running, over every run so far (the union of
        its finished jobs' spans)."""
        total, end = 0.0, None
        for start, finish in self.db.execute("SELECT started_at, finished_at FROM tree_jobs WHERE root = ? AND "
                                             "finished_at IS NOT NULL ORDER BY started_at", (rid,)):
            if end is None or start > end:
                total, end = total + finish - start, finish
            elif finish > end:
                total, end = total + finish - end, finish
        return total

    def run(self, positions: list[Position]) -> None:
        """Search the roots of ``positions`` until each is settled (and its proof verified) or the run stops."""
        report = self.report
        runs = [self._open(p) for p in positions]
        stopping, until = None, 0.0
        try:
            while True:
                if stopping is None and self.stop.requested:
                    stopping, until = "interrupted", time.monotonic() + GRACE
                    self.stream.wrap_up()
                elif stopping is None and self.deadline is not None and time.time() >= self.deadline:
                    stopping, until = "time limit", time.monotonic() + GRACE  # the jobs end by the deadline
                if stopping is None:
                    for run in runs:
                        if run.node.settled and not run.done and run.check is None:
                            self._finish(run)
                    self._fill(runs)
                    if not self.jobs and not all(run.done for run in runs):
                        stuck = next(run for run in runs if not run.done)
                        raise QubicError(f"{stuck.result.position}: no leaf is left to search and the root is not "
                                         "settled; expected every open leaf to be searchable")
                if not self.jobs or (stopping is not None and time.monotonic() > until):
                    for outcome in self.stream.stop():
                        self._handle(outcome)
                    report.stopped = stopping
                    break
                for outcome in self.stream.poll(POLL):
                    self._handle(outcome)
                self._drop_useless(runs)
                self._prune_tables()
                self._show(runs)
            with self._writing():
                for run in runs:
                    self._sample(run, force=True)
            self._prune_tables(force=True)
        except NoRoom as exc:
            self._no_room(exc)
        for run in runs:
            run.result.pn, run.result.dn = run.node.pn, run.node.dn
            run.result.seconds = run.seconds
            report.results.append(run.result)
        self._show(runs, force=True)

    def _no_room(self, exc: NoRoom) -> None:
        """The disk is full: stop every job (what they would hand in cannot be stored)."""
        self.report.stopped, self.report.why = "disk full", str(exc)
        self.stream.stop()
        self.jobs.clear()

    def _finish(self, run: RootRun) -> None:
        """A root that settled: disproven; proven, its proof verified as a whole first (unless a job's
        verified proof, or the book's, is all of it)."""
        root, result = run.node, run.result
        if root.disproven:
            result.value = "no win" if root.x_to_move else None
            result.verdict = "X cannot force a win (proven by search; no certificate)"
            with self._writing():
                self.db.execute("UPDATE tree_roots SET settled_at = coalesce(settled_at, ?), verdict = 'disproven' "
                                "WHERE id = ?", (_now(), run.rid))
            run.ended = time.monotonic()
            return
        entry = self._entry_of(root)
        verdict = self.db.execute("SELECT verdict FROM tree_roots WHERE id = ?", (run.rid,)).fetchone()[0]
        if verdict is None and root.how == "book":
            verdict = "in the book"  # (its proof was verified when it came in)
        elif verdict is None and entry.how == "solved":
            verdict = "verified"  # one job's proof, verified in its worker
        if verdict is not None:
            self._settled(run, entry, verdict)
            return
        job = self.stream.submit(ProofCheck(entry.value, format_patashnik(entry.position), _proof_text(entry)))
        with self._writing():
            run.check = self.db.execute("INSERT INTO tree_jobs (root, x, o, kind, state, worker, started_at) "
                                        "VALUES (?, ?, ?, 'verify', 'running', ?, ?)",
                                        (run.rid, _signed(root.key[0]), _signed(root.key[1]),
                                         self.stream.running.get(job), time.time())).lastrowid
        self.jobs[job] = Running(run.check, root, "verify", run)
        run.job_started()

    def _checked(self, run: RootRun, row: int, outcome: CheckOutcome) -> None:
        with self._writing():
            self.db.execute("UPDATE tree_jobs SET state = 'done', status = ?, seconds = ?, worker = ?, "
                            "finished_at = ? WHERE id = ?", (outcome.verdict, outcome.seconds, outcome.worker,
                                                             time.time(), row))
        self.report.verify_seconds += outcome.seconds
        run.check = None
        self._settled(run, self._entry_of(run.node), outcome.verdict)

    def _settled(self, run: RootRun, entry: BookEntry, verdict: str) -> None:
        """Record a proven root's verdict; a verified proof becomes its entry's own (one file in an export)."""
        with self._writing():
            self.db.execute("UPDATE tree_roots SET settled_at = coalesce(settled_at, ?), verdict = ? WHERE id = ?",
                            (_now(), verdict, run.rid))
            if verdict not in ("verified", "in the book"):
                raise QubicError(f"the verifier does not pass the proof of {run.result.position} ({verdict}); "
                                 "its value is not counted: please report it")
            if entry.how != "solved" and run.node.how != "book":
                entry = BookEntry(entry.position, entry.value, entry.move, entry.proof_size, run.result.nodes,
                                  run.seconds, "solved", None, _proof_text(entry))
                self.book.write(entry)
            settle_upwards(self.book, [run.node.key])
        run.result.value, run.result.verdict, run.result.proof_size = entry.value, verdict, entry.proof_size
        run.ended = time.monotonic()
        self._prune_tables(force=True)  # its open leaves' tables


def _proof_text(entry: BookEntry) -> str:
    """A settled entry's proof in Patashnik's format (a forced win's has no entries, only its header)."""
    if entry.strategy_text:
        return entry.strategy_text
    side = entry.position.to_move if entry.value == "win" else other(entry.position.to_move)
    return StrategyDictionary([], [f"{side.upper()} wins from {position_name(entry.position)} by threats alone "
                                   "(qubic-logic): the verifier's rules (1), (2) and (4)."]).dumps()


def solve_in_book(
    path: str | os.PathLike,
    positions: list[Position],
    *,
    plan: SearchPlan | None = None,
    executor: Executor | None = None,
    jobs: int | None = None,
    progress: Progress | None = None,
    time_limit: float | None = None,
) -> SolveReport:
    """Settle ``positions`` in the book at ``path`` (created if absent): searched at once, a free worker taking
    each open one has an equal share of the workers; see the module docstring. The same call after any
    stop goes on where it ended."""
    plan = plan or SearchPlan()
    if not positions:
        raise QubicError("no position to solve; expected at least one")
    seen: dict[tuple[int, int], Position] = {}
    for position in positions:
        position.require_in_play()
        key = canonical_key(position)[:2]
        if key in seen:
            raise QubicError(f"{format_patashnik(seen[key]) or 'empty'} and {format_patashnik(position) or 'empty'} "
                             "are the same position up to symmetry; expected each position once")
        seen[key] = position
    own = executor is None
    report = SolveReport(str(path))
    with OpeningBook.open(path, create=True, check=True) as book, StopRequests() as stop:
        if book.meta("root") is None:
            book.set_meta(root=format_patashnik(positions[0]), stones=positions[0].count)
        executor = executor or make_executor("local", jobs)
        report.executor, report.workers = executor.name, executor.jobs
        deadline = time.time() + time_limit if time_limit else None
        try:
            with executor.stream(run_job) as stream:
                master = Master(book, plan, stream, report, progress, deadline, stop)
                master.run(positions)
                report.seconds = time.monotonic() - master.start
                report.tree = len(master.tree)
        finally:
            if own:
                executor.close()
    return report
