"""Strategy verification and solving: Patashnik's dictionary checked end to end, and solves.

The first table verifies Patashnik's dictionary from the empty board (wall time,
positions per second) on one core and on every core; the full run also re-checks
all forced-win witnesses with the ASP rules. The second solves a fixed set of
positions whose results are known (positions of Patashnik's tree are X wins by
his proof; the others are settled by construction) and verifies every strategy found.
"""

from __future__ import annotations

import os
import time

from rich.console import Console
from rich.table import Table

from ..notation import parse_patashnik, parse_position
from ..position import Position
from ..strategy import patashnik_dictionary
from ..proof.solve import solve
from ..strategy.verify import verify
from ..strategy.witness_check import check_witnesses

# (name, position, known result)
SOLVES: tuple[tuple[str, Position, str], ...] = (
    ("McDaniel's trap 1-2,22-52,27-4", parse_position("1-2,22-52,27-4"), "won"),
    ("two O threes, X to move", Position.from_cells([32, 0, 58, 1, 21, 2, 10, 16, 39, 17, 5, 18]), "not won"),
    ("Patashnik x2x1o6x14o20o", parse_patashnik("x2x1o6x14o20o"), "won"),
    ("Patashnik x2x1o6o20o14x", parse_patashnik("x2x1o6o20o14x"), "won"),
    ("colours swapped, O to move", parse_patashnik("o2o1x6o14x20x13x"), "won"),
    ("Patashnik x2x16o4o (4 marks)", parse_patashnik("x2x16o4o"), "won"),
)


def run(console: Console, quick: bool = False) -> None:
    d = patashnik_dictionary()
    table = Table(title="Patashnik's dictionary (2,929 moves) verified from the empty board")
    for column in ("cores", "witness", "positions", "forced wins", "longest", "seconds", "positions/s"):
        table.add_column(column, justify="right")
    cores = os.cpu_count() or 1
    result = None
    # the shortest witnesses (qubic verify dictionary), then the first found (qubic book verify, one core a proof)
    runs = [(cores, True)] if quick else [*((jobs, True) for jobs in sorted({1, cores})), (1, False)]
    for jobs, shortest in runs:
        found = verify(d, jobs=jobs, shortest=shortest)
        if found.verdict != "verified":
            raise RuntimeError(f"Patashnik's dictionary: {found.verdict}, expected verified")
        result = found if shortest else result
        table.add_row(str(jobs), "shortest" if shortest else "first", f"{found.positions:,}",
                      f"{found.by_rule['forced']:,}", str(found.longest) if shortest else "",
                      f"{found.seconds:.1f}", f"{found.positions / found.seconds:,.0f}")
    console.print(table)
    if not quick and result is not None:
        start = time.perf_counter()
        rejected = check_witnesses(result.witnesses, "asp", jobs=cores)
        console.print(f"certificate re-checked with the ASP rules (rules/witness.lp): "
                      f"{len(result.witnesses):,} witnesses, {len(rejected)} rejected, "
                      f"{time.perf_counter() - start:.1f} s on {cores} cores")

    solves = Table(title="proof-number solves of positions with known results (strategies verified)")
    for column in ("position", "known", "found", "nodes", "seconds", "strategic", "verified"):
        solves.add_column(column, justify="right")
    for name, position, known in SOLVES[:4] if quick else SOLVES:
        r = solve(position, time_limit=300)
        verified = verify(r.strategy, position, jobs=1).verdict if r.strategy is not None else "-"
        solves.add_row(name, known, r.status, f"{r.nodes:,}", f"{r.seconds:.2f}", str(r.strategy_size), verified)
    console.print(solves)
