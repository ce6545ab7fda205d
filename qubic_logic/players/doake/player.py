"""``doake``: M. J. Doake's "Score 4" (St Andrews, 1972), the learning program of seed 001.

It sees the board as line sums (its counters 5, the opponent's 1) and plays,
in this order (digest §8): a three (complete its own, else block), the key
square of the first TEST pattern on the board (either colour), a random
strong square as its first move, then the better of an opponent and a
computer look-ahead, SUGOAL and the counter scoring method. Without a brain
it knows only the rule book (four and three in a row); ``brain=FILE`` plays
with the patterns a ``qubic learn`` run stored (read-only: match and reply
never change a brain). With ``learn=on`` a game of ``qubic play`` teaches
the brain (created when absent) as a training game does: the backtrack
analysis runs when the game ends and the game is stored with its lesson.
``reading=literal`` keeps the listing's bugs where they change play; ``seed``
draws the first strong square.

Explanations cite squares as cells, which the user's notation names (Doake's
1..64 numbering is the ``number`` notation).

>>> from qubic_logic.position import Game
>>> DoakePlayer(seed=1).choose(Game([0, 21, 1, 42, 2])).explain("number")
"blocks the opponent's three on line 1 (square 4)"
"""

from __future__ import annotations

import os
import random

from ...errors import QubicError
from ...position import Game
from ...saving import check_writable
from ..base import Move, register
from .backtrack import analyse
from .board import Board
from .select import Choice, Selector
from .store import Brain, GameRow, result_for
from .tables import Tables

READINGS = ("plausible", "literal")


def check_reading(reading: str) -> bool:
    """Whether ``reading`` is literal; an unknown reading is an error."""
    if reading not in READINGS:
        raise QubicError(f"doake reading {reading!r} is unknown; expected reading=plausible or reading=literal")
    return reading == "literal"


def choose(selector: Selector, game: Game) -> Choice:
    """Doake's choice for the side to move of ``game`` (square 1..64)."""
    p = game.position
    board = Board.from_position(p, p.to_move)
    own = len(game.moves[0 if p.to_move == "x" else 1 :: 2])
    return selector.choose(board, own)


@register("doake", "Doake's 1972 Score 4: learned line-sum patterns, look-aheads (seed 001); brain=FILE")
class DoakePlayer:
    """Doake's program with a stored brain (or the rule book); see the module docstring."""

    name = "doake"

    def __init__(self, brain: str | None = None, reading: str = "plausible", seed: int | None = None,
                 learn: str = "off") -> None:
        literal = check_reading(reading)
        if learn not in ("on", "off"):
            raise QubicError(f"doake option learn={learn!r}: expected learn=on or learn=off")
        self.brain, self.reading, self.learn = brain, reading, learn == "on"
        if self.learn and brain is None:
            raise QubicError("doake option learn=on needs a brain to learn into; expected doake:brain=FILE,learn=on")
        if self.learn:
            check_writable(brain)
        tables = Tables()
        if brain is not None and (not self.learn or os.path.exists(brain)):
            store = Brain(str(brain))
            try:
                tables = store.tables()
            finally:
                store.close()
        self.selector = Selector(tables, literal, random.Random(seed))

    def choose(self, game: Game) -> Move:
        choice = choose(self.selector, game)
        return Move.citing(choice.square - 1, choice.why, *(square - 1 for square in choice.squares))

    def game_over(self, game: Game, side: str, opponent: str) -> str | None:
        """With ``learn=on``: analyse the finished ``game`` (played as ``side``) into the brain.

        The brain's tables are read again first, so games another process stored
        meanwhile are kept; the game and its lesson are one transaction.
        """
        if not self.learn:
            return None
        store = Brain(str(self.brain), create=True, wait=30.0)  # another game may be writing its lesson
        try:
            tables = store.tables()
            number = store.game_count() + 1
            p = game.position
            lesson = analyse(p, list(game.moves), side, tables, number, self.reading == "literal")
            store.record_game(GameRow(number, opponent, side, list(game.moves), result_for(p, side), None,
                                      lesson.summary(),
                                      tables.learned()), tables, self.reading)
        finally:
            store.close()
        return f"learned from game {number} of {self.brain}: {lesson.summary()}"
