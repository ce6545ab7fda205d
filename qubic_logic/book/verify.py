"""Re-verify every strategy a book stores, so that the book is a certificate, not a claim.

A ``win`` entry's strategy must win from the entry's position for its side
to move; a ``loss`` entry's strategy (the other side's) must win after every
reply, one class up to symmetry at a time. Each entry is a work unit (plain
data) for an :class:`~qubic_logic.executor.Executor`, checked by
:func:`~qubic_logic.strategy.verify.verify` (one process per unit).
``no win`` entries are proven by exhausted searches and carry no strategy to
check; ``open`` entries claim nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable

from ..executor import Executor, make_executor
from ..notation import format_patashnik, parse_patashnik
from ..strategy.dictionary import StrategyDictionary
from ..strategy.verify import verify
from .build import children
from .store import OpeningBook, position_name
from ..position import Position


def verify_unit(unit: tuple[str, str, str]) -> tuple[str, int, float]:
    """``(value, position, strategy text)`` → ``(verdict, positions visited, seconds)``.

    >>> verify_unit(('win', 'x2x16o4o', ''))[0]      # no strategy: refuted
    'refuted'
    """
    value, text, strategy_text = unit
    position = parse_patashnik(text)
    strategy = StrategyDictionary.parse(strategy_text, f"book entry {text}") if strategy_text else StrategyDictionary([])
    roots = [position] if value == "win" else [Position(*key) for key in children(position)]
    positions, seconds = 0, 0.0
    for root in roots:
        check = verify(strategy, root, jobs=1, shortest=False)  # a verdict, not the shortest witnesses
        positions += check.positions
        seconds += check.seconds
        if check.verdict != "verified":
            return check.verdict, positions, seconds
    return "verified", positions, seconds


@dataclass
class BookVerification:
    """Per-entry verdicts of :func:`verify_book`."""

    path: str
    results: list[tuple[str, str, int, str, int, float]] = field(default_factory=list)  # position, value, size, verdict, positions, s
    unchecked: dict[str, int] = field(default_factory=dict)
    stopped: str | None = None
    total: int = 0
    derived: list[tuple[str, str, int]] = field(default_factory=list)  # settled by the verified entries' values

    @property
    def verified(self) -> bool:
        return self.stopped is None and all(r[3] == "verified" for r in self.results)

    def lines(self) -> list[str]:
        """One line per entry, then the summary."""
        out = [f"{p:<20} {v:<5} {size:>7,} strategic positions  {verdict.upper()}  ({n:,} positions, {s:.2f} s)"
               for p, v, size, verdict, n, s in self.results]
        out += [f"{p:<20} {v:<5} {size:>7,} strategic positions  VERIFIED  (by its replies' proofs, verified above)"
                for p, v, size in self.derived]
        good = sum(r[3] == "verified" for r in self.results) + len(self.derived)
        skipped = ", ".join(f"{n:,} {v} (nothing to check)" for v, n in self.unchecked.items() if n)
        state = f"stopped ({self.stopped}) after {len(self.results):,} of {self.total:,}; " if self.stopped else ""
        verdict = "VERIFIED" if self.verified else "NOT VERIFIED"
        out.append(f"{self.path}: {verdict} — {state}{good:,} of {len(self.results) + len(self.derived):,} "
                   "strategies verified"
                   + (f"; {skipped}" if skipped else ""))
        return out

    def to_json(self) -> dict:
        return {"book": self.path, "verdict": "verified" if self.verified else "not verified",
                "stopped": self.stopped, "unchecked": self.unchecked,
                "entries": [{"position": p, "value": v, "proof_size": size, "verdict": verdict, "positions": n,
                             "seconds": round(s, 3)} for p, v, size, verdict, n, s in self.results]}


def verify_book(
    path: str | os.PathLike, *, executor: Executor | None = None, jobs: int | None = None,
    time_limit: float | None = None, progress: Callable[[int, int], None] | None = None,
) -> BookVerification:
    """Verify every ``win`` and ``loss`` entry's strategy, in parallel; see the module docstring.

    >>> import tempfile, os
    >>> from qubic_logic.book.build import build_book
    >>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
    >>> from qubic_logic.notation import parse_position
    >>> _ = build_book(path, 6, root=parse_position('1-2,22-52,27-4'), jobs=1)   # a forced win
    >>> verify_book(path, jobs=1).lines()[-1].split(': ')[-1]
    'VERIFIED — 1 of 1 strategies verified'
    """
    with OpeningBook.open(path, check=True) as book:
        entries = list(book.entries())
    checked = [e for e in entries if e.value in ("win", "loss")]
    result = BookVerification(str(path), total=len(checked))
    for value in ("no win", "open"):
        result.unchecked[value] = sum(e.value == value for e in entries)
    units = [(e.value, format_patashnik(e.position), e.strategy_text or "") for e in checked]
    own = executor is None
    executor = executor or make_executor("local", jobs)
    try:
        run = executor.run(verify_unit, units, time_limit=time_limit)
        found: dict[int, tuple[str, int, float]] = {}
        for index, outcome in run:
            found[index] = outcome
            if progress:
                progress(len(found), len(units))
        result.stopped = run.stopped
    finally:
        if own:
            executor.close()
    for i in sorted(found):
        e = checked[i]
        result.results.append((position_name(e.position), e.value, e.proof_size or 0, *found[i]))
    return result
