"""Force trees: how long growing and drawing take.

Grows the full force tree of McDaniel's trap (``1-2,22-52,27-4``, 731 nodes)
with every engine that runs here (``--quick`` skips asp), then large capped trees (20,000 nodes) of
seeded random positions with the bitboard cores, and times each renderer on
the 731-node tree. Engine start-up is not timed.

The force-graph part counts tree, graph (transpositions merged) and folded
(forced replies folded) nodes for the trap and seeded random positions, and
times the Graphviz layout ``POST /api/layout`` gives for a folded graph of about
2,000 nodes (median of three runs; the target is at most 1 s).
"""

from __future__ import annotations

import resource
import time

from rich.console import Console
from rich.table import Table

from ..engines import ENGINE_NAMES, get_engine
from ..errors import EngineUnavailableError
from ..forcegraph import fold_forced, force_graph
from ..forcetree import force_tree
from ..notation import parse_position
from ..position import Position
from ..render import FORMATS, render_tree
from ..render.layout import layout
from ._positions import random_prefixes

TRAP = "1-2,22-52,27-4"
BIG = 20000
LAYOUT_TREE_NODES = 4200  # a tree this big folds to 1,983 nodes (the layout service takes 2,000)
BOX = (118, 60)  # pixels: the Analyse page's node with its mini board


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

    graphs(console, quick)


def graphs(console: Console, quick: bool = False) -> dict:
    """Node counts (tree, graph, folded) and the layout time of a ~2,000-node folded graph."""
    counts = Table(title="force graphs: nodes of the tree, the graph (transpositions merged) and folded")
    for column in ("position", "tree", "graph", "folded", "folded/graph"):
        counts.add_column(column, justify="right")
    positions = [(TRAP, parse_position(TRAP))]
    positions += [(f"random {i + 1}", p) for i, p in enumerate(list(random_prefixes(4, 40, 10, 16))[:2 if quick else 5])]
    result: dict = {"counts": {}}
    for name, p in positions:
        tree = force_tree(p, max_nodes=BIG)
        graph = force_graph(tree)
        folded = fold_forced(graph)
        row = (tree.number_of_nodes(), graph.number_of_nodes(), folded.number_of_nodes())
        result["counts"][name] = row
        counts.add_row(name, *(f"{n:,}" for n in row), f"{row[2] / row[1]:.2f}")
    console.print(counts)
    big = fold_forced(force_tree(positions[1][1], max_nodes=LAYOUT_TREE_NODES))
    boxes = {n: BOX for n in big}
    runs, cpu = [], []
    for _ in range(1 if quick else 3):
        start, used = time.perf_counter(), _child_cpu()
        layout(boxes, big.edges())
        runs.append(time.perf_counter() - start)
        cpu.append(_child_cpu() - used)
    median, cpu_median = sorted(runs)[len(runs) // 2], sorted(cpu)[len(cpu) // 2]
    result["layout"] = {"nodes": big.number_of_nodes(), "seconds": median, "dot_cpu_seconds": cpu_median}
    console.print(f"Graphviz dot layout of a {big.number_of_nodes():,}-node folded graph: {median:.2f} s wall, "
                  f"{cpu_median:.2f} s of dot's CPU (medians of {len(runs)}; target at most 1 s; on a busy "
                  "machine the wall time also counts waiting for a core)")
    return result


def _child_cpu() -> float:
    """CPU seconds used so far by finished child processes (``dot``)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
