"""Prove a strategy's alternative moves, so that the minimiser has more to choose from.

The minimiser (:mod:`~qubic_logic.proof.minimise`) re-chooses a verified
strategy's moves only among moves known to win: every reply leads to a win, a
block, a forced sequence or a position some proof already has an entry for. This
pass proves more of them: at every strategic position with at most ``marks``
marks, each other move of the attacker (one per class up to symmetry; with
``strong_only`` only the 16 cells on seven lines) is a work unit
``(position, time limit, memory limit, move)`` that the native search settles
with that first move fixed (:func:`~qubic_logic.proof.split.solve_unit`). An outcome reached
from several positions (Patashnik's second moves 12 and 48 make reply classes
meet) is proved once. The proofs found are united with the strategy and
minimised over their proof graph (:func:`minimised_union`), and the result is
verified.

Run it as ``python -m qubic_logic.proof.alternatives OUT STRATEGY [--with DICTIONARY ...]
[--marks N] [--strong-only] [--time-limit S] [--jobs J] [--proofs FILE]``: ``--with`` adds more
verified strategies from the same root to the union (their moves are candidates too);
``--proofs`` keeps the proofs found, to minimise them again later with other inputs.

>>> from qubic_logic.notation import parse_patashnik
>>> from qubic_logic.proof.solve import solve
>>> units = alternative_units(solve(parse_patashnik('x2x16o4o')).strategy, marks=4, strong_only=False)
>>> len(units) > 10, units[0][0]
(True, 'x2x16o4o')
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

from ..errors import QubicError
from ..executor import Executor, make_executor
from ..geometry import LINES_THROUGH
from ..notation import format_patashnik
from ..position import Position
from ..symmetry import canonical_masks
from ..strategy.dictionary import StrategyDictionary
from .minimise import minimised_union, write_verified
from .split import solve_unit

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


def with_alternatives(
    strategy: StrategyDictionary,
    *,
    marks: int = 2,
    strong_only: bool = False,
    time_limit: float = 60.0,
    memory_limit: float | None = None,
    executor: Executor | None = None,
    report: Callable[[str], None] = lambda text: None,
    also: Sequence[StrategyDictionary] = (),
    proofs_out: Path | None = None,
) -> tuple[StrategyDictionary, dict]:
    """``strategy`` minimised together with the proofs of its alternative moves and the strategies
    ``also`` (verified, from the same root); the result is not yet verified.

    ``proofs_out``: also write the union of the proofs there (atomically, before minimising), so that
    they can be minimised again with other inputs (``python -m qubic_logic.proof.minimise``).

    Returns the minimised strategy and figures: ``units``, ``won``, ``not_won``, ``open``,
    ``stopped`` (None, or why the proving stopped early: what was proven is still used).
    """
    units = alternative_units(strategy, marks=marks, strong_only=strong_only)
    report(f"{len(units):,} alternative moves to prove ({time_limit:g} s each)")
    own = executor is None
    executor = executor or make_executor("local", None)
    per_job = memory_limit / executor.jobs if memory_limit else None
    proofs: list[StrategyDictionary] = []
    figures = {"units": len(units), "won": 0, "not_won": 0, "open": 0}
    try:
        run = executor.run(solve_unit, [(text, time_limit, per_job, move) for text, move in units])
        for i, (status, text, nodes, seconds) in run:
            key = {"won": "won", "not won": "not_won"}.get(status, "open")
            figures[key] += 1
            if text:
                proofs.append(StrategyDictionary.parse(text, f"{units[i][0]} {units[i][1]}"))
            report(f"{run.done:,}/{len(units):,} {units[i][0]} move {units[i][1]}: {status}"
                   f"{f', {len(proofs[-1]):,} strategic positions' if text else ''} [{nodes:,} nodes, {seconds:.1f} s]")
    finally:
        if own:
            executor.close()
    figures["stopped"] = run.stopped
    if run.stopped:
        report(f"proving stopped ({run.stopped}) after {run.done:,} of {len(units):,}: minimising with what was proven")
    proven = StrategyDictionary.union(proofs, [
        f"Proofs of {len(proofs):,} alternative moves (qubic-logic: python -m qubic_logic.proof.alternatives),",
        "each verified from the position after its move. Not a strategy on its own: candidates for",
        "python -m qubic_logic.proof.minimise OUT STRATEGY THIS-FILE.",
        f"root: {format_patashnik(strategy.root)}"])
    if proofs_out is not None:
        proven.save(proofs_out)
        report(f"{proofs_out}: the {len(proven):,} entries of the proofs")
    return minimised_union([strategy, proven, *also], list(strategy.header), report), figures


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
    parser.add_argument("--proofs", type=Path, default=None, metavar="FILE",
                        help="also write the proofs found, to minimise again later with other inputs")
    args = parser.parse_args(argv)
    start = time.monotonic()
    figures: dict = {}

    def build() -> StrategyDictionary:
        if args.marks < 0 or args.time_limit <= 0 or (args.jobs is not None and args.jobs < 1):
            raise QubicError("expected --marks 0 or more, --time-limit above 0 and --jobs 1 or more")
        if args.proofs is not None and not args.proofs.parent.is_dir():
            raise QubicError(f"--proofs {args.proofs}: {args.proofs.parent} is not a folder; expected a file in an "
                             "existing folder")
        strategy = StrategyDictionary.load(args.strategy)
        also = [StrategyDictionary.load(path) for path in args.also]
        for path, d in [(args.strategy, strategy), *zip(args.also, also)]:
            print(f"{path}: {len(d):,} entries")
        figures["was"] = len(strategy)
        with make_executor("local", args.jobs) as executor:
            result, found = with_alternatives(strategy, marks=args.marks, strong_only=args.strong_only,
                                              time_limit=args.time_limit, memory_limit=args.memory_limit,
                                              executor=executor, report=print, also=also,
                                              proofs_out=args.proofs)
        figures.update(found)
        print(f"alternatives: {found['won']:,} won, {found['not_won']:,} not won, {found['open']:,} open")
        return result

    status, result, _ = write_verified(Path(args.out), build, "result")
    if status == 0:
        print(f"{args.out}: VERIFIED, {len(result):,} strategic positions (was {figures['was']:,}; "
              f"{time.monotonic() - start:.0f} s)")
    return status


if __name__ == "__main__":
    sys.exit(main())
