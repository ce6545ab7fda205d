"""Players: time per move of every registered player on a seeded set of positions.

The positions are every position of seeded games between two ``greedy``
players (seeds 0..3; 2 with ``--quick``), so both sides to move, quiet and
tactical; each player chooses once in each. The dictionary of
``patashnik``/``solver`` is loaded before timing.
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.table import Table

from ..match import play_game
from ..players import get_player, player_names
from ..position import Game
from ..strategy import patashnik_dictionary


def positions(games: int) -> list[Game]:
    """Every unfinished position of ``games`` seeded greedy-v-greedy games.

    >>> len(positions(1)) > 10
    True
    """
    out = []
    for seed in range(games):
        moves = play_game("greedy", "greedy", seed=seed).moves
        out += [Game(moves[:n]) for n in range(len(moves))]
    return out


def run(console: Console, quick: bool = False) -> None:
    patashnik_dictionary()
    games = positions(2 if quick else 4)
    table = Table(title=f"time per move on {len(games)} positions of seeded greedy-v-greedy games")
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
