"""The opening book: lookups per second, and the same build on 1 and 2 workers (local and Dask).

The build is the 60-position book below Patashnik's ``x2x1x14o4o`` (O to move,
59 classes of replies, each an X win found by its own search). Each executor
builds it into a fresh file with one worker, then with two, in one run, so
the ratio compares like with like on a machine whose load changes. Lookups:
every entry of that book asked in 10 random orientations (canonical form,
SQLite primary key, best move mapped back), median of the single calls.
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
from ..executor import make_executor
from ..notation import parse_patashnik
from ..position import Position
from ..symmetry import TRANSFORMS, map_mask

ROOT = "x2x1x14o4o"


def timed_build(path: Path, kind: str, jobs: int) -> tuple[float, int]:
    """Wall seconds of a build from scratch (workers started before the clock), and positions settled."""
    with make_executor(kind, jobs) as executor:
        start = time.perf_counter()
        report = build_book(path, 6, root=parse_patashnik(ROOT), executor=executor)
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


def run(console: Console, quick: bool = False) -> None:
    folder = Path(tempfile.mkdtemp(prefix="qubic-book-bench-"))
    table = Table(title=f"book below {ROOT} to 6 stones (60 positions, 59 searches): same build, 1 and 2 workers")
    for column in ("executor", "1 worker s", "2 workers s", "speed-up", "settled"):
        table.add_column(column, justify="right")
    for kind in ("local",) if quick else ("local", "dask"):
        one, settled = timed_build(folder / f"{kind}-1.sqlite", kind, 1)
        two, _ = timed_build(folder / f"{kind}-2.sqlite", kind, 2)
        table.add_row(kind, f"{one:.2f}", f"{two:.2f}", f"{one / two:.2f}x", str(settled))
    console.print(table)
    times = lookup_times(folder / "local-1.sqlite", 3 if quick else 10)
    console.print(f"lookups: {len(times):,} (each entry in random orientations), median "
                  f"{statistics.median(times) * 1e3:.3f} ms, 90th percentile "
                  f"{sorted(times)[int(0.9 * len(times))] * 1e3:.3f} ms")
