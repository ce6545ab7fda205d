"""The opening book: lookups per second, and the same build on 1 and 2 workers (local and Dask).

The build is the 38-position book to 4 stones below ``moves:1,21,0`` (X's
weak opening, O's reply 21, X's corner: O to move, 37 classes of replies, each
searched with a budget of 1 s: about 20 s in all on one quiet core, 25 of them
won). The budget keeps the searches of similar size, so that two workers can
halve the time: a book's speed-up is bounded by its largest search (in the
60-position book of the tests one search takes most of the time, and no
worker count helps). Each executor builds
it into a fresh file with one worker, then with two, in one run, so the ratio
compares like with like on a machine whose load changes. Lookups:
every entry of that book asked in 10 random orientations (canonical form,
SQLite primary key, best move mapped back), median of the single calls.
Per-position search times (the full run): X-to-move positions after 4 and
after 6 seeded random moves, each searched as a book build would, with a
budget — the figures behind docs/book.md's cost estimates for N = 4 and 6.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..book import OpeningBook, build_book
from ..book.build import DEFAULT_MEMORY
from ..book.unit import solve_position_unit
from ..executor import make_executor
from ..notation import format_patashnik, parse_position
from ..position import Position
from ..symmetry import TRANSFORMS, map_mask

ROOT = "moves:1,21,0"
STONES = 4
BUDGET = 1.0  # seconds per search: similar sizes, so that the build can scale


def timed_build(path: Path, kind: str, jobs: int) -> tuple[float, int]:
    """Wall seconds of a build from scratch (workers started before the clock), and positions settled."""
    with make_executor(kind, jobs) as executor:
        start = time.perf_counter()
        report = build_book(path, STONES, root=parse_position(ROOT), executor=executor, budget=BUDGET)
        return time.perf_counter() - start, report.settled


def lookup_times(path: Path, repeats: int = 10, seed: int = 1) -> list[float]:
    """Seconds per :meth:`OpeningBook.lookup` of every entry in ``repeats`` random orientations."""
    rng = random.Random(seed)
    times = []
    with OpeningBook.open(path) as book:
        positions = [e.position for e in book.entries()]
        queries = []
        for p in positions:
            for _ in range(repeats):
                t = rng.randrange(len(TRANSFORMS))
                queries.append(Position(map_mask(t, p.x), map_mask(t, p.o)))
        for q in queries:
            start = time.perf_counter()
            book.lookup(q)
            times.append(time.perf_counter() - start)
    return times


def search_times(stones: int, count: int, budget: float, seed: int = 1) -> list[tuple[str, str, int, float]]:
    """``(position, status, nodes, seconds)`` of ``count`` positions after ``stones`` seeded random moves."""
    rng = random.Random(seed)
    units = []
    for _ in range(count):
        p = Position()
        for _ in range(stones):
            p = p.play(rng.choice(p.legal_moves()))
        units.append((format_patashnik(p), budget, DEFAULT_MEMORY, None, None))
    with make_executor("local") as executor:
        return [(units[i][0], r.status, r.nodes, r.seconds) for i, r in executor.run(solve_position_unit, units)]


def run(console: Console, quick: bool = False) -> None:
    folder = Path(tempfile.mkdtemp(prefix="qubic-book-bench-"))
    table = Table(title=f"book below {ROOT} to {STONES} stones (38 positions, 37 searches of at most {BUDGET:g} s): "
                        "same build, 1 and 2 workers")
    for column in ("executor", "1 worker s", "2 workers s", "speed-up", "settled"):
        table.add_column(column, justify="right")
    for kind in ("local",) if quick else ("local", "dask"):
        one, settled = timed_build(folder / f"{kind}-1.sqlite", kind, 1)
        two, _ = timed_build(folder / f"{kind}-2.sqlite", kind, 2)
        table.add_row(kind, f"{one:.2f}", f"{two:.2f}", f"{one / two:.2f}x", str(settled))
    console.print(table)
    times = lookup_times(folder / "local-1.sqlite", 3 if quick else 10)
    if not quick:
        sample = Table(title="per-position searches (X to move after seeded random moves; budget 60 s)")
        for column in ("stones", "won", "open", "seconds of the won", "nodes/s"):
            sample.add_column(column, justify="right")
        for stones in (4, 6):
            found = search_times(stones, 8, 60.0)
            won = sorted(s for _, status, _, s in found if status == "won")
            rate = sum(n for *_, n, _ in found) / max(sum(s for *_, s in found), 1e-9)
            sample.add_row(str(stones), str(len(won)), str(len(found) - len(won)),
                           " ".join(f"{s:.1f}" for s in won), f"{rate:,.0f}")
        console.print(sample)
    console.print(f"lookups: {len(times):,} (each entry in random orientations), median "
                  f"{statistics.median(times) * 1e3:.3f} ms, 90th percentile "
                  f"{sorted(times)[int(0.9 * len(times))] * 1e3:.3f} ms")
