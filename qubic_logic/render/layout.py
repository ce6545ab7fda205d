"""Graphviz ``dot`` as a layout engine: node boxes in, positions and edge curves out.

A client of ``POST /api/layout`` that draws a graph of its own sends the
boxes it is about to draw and gets back where ``dot`` puts them (layered:
each step one rank further from the root) and the curves of the edges, in the
same units (CSS pixels), with y growing downwards as on a screen. (The site's
own pages lay out their force graphs in the browser, ``forcegraph.js``.)

>>> laid = layout({0: (80, 40), 1: (80, 40), 2: (80, 40)}, [(0, 1), (0, 2)])
>>> laid.nodes[0][1] < laid.nodes[1][1] == laid.nodes[2][1], laid.edges[(0, 1)].startswith('M')
(True, True)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from .dot import run_dot

POINTS_PER_INCH = 72


@dataclass
class Layout:
    """Node centres (x, y), edge paths (SVG ``d``) and the drawing's size."""

    nodes: dict[int, tuple[float, float]]
    edges: dict[tuple[int, int], str]
    width: float
    height: float


def layout_dot(boxes: dict[int, tuple[float, float]], edges: Iterable[tuple[int, int]], rankdir: str = "TB") -> str:
    """The DOT text ``dot`` lays out: fixed-size boxes, no labels."""
    out = [f"digraph g {{ graph [rankdir={rankdir} nodesep=0.2 ranksep=0.35 splines=true];",
           " node [shape=box fixedsize=true label=\"\"];"]
    for node, (w, h) in boxes.items():
        out.append(f" n{int(node)} [width={w / POINTS_PER_INCH:.3f} height={h / POINTS_PER_INCH:.3f}];")
    out.extend(f" n{int(a)} -> n{int(b)};" for a, b in edges)
    out.append("}")
    return "\n".join(out)


def layout(boxes: dict[int, tuple[float, float]], edges: Iterable[tuple[int, int]], rankdir: str = "TB") -> Layout:
    """Lay out ``boxes`` (id -> (width, height) in pixels) joined by ``edges`` with ``dot``."""
    edges = list(edges)
    doc = json.loads(run_dot(layout_dot(boxes, edges, rankdir), "json"))
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
