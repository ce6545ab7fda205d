"""Engines compared: median latency of forced-win queries per engine, and each engine's ratio to native.

The positions are fixed: seeded random game prefixes (``_positions.random_prefixes``)
whose minimal forced-win length, computed by the active core, is 1 to 7; a few of each
length. Every engine answers the same query (no length bound) and must find the same
length; times include everything a user waits for except starting the engine (the
first query of each engine is not timed). Targets: clingo and Prolog medians
under 1 s at lengths <= 5 and under 5 s at 6-7. A last row (not with ``--quick``) takes
positions where Patashnik's strategy needs a forced win of length 8 or more
(``_positions.dictionary_queries``).
"""

from __future__ import annotations

import statistics
import time

from rich.console import Console
from rich.table import Table

from ..core import NATIVE, shortest_forced_win
from ..engines import get_engine
from ..position import Position
from ._positions import dictionary_queries, random_prefixes

SEED = 3
LENGTHS = range(1, 8)


def positions_by_length(per_length: int, seed: int = SEED) -> dict[int, list[Position]]:
    """Up to ``per_length`` seeded positions for each minimal length 1..7 (as the active core finds)."""
    found: dict[int, list[Position]] = {n: [] for n in LENGTHS}
    batch = 0
    while any(len(v) < per_length for v in found.values()) and batch < 40:
        for p in random_prefixes(seed * 1000 + batch, 200):
            n = shortest_forced_win(p, max_length=max(LENGTHS)).length
            if n and len(found[n]) < per_length:
                found[n].append(p)
        batch += 1
    return found


def long_positions(count: int) -> list[Position]:
    """Up to ``count`` strategy positions whose minimal forced win has length 8 or more."""
    try:
        found = dictionary_queries(12, 40, blocks=False)
    except LookupError:  # the dictionary is not shipped
        return []
    return [p for p in found if (shortest_forced_win(p).length or 0) >= 8][:count]


def engine_times(name: str, sets: dict) -> dict:
    """Median seconds per query of engine ``name`` for each length; checks every answer."""
    engine = get_engine(name)
    engine.shortest_forced_win(Position())  # start-up (loading rules) is not timed
    medians = {}
    for n, ps in sets.items():
        times = []
        for p in ps:
            start = time.perf_counter()
            win = engine.shortest_forced_win(p)
            times.append(time.perf_counter() - start)
            known = n if isinstance(n, int) else shortest_forced_win(p).length
            if win.length != known:
                raise AssertionError(f"{name} finds length {win.length} where the core finds {known}: {p}")
        if times:
            medians[n] = statistics.median(times)
    return medians


def run(console: Console, quick: bool = False) -> None:
    sets: dict = positions_by_length(2 if quick else 6)
    if not quick:
        sets["8+ *"] = long_positions(6)
    names = (["native"] if NATIVE is not None else []) + ["python", "asp", "prolog"]
    results = {name: engine_times(name, sets) for name in names}
    base = "native" if NATIVE is not None else "python"
    table = Table(title=f"forced-win queries: median ms by minimal length (ratio to {base})",
                  caption=None if quick else "* positions where Patashnik's strategy needs a long forced win")
    table.add_column("length", justify="right")
    table.add_column("positions", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for n, ps in sets.items():
        if not ps:
            continue
        cells = []
        for name in names:
            ms = results[name][n] * 1000
            ratio = results[name][n] / results[base][n]
            cells.append(f"{ms:.2f}" if name == base else f"{ms:.1f} ({ratio:.0f}x)")
        table.add_row(str(n), str(len(ps)), *cells)
    console.print(table)
