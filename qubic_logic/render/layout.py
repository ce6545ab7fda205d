"""Graphviz ``dot`` as a layout engine: node boxes in, positions and edge curves out.

A client of ``POST /api/layout`` that draws a graph of its own sends the
boxes it is about to draw and gets back where ``dot`` puts them (layered:
each step one rank further from the root) and the curves of the edges, in the
same units (CSS pixels), with y growing downwards as on a screen. (The site's
own pages lay out their force graphs in the browser, ``forcegraph.js``.)

>>> laid = layout({0: (80, 40), 1: (80, 40), 2: (80, 40)}, [(0, 1), (0, 2)])
>>> laid.nodes[0][1] < laid.nodes[1][1] == laid.nodes[2][1], laid.edges[(0, 1)].startswith('M')
(True, True)

What ``dot`` costs grows with the boxes, the edges and the ranks each edge
crosses (an edge from rank 0 to rank 9 is nine segments, each laid out like a
box), so a graph is checked against :data:`MAX_NODES`, :data:`MAX_EDGES` and
:data:`MAX_SEGMENTS` before ``dot`` sees it, and ``dot``'s network simplex
passes are capped at one iteration per box (``nslimit``, ``nslimit1``; force
graphs settle in fewer). ``python -m qubic_logic.bench layout`` times the
hardest graphs within these bounds.

>>> check_graph({0: (80, 40), 1: (80, 40), 2: (80, 40)}, [(0, 1), (1, 2), (0, 2)])
4
>>> check_graph({0: (80, 40), 1: (80, 40)}, [(0, 1), (1, 0)])
Traceback (most recent call last):
...
qubic_logic.render.layout.GraphError: edges: the edges make a cycle through node 0; expected edges that go one way, from a position to the positions after it
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import QubicError
from .dot import run_dot

POINTS_PER_INCH = 72
MAX_NODES = 2000  # boxes in one layout
MAX_EDGES = 4000
MAX_SEGMENTS = 5000  # edge segments: each edge counted once per rank it crosses
MAX_ID = 2**31 - 1
DOT_LIMITS = "nslimit=1 nslimit1=1"  # network simplex: at most one iteration per box


class GraphError(QubicError):
    """A graph that cannot be laid out as asked; ``field`` names the part at fault (nodes or edges)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


@dataclass
class Layout:
    """Node centres (x, y), edge paths (SVG ``d``) and the drawing's size."""

    nodes: dict[int, tuple[float, float]]
    edges: dict[tuple[int, int], str]
    width: float
    height: float


def boxes_of(nodes: Iterable[Sequence[float]]) -> dict[int, tuple[float, float]]:
    """``[id, width, height]`` triples as a dict; an id given twice is an error.

    >>> boxes_of([(0, 80, 40), (0, 10, 10)])
    Traceback (most recent call last):
    ...
    qubic_logic.render.layout.GraphError: nodes: node 0 is given twice; expected each id once
    """
    boxes: dict[int, tuple[float, float]] = {}
    for node, w, h in nodes:
        if node in boxes:
            raise GraphError("nodes", f"node {node} is given twice; expected each id once")
        boxes[int(node)] = (w, h)
    return boxes


def check_graph(boxes: dict[int, tuple[float, float]], edges: Sequence[tuple[int, int]]) -> int:
    """The edge segments of the layout (see the module text); a graph ``dot`` cannot lay out as asked
    (unknown node, loop, repeated edge, cycle, too big) raises :class:`GraphError`.

    Segments are counted with each box on the rank of its longest path from a box without parents
    (where ``dot`` starts; it only shortens edges from there), so the count is an upper bound.
    """
    if not boxes or len(boxes) > MAX_NODES:
        raise GraphError("nodes", f"{len(boxes):,} boxes; expected 1..{MAX_NODES:,}")
    if any(not 0 <= n <= MAX_ID for n in boxes):
        raise GraphError("nodes", f"node id {next(n for n in boxes if not 0 <= n <= MAX_ID)} is out of range; "
                                  f"expected ids 0..{MAX_ID}")
    if len(edges) > MAX_EDGES:
        raise GraphError("edges", f"{len(edges):,} edges; expected at most {MAX_EDGES:,}")
    children: dict[int, list[int]] = {n: [] for n in boxes}
    parents = dict.fromkeys(boxes, 0)
    seen: set[tuple[int, int]] = set()
    for a, b in edges:
        if a not in boxes or b not in boxes:
            raise GraphError("edges", f"edge {[a, b]} joins a node not in 'nodes'; expected pairs of the given "
                                      "node ids")
        if a == b:
            raise GraphError("edges", f"edge {[a, b]} joins node {a} to itself; expected edges between two boxes")
        if (a, b) in seen:
            raise GraphError("edges", f"edge {[a, b]} is given twice; expected each edge once")
        seen.add((a, b))
        children[a].append(b)
        parents[b] += 1
    rank = dict.fromkeys(boxes, 0)
    ready = [n for n, k in parents.items() if k == 0]
    placed = 0
    while ready:  # boxes in topological order, each on the rank of its longest path from a root
        node = ready.pop()
        placed += 1
        for child in children[node]:
            rank[child] = max(rank[child], rank[node] + 1)
            parents[child] -= 1
            if not parents[child]:
                ready.append(child)
    if placed < len(boxes):
        raise GraphError("edges", f"the edges make a cycle through node {min(n for n, k in parents.items() if k)}; "
                                  "expected edges that go one way, from a position to the positions after it")
    segments = sum(rank[b] - rank[a] for a, b in edges)
    if segments > MAX_SEGMENTS:
        raise GraphError("edges", f"the edges cross {segments:,} ranks in all (an edge counts once per rank it "
                                  f"crosses); expected at most {MAX_SEGMENTS:,}: send fewer boxes or shorter edges")
    return segments


def layout_dot(boxes: dict[int, tuple[float, float]], edges: Iterable[tuple[int, int]], rankdir: str = "TB") -> str:
    """The DOT text ``dot`` lays out: fixed-size boxes, no labels, network simplex capped (:data:`DOT_LIMITS`)."""
    out = [f"digraph g {{ graph [rankdir={rankdir} nodesep=0.2 ranksep=0.35 splines=true {DOT_LIMITS}];",
           " node [shape=box fixedsize=true label=\"\"];"]
    for node, (w, h) in boxes.items():
        out.append(f" n{int(node)} [width={w / POINTS_PER_INCH:.3f} height={h / POINTS_PER_INCH:.3f}];")
    out.extend(f" n{int(a)} -> n{int(b)};" for a, b in edges)
    out.append("}")
    return "\n".join(out)


def read_layout(text: str | bytes) -> Layout:
    """The :class:`Layout` in ``dot -Tjson`` output (y turned to grow downwards)."""
    doc = json.loads(text)
    height = float(doc["bb"].split(",")[3])
    names = {}
    nodes: dict[int, tuple[float, float]] = {}
    for obj in doc.get("objects", []):
        x, y = map(float, obj["pos"].split(","))
        node = int(obj["name"][1:])
        names[obj["_gvid"]] = node
        nodes[node] = (round(x, 1), round(height - y, 1))
    paths: dict[tuple[int, int], str] = {}
    for e in doc.get("edges", []):
        points = next(op["points"] for op in e["_draw_"] if op["op"] == "b")
        flipped = [f"{px:.1f},{height - py:.1f}" for px, py in points]
        paths[(names[e["tail"]], names[e["head"]])] = f"M{flipped[0]}C{' '.join(flipped[1:])}"
    return Layout(nodes, paths, round(float(doc["bb"].split(",")[2]), 1), round(height, 1))


def layout(boxes: dict[int, tuple[float, float]], edges: Iterable[tuple[int, int]], rankdir: str = "TB") -> Layout:
    """Lay out ``boxes`` (id -> (width, height) in pixels) joined by ``edges`` with ``dot``, in this process
    (the server runs ``dot`` under its limits instead: :mod:`qubic_logic.server.layouts`)."""
    edges = list(edges)
    check_graph(boxes, edges)
    return read_layout(run_dot(layout_dot(boxes, edges, rankdir), "json"))
