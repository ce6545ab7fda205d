"""The bitboard core: native C extension against the pure-Python fallback, in one run.

* Threat scans per second: a batch looping inside the core (``threat_scan_batch``, the
  conversion of the Python list measured separately and subtracted), and one Python call
  per scan (``threat_cells``).
* Forced-win queries per second (docs/design.md §3, no length bound) on two fixed sets:
  positions where Patashnik's strategy needs a forced win (the strategy verifier's
  queries, long sequences and counter-threats; ``_positions.dictionary_queries``), and
  random mid-game positions whose side to move has no immediate win.

Each figure is the median of several timed runs; ratios are fallback time / native time.
"""

from __future__ import annotations

import statistics
import time
from typing import Callable

from rich.console import Console
from rich.table import Table

from .. import bitboard
from ..core import NATIVE
from ._positions import dictionary_queries, masks, random_prefixes

SCAN_SEED, DICT_SEED, RANDOM_SEED = 1, 11, 2


def _median_time(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def scan_rates(core, pairs: list[tuple[int, int]], scans: int, runs: int) -> dict[str, float]:
    """Threat scans per second, in a batch inside the core and per call from Python."""
    repeat = max(1, scans // len(pairs))
    convert = _median_time(lambda: core.threat_scan_batch(pairs, repeat=0), runs)
    batch = _median_time(lambda: core.threat_scan_batch(pairs, repeat=repeat), runs)
    f = core.threat_cells

    def per_call() -> None:
        for a, d in pairs:
            f(a, d)

    calls = _median_time(per_call, runs)
    return {
        "batch": len(pairs) * repeat / max(batch - convert, 1e-9),
        "per_call": len(pairs) / calls,
    }


def query_times(core, queries: list[tuple[int, int]], runs: int) -> list[float]:
    """Median seconds of each forced-win query."""
    f = core.forced_win
    return [_median_time(lambda a=a, d=d: f(a, d), runs) for a, d in queries]


def _rate(x: float) -> str:
    return f"{x / 1e6:,.2f} M/s" if x >= 1e6 else f"{x / 1e3:,.1f} k/s" if x >= 1e4 else f"{x:,.0f} /s"


def _secs(x: float) -> str:
    return f"{x * 1e6:,.1f} µs" if x < 1e-3 else f"{x * 1e3:,.2f} ms"


def run(console: Console, quick: bool = False) -> dict:
    """Measure and print; returns the figures (rates per second, times in seconds)."""
    results: dict = {"native": NATIVE is not None}
    if NATIVE is None:
        console.print("[yellow]the native core is not built: only the fallback could be measured; "
                      "build it with pip install -e . (needs a C compiler)[/yellow]")
        return results
    scan_positions = random_prefixes(SCAN_SEED, 200 if quick else 2000)
    pairs = [masks(p) for p in scan_positions] + [masks(p)[::-1] for p in scan_positions]
    runs = 3 if quick else 5
    nat_scans = scan_rates(NATIVE, pairs, 200_000 if quick else 4_000_000, runs)
    py_scans = scan_rates(bitboard, pairs, len(pairs), 1 if quick else 3)
    results["scans"] = {"native": nat_scans, "python": py_scans}

    table = Table(title=f"Threat scans per second ({len(pairs):,} seeded positions, both sides)")
    table.add_column("how")
    table.add_column("native", justify="right")
    table.add_column("python fallback", justify="right")
    table.add_column("ratio", justify="right")
    for key, label in (("batch", "batch, loop inside the core"), ("per_call", "one Python call per scan")):
        table.add_row(label, _rate(nat_scans[key]), _rate(py_scans[key]), f"{nat_scans[key] / py_scans[key]:,.0f}x")
    console.print(table)

    dict_positions = dictionary_queries(DICT_SEED, 12 if quick else 60)
    random_positions = [
        p for p in random_prefixes(RANDOM_SEED, 600 if quick else 3000) if not bitboard.threat_cells(*masks(p))
    ][: 60 if quick else 300]
    results["forced_win"] = {}
    for label, positions in (("strategy", dict_positions), ("random", random_positions)):
        queries = [masks(p) for p in positions]
        nat_t = query_times(NATIVE, queries, runs)
        py_t = query_times(bitboard, queries, 1 if quick else 3)
        lengths = [NATIVE.forced_win(a, d)[0] for a, d in queries]
        results["forced_win"][label] = {
            "queries": len(queries),
            "longest": max(lengths),
            "native_median": statistics.median(nat_t),
            "python_median": statistics.median(py_t),
            "native_per_s": len(queries) / sum(nat_t),
            "python_per_s": len(queries) / sum(py_t),
            "ratio_total": sum(py_t) / sum(nat_t),
            "ratio_median": statistics.median(p / n for p, n in zip(py_t, nat_t)),
        }
    table = Table(
        title="Forced-win queries (shortest win, no bound)",
        caption="strategy: positions where Patashnik's strategy needs a forced win; "
        "random: mid-game positions without an immediate win. Ratio: fallback time / native "
        "time, over the set and the median per query.",
    )
    table.add_column("")
    rows = results["forced_win"]
    for label in rows:
        table.add_column(label, justify="right")
    table.add_row("queries (longest win)", *(f"{r['queries']} ({r['longest']})" for r in rows.values()))
    table.add_row("native: median, rate",
                  *(f"{_secs(r['native_median'])}, {_rate(r['native_per_s'])}" for r in rows.values()))
    table.add_row("python: median, rate",
                  *(f"{_secs(r['python_median'])}, {_rate(r['python_per_s'])}" for r in rows.values()))
    table.add_row("ratio: set, median",
                  *(f"{r['ratio_total']:,.0f}x, {r['ratio_median']:,.0f}x" for r in rows.values()))
    console.print(table)
    console.print("targets: native >= 50x the fallback on forced-win queries; >= 10 M threat scans/s "
                  "inside the core")
    return results
