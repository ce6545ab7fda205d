"""Re-verify every strategy a book stores, so that the book is a certificate, not a claim.

A ``win`` entry's strategy must win from the entry's position for its side
to move; a ``loss`` entry's strategy (the other side's) must win after every
reply, one class up to symmetry at a time. Each entry is a work unit (plain
data) for an :class:`~qubic_logic.executor.Executor`, checked by
:func:`~qubic_logic.strategy.verify.verify` (one process per unit).
``no win`` entries are proven by exhausted searches and carry no strategy to
check; ``open`` entries claim nothing. A claim about a finished game is checked
against how it ended: the side to move has lost when the other completed four,
and nothing else holds there (a proof cannot make a draw a loss).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..core import core_module
from ..errors import QubicError
from ..executor import Executor, make_executor
from ..notation import format_patashnik, parse_patashnik
from ..position import Position, other
from ..strategy.dictionary import StrategyDictionary
from ..strategy.verify import Verification, verify
from .classes import children
from .store import OpeningBook, position_name


class Check(NamedTuple):
    """What checking one entry's claim found: the verdict (``verified``, ``refuted``, ``incomplete``,
    ``damaged``), positions visited, seconds, the move a verified win plays at its position (by the
    verifier's rule order), why the claim does not hold (empty when it does), and the proof's size
    (strategic positions)."""

    verdict: str
    positions: int
    seconds: float
    move: int | None = None
    reason: str = ""
    size: int = 0


def _result(position: Position) -> str:
    """How a finished game ended, for a message."""
    return f"{position.winner.upper()} has four in a row" if position.winner else "a draw"


def played(strategy: StrategyDictionary, position: Position, check: Verification) -> int:
    """The move ``strategy`` plays at ``position``, which ``check`` verified it wins from: the verifier's
    rule order (win now, block the one three, the dictionary move, the forced sequence it found)."""
    core = core_module()
    me = position.to_move
    mine, theirs = position.mask(me), position.mask(other(me))
    for threats in (core.threat_cells(mine, theirs), core.threat_cells(theirs, mine)):
        if threats:
            return (threats & -threats).bit_length() - 1
    move = strategy.move_for(position)
    if move is not None:
        return move
    return next(w.sequence[0] for w in check.witnesses if w.position == position)


def verify_unit(unit: tuple[str, str, str]) -> Check:
    """``(value, position, strategy text)`` → the :class:`Check` of that claim.

    A claim about a finished game is checked against how it ended (a loss
    for the side to move after the other completed four; nothing else), so a
    proof cannot settle it otherwise; a proof that does not read is ``damaged``.

    >>> verify_unit(('win', 'x2x16o4o', ''))[0]      # no strategy: refuted
    'refuted'
    >>> verify_unit(('loss', 'xxxx12ooo', '---'))[:2]   # X completed four: O to move has lost
    ('verified', 1)
    """
    value, text, strategy_text = unit
    try:
        position = parse_patashnik(text)
        if position.is_over:
            if value == "loss" and position.winner is not None:
                return Check("verified", 1, 0.0)
            return Check("refuted", 1, 0.0, reason=f"the game is over at {text} ({_result(position)}), so {value} "
                                                   "is not its value")
        strategy = (StrategyDictionary.parse(strategy_text, f"book entry {text}") if strategy_text
                    else StrategyDictionary([]))
    except QubicError as exc:
        return Check("damaged", 0, 0.0, reason=str(exc))
    roots = [position] if value == "win" else [Position(*key) for key in children(position)]
    positions, seconds = 0, 0.0
    for root in roots:
        if root.is_over:  # a reply that ends the game: the side to move of the claimed loss wins (or draws) there
            return Check("refuted", positions, seconds,
                         reason=f"{value} at {text} is not shown: a move ends the game ({_result(root)})")
        try:
            check = verify(strategy, root, jobs=1, shortest=False)  # a verdict, not the shortest witnesses
        except MemoryError:
            return Check("incomplete", positions, seconds, reason="it did not fit in memory")
        positions += check.positions
        seconds += check.seconds
        if check.verdict != "verified":
            return Check(check.verdict, positions, seconds)
    move = played(strategy, position, check) if value == "win" else None
    return Check("verified", positions, seconds, move, size=len(strategy))


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
        found: dict[int, Check] = {}
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
        result.results.append((position_name(e.position), e.value, e.proof_size or 0, *found[i][:3]))
    return result
