"""Verify a strategy dictionary: does its side win against every reply?

The attacker (the side to move at the root: X for Patashnik's dictionary)
plays by the rule order of Patashnik's dictionary — (1) win now, (2) block
the defender's three, (3) the dictionary move, (4) a forced win by threat
sequence (docs/design.md §3) — and every defender reply is explored at every
defender turn. Each position is visited once up to the 192 automorphisms.

Two phases, both plain data: a *traversal* (native ``qubic_logic._verify``,
or the Python twin below) yields the rule-(4) positions as leaves, and
``jobs`` worker processes settle the leaves with the forced-win search.

>>> from qubic_logic.strategy.dictionary import StrategyDictionary
>>> from qubic_logic.notation import parse_position
>>> root = parse_position('1-2,22-52,27-4')         # X to move wins by force
>>> v = verify(StrategyDictionary([]), root, jobs=1)
>>> v.verdict, v.positions, v.by_rule['forced'], v.longest
('verified', 1, 1, 6)
>>> v = verify(StrategyDictionary([]), parse_position('empty'), jobs=1)
>>> v.verdict, v.failures[0].reason
('refuted', 'no dictionary move and no forced win')
"""

from __future__ import annotations

import os
import threading
import time
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Callable

from .. import bitboard
from ..native import NATIVE, native_extension
from ..errors import EngineUnavailableError
from ..executor import make_executor
from ..notation import format_patashnik
from ..position import Position, other
from ..symmetry import INVERSES, TRANSFORMS, canonical_masks
from .dictionary import StrategyDictionary


VERIFY_NATIVE = native_extension("_verify") if NATIVE is not None else None

RULES = ("win", "block", "dictionary", "forced")
REASONS = {
    1: "the defender has two threats",
    2: "the board is full: a draw",
    3: "no dictionary move and no forced win",
}
Progress = Callable[[str, int, int], None]  # (phase, done, total)


@dataclass(frozen=True, slots=True)
class Failure:
    """A position (attacker to move) the strategy does not win, and how play reaches it."""

    position: Position
    moves: tuple[int, ...]
    reason: str

    def to_json(self) -> dict:
        """``position`` in the dictionary's format, ``moves`` from the root (both sides)."""
        return {"position": format_patashnik(self.position), "moves": list(self.moves), "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Witness:
    """A rule-(4) position and a forced win for the attacker (docs/design.md §3)."""

    position: Position
    sequence: tuple[int, ...]

    @property
    def length(self) -> int:
        """Attacker moves in the sequence."""
        return (len(self.sequence) + 1) // 2


class Witnesses(Sequence[Witness]):
    """The rule-(4) positions as the traversal found them, each :class:`Witness` built only when asked for
    (a verification has hundreds of thousands; most callers want the count and the longest).

    >>> w = Witnesses([(0b111, 0b111 << 16, b"\\x03")], "x")
    >>> len(w), w[0].position.count, w[0].sequence, list(w.lengths())
    (1, 6, (3,), [1])
    """

    def __init__(self, found: list[tuple[int, int, bytes]], attacker: str) -> None:
        self._found = found
        self._attacker = attacker

    def __len__(self) -> int:
        return len(self._found)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        a, d, seq = self._found[i]
        return Witness(_position(a, d, self._attacker), tuple(seq))

    def lengths(self) -> Iterator[int]:
        """Each witness's length in attacker moves, in order, without building the witnesses."""
        return ((len(seq) + 1) // 2 for _, _, seq in self._found)


@dataclass
class Verification:
    """The verdict on a dictionary and the figures behind it."""

    verdict: str  # 'verified' | 'refuted' | 'incomplete' (time limit or interruption)
    root: Position
    positions: int
    by_rule: dict[str, int]
    defender_positions: int
    seconds: float
    engine: str
    jobs: int
    failures: list[Failure] = field(default_factory=list)
    witnesses: Witnesses = field(default_factory=lambda: Witnesses([], "x"))
    unsettled: int = 0
    used_entries: list[int] = field(default_factory=list)  # indices of the entries played (rule 3)
    stopped: str | None = None  # why an incomplete verification stopped: 'interrupted' or 'time limit'

    @property
    def longest(self) -> int:
        """The longest forced sequence needed, in attacker moves (0 when none)."""
        return max(self.witnesses.lengths(), default=0)

    @property
    def longest_witness(self) -> Witness | None:
        """A rule-(4) position needing the longest forced sequence."""
        lengths = list(self.witnesses.lengths())
        return self.witnesses[lengths.index(max(lengths))] if lengths else None

    def to_json(self) -> dict:
        """The object printed by ``qubic verify dictionary --json``."""
        longest = self.longest_witness
        return {
            "verdict": self.verdict,
            "root": format_patashnik(self.root),
            "positions": self.positions,
            "by_rule": self.by_rule,
            "defender_positions": self.defender_positions,
            "longest_forced": self.longest,
            "longest_forced_position": format_patashnik(longest.position) if longest else None,
            "seconds": round(self.seconds, 3),
            "positions_per_second": round(self.positions / self.seconds) if self.seconds else None,
            "engine": self.engine,
            "jobs": self.jobs,
            "unsettled": self.unsettled,
            "stopped": self.stopped,
            "failures": [f.to_json() for f in self.failures],
        }


# ---------------------------------------------------------------------- traversal


def plain_entries(dictionary: StrategyDictionary) -> list[tuple[int, int, int]]:
    """Entries as ``(attacker mask, defender mask, move)``: plain data for any engine."""
    out = []
    for e in dictionary:
        side = e.position.to_move
        out.append((e.position.mask(side), e.position.mask(other(side)), e.move))
    return out


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def traverse_python(entries: list[tuple[int, int, int]], a: int, d: int, time_limit: float = 0.0) -> dict:
    """The pure-Python traversal; the same result as the native ``_verify.traverse``.

    ``by_rule[3]`` counts the leaves (rule-(4) positions, not yet searched).

    >>> r = traverse_python([(0, 0, 0)], 0, 0)   # X takes corner 0; O has 12 inequivalent replies
    >>> r['positions'], r['by_rule'], len(r['leaves'])
    (13, (0, 0, 1, 12), 12)
    """
    table: dict[tuple[int, int], tuple[int, int]] = {}
    for index, (ea, ed, move) in enumerate(entries):
        ca, cd, t = canonical_masks(ea, ed)
        table.setdefault((ca, cd), (TRANSFORMS[t][move], index))
    seen: set[tuple[int, int]] = set()
    used: set[int] = set()
    out: dict = {"positions": 0, "by_rule": [0, 0, 0, 0], "defender_positions": 0,
                 "leaves": [], "failures": [], "complete": True}
    stack: list[tuple[int, int, bytes]] = [(a, d, b"")]
    deadline = time.monotonic() + time_limit if time_limit else None
    try:
        _walk(stack, table, seen, used, out, deadline)
    except KeyboardInterrupt:  # keep what was walked; the caller reports the verdict incomplete
        out["complete"] = False
    out["by_rule"] = tuple(out["by_rule"])
    out["used"] = sorted(used)
    return out


def _walk(stack: list, table: dict, seen: set, used: set, out: dict, deadline: float | None) -> None:
    """The loop of :func:`traverse_python`, filling ``out``."""
    while stack:
        if deadline is not None and time.monotonic() > deadline:
            out["complete"] = False
            break
        a, d, path = stack.pop()
        ca, cd, t = canonical_masks(a, d)
        if (ca, cd) in seen:
            continue
        seen.add((ca, cd))
        out["positions"] += 1
        if bitboard.threat_cells(a, d):
            out["by_rule"][0] += 1
            continue
        theirs = bitboard.threat_cells(d, a)
        if theirs & (theirs - 1):
            out["failures"].append((a, d, path, 1))
            continue
        if theirs:
            move = _low(theirs)
            out["by_rule"][1] += 1
        elif (ca, cd) in table:
            canonical_move, index = table[(ca, cd)]
            move = TRANSFORMS[INVERSES[t]][canonical_move]
            used.add(index)
            out["by_rule"][2] += 1
        else:
            out["by_rule"][3] += 1
            out["leaves"].append((a, d, path))
            continue
        a2 = a | 1 << move
        empty = ~(a2 | d) & (1 << 64) - 1
        if not empty:
            out["failures"].append((a2, d, path + bytes([move]), 2))
            continue
        key = canonical_masks(a2, d)[:2]
        if key in seen:
            continue
        seen.add(key)
        out["defender_positions"] += 1
        replies = [c for c in range(64) if empty >> c & 1]
        for reply in reversed(replies):  # pop in ascending order, as the native traversal
            stack.append((a2, d | 1 << reply, path + bytes([move, reply])))


def traverse_native(entries: list[tuple[int, int, int]], a: int, d: int, time_limit: float = 0.0) -> dict:
    """The native traversal, run in a thread so that Ctrl-C stops it at once; it then returns what it walked
    (``complete`` False). Each traversal has its own stop flag: traversals in other threads go on."""
    out: dict = {}
    done = threading.Event()
    stop = array("i", [0])

    def walk() -> None:
        try:
            out["found"] = VERIFY_NATIVE.traverse(entries, a, d, time_limit, stop=stop)
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            out["error"] = exc
        finally:
            done.set()

    threading.Thread(target=walk, name="native traversal", daemon=True).start()
    while not done.is_set():
        try:
            done.wait(0.05)
        except KeyboardInterrupt:
            stop[0] = 1
    if "error" in out:
        raise out["error"]
    return out["found"]


# ---------------------------------------------------------------------- forced wins


def settle(pairs: list[tuple[int, int]], engine: str, time_limit: float = 0.0,
           shortest: bool = True) -> list[tuple[int, bytes]]:
    """Shortest forced win of each ``(attacker, defender)`` pair: ``(length, witness)``; with ``shortest``
    False (native engine) the first one a depth-first pass finds, many times faster (its length is the
    witness's attacker moves, not the least).

    Length 0: no forced win; -1: out of time.

    >>> settle([(0b111, 0)], 'python'), settle([(0b111, 0)], 'native', shortest=False)
    ([(1, b'\\x03')], [(1, b'\\x03')])
    """
    if engine == "native" and not shortest:
        found = [NATIVE.any_forced_win(a, d, 0) for a, d in pairs]
        return [(0, b"") if seq is None else ((len(seq) + 1) // 2, seq) for seq in found]
    if engine == "native":
        return VERIFY_NATIVE.forced_wins(pairs, time_limit)
    end = time.monotonic() + time_limit if time_limit else None
    out = []
    for a, d in pairs:
        left = max(end - time.monotonic(), 1e-6) if end else 0.0
        length, seq, _, _ = bitboard.forced_win(a, d, 0, left, 0)
        out.append((length, bytes(seq)))
    return out


def settle_unit(unit: tuple[list[tuple[int, int]], str, float, bool]) -> list[tuple[int, bytes]]:
    """A work unit ``(pairs, engine, time limit, shortest)`` for :func:`settle`."""
    return settle(*unit)


def _chunks(items: list, size: int) -> list[list]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _settle_all(
    leaves: list, engine: str, jobs: int, deadline: float | None, progress: Progress | None, shortest: bool = True
) -> tuple[list[tuple[int, bytes]], bool]:
    """Settle every leaf, ``jobs`` processes at once; returns results and completeness."""
    pairs = [(a, d) for a, d, _ in leaves]
    size = 2000 if engine == "native" else 50
    chunks = _chunks(pairs, size)
    results: list[list[tuple[int, bytes]] | None] = [None] * len(chunks)
    done = 0
    left = max(deadline - time.monotonic(), 1e-6) if deadline else 0.0

    def record(i: int, result: list[tuple[int, bytes]]) -> None:
        nonlocal done
        results[i] = result
        done += len(chunks[i])
        if progress:
            progress("forced wins", done, len(pairs))

    if jobs <= 1 or len(chunks) <= 1:
        try:
            for i, chunk in enumerate(chunks):
                if deadline and time.monotonic() > deadline:
                    break
                record(i, settle(chunk, engine, max(deadline - time.monotonic(), 1e-6) if deadline else 0.0,
                                 shortest))
        except KeyboardInterrupt:
            pass  # keep the chunks settled so far
    else:
        with make_executor("local", jobs) as executor:
            for i, result in executor.run(settle_unit, [(c, engine, left, shortest) for c in chunks],
                                          time_limit=left or None):
                record(i, result)
    flat: list[tuple[int, bytes]] = []
    complete = True
    for chunk, res in zip(chunks, results):
        if res is None:
            flat.extend((-1, b"") for _ in chunk)
            complete = False
        else:
            flat.extend(res)
    return flat, complete


# ---------------------------------------------------------------------- verification


def _position(a: int, d: int, attacker: str) -> Position:
    """The traversal's ``(attacker, defender)`` masks as a position (legal: reached by legal play)."""
    return Position.trusted(a, d) if attacker == "x" else Position.trusted(d, a)


def verify(
    dictionary: StrategyDictionary,
    root: Position | None = None,
    *,
    engine: str = "auto",
    jobs: int | None = None,
    time_limit: float | None = None,
    progress: Progress | None = None,
    shortest: bool = True,
) -> Verification:
    """Check that the side to move at ``root`` (default: the empty board, X) wins with ``dictionary``.

    ``engine`` is ``'native'``, ``'python'`` or ``'auto'``; ``jobs`` worker
    processes settle the forced wins (default: every core). Past
    ``time_limit`` seconds, or on Ctrl-C, the verdict is ``'incomplete'``.
    ``shortest``: each rule-(4) position's witness is a shortest forced win
    (the figures ``longest`` reports); False takes the first one found (the
    native engine: the same verdict, many times faster).
    """
    root = (root or Position()).require_in_play()
    engine = _engine(engine)
    jobs = jobs or os.cpu_count() or 1
    start = time.monotonic()
    deadline = start + time_limit if time_limit else None
    attacker = root.to_move
    a, d = root.mask(attacker), root.mask(other(attacker))
    entries = plain_entries(dictionary)
    if progress:
        progress("traversal", 0, 1)
    walk = traverse_native if engine == "native" else traverse_python
    found = walk(entries, a, d, time_limit or 0.0)
    if progress:
        progress("traversal", 1, 1)
    if found["complete"] or (deadline is not None and time.monotonic() > deadline):
        settled, complete = _settle_all(found["leaves"], engine, jobs, deadline, progress, shortest)
    else:  # interrupted: settle nothing more, report what the walk found
        settled, complete = [(-1, b"")] * len(found["leaves"]), False
    failures = [
        Failure(_position(fa, fd, attacker), tuple(path), REASONS[reason])
        for fa, fd, path, reason in found["failures"]
    ]
    won: list[tuple[int, int, bytes]] = []
    unsettled = 0
    for (la, ld, path), (length, seq) in zip(found["leaves"], settled):
        if length > 0:
            won.append((la, ld, seq))
        elif length == 0:
            failures.append(Failure(_position(la, ld, attacker), tuple(path), REASONS[3]))
        else:
            unsettled += 1
    incomplete = unsettled or not found["complete"] or not complete
    verdict = "refuted" if failures else "incomplete" if incomplete else "verified"
    stopped = None if not incomplete else \
        "time limit" if deadline is not None and time.monotonic() >= deadline else "interrupted"
    return Verification(
        verdict=verdict,
        root=root,
        positions=found["positions"],
        by_rule=dict(zip(RULES, (*found["by_rule"][:3], len(won)))),
        defender_positions=found["defender_positions"],
        seconds=time.monotonic() - start,
        engine=engine,
        jobs=jobs,
        failures=failures,
        witnesses=Witnesses(won, attacker),
        unsettled=unsettled,
        used_entries=found["used"],
        stopped=stopped,
    )


def pruned(dictionary: StrategyDictionary, verification: Verification) -> StrategyDictionary:
    """The dictionary without the entries its verification never played (same verdict).

    >>> from qubic_logic.strategy.dictionary import Entry
    >>> from qubic_logic.notation import parse_position
    >>> d = StrategyDictionary([Entry(Position(), 0), Entry(parse_position('moves:5,6'), 7)])
    >>> len(pruned(d, verify(d, parse_position('moves:5,6'), jobs=1)))
    1
    """
    keep = set(verification.used_entries)
    entries = [e for i, e in enumerate(dictionary) if i in keep]
    return StrategyDictionary(entries, dictionary.header, dictionary.separator)


def _engine(name: str) -> str:
    if name == "python" or (name == "auto" and (VERIFY_NATIVE is None or os.environ.get("QUBIC_CORE") == "python")):
        return "python"
    if name in ("native", "auto"):
        if VERIFY_NATIVE is None:
            raise EngineUnavailableError(
                "the native verifier qubic_logic._verify is not built; reinstall with a C compiler "
                "or use engine 'python'"
            )
        return "native"
    raise EngineUnavailableError(f"unknown engine {name!r}; expected native, python or auto")
