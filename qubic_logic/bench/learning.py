"""Learning: Doake's program, training games per second against ``greedy`` (one core).

Three seeded runs of 400 training games into a fresh brain in a temporary folder (SQLite, one
transaction per game, as ``qubic learn`` does), each game timed (wall clock, and CPU time of this
process, which other jobs on a shared machine do not inflate) and counted under "TEST filling"
until the game that fills TEST (32 columns) and under "TEST full" after it: the program slows
down as it learns, since SEARCH matches every pattern in every look-ahead. Then, from each run's
full brain, the same 20 seeded games are played with the native matcher and with the Python
reference (search.py's ``python_*``): they must be the same games leaving the same tables, and
the ratio of the two times is what the native matcher buys. ``--quick``: one run of 40 games.
"""

from __future__ import annotations

import copy
import os
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..players.doake.search import NATIVE, python_matcher
from ..players.doake.store import Brain, GameRow
from ..players.doake.tables import TEST_SIZE, Tables
from ..players.doake.train import play_and_learn, train

OPPONENT = "greedy"


def _full_at(tables: Tables) -> int | None:
    """The game that filled TEST, or None while it has room."""
    return max(e.game or 0 for e in tables.tests) if len(tables.tests) >= TEST_SIZE else None


def _replay(tables: Tables, first: int, games: int, seed: int) -> tuple[float, list, Tables]:
    """Seconds, games and final tables of ``games`` training games from game ``first`` (no brain file)."""
    tables = copy.deepcopy(tables)
    start = time.perf_counter()
    moves = [list(play_and_learn(tables, OPPONENT, n, seed)[0].moves) for n in range(first, first + games)]
    return time.perf_counter() - start, moves, tables


def run(console: Console, quick: bool = False) -> dict:
    games, runs, replayed = (40, 1, 3) if quick else (400, 3, 20)
    rates: dict[str, list[float]] = {"TEST filling": [], "TEST full": [], "all": []}
    cpu_rates: dict[str, list[float]] = {name: [] for name in rates}
    ratios, full_at, load = [], [], [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory(prefix="qubic-bench-learn-") as tmp:
        for seed in range(runs):
            brain = Brain(Path(tmp, f"b{seed}.sqlite"), create=True)
            times: list[tuple[float, float]] = []  # (wall, CPU) seconds per game
            last = (time.perf_counter(), time.process_time())

            def tick(row: GameRow) -> None:
                nonlocal last
                now = (time.perf_counter(), time.process_time())
                times.append((now[0] - last[0], now[1] - last[1]))
                last = now

            summary = train(brain, OPPONENT, games, seed=seed, progress=tick)
            tables = brain.tables()
            brain.close()
            full = _full_at(tables)
            full_at.append(full)
            cut = full if full is not None else len(times)
            for name, part in (("TEST filling", times[:cut]), ("TEST full", times[cut:]), ("all", times)):
                if part:
                    rates[name].append(len(part) / sum(wall for wall, _ in part))
                    cpu_rates[name].append(len(part) / max(sum(cpu for _, cpu in part), 1e-9))
            if NATIVE is not None:
                native = _replay(tables, summary.played + 1, replayed, seed)
                with python_matcher():
                    python = _replay(tables, summary.played + 1, replayed, seed)
                if native[1] != python[1] or native[2] != python[2]:
                    raise AssertionError(f"seed {seed}: the native matcher and the Python reference "
                                         "played different games")
                ratios.append(python[0] / native[0])
    load.append(os.getloadavg()[0])
    table = Table(title=f"training games per second v {OPPONENT} ({runs} seeded runs of {games} games, "
                        "fresh brain, SQLite)")
    for column in ("games", "median games/s", "min", "max", "median games/CPU-s"):
        table.add_column(column, justify="right")
    for name, values in rates.items():
        cells = ((f"{statistics.median(values):.1f}", f"{min(values):.1f}", f"{max(values):.1f}",
                  f"{statistics.median(cpu_rates[name]):.1f}") if values else ("-",) * 4)
        table.add_row(name, *cells)
    console.print(table)
    console.print(f"TEST full after game {full_at} (per run; None: not yet)")
    result = {k: statistics.median(v) if v else None for k, v in rates.items()}
    result.update({f"{k} (CPU)": statistics.median(v) if v else None for k, v in cpu_rates.items()})
    if ratios:
        result["native speed-up"] = statistics.median(ratios)
        console.print(f"native matcher v the Python reference on the same {replayed} games from each run's "
                      f"brain (same games, same tables): {statistics.median(ratios):.1f}x faster "
                      f"(median; per run {', '.join(f'{r:.1f}' for r in ratios)})")
    else:
        console.print("native matcher not built (or QUBIC_CORE=python): these are the Python reference's rates")
    console.print(f"load average (1 min) {load[0]:.1f} before, {load[1]:.1f} after, on {os.cpu_count()} cores")
    return result
