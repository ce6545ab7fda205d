"""Force trees: how long growing and drawing take.

Grows the full force tree of McDaniel's trap (``1-2,22-52,27-4``, 731 nodes)
with every engine that runs here (``--quick`` skips asp), then large capped trees (20,000 nodes) of
seeded random positions with the bitboard cores, and times each renderer on
the 731-node tree. Engine start-up is not timed.
"""

from __future__ import annotations

import time

from rich.console import Console
from rich.table import Table

from ..engines import ENGINE_NAMES, get_engine
from ..errors import EngineUnavailableError
from ..forcetree import force_tree
from ..notation import parse_position
from ..position import Position
from ..render import FORMATS, render_tree
from ._positions import random_prefixes

TRAP = "1-2,22-52,27-4"
BIG = 20000


def grow(engine_name: str, position: Position, **options) -> tuple[int, float]:
    """(nodes, seconds) to grow the tree of ``position`` with one engine."""
    engine = get_engine(engine_name)
    engine.threats(Position())  # start-up is not timed
    start = time.perf_counter()
    tree = force_tree(position, engine=engine, **options)
    return tree.number_of_nodes(), time.perf_counter() - start


def run(console: Console, quick: bool = False) -> None:
    trap = parse_position(TRAP)
    table = Table(title=f"force tree of {TRAP} (full tree)")
    for column in ("engine", "nodes", "seconds", "nodes/s"):
        table.add_column(column, justify="right")
    for name in (n for n in ENGINE_NAMES if n != "auto" and not (quick and n == "asp")):
        try:
            nodes, seconds = grow(name, trap)
        except EngineUnavailableError as exc:
            table.add_row(name, "-", "-", str(exc)[:40])
            continue
        table.add_row(name, str(nodes), f"{seconds:.3f}", f"{nodes / seconds:,.0f}")
    console.print(table)

    big = Table(title=f"large trees: seeded random positions, cap {BIG:,} nodes")
    for column in ("engine", "trees", "nodes", "seconds", "nodes/s"):
        big.add_column(column, justify="right")
    positions = [p for p in random_prefixes(4, 40, 10, 16)][: 2 if quick else 6]
    for name in ("native", "python"):
        try:
            runs = [grow(name, p, max_nodes=BIG) for p in positions]
        except EngineUnavailableError:
            continue
        nodes, seconds = sum(n for n, _ in runs), sum(s for _, s in runs)
        big.add_row(name, str(len(runs)), f"{nodes:,}", f"{seconds:.2f}", f"{nodes / seconds:,.0f}")
    console.print(big)

    tree = force_tree(trap)
    drawing = Table(title=f"renderers on the {tree.number_of_nodes()}-node tree")
    for column in ("format", "bytes", "seconds"):
        drawing.add_column(column, justify="right")
    for fmt in FORMATS:
        start = time.perf_counter()
        size = len(render_tree(tree, fmt))
        drawing.add_row(fmt, f"{size:,}", f"{time.perf_counter() - start:.3f}")
    console.print(drawing)
