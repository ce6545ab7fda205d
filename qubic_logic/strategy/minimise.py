"""Minimise a winning strategy: fewer strategic positions, the same win.

A proof-number search keeps the first winning move it proves at each of
the attacker's turns; the strategies of separate searches share nothing.
This pass re-chooses the strategic moves of a *verified* dictionary so that
fewer of its positions are reached. At each strategic position a move may
be replaced by any move whose outcome is already known to be won:

- a position the strategy already reaches after one of the attacker's moves;
- a forcing move whose block leads to a position the strategy reaches;
- a quiet move after which every reply reaches a position the strategy
  reaches, wins at once, or wins by a forced sequence (DESIGN.md §3).

Every entry of the input is kept while choosing, so each such outcome stays
won (by induction on the number of marks: a new move leads to a position
with more marks, won by the old or new moves below it). The positions are
then re-chosen level by level from the root (fewest marks first): a move
with nothing strategic below it first, then one whose outcome another
position of this level already chose, then the one adding the fewest
entries not already below the outcomes chosen, then the outcome most
positions of the level can reach. The result keeps only the entries
reached; check it with :func:`~qubic_logic.strategy.verify.verify`.

>>> from qubic_logic.strategy.dictionary import Entry
>>> d = StrategyDictionary([Entry(Position(), 0)])
>>> len(minimised(d, Position()))     # nothing below the root's move: nothing to drop
1

Two or more verified strategies from the same root give more known wins to
choose from: :func:`minimised_union` re-chooses over their union, again and
again while it shrinks. Run it as ``python -m qubic_logic.strategy.minimise
OUT DICTIONARY DICTIONARY...`` (where two name the same position, the earlier
file's move is kept; the result is verified before it is written).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from ..core import core_module
from ..errors import QubicError
from ..notation import format_patashnik
from ..geometry import cells_of
from ..position import Position, other
from ..symmetry import TRANSFORMS, canonical_masks
from .dictionary import Entry, StrategyDictionary, patashnik_path
from .verify import Verification, plain_entries, verify

FULL = (1 << 64) - 1
Key = tuple[int, int]  # canonical (attacker mask, defender mask)


class _Strategy:
    """Canonical strategic moves and the cost of each position: the entries reached below it.

    ``moves`` maps each canonical position to its canonical move; ``index``
    numbers the entries for the cost bit sets. ``after`` (positions after the
    attacker's move) and ``before`` (attacker to move) hold the cost of every
    position known to be won, kept across passes.
    """

    def __init__(self, moves: dict[Key, int], leaf_nodes: int) -> None:
        self.core = core_module()
        self.moves = moves
        self.index = {key: i for i, key in enumerate(moves)}
        self.leaf_nodes = leaf_nodes
        self.before: dict[Key, int] = {}
        self.after: dict[Key, int] = {}
        self._forced: dict[Key, bool] = {}
        self._quiet: dict[Key, int | None] = {}

    def key(self, a: int, d: int) -> Key:
        """The canonical form of ``(a, d)``."""
        return canonical_masks(a, d)[:2]

    # ---------------------------------------------------------------- costs

    def measure(self, a: int, d: int, shared: bool = False) -> int:
        """Record the costs of every position the strategy reaches from ``(a, d)`` (attacker to move).

        Returns the root's cost: a bit set of the entries reached. ``shared``: reuse the
        costs already recorded (the moves have not changed since).
        """
        before: dict[Key, int] = self.before if shared else {}
        after: dict[Key, int] = self.after if shared else {}

        def attacker(key: Key) -> int:
            if key in before:
                return before[key]
            ca, cd = key
            cost = 0
            theirs = self.core.threat_cells(cd, ca)
            if self.core.threat_cells(ca, cd):
                pass
            elif theirs:
                cost = defender(self.key(ca | theirs & -theirs, cd))
            elif key in self.moves:
                cost = 1 << self.index[key] | defender(self.key(ca | 1 << self.moves[key], cd))
            before[key] = cost
            return cost

        def defender(key: Key) -> int:
            if key not in after:
                ca, cd = key
                cost = 0
                for reply in cells_of(~(ca | cd) & FULL):
                    cost |= attacker(self.key(ca, cd | 1 << reply))
                after[key] = cost
            return after[key]

        root = attacker(self.key(a, d))
        self.before.update(before)
        self.after.update(after)
        return root

    # ----------------------------------------------------------- candidates

    def candidates(self, a: int, d: int) -> dict[Key, tuple[int, int]]:
        """The moves of ``(a, d)`` whose outcome is known won: outcome → (move, cost)."""
        out: dict[Key, tuple[int, int]] = {}
        for move in cells_of(~(a | d) & FULL):
            key = self.key(a | 1 << move, d)
            if key not in out:
                cost = self._outcome_cost(a | 1 << move, d, key)
                if cost is not None:
                    out[key] = (move, cost)
        return out

    def _outcome_cost(self, a: int, d: int, key: Key) -> int | None:
        """The cost of the position ``(a, d)`` after the attacker's move, or None when not known won."""
        if key in self.after:
            return self.after[key]
        mine = self.core.threat_cells(a, d)
        if mine & (mine - 1):
            return None  # a double threat: the position before had a forced win, no entry
        if mine:
            return self.before.get(self.key(a, d | mine))
        return self._quiet_cost(a, d, key)

    def _quiet_cost(self, a: int, d: int, key: Key) -> int | None:
        """Cost of a quiet move's outcome when every reply is known won or a forced win."""
        if key not in self._quiet:
            cost: int | None = 0
            rest = []
            for reply in cells_of(~(a | d) & FULL):
                child = self.key(a, d | 1 << reply)
                if child in self.before:
                    cost |= self.before[child]
                else:
                    rest.append(child)
            if not all(child not in self.moves and self._is_forced(child) for child in rest):
                cost = None
            self._quiet[key] = cost
        return self._quiet[key]

    def _is_forced(self, key: Key) -> bool:
        if key not in self._forced:
            self._forced[key] = self.core.forced_win(*key, 0, 0.0, self.leaf_nodes)[0] > 0
        return self._forced[key]

    # ------------------------------------------------------------ re-choice

    def rechoose(self, a: int, d: int) -> None:
        """One pass from the root ``(a, d)``, level by level, re-choosing every strategic move reached."""
        level = {self.key(a, d)}
        seen = set(level)
        while level:
            outcomes = self._choose_level(level)
            level = set()
            for ca, cd in outcomes:
                for reply in cells_of(~(ca | cd) & FULL):
                    child = self.key(ca, cd | 1 << reply)
                    if child not in seen:
                        seen.add(child)
                        level.add(child)

    def _choose_level(self, level: set[Key]) -> set[Key]:
        """Choose the moves of the strategic positions in ``level``; returns the outcomes reached."""
        outcomes: set[Key] = set()
        choices: dict[Key, dict[Key, tuple[int, int]]] = {}
        for key in level:
            ca, cd = key
            theirs = self.core.threat_cells(cd, ca)
            if self.core.threat_cells(ca, cd):
                continue
            if theirs:
                outcomes.add(self.key(ca | theirs & -theirs, cd))
            elif key in self.moves:
                choices[key] = self.candidates(ca, cd)
        reach = Counter(outcome for options in choices.values() for outcome in options)
        covered = 0  # entries below the outcomes chosen so far
        for outcome in outcomes:
            covered |= self.after.get(outcome, 0)
        for key, options in sorted(choices.items(), key=lambda kv: (len(kv[1]), kv[0])):
            best = _best(options, outcomes, covered, reach)
            self.moves[key] = options[best][0]
            outcomes.add(best)
            covered |= options[best][1] | 1 << self.index[key]
        return outcomes


def _best(options: dict[Key, tuple[int, int]], chosen: set[Key], covered: int, reach: Counter) -> Key:
    """The outcome to choose among ``options`` (outcome → (move, cost)), given the outcomes ``chosen``
    so far at this level, the entries ``covered`` below them and how many positions ``reach`` each outcome.
    """

    def rank(outcome: Key) -> tuple:
        cost = options[outcome][1]
        return cost != 0, outcome not in chosen, (cost & ~covered).bit_count(), -reach[outcome], outcome

    return min(options, key=rank)


def minimised(
    dictionary: StrategyDictionary,
    root: Position | None = None,
    *,
    passes: int = 2,
    leaf_nodes: int = 200_000,
    every_entry: bool = False,
) -> StrategyDictionary:
    """A verified strategy with its strategic moves re-chosen to reach fewer positions.

    ``root`` defaults to the dictionary's own root; ``passes`` re-choice
    passes (each measured, the best kept); ``leaf_nodes`` bounds each forced-win
    search of a quiet move's replies (nodes, not seconds: the result does not depend on
    the machine's load). ``every_entry``: also measure below every entry, not only the
    positions the root reaches, so that moves into positions only unreached entries win
    become candidates (for the union of two verified strategies, each entry's move wins by
    induction on the marks). The entries come out in canonical frames, the header unchanged.
    """
    root = root or dictionary.root
    attacker = root.to_move
    a, d = root.mask(attacker), root.mask(other(attacker))
    moves: dict[Key, int] = {}
    for ea, ed, move in plain_entries(dictionary):
        ca, cd, t = canonical_masks(ea, ed)
        moves.setdefault((ca, cd), TRANSFORMS[t][move])
    strategy = _Strategy(moves, leaf_nodes)
    best, reached = dict(moves), strategy.measure(a, d)
    if every_entry:
        for ca, cd in moves:
            strategy.measure(ca, cd, shared=True)
    for _ in range(passes):
        strategy.rechoose(a, d)
        cost = strategy.measure(a, d)
        if cost.bit_count() < reached.bit_count():
            best, reached = dict(strategy.moves), cost
    return _dictionary(best, reached, attacker, dictionary)


def _dictionary(moves: dict[Key, int], reached: int, attacker: str, source: StrategyDictionary) -> StrategyDictionary:
    """The entries of ``moves`` whose bit is set in ``reached``, with ``source``'s header."""
    entries = []
    for i, ((ca, cd), move) in enumerate(moves.items()):
        if reached >> i & 1:
            position = Position(ca, cd) if attacker == "x" else Position(cd, ca)
            entries.append(Entry(position, move))
    return StrategyDictionary(entries, source.header, source.separator)


def minimised_union(
    dictionaries: list[StrategyDictionary], header: list[str], report: Callable[[str], None] = lambda text: None
) -> StrategyDictionary:
    """:func:`minimised` over the union of ``dictionaries`` (one root), repeated while it shrinks.

    Each round adds the previous result in front of the union, so its moves win
    their clashes. ``report(text)`` hears each round's size.

    >>> d = StrategyDictionary([Entry(Position(), 0)])
    >>> len(minimised_union([d, d], ["mine"]))
    1
    """
    roots = {d.root for d in dictionaries}
    if len(roots) != 1:
        raise QubicError("the dictionaries start from different roots; expected one root for all")
    root = roots.pop()
    best = None
    while True:
        union = StrategyDictionary.union([best or (), *dictionaries], header)
        found = minimised(union, root, every_entry=True)
        report(f"union of {len(union):,} entries minimised to {len(found):,}")
        if best is not None and len(found) >= len(best):
            return best
        best = found


def _described(path: str, dictionary: StrategyDictionary) -> str:
    """A line naming where a dictionary comes from (Patashnik's is credited as its README asks)."""
    if Path(path).resolve() == patashnik_path().resolve():
        return ("Oren Patashnik's dictionary of 1976-77 (Ken Thompson's form, 1978; Mathematics Magazine 53(4), "
                "1980), whose moves are used unchanged as candidates")
    return next((line.strip() for line in dictionary.header if line.strip()), "(no header)")


def write_verified(out: Path, build: Callable[[], StrategyDictionary], what: str
                   ) -> tuple[int, StrategyDictionary | None, Verification | None]:
    """Run ``build`` (it prints its own progress), verify its result and write it to ``out`` only when verified.

    Returns the exit status, the result and its verification: 2 after bad input (the error printed, one line), 130 on
    Ctrl-C, 1 when the result is not verified (``what`` names it), else 0. The tools' mains share it.
    """
    try:
        if not out.parent.is_dir():
            raise QubicError(f"{out.parent} is not a folder; expected OUT in an existing folder")
        result = build()
        v = verify(result, result.root)
    except QubicError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2, None, None
    except KeyboardInterrupt:
        print("interrupted: nothing written", file=sys.stderr)
        return 130, None, None
    if v.verdict != "verified":
        print(f"the {what} is {v.verdict.upper()}: nothing written", file=sys.stderr)
        return 1, result, v
    result.save(out)
    return 0, result, v


def main(argv: list[str] | None = None) -> int:
    """``python -m qubic_logic.strategy.minimise OUT DICTIONARY DICTIONARY...``: write the verified minimised union."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print("usage: python -m qubic_logic.strategy.minimise OUT DICTIONARY [DICTIONARY...]", file=sys.stderr)
        return 2
    out, sources = Path(args[0]), args[1:]

    def build() -> StrategyDictionary:
        dictionaries = [StrategyDictionary.load(path) for path in sources]
        for path, d in zip(sources, dictionaries):
            print(f"{path}: {len(d):,} entries")
        header = ["Minimised union (qubic-logic: python -m qubic_logic.strategy.minimise) of the strategies:",
                  *(f"  {Path(path).name}: {_described(path, d)}" for path, d in zip(sources, dictionaries)),
                  f"root: {format_patashnik(dictionaries[0].root)}",
                  "Rule order: (1) win, (2) block a three, (3) the move below (up to symmetry), (4) a forced sequence.",
                  "Check: qubic verify dictionary FILE"]
        return minimised_union(dictionaries, header, print)

    status, result, v = write_verified(out, build, "minimised union")
    if status == 0:
        print(f"{out}: VERIFIED, {len(result):,} strategic positions ({v.positions:,} positions checked)")
    return status


if __name__ == "__main__":
    sys.exit(main())
