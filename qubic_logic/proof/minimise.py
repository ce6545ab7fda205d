"""Minimise a winning strategy: fewer strategic positions, the same win.

A proof-number search keeps the first winning move it proves at each of
the attacker's turns; the strategies of separate searches share nothing.
This pass re-chooses the strategic moves of *verified* dictionaries so that
fewer positions need an entry. It works on the **proof graph** of their
union (:class:`ProofGraph`): each strategic position, every move of it known
to win, and for each such move the strategic positions it leads to next.
A move is known to win when every reply of the defender leads to

- a win at once, or a forced block that leads on in the same way,
- a position with an entry (its move wins: by induction on the marks, since
  every entry's own move wins in a verified input), or
- a position with a forced sequence (docs/design.md §3), found by a bounded search.

An entry whose own position has a forced sequence is dropped: the verifier's
rule (4) plays it without one. Any choice of one known-winning move per
position is a winning strategy, so minimising is a search over choices: the
smallest set of positions reached from the root. :func:`smallest` runs a
local search (simulated annealing over single switches, with reference
counts so a switch costs only what it changes), seeded, so the same inputs
always give the same strategy; the result is checked with
:func:`~qubic_logic.strategy.verify.verify` by every caller that writes it.

>>> d = StrategyDictionary.parse("root: x2x1o6x14o20o\\n---\\nx2x1o6x14o20o 21\\n1x 5\\n")
>>> [e.text() for e in minimised(d)]     # the entry not reached is dropped
['x2x1o6x14o20o 21']

Two or more verified strategies from the same root give more known wins to
choose from: :func:`minimised_union` chooses over their union. Run it as
``python -m qubic_logic.proof.minimise OUT DICTIONARY... [--sweeps N] [--time-limit S]
[--keep FILE [--keep-marks N]] [--union-only]`` (where two name the same position, the
earlier file's move is the starting choice; ``--keep`` fixes FILE's moves, or those of its
positions with at most N marks, wherever they are reached; ``--union-only`` writes the union
itself; the result is verified before it is written).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from ..core import NATIVE, core_module
from ..errors import QubicError
from ..notation import format_patashnik
from ..geometry import cells_of
from ..position import Position, other
from ..symmetry import TRANSFORMS, canonical_masks
from ..strategy.dictionary import Entry, StrategyDictionary, patashnik_path
from ..strategy.verify import VERIFY_NATIVE, Verification, plain_entries, verify

FULL = (1 << 64) - 1
Key = tuple[int, int]  # canonical (attacker mask, defender mask)
Next = frozenset[Key]  # the strategic positions a move leads to next
SWEEPS = 300


def _key(a: int, d: int) -> Key:
    """The canonical form of ``(a, d)``."""
    return canonical_masks(a, d)[:2]


def canonical_moves(dictionary: StrategyDictionary) -> dict[Key, int]:
    """Each entry as canonical (attacker mask, defender mask) → move in that frame; the earlier entry wins.

    >>> canonical_moves(StrategyDictionary.parse("---\\n 63\\nxo 21\\n"))
    {(0, 0): 63, (1, 2): 21}
    """
    moves: dict[Key, int] = {}
    for ea, ed, move in plain_entries(dictionary):
        ca, cd, t = canonical_masks(ea, ed)
        moves.setdefault((ca, cd), TRANSFORMS[t][move])
    return moves


class ProofGraph:
    """Strategic positions (canonical, attacker to move), their known-winning moves and where each leads.

    Built lazily from the entries' own moves: ``options(key)`` maps each
    outcome (the position after a move, canonical) to the move and the
    strategic positions it leads to next. ``leaf_nodes`` bounds each
    forced-sequence search of a candidate move (nodes, not seconds: the graph
    does not depend on the machine's load); an entry's own move is checked
    without a bound and must win. ``seconds`` is the time (seconds) spent finding
    known-winning moves so far. At the positions in ``kept`` the entry's own
    move is the only option: a choice made beforehand, never re-chosen.

    >>> from qubic_logic.notation import parse_patashnik
    >>> p = parse_patashnik("x2x1o6x14o20o")
    >>> g = ProofGraph({_key(p.x, p.o): 21})
    >>> root = g.start(p.x, p.o); root == {_key(p.x, p.o)}
    True
    >>> sorted(move for move, after in g.options(_key(p.x, p.o)).values())   # winning moves, nothing after them
    [21, 22, 25, 38, 41, 42]
    >>> [move for move, after in ProofGraph(g.moves, kept={_key(p.x, p.o)}).options(_key(p.x, p.o)).values()]
    [21]
    """

    def __init__(self, moves: dict[Key, int], leaf_nodes: int = 200_000, kept: Iterable[Key] = ()) -> None:
        self.core = core_module()
        self.moves = moves
        self.kept = frozenset(kept)
        self.leaf_nodes = leaf_nodes
        self._bound = leaf_nodes
        self._forced: dict[Key, bool] = {}
        self._after: dict[Key, Next | None] = {}
        self._options: dict[Key, dict[Key, tuple[int, Next]]] = {}
        self.seconds = 0.0
        self.holds = VERIFY_NATIVE.witness_holds if VERIFY_NATIVE is not None and self.core is NATIVE else None

    def start(self, a: int, d: int) -> Next:
        """The strategic positions the attacker at ``(a, d)`` (to move) needs entries for first."""
        clock = time.perf_counter()
        found = self._attacker(_key(a, d))
        self.seconds += time.perf_counter() - clock
        if found is None:
            raise QubicError(f"{format_patashnik(Position(a, d))}: the entries do not win from the root")
        return found

    def own(self, key: Key) -> Key:
        """The outcome of the entry's own move at ``key``."""
        return _key(key[0] | 1 << self.moves[key], key[1])

    def after(self, key: Key, outcome: Key) -> Next:
        """The strategic positions next after the known-winning ``outcome`` of ``key``."""
        if key in self._options:
            return self._options[key][outcome][1]
        if outcome != self.own(key):
            raise KeyError(outcome)
        return self._own_after(key)

    def move(self, key: Key, outcome: Key) -> int:
        """The move of ``key`` that leads to ``outcome``."""
        return self.moves[key] if outcome == self.own(key) else self._options[key][outcome][0]

    def _own_after(self, key: Key) -> Next:
        """Where the entry's own move leads: searched without a bound, since it must win."""
        own = self.own(key)
        self._bound = 0
        try:
            found = self._after_move(own)
        finally:
            self._bound = self.leaf_nodes
        if found is None:
            ca, cd = key
            where = f"the entry at {format_patashnik(Position(ca, cd))} (move {self.moves[key]})"
            if key in self.kept:
                raise QubicError(f"{where}, kept, is not proven by the dictionaries given; expected strategies "
                                 "that prove every kept move wherever it is reached")
            raise QubicError(f"{where} does not win; expected verified strategies (qubic verify dictionary FILE)")
        return found

    def options(self, key: Key) -> dict[Key, tuple[int, Next]]:
        """Every move of ``key`` known to win: outcome → (move, strategic positions next); the own move first."""
        if key not in self._options:
            clock = time.perf_counter()
            found = {self.own(key): (self.moves[key], self._own_after(key))}
            ca, cd = key
            free = 0 if key in self.kept else ~(ca | cd) & FULL
            for move in cells_of(free):
                outcome = _key(ca | 1 << move, cd)
                if outcome not in found and (after := self._after_move(outcome)) is not None:
                    found[outcome] = (move, after)
            self._options[key] = found
            self.seconds += time.perf_counter() - clock
        return self._options[key]

    def _is_forced(self, key: Key) -> bool:
        """Whether the attacker has a forced sequence at ``key``; remembered for entries only (millions of
        other positions are asked about, each mostly once: remembering them all took gigabytes)."""
        known = self._forced.get(key)
        if known is None or (not known and self._bound == 0):
            known = self.core.forced_win(*key, 0, 0.0, self._bound)[0] > 0
            if key in self.moves:
                self._forced[key] = known
        return known

    def _attacker(self, key: Key) -> Next | None:
        """Strategic positions next from ``key`` (attacker to move), or None when not known won."""
        ca, cd = key
        if self.core.threat_cells(ca, cd):
            return frozenset()
        theirs = self.core.threat_cells(cd, ca)
        if theirs:
            return None if theirs & (theirs - 1) else self._after_move(_key(ca | theirs, cd))
        if self._is_forced(key):
            return frozenset()
        return frozenset((key,)) if key in self.moves else None

    def _after_move(self, key: Key) -> Next | None:
        """Strategic positions next from ``key`` (defender to move), or None when some reply is not known won.

        Most replies leave a forced sequence; the sequences found so far at this turn (the first one
        with the defender passing) are replayed before searching: a reply off them usually loses to one.
        """
        if key not in self._after or self._after[key] is None and self._bound == 0:
            ca, cd = key
            found: set[Key] | None = set()
            mine = self.core.threat_cells(ca, cd)
            if not mine & (mine - 1):  # two threats: every reply loses
                passed = self._witness(ca, cd)
                sequences = [passed] if passed else []
                threats, holds = self.core.threat_cells, self.holds
                for reply in cells_of(~(ca | cd) & FULL):
                    d = cd | 1 << reply
                    if sequences and holds is not None and not threats(d, ca) and holds(ca, d, sequences[-1]):
                        continue  # the latest sequence still wins (the common case, kept short)
                    child = self._reply(ca, d, sequences)
                    if child is None:
                        found = None
                        break
                    found |= child
            self._after[key] = None if found is None else frozenset(found)
        return self._after[key]

    def _reply(self, a: int, d: int, sequences: list[bytes]) -> Next | None:
        """:meth:`_attacker` at ``(a, d)`` (any frame), trying the ``sequences`` first and adding the one it finds."""
        if self.core.threat_cells(a, d) or self.core.threat_cells(d, a) or self.holds is None:
            return self._attacker(_key(a, d))
        for seq in reversed(sequences):
            if self.holds(a, d, seq):
                return frozenset()
        key = _key(a, d)
        if key in self.moves:
            return self._attacker(key)
        seq = self._witness(a, d)
        if seq is None:
            return None
        sequences.append(seq)
        return frozenset()

    def _witness(self, a: int, d: int) -> bytes | None:
        """A forced sequence for the attacker at ``(a, d)`` within the node bound (not always the shortest), or None."""
        if self.holds is not None:
            return self.core.any_forced_win(a, d, self._bound)
        length, seq, *_ = self.core.forced_win(a, d, 0, 0.0, self._bound)
        return bytes(seq) if length > 0 else None


class _Choice:
    """One move per strategic position and the positions reached, kept by reference counts.

    ``switch(key, outcome)`` changes one choice and returns how many positions
    the strategy gained (negative: lost); only the part below changes is visited.
    """

    def __init__(self, graph: ProofGraph, start: Next) -> None:
        self.graph = graph
        self.pick: dict[Key, Key] = {}
        self.refs: dict[Key, int] = {}
        self.size = 0
        for key in start:
            self._add(key)

    def _next(self, key: Key) -> Next:
        if key not in self.pick:
            self.pick[key] = self.graph.own(key)
        return self.graph.after(key, self.pick[key])

    def _add(self, key: Key) -> None:
        self.refs[key] = self.refs.get(key, 0) + 1
        if self.refs[key] == 1:
            self.size += 1
            for child in self._next(key):
                self._add(child)

    def _remove(self, key: Key) -> None:
        self.refs[key] -= 1
        if self.refs[key] == 0:
            self.size -= 1
            for child in self._next(key):
                self._remove(child)

    def reached(self) -> list[Key]:
        """The positions the strategy reaches now."""
        return [key for key, n in self.refs.items() if n]

    def switch(self, key: Key, outcome: Key) -> int:
        """Choose ``outcome`` at the reached ``key``; the change in size."""
        before, options = self.size, self.graph.options(key)
        for child in options[outcome][1]:
            self._add(child)
        for child in options[self.pick[key]][1]:
            self._remove(child)
        self.pick[key] = outcome
        return self.size - before


def smallest(graph: ProofGraph, start: Next, sweeps: int = SWEEPS, seed: int = 0,
             report: Callable[[str], None] = lambda text: None, time_limit: float | None = None,
             stops: list[str] | None = None) -> dict[Key, int]:
    """The smallest strategy found from ``start``: strategic position → move, only the positions reached.

    Simulated annealing over single switches: ``sweeps`` passes over the
    positions reached, in a seeded order, the temperature falling linearly to
    zero, then passes that only improve until one changes nothing. Ctrl-C or
    ``time_limit`` (seconds) keeps the smallest strategy found so far (and appends
    ``'interrupted'`` or ``'time limit'`` to ``stops`` when given). ``report(text)``
    hears each tenth of the sweeps, and every 15 seconds within a long sweep (the first
    one finds every position's known-winning moves).

    >>> from qubic_logic.notation import parse_patashnik
    >>> p = parse_patashnik("x2x1o6x14o20o")
    >>> g = ProofGraph({_key(p.x, p.o): 21})
    >>> list(smallest(g, g.start(p.x, p.o)).values())
    [21]
    """
    rng = random.Random(seed)
    choice = _Choice(graph, start)
    best, best_size = dict(choice.pick), choice.size
    report(f"{choice.size:,} strategic positions to start with")
    sweep, improving = 0, True
    deadline = None if time_limit is None else time.monotonic() + time_limit
    reported = time.monotonic()
    try:
        while sweep < sweeps or improving:
            temperature = 0.5 * (1 - sweep / sweeps) if sweep < sweeps else 0.0
            sweep, improving = sweep + 1, False
            order = sorted(choice.reached())
            rng.shuffle(order)
            for done, key in enumerate(order):
                clock = time.monotonic()
                if deadline is not None and clock > deadline:
                    raise TimeoutError
                if clock - reported > 15:
                    report(f"sweep {sweep:,}, {done:,} of {len(order):,} positions: {choice.size:,} strategic "
                           f"positions, smallest {best_size:,}")
                    reported = clock
                if not choice.refs[key]:
                    continue
                alternatives = sorted(graph.options(key))
                rng.shuffle(alternatives)
                for outcome in alternatives:
                    current = choice.pick[key]
                    if outcome == current:
                        continue
                    gain = choice.switch(key, outcome)
                    if gain <= 0 or temperature > 0 and rng.random() < math.exp(-gain / temperature):
                        improving |= gain < 0
                        if choice.size < best_size:
                            best, best_size = dict(choice.pick), choice.size
                    else:
                        choice.switch(key, current)
            if sweep % max(1, sweeps // 10) == 0:
                reported = time.monotonic()
                report(f"sweep {sweep:,}: {choice.size:,} strategic positions, smallest {best_size:,}")
    except (KeyboardInterrupt, TimeoutError) as stop:
        why = "time limit" if isinstance(stop, TimeoutError) else "interrupted"
        if stops is not None:
            stops.append(why)
        report(f"{why} at sweep {sweep:,}: keeping the smallest, {best_size:,} strategic positions")
    return _reached_moves(graph, start, best)


def _reached_moves(graph: ProofGraph, start: Next, pick: dict[Key, Key]) -> dict[Key, int]:
    """The move chosen at each position reached from ``start`` under ``pick``."""
    moves: dict[Key, int] = {}
    stack = list(start)
    while stack:
        key = stack.pop()
        if key not in moves:
            outcome = pick.get(key, graph.own(key))
            moves[key] = graph.move(key, outcome)
            stack.extend(graph.after(key, outcome))
    return moves


def minimised(
    dictionary: StrategyDictionary,
    root: Position | None = None,
    *,
    sweeps: int = SWEEPS,
    leaf_nodes: int = 200_000,
    report: Callable[[str], None] = lambda text: None,
    time_limit: float | None = None,
    phases: dict[str, float] | None = None,
    kept: Iterable[Key] = (),
) -> StrategyDictionary:
    """A verified ``dictionary`` with its moves re-chosen over its proof graph to reach fewer positions.

    ``root`` defaults to the dictionary's own root; ``sweeps``, ``report`` and
    ``time_limit`` as in :func:`smallest`; ``leaf_nodes`` as in :class:`ProofGraph`. Every
    entry counts, reached from the root or not: for the union of verified
    strategies, each entry's move wins. The entries come out in canonical
    frames, fewest marks first, the header unchanged; callers verify the result
    before they trust or write it. ``phases``, when given, receives the seconds of each phase:
    ``proof graph`` (finding every reached position's known-winning moves) and ``choosing`` (the rest
    of the local search). The positions in ``kept`` keep the dictionary's move (:class:`ProofGraph`).
    """
    root = root or dictionary.root
    attacker = root.to_move
    a, d = root.mask(attacker), root.mask(other(attacker))
    clock = time.perf_counter()
    graph = ProofGraph(canonical_moves(dictionary), leaf_nodes, kept)
    chosen = smallest(graph, graph.start(a, d), sweeps, report=report, time_limit=time_limit)
    if phases is not None:
        phases["proof graph"] = graph.seconds
        phases["choosing"] = time.perf_counter() - clock - graph.seconds
    return chosen_strategy(chosen, attacker, dictionary)


def chosen_strategy(chosen: dict[Key, int], attacker: str, dictionary: StrategyDictionary) -> StrategyDictionary:
    """The entries ``chosen`` (canonical position → move) as a dictionary with ``dictionary``'s header.

    The attacker's marks come first in each key; entries come out fewest marks first.

    >>> d = StrategyDictionary.parse("root: xo\\n---\\n")
    >>> [e.text() for e in chosen_strategy({(1, 2): 21}, "x", d)]
    ['xo 21']
    """
    entries = []
    for (ca, cd), move in sorted(chosen.items(), key=lambda kv: ((kv[0][0] | kv[0][1]).bit_count(), kv[0])):
        position = Position(ca, cd) if attacker == "x" else Position(cd, ca)
        entries.append(Entry(position, move))
    return StrategyDictionary(entries, dictionary.header, dictionary.separator)


def united(dictionaries: list[StrategyDictionary], header: list[str], keep: StrategyDictionary | None = None
           ) -> tuple[StrategyDictionary, Position, frozenset[Key]]:
    """The union of ``dictionaries`` (one root; where two name the same position, the earlier one's move), its
    root, and the positions whose move is chosen beforehand: ``keep``'s, which come first.

    >>> d = StrategyDictionary.parse("root: x2x1o6x14o20o\\n---\\nx2x1o6x14o20o 21\\n")
    >>> k = StrategyDictionary.parse("---\\nx2x1o6x14o20o 22\\n")
    >>> union, root, kept = united([d], ["root: x2x1o6x14o20o"], k)
    >>> [e.text() for e in union], len(kept)
    (['x2x1o6x14o20o 22'], 1)
    """
    roots = {d.root for d in dictionaries}
    if len(roots) != 1:
        raise QubicError("the dictionaries start from different roots; expected one root for all")
    first = [] if keep is None else [keep]
    kept = frozenset(canonical_moves(keep)) if keep is not None else frozenset()
    return StrategyDictionary.union([*first, *dictionaries], header), roots.pop(), kept


def minimised_union(
    dictionaries: list[StrategyDictionary], header: list[str], report: Callable[[str], None] = lambda text: None,
    sweeps: int = SWEEPS, time_limit: float | None = None, keep: StrategyDictionary | None = None,
) -> StrategyDictionary:
    """:func:`minimised` over the union of ``dictionaries`` (one root); the earlier one's move starts a clash,
    and ``keep``'s moves come first and are never re-chosen.

    >>> d = StrategyDictionary.parse("root: x2x1o6x14o20o\\n---\\nx2x1o6x14o20o 21\\n")
    >>> len(minimised_union([d, d], ["root: x2x1o6x14o20o"]))
    1
    """
    union, root, kept = united(dictionaries, header, keep)
    report(f"union of {len(union):,} entries")
    found = minimised(union, root, sweeps=sweeps, report=report, time_limit=time_limit, kept=kept)
    report(f"union of {len(union):,} entries minimised to {len(found):,}")
    return found


def kept_entries(path: str, marks: int | None) -> StrategyDictionary:
    """The entries of the dictionary at ``path`` with at most ``marks`` marks (all when None): moves to keep.

    >>> from qubic_logic.strategy.dictionary import patashnik_path
    >>> [e.text() for e in kept_entries(str(patashnik_path()), 0)]
    [' 0']
    """
    whole = StrategyDictionary.load(path)
    return StrategyDictionary((e for e in whole if marks is None or e.position.count <= marks), whole.header)


def _described(path: str, dictionary: StrategyDictionary) -> str:
    """A line naming where a dictionary comes from (Patashnik's is credited as its README asks)."""
    if Path(path).resolve() == patashnik_path().resolve():
        return ("Oren Patashnik's dictionary of 1976-77 (Ken Thompson's form, 1978; Mathematics Magazine 53(4), "
                "1980), whose moves are used unchanged as candidates")
    return next((line.strip() for line in dictionary.header if line.strip()), "(no header)")


def loaded(sources: list[str]) -> list[StrategyDictionary]:
    """The dictionaries named, each announced with its number of entries."""
    dictionaries = [StrategyDictionary.load(path) for path in sources]
    for path, d in zip(sources, dictionaries):
        print(f"{path}: {len(d):,} entries")
    return dictionaries


def union_header(title: str, sources: list[str], dictionaries: list[StrategyDictionary],
                 keep: tuple[str, StrategyDictionary] | None = None) -> list[str]:
    """The header of a strategy chosen over the union of ``dictionaries``: ``title``, each source, the moves kept
    (``keep``: the file and its entries kept), the root and the rules."""
    kept = [] if keep is None else [f"  kept: {len(keep[1]):,} moves of {Path(keep[0]).name}: "
                                    f"{_described(keep[0], keep[1])}"]
    return [f"{title} of the strategies:",
            *(f"  {Path(path).name}: {_described(path, d)}" for path, d in zip(sources, dictionaries)), *kept,
            f"root: {format_patashnik(dictionaries[0].root)}",
            "Rule order: (1) win, (2) block a three, (3) the move below (up to symmetry), (4) a forced sequence.",
            "Check: qubic verify dictionary FILE"]


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


def union_arguments(prog: str, description: str, time_help: str) -> argparse.ArgumentParser:
    """The arguments of a command that writes one verified strategy from several verified ones:
    ``OUT DICTIONARY... [--sweeps N] [--time-limit S]``; the caller may add its own.

    >>> union_arguments("p", "d", "t").parse_args(["out.dict", "a.dict", "b.dict"]).sources
    ['a.dict', 'b.dict']
    """
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("out", metavar="OUT", help="where to write the verified strategy")
    parser.add_argument("sources", metavar="DICTIONARY", nargs="+", help="verified strategies from one root")
    parser.add_argument("--sweeps", type=int, default=SWEEPS, help=f"local-search sweeps (default {SWEEPS})")
    parser.add_argument("--time-limit", type=float, metavar="S", help=time_help)
    parser.add_argument("--keep", metavar="FILE",
                        help="a dictionary whose moves are chosen beforehand: they come first in the union and are "
                             "never re-chosen wherever the strategy reaches their positions")
    parser.add_argument("--keep-marks", type=int, metavar="N",
                        help="keep only the moves of --keep's positions with at most N marks (default: all)")
    return parser


def union_inputs(args: argparse.Namespace, title: str) -> tuple[list[StrategyDictionary], list[str],
                                                                StrategyDictionary | None]:
    """The dictionaries a :func:`union_arguments` command unites (announced), the union's header and the moves
    it keeps (``--keep``, or None)."""
    dictionaries = loaded(args.sources)
    keep = None
    if args.keep is not None:
        keep = kept_entries(args.keep, args.keep_marks)
        print(f"{args.keep}: {len(keep):,} moves kept", flush=True)
    header = union_header(title, args.sources, dictionaries, None if keep is None else (args.keep, keep))
    return dictionaries, header, keep


def union_of(args: argparse.Namespace, title: str) -> tuple[StrategyDictionary, Position, frozenset[Key]]:
    """The union a :func:`union_arguments` command chooses over (announced), its root and its kept positions."""
    union, root, kept = united(*union_inputs(args, title))
    print(f"union of {len(union):,} entries", flush=True)
    return union, root, kept


def parsed(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace | int:
    """``argv`` read by a :func:`union_arguments` parser, or the exit status of a bad or ``--help`` line."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.sweeps < 1 or args.time_limit is not None and not args.time_limit > 0:
        print(f"error: --sweeps {args.sweeps} --time-limit {args.time_limit}: expected a positive number of "
              "sweeps and a positive number of seconds", file=sys.stderr)
        return 2
    if args.keep_marks is not None and (args.keep is None or args.keep_marks < 0):
        print(f"error: --keep-marks {args.keep_marks}: expected 0 or more, with --keep FILE", file=sys.stderr)
        return 2
    return args


def main(argv: list[str] | None = None) -> int:
    """``python -m qubic_logic.proof.minimise OUT DICTIONARY... [--sweeps N] [--time-limit S] [--keep FILE
    [--keep-marks N]] [--union-only]``.

    Writes the verified, minimised union (or, with ``--union-only``, the union itself); returns the exit status.
    """
    parser = union_arguments("python -m qubic_logic.proof.minimise",
                             "Minimise the union of verified strategies from one root.",
                             "stop the search after S seconds, keeping the smallest strategy found")
    parser.add_argument("--union-only", action="store_true",
                        help="write the union itself, every entry, unminimised (for the alternatives of all of them)")
    args = parsed(parser, argv)
    if isinstance(args, int):
        return args
    out = Path(args.out)

    def build() -> StrategyDictionary:
        title = "Union" if args.union_only else "Minimised union"
        named = f"{title} (qubic-logic: python -m qubic_logic.proof.minimise)"
        if args.union_only:
            return union_of(args, named)[0]
        dictionaries, header, keep = union_inputs(args, named)
        return minimised_union(dictionaries, header, lambda text: print(text, flush=True), args.sweeps,
                               args.time_limit, keep)

    status, result, v = write_verified(out, build, "union" if args.union_only else "minimised union")
    if status == 0 and args.union_only:
        print(f"{out}: VERIFIED, {len(result):,} entries, {v.by_rule['dictionary']:,} of them strategic positions "
              f"reached from the root ({v.positions:,} positions checked)")
    elif status == 0:
        print(f"{out}: VERIFIED, {len(result):,} strategic positions ({v.positions:,} positions checked)")
    return status


if __name__ == "__main__":
    sys.exit(main())
