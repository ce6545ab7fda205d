"""Prove a strategy's alternative moves, so that the minimiser has more to choose from.

The minimiser (:mod:`~qubic_logic.proof.minimise`) re-chooses a verified
strategy's moves only among moves known to win: every reply leads to a win, a
block, a forced sequence or a position some proof already has an entry for. This
pass proves more of them: at every strategic position with at most ``marks``
marks, each other move of the attacker (one per class up to symmetry; with
``strong_only`` only the 16 cells on seven lines) is the opening book's work
unit with that first move fixed (:func:`prove_alternatives`). An outcome reached
from several positions (Patashnik's second moves 12 and 48 make reply classes
meet) is proved once. Every search takes the strategy as known wins, so its
proof grafts onto the strategy's positions wherever it can. The proofs are
verified in the worker that found them (:mod:`~qubic_logic.book.leafjobs`,
as the two-level search's) and kept in a store (an opening book file) as
they settle, so runs add up; they
are united with the strategy and minimised over their proof graph
(:func:`minimised_union`), and the result is verified.

Run it as ``python -m qubic_logic.proof.alternatives OUT STRATEGY [--with DICTIONARY ...]
[--marks N] [--strong-only] [--time-limit S] [--jobs J | --scheduler ADDRESS] [--store FILE]
[--run-time S] [--proofs FILE]``: ``--with`` adds more verified strategies from the same root to the
union (their moves are candidates too, and known wins); ``--proofs`` writes the proofs found, to
minimise them again later with other inputs.

>>> from qubic_logic.notation import parse_patashnik
>>> from qubic_logic.proof.solve import solve
>>> units = alternative_units(solve(parse_patashnik('x2x16o4o')).strategy, marks=4, strong_only=False)
>>> len(units) > 10, units[0][0]
(True, 'x2x16o4o')
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

from ..errors import QubicError
from ..executor import Executor, make_executor
from ..geometry import LINES_THROUGH
from ..notation import format_patashnik
from ..position import Position
from ..symmetry import canonical_masks
from ..book.build import refuted, totals
from ..book.unit import GRACE, NOT_STARTED, Unit
from ..book.leafjobs import LeafOutcome, LeafSearch, run_job
from ..book.store import BookEntry, OpeningBook, SearchLog
from ..notation import parse_patashnik
from ..strategy.dictionary import StrategyDictionary
from .known import KnownWins
from .minimise import SWEEPS, minimised_union, write_verified

STRONG_CELLS = frozenset(c for c in range(64) if len(LINES_THROUGH[c]) == 7)


def alternative_units(strategy: StrategyDictionary, *, marks: int, strong_only: bool) -> list[tuple[str, int]]:
    """``(position in Patashnik's format, move)`` for each outcome to prove: the moves other than the
    strategy's at its positions with at most ``marks`` marks, one per outcome up to symmetry."""
    def outcome(p: Position, move: int) -> tuple[int, int]:
        after = p.play(move)
        return canonical_masks(after.x, after.o)[:2]

    seen = {outcome(e.position, e.move) for e in strategy if e.position.count <= marks}
    units = []
    for entry in sorted(strategy, key=lambda e: e.position.count):
        p = entry.position
        if p.count > marks:
            continue
        for move in p.legal_moves():
            key = outcome(p, move)
            if (strong_only and move not in STRONG_CELLS) or key in seen:
                continue
            seen.add(key)
            units.append((format_patashnik(p), move))
    return units


class AlternativesReport(NamedTuple):
    """What :func:`prove_alternatives` did: the alternatives, proven (``won``, in the store before or now), whose
    move does not win (``not_won``), left open within their budget, searched in this run, and how it stopped."""

    units: int
    won: int
    not_won: int
    open: int
    searched: int
    stopped: str | None


def _outcome(unit: tuple[str, int]) -> Position:
    text, move = unit
    return parse_patashnik(text).play(move)


def prove_alternatives(
    store: str | os.PathLike,
    strategy: StrategyDictionary,
    *,
    marks: int = 2,
    strong_only: bool = False,
    time_limit: float = 60.0,
    memory_limit: float | None = None,
    executor: Executor | None = None,
    known: Sequence[StrategyDictionary] = (),
    report: Callable[[str], None] = lambda text: None,
    run_time: float | None = None,
) -> AlternativesReport:
    """Prove ``strategy``'s alternative moves into the store at ``store`` (an opening book file), each once.

    Each alternative is the book's work unit with its first move fixed
    (:func:`~qubic_logic.book.unit.solve_position_unit`), and every search
    takes ``strategy`` and ``known`` (verified, from the same root) as known
    wins (:mod:`~qubic_logic.proof.known`): it stops where they already go, and
    its proof grafts onto them. A proof is stored as the entry of the position
    after the move (O to move: a ``loss``, with X's proof); a move that does
    not win, or a search left open (its time and its table kept), is logged.
    Each result is one transaction, so a run stopped in any way (Ctrl-C,
    ``run_time``, SIGKILL) loses at most the searches then running, and the
    next run with the same store searches only what is left (an open one only
    with a larger ``time_limit``, going on from its table). ``qubic book
    export STORE DIR`` writes the proofs as an archive that ``qubic book
    import`` verifies.
    """
    units = alternative_units(strategy, marks=marks, strong_only=strong_only)
    root = format_patashnik(strategy.root)
    won = not_won = left_open = 0
    todo: list[tuple[tuple[str, int], BookEntry | None, bytes | None]] = []
    with OpeningBook.open(store, create=True, check=True) as book:
        if book.meta("root") not in (None, root):
            raise QubicError(f"{store} holds the alternatives of a strategy from {book.meta('root') or 'the empty board'!r}, "
                             f"not {root or 'the empty board'!r}; expected a store of the same root (or a new file)")
        book.set_meta(root=root)
        for unit in units:
            outcome = _outcome(unit)
            entry = book.get(outcome)
            if entry is not None and entry.settled:
                won += 1
            elif entry is not None and any(log.status.startswith("not won") for log in book.searches(outcome)):
                not_won += 1
            elif entry is not None and (entry.budget or 0) >= time_limit:
                left_open += 1
            else:
                todo.append((unit, entry, book.saved_table(outcome) if entry is not None else None))
        report(f"{len(units):,} alternative moves: {won:,} proven, {not_won:,} not winning and {left_open:,} open "
               f"within {time_limit:g} s in the store; {len(todo):,} to search")
        if not todo:
            return AlternativesReport(len(units), won, not_won, left_open, 0, None)
        wins = KnownWins()
        for d in (strategy, *known):
            wins.add(d)
        own = executor is None
        executor = executor or make_executor("local", None)
        per_job = memory_limit / executor.jobs if memory_limit else None
        deadline = time.time() + run_time if run_time else None
        build = book.start_build(marks + 1, time_limit, executor.name, executor.jobs)
        work = [Unit(text, time_limit - (entry.budget or 0) if table is not None and entry is not None else time_limit,
                     per_job, table, deadline, known=wins.packed(), move=move)
                for (text, move), entry, table in todo]
        searched = 0
        try:
            run = executor.run(run_job, [LeafSearch(u) for u in work], time_limit=run_time and run_time + GRACE,
                               wrap_up=GRACE)
            try:
                for i, outcome in run:
                    result = outcome.result
                    if result.stopped_by == NOT_STARTED:
                        continue
                    (text, move), entry, _ = todo[i]
                    value = _record(book, build, parse_patashnik(text), move, entry, outcome)
                    searched += 1
                    won += value == "won"
                    not_won += value == "not won"
                    left_open += value == "unknown"
                    report(f"{searched:,}/{len(todo):,} {text} move {move}: {value} [{result.nodes:,} nodes, "
                           f"{result.seconds:.1f} s]")
            except KeyboardInterrupt:
                run.stopped = "interrupted"
            book.finish_build(build, run.stopped)
        finally:
            if own:
                executor.close()
    return AlternativesReport(len(units), won, not_won, left_open, searched, run.stopped)


def _record(book: OpeningBook, build: int, position: Position, move: int, before: BookEntry | None,
            searched: LeafOutcome) -> str:
    """Store one alternative's search (one transaction); returns its status. A proof the verifier (run in the
    worker) does not pass is logged as refuted and stops the run: it is a bug to report."""
    result = searched.result
    outcome = position.play(move)
    nodes, seconds, given = totals(result, before)
    log = SearchLog(build, (f"{result.status} ({result.stopped_by})" if result.stopped_by else result.status),
                    result.nodes, result.seconds)
    if result.status == "won" and searched.verdict != "verified":
        raise refuted(book, outcome, log, (nodes, seconds, given), searched.verdict,
                      f"{format_patashnik(position)} move {move} wins")
    if result.status == "won":  # X's proof from the position after the move: the strategy less its first entry
        proof = StrategyDictionary([e for e in StrategyDictionary.parse(result.strategy) if e.position.count > position.count],
                                   [f"X's proof that {format_patashnik(position)} move {move} wins "
                                    "(qubic-logic: python -m qubic_logic.proof.alternatives)"])
        book.settle(BookEntry(outcome, "loss", None, len(proof), nodes, seconds, "solved", given, proof.dumps()), log)
    else:
        book.settle(BookEntry(outcome, "open", None, None, nodes, seconds, "", given), log,
                    result.table if result.status == "unknown" else None)
    return result.status


def proven_alternatives(store: str | os.PathLike, root: Position) -> StrategyDictionary:
    """Every proof in the store, as one dictionary from ``root`` (candidates for the minimiser, not a strategy)."""
    with OpeningBook.open(store) as book:
        proofs = list(book.strategies())
    return StrategyDictionary.union(proofs, [
        f"Proofs of {len(proofs):,} alternative moves (qubic-logic: python -m qubic_logic.proof.alternatives),",
        "each verified from the position after its move. Not a strategy on its own: candidates for",
        "python -m qubic_logic.proof.minimise OUT STRATEGY THIS-FILE.",
        f"root: {format_patashnik(root)}"])


def with_alternatives(
    strategy: StrategyDictionary,
    store: str | os.PathLike,
    *,
    also: Sequence[StrategyDictionary] = (),
    proofs_out: Path | None = None,
    report: Callable[[str], None] = lambda text: None,
    sweeps: int = SWEEPS,
    **proving,
) -> tuple[StrategyDictionary, AlternativesReport]:
    """``strategy`` minimised together with every proof in ``store`` (after :func:`prove_alternatives` with
    ``proving``'s options and ``also`` as known wins) and the strategies ``also`` (verified, same root); the
    result is not yet verified.

    ``proofs_out``: also write the union of the proofs there (atomically, before minimising), so that
    they can be minimised again with other inputs (``python -m qubic_logic.proof.minimise``); ``sweeps``: the
    local search's (:func:`~.minimise.smallest`).
    """
    if any(d.root != strategy.root for d in also):
        raise QubicError("the dictionaries start from different roots; expected one root for all")
    found = prove_alternatives(store, strategy, known=also, report=report, **proving)
    if found.stopped:
        report(f"proving stopped ({found.stopped}): minimising with what was proven")
    proven = proven_alternatives(store, strategy.root)
    if proofs_out is not None:
        proven.save(proofs_out)
        report(f"{proofs_out}: the {len(proven):,} entries of the proofs")
    return minimised_union([strategy, proven, *also], list(strategy.header), report, sweeps), found


def main(argv: list[str] | None = None) -> int:
    """``python -m qubic_logic.proof.alternatives OUT STRATEGY ...``: write the verified, smaller strategy."""
    parser = argparse.ArgumentParser(prog="python -m qubic_logic.proof.alternatives",
                                     description="Prove a strategy's alternative moves and minimise the union.")
    parser.add_argument("out", metavar="OUT", help="where to write the verified result")
    parser.add_argument("strategy", metavar="STRATEGY", help="a verified strategy dictionary")
    parser.add_argument("--with", dest="also", action="append", default=[], metavar="DICTIONARY",
                        help="another verified strategy from the same root, united before minimising (repeatable)")
    parser.add_argument("--marks", type=int, default=2, help="alternatives at positions with at most this many marks")
    parser.add_argument("--strong-only", action="store_true", help="only moves on the 16 cells on seven lines")
    parser.add_argument("--time-limit", type=float, default=60.0, metavar="S", help="seconds per alternative")
    parser.add_argument("--memory-limit", type=float, default=None, metavar="MB", help="shared by the workers")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: every core)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS", help="a Dask scheduler's workers instead")
    parser.add_argument("--store", type=Path, default=None, metavar="FILE",
                        help="the proofs' store, an opening book file: a later run searches only what it lacks "
                             "(default: OUT's name with .sqlite)")
    parser.add_argument("--run-time", type=float, default=None, metavar="S",
                        help="seconds for the proving: what is left open is searched by the next run")
    parser.add_argument("--proofs", type=Path, default=None, metavar="FILE",
                        help="also write the proofs found, to minimise again later with other inputs")
    parser.add_argument("--sweeps", type=int, default=SWEEPS,
                        help=f"the minimising local search's sweeps (default {SWEEPS}; fewer for large unions)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    figures: dict = {}

    def build() -> StrategyDictionary:
        if args.marks < 0 or args.time_limit <= 0 or (args.jobs is not None and args.jobs < 1) or \
                (args.run_time is not None and args.run_time <= 0) or args.sweeps < 1:
            raise QubicError("expected --marks 0 or more, --time-limit and --run-time above 0, --jobs and --sweeps 1 "
                             "or more")
        if args.proofs is not None and not args.proofs.parent.is_dir():
            raise QubicError(f"--proofs {args.proofs}: {args.proofs.parent} is not a folder; expected a file in an "
                             "existing folder")
        strategy = StrategyDictionary.load(args.strategy)
        also = [StrategyDictionary.load(path) for path in args.also]
        for path, d in [(args.strategy, strategy), *zip(args.also, also)]:
            print(f"{path}: {len(d):,} entries")
        figures["was"] = len(strategy)
        store = args.store or Path(args.out).with_suffix(".sqlite")
        with make_executor("local", args.jobs, scheduler=args.scheduler) as executor:
            result, found = with_alternatives(strategy, store, marks=args.marks, strong_only=args.strong_only,
                                              time_limit=args.time_limit, memory_limit=args.memory_limit,
                                              executor=executor, report=print, also=also,
                                              proofs_out=args.proofs, run_time=args.run_time,
                                              sweeps=args.sweeps)
        print(f"alternatives: {found.won:,} won, {found.not_won:,} not won, {found.open:,} open "
              f"({found.searched:,} searched now; the proofs kept in {store})")
        return result

    status, result, _ = write_verified(Path(args.out), build, "result")
    if status == 0:
        print(f"{args.out}: VERIFIED, {len(result):,} strategic positions (was {figures['was']:,}; "
              f"{time.monotonic() - start:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
