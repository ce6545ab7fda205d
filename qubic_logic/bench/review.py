"""Review: how long annotating every move of a 40-move game takes (target: at most 1 s).

Seeded games between ``greedy`` and ``random`` (both sides, then random against
random) are cut to their first 40 moves, up to 10 games (``--quick``: 3); each is reviewed
with :func:`qubic_logic.review.review`, and the median and slowest seconds per game are reported
beside the target.
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.table import Table

from ..match import play_game
from ..position import Game
from ..review import review

MOVES = 40
TARGET = 1.0  # seconds per 40-move game


def games(count: int) -> list[Game]:
    """Up to ``count`` seeded games of at least :data:`MOVES` moves, cut to :data:`MOVES`."""
    found = []
    for seed in range(500):
        pair = (("greedy", "random"), ("random", "greedy"), ("random", "random"))[seed % 3]
        record = play_game(*pair, seed=seed)
        if record.length >= MOVES:
            found.append(Game(record.moves[:MOVES]))
        if len(found) == count:
            break
    return found


def run(console: Console, quick: bool = False) -> dict:
    reviewed = games(3 if quick else 10)
    seconds = []
    for game in reviewed:
        start = time.perf_counter()
        review(game)
        seconds.append(time.perf_counter() - start)
    table = Table(title=f"review of {len(reviewed)} seeded {MOVES}-move games")
    for column in ("games", "median s/game", "slowest s/game", "target s/game", "median / target"):
        table.add_column(column, justify="right")
    median = statistics.median(seconds)
    table.add_row(str(len(reviewed)), f"{median:.3f}", f"{max(seconds):.3f}", f"{TARGET:g}", f"{median / TARGET:.2f}")
    console.print(table)
    return {"games": len(reviewed), "median": median, "slowest": max(seconds)}
