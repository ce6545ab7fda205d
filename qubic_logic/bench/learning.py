"""Learning: Doake's program, training games per second against ``greedy`` (one core).

Three seeded runs of training into a fresh brain in a temporary folder (SQLite, one transaction
per game), and the time per game split by how full TEST is: the program slows down as it learns,
since SEARCH matches every pattern in every look-ahead. ``--quick``: fewer games.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..players.doake.store import Brain
from ..players.doake.train import train


def run(console: Console, quick: bool = False) -> dict:
    games, runs = (20, 1) if quick else (200, 3)
    rates: dict[str, list[float]] = {"first half": [], "second half": [], "all": []}
    learned = []
    with tempfile.TemporaryDirectory(prefix="qubic-bench-learn-") as tmp:
        for seed in range(runs):
            brain = Brain(Path(tmp, f"b{seed}.sqlite"), create=True)
            first = train(brain, "greedy", games // 2, seed=seed)
            second = train(brain, "greedy", games - games // 2, seed=seed)
            rates["first half"].append(first.games_per_second)
            rates["second half"].append(second.games_per_second)
            rates["all"].append((first.played + second.played) / (first.seconds + second.seconds))
            learned.append(brain.tables().learned())
            brain.close()
    table = Table(title=f"training games per second v greedy ({runs} seeded runs of {games} games, fresh brain)")
    for column in ("games", "median games/s", "min", "max"):
        table.add_column(column, justify="right")
    for name, values in rates.items():
        table.add_row(name, f"{statistics.median(values):.1f}", f"{min(values):.1f}", f"{max(values):.1f}")
    console.print(table)
    console.print(f"patterns learned per run: {learned} (TEST holds 28 learned columns, SUTEST 20)")
    return {k: statistics.median(v) for k, v in rates.items()}
