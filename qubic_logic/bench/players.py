"""Players: time per move of every registered player on a seeded set of positions.

The positions are :func:`~._positions.random_prefixes` (seed 6, 6..40 marks,
both sides to move); each player chooses once in each. The dictionary of
``patashnik``/``solver`` is loaded before timing.
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.table import Table

from ..players import get_player, player_names
from ..position import Game
from ..strategy import patashnik_dictionary
from ._positions import random_prefixes


def _game(position) -> Game:
    """A game reaching ``position`` (X and O marks interleaved in cell order)."""
    xs = [c for c in range(64) if position.x >> c & 1]
    os_ = [c for c in range(64) if position.o >> c & 1]
    moves = [c for pair in zip(xs, os_) for c in pair] + xs[len(os_):]
    return Game(moves)


def run(console: Console, quick: bool = False) -> None:
    patashnik_dictionary()
    games = [_game(p) for p in random_prefixes(6, 10 if quick else 40)]
    table = Table(title=f"time per move on {len(games)} seeded random positions")
    for column in ("player", "median ms", "mean ms", "max ms"):
        table.add_column(column, justify="right")
    for name in player_names():
        player = get_player(name)
        times = []
        for g in games:
            start = time.perf_counter()
            player.choose(g)
            times.append((time.perf_counter() - start) * 1000)
        table.add_row(name, f"{statistics.median(times):.2f}", f"{statistics.fmean(times):.2f}",
                      f"{max(times):.2f}")
    console.print(table)
