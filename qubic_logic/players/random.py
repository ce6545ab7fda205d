"""``random``: a uniformly random legal move (a baseline opponent)."""

from __future__ import annotations

import random as _random

from ..position import Game
from .base import Move, register


@register("random", "uniformly random legal moves (baseline)")
class RandomPlayer:
    """Plays a random empty cell; ``seed`` makes it repeatable."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = _random.Random(seed)

    def choose(self, game: Game) -> Move:
        return Move(self._rng.choice(game.position.legal_moves()), "random move")
