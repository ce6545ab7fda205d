"""The referee: replays a claimed forced win under the rules of docs/design.md §3.

Every engine's witness must pass here. The referee knows nothing about
search; it only checks each step.

>>> from qubic_logic.notation import parse_position
>>> replay_forced_win(parse_position('moves:0,16,1,17'), (2, 18, 3))
Traceback (most recent call last):
...
qubic_logic.errors.IllegalMoveError: step 2: the defender's reply 18 is not a threat cell [3]
"""

from __future__ import annotations

from .bitboard import threat_cells
from .errors import IllegalMoveError
from .position import Position, other


def _cells(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def replay_forced_win(position: Position, sequence: tuple[int, ...] | list[int]) -> int:
    """Check ``sequence`` is a forced win for the side to move; return its length.

    Raises :class:`IllegalMoveError` naming the first step that breaks the rules.

    >>> from qubic_logic.notation import parse_position
    >>> replay_forced_win(parse_position('moves:0,16,1,17,2,18'), (3,))
    1
    """
    attacker = position.to_move
    p = position
    seq = list(sequence)
    if not seq:
        raise IllegalMoveError("an empty sequence is not a forced win")
    for step in range(0, len(seq), 2):
        a, d = p.mask(attacker), p.mask(other(attacker))
        move = seq[step]
        mine = threat_cells(a, d)
        theirs = threat_cells(d, a)
        where = f"step {step + 1} (attacker move {move})"
        if mine:
            if not mine >> move & 1:
                raise IllegalMoveError(f"{where}: the attacker can win at {_cells(mine)} and must")
            if step != len(seq) - 1:
                raise IllegalMoveError(f"{where}: the game is won here but the sequence goes on")
            return step // 2 + 1
        if step == len(seq) - 1:
            raise IllegalMoveError(f"{where}: the last move does not complete four in a row")
        if theirs & (theirs - 1):
            raise IllegalMoveError(f"{where}: the defender has two threats {_cells(theirs)}; no forced win")
        if theirs and move not in _cells(theirs):
            raise IllegalMoveError(f"{where}: the defender threatens {_cells(theirs)}; the attacker must block it")
        p = p.play(move)
        new = threat_cells(p.mask(attacker), p.mask(other(attacker)))
        if not new:
            raise IllegalMoveError(f"{where}: the move makes no threat")
        reply = seq[step + 1]
        if not new >> reply & 1:
            raise IllegalMoveError(
                f"step {step + 2}: the defender's reply {reply} is not a threat cell {_cells(new)}"
            )
        if new & (new - 1):
            # double threat: the defender blocks one, the attacker must complete another next
            p = p.play(reply)
            if step + 2 != len(seq) - 1:
                raise IllegalMoveError(f"step {step + 3}: after a double threat the attacker completes four")
            last = seq[-1]
            if last not in _cells(new & ~(1 << reply)):
                raise IllegalMoveError(f"step {step + 3}: {last} does not complete four")
            p.play(last)
            return step // 2 + 2
        p = p.play(reply)
    raise IllegalMoveError("the sequence ends with a defender move; it must end with the completing move")
