"""Seeded position sets shared by the benchmarks and the tests of the native core.

* :func:`random_prefixes` -- legal game prefixes of random moves (no side has four yet),
  both sides to move.
* :func:`dictionary_queries` -- positions from games in which X follows Patashnik's
  strategy (win, block, dictionary move, else a forced win must exist) against an O that
  blocks X's threats and otherwise plays at random; the positions where X has no
  dictionary move are forced-win queries of the kind a strategy verifier asks, with long
  sequences and counter-threats.

>>> ps = random_prefixes(1, 3)
>>> len(ps), all(6 <= p.count <= 40 for p in ps)
(3, True)
"""

from __future__ import annotations

import random
from types import ModuleType

from ..position import Position, other


def _core() -> ModuleType:
    from ..core import core_module

    return core_module("auto")


def masks(position: Position) -> tuple[int, int]:
    """``(a, d)``: the side to move's mask and the other side's."""
    side = position.to_move
    return position.mask(side), position.mask(other(side))


def random_prefixes(seed: int, count: int, min_marks: int = 6, max_marks: int = 40) -> list[Position]:
    """``count`` positions after ``min_marks..max_marks`` random moves, none of them won."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        target = rng.randint(min_marks, max_marks)
        p = Position()
        while p.count < target:
            q = p.play(rng.choice(p.legal_moves()))
            if q.winner:
                break
            p = q
        if p.count >= min_marks:
            out.append(p)
    return out


def _dictionary_table() -> dict[tuple[int, int], int] | None:
    try:
        from ..strategy import patashnik_dictionary
    except ImportError:  # pragma: no cover - the strategy package is part of the project
        return None
    core = _core()
    table = {}
    for entry in patashnik_dictionary():
        cx, co, t = core.canonical(entry.position.x, entry.position.o)
        table[(cx, co)] = core.transform(t)[entry.move]
    return table


_TABLE: dict[tuple[int, int], int] | None = None


def dictionary_queries(seed: int, games: int, blocks: bool = True, strong: bool = True) -> list[Position]:
    """X-to-move positions of ``games`` seeded games where Patashnik's strategy needs a forced win.

    With ``blocks`` also the positions where X must block O's single threat (queries that
    start with the counter-threat rule). A ``strong`` O prefers moves after which X has no
    forced win by threat sequence (asked of the active core), else the one leaving X the
    longest, so games last longer and the forced wins found at the end are long. Raises ``LookupError`` without the dictionary.
    """
    global _TABLE
    if _TABLE is None:
        _TABLE = _dictionary_table()
    if _TABLE is None:
        raise LookupError("Patashnik's dictionary is not available")
    core = _core()
    rng = random.Random(seed)
    out: list[Position] = []
    seen: set[tuple[int, int]] = set()
    for _ in range(games):
        p = Position()
        while not p.is_over:
            x, o = p.x, p.o
            if p.to_move == "x":
                if core.threat_cells(x, o):
                    break  # X wins at once
                theirs = core.threat_cells(o, x)
                if theirs:
                    if blocks and not theirs & (theirs - 1) and (x, o) not in seen:
                        seen.add((x, o))
                        out.append(p)
                    move = (theirs & -theirs).bit_length() - 1
                else:
                    cx, co, t = core.canonical(x, o)
                    cmove = _TABLE.get((cx, co))
                    if cmove is None:
                        if (x, o) not in seen:
                            seen.add((x, o))
                            out.append(p)
                        break  # X now executes a forced win
                    inverse = core.transform(t).index(cmove)
                    move = inverse
            else:
                mine = core.threat_cells(o, x)
                theirs = core.threat_cells(x, o)
                if mine:
                    move = (mine & -mine).bit_length() - 1  # O wins: the strategy failed
                elif theirs:
                    move = (theirs & -theirs).bit_length() - 1
                else:
                    empty = [c for c in range(64) if not (x | o) >> c & 1]
                    rng.shuffle(empty)
                    move = empty[0]
                    if strong:  # the reply leaving X no forced win, else the longest one
                        best = -1
                        for c in empty:
                            length = core.forced_win(x, o | 1 << c, 0, 0.0, 20000)[0]
                            score = 99 if length == 0 else length
                            if score > best:
                                best, move = score, c
                            if score == 99 and rng.random() < 0.5:
                                break
            p = p.play(move)
    return out
