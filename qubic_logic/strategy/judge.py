"""Verify a strategy, or refute it with the shortest game found.

The strategy's side (the *attacker*) plays by the dictionary's rule order —
(1) win now, (2) block a three, (3) the strategy's move, (4) a forced win by
threat sequence (docs/design.md §3) — or, with ``pure``, by the strategy alone.
Since the strategy's moves are fixed, judging it is an OR search for the
opponent: one best-first search over opponent choices, each position once up
to the 192 automorphisms, ordered by the shortest game a node could still
lead to (plies so far plus a lower bound: twice the opponent's marks missing on
its best open line, or the empty cells left), among equals the opponent's moves on more of its marked
open lines first. At every opponent turn the opponent's own forced win by threat
sequence is an immediate refutation, played out against the strategy's real
replies. The search ends

- ``verified``: every opponent choice explored and lost (the certificate is
  the strategy's move at every strategic position, a Patashnik-format
  dictionary, and the rule-(4) witnesses);
- ``refuted``: a complete game the opponent wins or draws; the shortest found
  (proven shortest when the search could rule out shorter games in time);
- ``unknown``: at the time or node limit or on Ctrl-C, with the positions
  settled, those left open and the most promising line.

>>> from qubic_logic.strategy.sources import load_strategy
>>> from qubic_logic.notation import parse_position
>>> j = judge(load_strategy('player:citrenbaum-pdp4:preset=seven-file'), parse_position('1-2,4-26,13-6'))
>>> j.verdict, j.refutation.length, j.refutation.result, j.shortest_proven
('refuted', 8, 'o', True)
>>> j.refutation.game_text          # X's moves are the strategy's; O wins on 13, 25, 37, 49
'1-2,4-6,13-26,16-22,23-38,54-14,10-50'
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..core import core_module
from ..errors import IllegalPositionError
from ..geometry import LINE_MASKS, LINES
from ..notation import format_mcdaniel, format_patashnik
from ..position import Position, Side, other
from .dictionary import Entry, StrategyDictionary
from .sources import Strategy, game_moves
from .verify import Witness

CORE = core_module()
RULES = ("win", "block", "strategy", "forced")
FULL = (1 << 64) - 1
TFS_LIMIT = 2.0  # seconds for one opponent forced-win search (longer: the node is expanded instead)
NO_BOUND = 65  # longer than any game: every refutation is looked for
OPPONENT = "opponent"  # what settles a position with the opponent to move (see _Search.seen)
Progress = Callable[[str, int, int], None]


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _four(mask: int) -> bool:
    return any(lm & mask == lm for lm in LINE_MASKS)


@dataclass(frozen=True)
class Refutation:
    """A complete game (from the empty board) the opponent wins or draws against the strategy."""

    moves: tuple[int, ...]
    start: int  # moves[:start] lead to the root
    result: str  # the opponent's side ('x' or 'o'), 'draw', or 'no move' (the strategy has none)
    reason: str

    @property
    def length(self) -> int:
        """Moves played from the root (both sides)."""
        return len(self.moves) - self.start

    @property
    def game_text(self) -> str:
        """The game as a McDaniel move list, as ``qubic play --load`` and ``qubic show`` read it."""
        return format_mcdaniel(list(self.moves)) or "empty"

    def to_json(self) -> dict:
        """``moves`` (0..63 from the empty board), ``mcdaniel``, ``length`` (from the root), result, reason."""
        return {"moves": list(self.moves), "mcdaniel": self.game_text, "length": self.length,
                "result": self.result, "reason": self.reason}


@dataclass
class Judgement:
    """The verdict on a strategy and the figures behind it."""

    verdict: str  # 'verified' | 'refuted' | 'unknown'
    source: str
    side: Side
    root: Position
    pure: bool
    positions: int = 0
    defender_positions: int = 0
    by_rule: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RULES, 0))
    seconds: float = 0.0
    refutation: Refutation | None = None
    shortest_proven: bool = False
    choices: list[Entry] = field(default_factory=list)
    witnesses: list[Witness] = field(default_factory=list)
    open: int = 0
    promising: tuple[int, ...] = ()
    stopped: str = ""  # why the search ended early: 'time limit', 'node limit', 'interrupted'
    jobs: int = 1  # worker processes that searched (see judge_jobs)

    def certificate(self) -> StrategyDictionary:
        """The strategy's choices as a dictionary ``qubic verify dictionary`` accepts (root in the header)."""
        header = [f"qubic-logic certificate: the strategic moves of {self.source}",
                  f"{len(self.choices)} strategic positions; {self.positions} positions up to symmetry; "
                  f"rule (4) witnesses in the .witnesses file beside this one",
                  f"root: {format_patashnik(self.root)}"]
        return StrategyDictionary(self.choices, header)

    def to_json(self) -> dict:
        """The object printed by ``qubic verify strategy --json``."""
        return {
            "verdict": self.verdict, "source": self.source, "side": self.side,
            "root": format_patashnik(self.root), "pure": self.pure,
            "positions": self.positions, "defender_positions": self.defender_positions,
            "by_rule": self.by_rule, "seconds": round(self.seconds, 3),
            "refutation": self.refutation.to_json() if self.refutation else None,
            "shortest_proven": self.shortest_proven,
            "strategic_positions": len(self.choices), "forced_wins": len(self.witnesses),
            "open": self.open, "promising": format_mcdaniel(list(self.promising)) if self.promising else None,
            "stopped": self.stopped or None, "jobs": self.jobs,
        }

    def settle(self, seen: dict[tuple[int, int], str]) -> None:
        """Set the counts from ``seen`` (canonical position -> the rule that settled it)."""
        self.positions, self.defender_positions, self.by_rule = tally(seen.values())


def tally(settled: Iterable[str]) -> tuple[int, int, dict[str, int]]:
    """Positions with the strategy's side to move, with the opponent to move, and the first by rule.

    >>> tally(['win', 'opponent', 'strategy', 'refuted', 'win'])
    (4, 1, {'win': 2, 'block': 0, 'strategy': 1, 'forced': 0})
    """
    counts = Counter(settled)
    opponent = counts.pop(OPPONENT, 0)
    return sum(counts.values()), opponent, {rule: counts[rule] for rule in RULES}


class _Search:
    """The best-first OR search for the opponent (see the module text)."""

    def __init__(self, strategy: Strategy, root: Position, root_moves: tuple[int, ...], side: Side,
                 pure: bool, deadline: float | None, node_limit: int, bound: int = NO_BOUND) -> None:
        self.strategy = strategy
        self.side = side
        self.pure = pure
        self.root_moves = root_moves
        self.deadline = deadline
        self.node_limit = node_limit
        self.bound = bound  # only refutations shorter than this are looked for
        # every canonical position met -> the rule that settled it (a RULES name, 'refuted', OPPONENT);
        # insertion-ordered, so the positions a part of the search added are a slice (judge_jobs)
        self.seen: dict[tuple[int, int], str] = {}
        self.choices: dict[tuple[int, int], Entry] = {}  # the strategy's moves (rule 3), by position
        self.witnesses: dict[tuple[int, int], Witness] = {}  # the rule-(4) forced wins, by position
        self.heap: list[tuple[int, int, int, int, int, bytes]] = []
        self.counter = 0
        self.j = Judgement("unknown", strategy.source, side, root, pure)
        self.best: Refutation | None = None

    # -------------------------------------------------------------- positions and games

    def position(self, a: int, d: int) -> Position:
        return Position(a, d) if self.side == "x" else Position(d, a)

    def game(self, path: Sequence[int]) -> tuple[int, ...]:
        return (*self.root_moves, *path)

    def left(self) -> float | None:
        return None if self.deadline is None else max(self.deadline - time.monotonic(), 1e-3)

    def limit(self) -> int:
        """Refutations at least this long are not looked for."""
        return min(self.best.length, self.bound) if self.best else self.bound

    def refuted(self, path: Sequence[int], result: str, reason: str) -> None:
        r = Refutation(self.game(path), len(self.root_moves), result, reason)
        if r.length < self.limit():
            self.best = r

    # -------------------------------------------------------------- the strategy's side

    def decide(self, a: int, d: int, path: Sequence[int]) -> tuple[str, int | None]:
        """The attacker's rule and move: ('win', c), ('lost', c), ('block', c), ('strategy', c),
        or ('leaf', None) when the strategy has no move (rule 4 decides)."""
        if not self.pure:
            mine = CORE.threat_cells(a, d)
            if mine:
                return "win", _low(mine)
            theirs = CORE.threat_cells(d, a)
            if theirs & (theirs - 1):
                return "lost", _low(theirs)
            if theirs:
                return "block", _low(theirs)
        move = self.strategy.move(self.position(a, d), self.game(path))
        return ("strategy", move) if move is not None else ("leaf", None)

    def attacker_node(self, a: int, d: int, path: bytes) -> None:
        """The strategy's side to move: apply the rules, then hand over to the opponent."""
        key = CORE.canonical(a, d)[:2]
        if key in self.seen:
            return
        self.seen[key] = "refuted"  # until the rule is known
        self.j.positions += 1
        rule, move = self.decide(a, d, path)
        if rule == "win":
            self.seen[key] = "win"
            return
        if rule == "lost":  # the game shows the strategy's own last move when it gives one
            own = self.strategy.move(self.position(a, d), self.game(path))
            move = move if own is None else own
            theirs = CORE.threat_cells(d, a) & ~(1 << move)
            self.refuted([*path, move, _low(theirs)], other(self.side), "the opponent has two threats")
            return
        if rule == "leaf":
            length, seq, _, _ = CORE.forced_win(a, d, 0, self.left() or 0.0, 0)
            if length > 0:
                self.seen[key] = "forced"
                self.witnesses[key] = Witness(self.position(a, d), tuple(seq))
            else:
                self.refuted(path, "no move", "the strategy gives no move and there is no forced win"
                             if length == 0 else "no forced win found within the time limit")
            return
        self.seen[key] = rule
        if rule == "strategy":
            self.choices[key] = Entry(self.position(a, d), move)
        a2 = a | 1 << move
        if _four(a2):
            return
        self.defender_node(a2, d, bytes([*path, move]))

    # -------------------------------------------------------------- the opponent's side

    def defender_node(self, a: int, d: int, path: bytes) -> None:
        """The opponent to move: a draw, a win now, a forced win, or every reply."""
        if a | d == FULL:
            self.refuted(path, "draw", "the board is full")
            return
        key = CORE.canonical(a, d)[:2]
        if key in self.seen:
            return
        self.seen[key] = OPPONENT
        win = CORE.threat_cells(d, a)
        if win:
            self.refuted([*path, _low(win)], other(self.side), "the strategy leaves a three unblocked")
            return
        length, seq, _, _ = CORE.forced_win(d, a, 0, min(TFS_LIMIT, self.left() or TFS_LIMIT), 0)
        if length > 0 and len(path) + 2 * length - 1 < self.limit():
            self.play_out(a, d, list(path), "the opponent wins by a threat sequence")
        g = len(path) + 1  # plies at the child, the strategy's side to move
        bound = self.limit()
        most, best, touch = _open_lines(a, d)
        fill = 63 - (a | d).bit_count()
        threat = 0 if self.pure else CORE.threat_cells(a, d)  # a reply that leaves one: rule (1) wins
        empty = ~(a | d) & FULL
        while empty:
            r = _low(empty)
            empty &= empty - 1
            line = max(most, best[r])
            f = g + (fill if line < 0 else min(2 * (4 - line), fill))
            if f >= bound:
                continue
            if threat & ~(1 << r):  # settled here as the next position would be: a win now
                key = CORE.canonical(a, d | 1 << r)[:2]
                if key not in self.seen:
                    self.seen[key] = "win"
                    self.j.positions += 1
                continue
            self.counter += 1
            heapq.heappush(self.heap, (f, -touch[r], self.counter, a, d | 1 << r, bytes([*path, r])))

    def play_out(self, a: int, d: int, path: list[int], reason: str) -> None:
        """Play the opponent's forced wins against the strategy's real replies to the end of the game."""
        seq: list[int] = []
        while True:  # the opponent to move
            win = CORE.threat_cells(d, a)
            if win:
                self.refuted([*path, _low(win)], other(self.side), reason)
                return
            if not seq:
                length, found, _, _ = CORE.forced_win(d, a, 0, TFS_LIMIT, 0)
                if length <= 0:  # cannot happen after a forced win was found; keep the search honest
                    return
                seq = list(found)
            move = seq.pop(0)
            d |= 1 << move
            path.append(move)
            if a | d == FULL:
                self.refuted(path, "draw", "the board is full")
                return
            rule, reply = self.decide(a, d, path)
            if reply is None:
                self.refuted(path, "no move", "the strategy gives no move against the threat")
                return
            a |= 1 << reply
            path.append(reply)
            if _four(a):
                return
            if not seq or seq.pop(0) != reply:
                seq = []  # the strategy left the forced line: search again

    # -------------------------------------------------------------- the loop

    def search(self, progress: Progress | None = None, frontier: int = 0) -> None:
        """Expand the best open choice until none is left or none can lead to a shorter refutation
        (``j.shortest_proven``), at a limit or on Ctrl-C (``j.stopped``), or, given ``frontier``,
        as soon as that many choices are open."""
        j = self.j
        if j.stopped:
            return
        try:
            while self.heap:
                if self.heap[0][0] >= self.limit():
                    j.shortest_proven = self.best is not None
                    return
                if frontier and len(self.heap) >= frontier:
                    return
                if self.deadline is not None and time.monotonic() > self.deadline:
                    j.stopped = "time limit"
                    return
                if self.node_limit and j.positions >= self.node_limit:
                    j.stopped = "node limit"
                    return
                f, _, _, a, d, path = heapq.heappop(self.heap)
                self.attacker_node(a, d, path)
                if progress and j.positions % 256 == 0:
                    progress("positions", j.positions, j.positions + len(self.heap))
            j.shortest_proven = self.best is not None
        except KeyboardInterrupt:
            j.stopped = "interrupted"

    def begin(self) -> None:
        """Settle the root: the strategy's move there, or the opponent's choices."""
        root = self.j.root
        a, d = root.mask(self.side), root.mask(other(self.side))
        try:
            if self.side == root.to_move:
                self.attacker_node(a, d, b"")
            else:
                self.defender_node(a, d, b"")
        except KeyboardInterrupt:
            self.j.stopped = "interrupted"
            self.heap.clear()

    def judgement(self) -> Judgement:
        """The verdict and figures of the search so far."""
        j = self.j
        j.settle(self.seen)
        j.choices, j.witnesses = list(self.choices.values()), list(self.witnesses.values())
        j.refutation = self.best
        j.open = len(self.heap)
        if self.heap:
            j.promising = self.game(min(self.heap)[5])
        j.verdict = "refuted" if self.best else "unknown" if j.stopped else "verified"
        if j.verdict != "unknown":
            j.open, j.promising = 0, ()
        return j


def _open_lines(a: int, d: int) -> tuple[int, list[int], list[int]]:
    """The opponent's (``d``) open lines: the most marks on one, and for each cell the most marks
    it would make on a line through it and how many marked open lines pass through it.

    >>> most, best, touch = _open_lines(0, 0b111)
    >>> most, best[3], touch[3], best[63], touch[63]     # 63 is on the diagonal 0-21-42-63
    (3, 4, 1, 2, 1)
    """
    most = -1
    best = [-1] * 64
    touch = [0] * 64
    for lm, cells in zip(LINE_MASKS, LINES):
        if lm & a:
            continue
        marks = (lm & d).bit_count()
        most = max(most, marks)
        for c in cells:
            if not d >> c & 1:
                best[c] = max(best[c], marks + 1)
                touch[c] += marks > 0
    return most, best, touch


def judge(
    strategy: Strategy,
    root: Position | None = None,
    *,
    side: Side | None = None,
    root_moves: Sequence[int] | None = None,
    pure: bool = False,
    time_limit: float | None = None,
    node_limit: int = 0,
    progress: Progress | None = None,
) -> Judgement:
    """Verify ``strategy`` for ``side`` (default: the side to move at ``root``) or refute it.

    ``root_moves`` is the game reaching ``root`` (players see it; default: an order of its
    cells). Past ``time_limit`` seconds, ``node_limit`` positions or on Ctrl-C the verdict
    is ``'unknown'`` unless a refutation was found.
    """
    root = root or Position()
    if root.is_over:
        raise IllegalPositionError("the root position is already over; expected a live position")
    side = side or root.to_move
    moves = tuple(root_moves) if root_moves is not None else game_moves(root)
    start = time.monotonic()
    search = _Search(strategy, root, moves, side, pure, start + time_limit if time_limit else None, node_limit)
    if progress:
        progress("positions", 0, 1)
    search.begin()
    search.search(progress)
    j = search.judgement()
    j.seconds = time.monotonic() - start
    return j
