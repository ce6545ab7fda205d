"""Solving: the native df-pn search against the Python reference, and the empty board.

The first table solves the positions of the ``verify`` section's solve set with
both searches in one run: positions evaluated, seconds, positions per second
(whole solve, and the search alone without the threat-sequence leaves), the
share of time spent in leaves, memory per position (Python: traced allocations;
native: the table entry and the table size), and the whole-solve speed-up, whose
median over the non-trivial positions is printed. The full run then proves X's
win from the empty board in one native search and reports its time and the
strategy's size (extracted, then minimised and verified), with the minimising pass's time
by phase (verifying, proof graph, choosing).
"""

from __future__ import annotations

import os
import statistics
import time
import tracemalloc
from types import ModuleType

from rich.console import Console
from rich.table import Table

from ..core import core_module
from ..notation import parse_position
from ..proof.solve import ProofNumberSearch, solve
from ..proof.split import phase_summary, polish
from .verify import SOLVES

EMPTY_TIME_LIMIT = 1800.0
EMPTY_MEMORY_MB = 8192.0


class _TimedCore:
    """A core whose forced-win searches are timed (the Python search's leaf time)."""

    def __init__(self, core: ModuleType) -> None:
        self._core = core
        self.seconds = 0.0
        self.calls = 0

    def forced_win(self, *args):
        start = time.perf_counter()
        try:
            return self._core.forced_win(*args)
        finally:
            self.seconds += time.perf_counter() - start
            self.calls += 1

    def __getattr__(self, name: str):
        return getattr(self._core, name)


def _python_solve(position):
    search = ProofNumberSearch()
    timed = search.core = _TimedCore(core_module())
    r = solve(position, time_limit=300, search=search)
    return r, timed.seconds


def _native_solve(position):
    r = solve(position, time_limit=300, method="native")
    return r, r.extra["leaf_seconds"]


def _python_bytes_per_node(position) -> float:
    tracemalloc.start()
    r = solve(position, time_limit=300, method="python")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / max(r.nodes, 1)


def _timed(solver, position):
    """``(result, leaf seconds, wall seconds, CPU seconds)`` of one solve."""
    wall, cpu = time.perf_counter(), time.process_time()
    r, leaf = solver(position)
    return r, leaf, time.perf_counter() - wall, time.process_time() - cpu


def run(console: Console, quick: bool = False) -> None:
    table = Table(title="proof-number search: native df-pn (C) against the Python reference, one run; "
                        "nodes/s per CPU second, search nodes/s per wall second without the leaves' time, bytes per table entry (C) "
                        "or traced per node (Py)")
    for column in ("position", "solver", "nodes", "CPU s", "nodes/s", "search nodes/s", "leaves", "bytes/node",
                   "speed-up"):
        table.add_column(column, justify="right")
    ratios, cpu_ratios, search_rates = [], [], []
    for _name, position, _known in SOLVES[2:4]:  # warm up both (first calls pay for imports and tables)
        _timed(_native_solve, position), _timed(_python_solve, position)
    for name, position, _known in SOLVES:
        native, n_leaf, n_wall, n_cpu = _timed(_native_solve, position)
        python, p_leaf, p_wall, p_cpu = _timed(_python_solve, position)
        wall_ratio, cpu_ratio = p_wall / max(n_wall, 1e-9), p_cpu / max(n_cpu, 1e-9)
        if native.nodes > 10:
            ratios.append(wall_ratio)
            cpu_ratios.append(cpu_ratio)
            search_rates.append(native.nodes / max(n_wall - n_leaf, 1e-9))
        e = native.extra
        for solver, r, leaf, wall, cpu, size, speed in (
            ("C", native, n_leaf, n_wall, n_cpu, f"{e['entry_bytes']}", f"{cpu_ratio:.1f}x"),
            ("Py", python, p_leaf, p_wall, p_cpu, "-" if quick else f"{_python_bytes_per_node(position):,.0f}", ""),
        ):
            table.add_row(name.split(" ")[-1][:12] if solver == "C" else "", solver, f"{r.nodes:,}", f"{cpu:.3f}",
                          f"{r.nodes / max(cpu, 1e-9):,.0f}", f"{r.nodes / max(wall - leaf, 1e-9):,.0f}",
                          f"{leaf / max(wall, 1e-9):.0%}", size, speed)
    console.print(table)
    if ratios:
        console.print(f"median whole-solve speed-up, native over Python, on {len(ratios)} non-trivial positions: "
                      f"{statistics.median(ratios):.1f}x wall clock, {statistics.median(cpu_ratios):.1f}x CPU time "
                      f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); the C search "
                      f"outside its leaves: {min(search_rates):,.0f}-{max(search_rates):,.0f} nodes/s "
                      f"(target 1,000,000)")
    if quick:
        return
    empty = parse_position("empty")
    r = solve(empty, time_limit=EMPTY_TIME_LIMIT, memory_limit=EMPTY_MEMORY_MB)
    if r.status != "won":
        console.print(f"empty board: {r.status} ({r.stopped_by}) after {r.nodes:,} nodes, {r.seconds:.0f} s")
        return
    start = time.perf_counter()
    extra: dict = {}
    strategy = polish(r.strategy, empty, extra)
    console.print(f"empty board: X wins, proved in one search: {r.nodes:,} nodes, {r.seconds:.0f} s "
                  f"({r.extra['leaf_seconds']:.0f} s in leaves), {EMPTY_MEMORY_MB:,.0f} MB table; strategy "
                  f"{r.strategy_size:,} strategic positions extracted, "
                  f"{len(strategy) if strategy is not None else '-'} minimised ({extra.get('verified')}, "
                  f"{time.perf_counter() - start:.0f} s)")
    console.print(f"empty board: the minimising pass by phase: {phase_summary(extra['phases'])}")
