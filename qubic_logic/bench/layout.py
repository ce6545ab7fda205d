"""Layouts: the hardest graphs ``POST /api/layout`` takes, and the server while they are laid out.

*Hardest graphs*: graphs at the bounds of the layout service
(:data:`~qubic_logic.render.layout.MAX_NODES` boxes,
:data:`~qubic_logic.render.layout.MAX_EDGES` edges,
:data:`~qubic_logic.render.layout.MAX_SEGMENTS` edge segments), in the shapes
that cost ``dot`` most among those tried: a wide tree, a star, dense layers, a
chain with long edges, random short edges. Each is laid out once by
:func:`~qubic_logic.render.layout.layout`; the table gives ``dot``'s CPU
seconds (the figure the bounds are set by) and the wall seconds.

*Siege*: ``qubic serve`` gets four requests for the hardest graph at once
while ``/api/win`` is asked every 0.2 s (its slowest answer is reported), then
four more, and SIGINT once their ``dot`` processes run: the seconds until the
server has exited, and how many ``dot`` processes outlived it.
"""

from __future__ import annotations

import random
import resource
import signal
import threading
import time

import httpx
from rich.console import Console
from rich.table import Table

from ..render.layout import MAX_EDGES, MAX_NODES, MAX_SEGMENTS, check_graph, layout
from ..server.launch import running_server, server_process

BOX = (118, 60)  # pixels: the Analyse page's node with its mini board
Graph = tuple[dict[int, tuple[float, float]], list[tuple[int, int]]]


def _short_edges(nodes: int, span: int, seed: int = 1) -> list[tuple[int, int]]:
    """A chain through ``nodes`` boxes plus random edges of 1..``span`` ranks, up to the bounds."""
    rng = random.Random(seed)
    edges = {(i, i + 1) for i in range(nodes - 1)}
    segments = len(edges)
    while len(edges) < MAX_EDGES:
        a, d = rng.randrange(nodes - span), rng.randint(1, span)
        if (a, a + d) in edges:
            continue
        if segments + d > MAX_SEGMENTS:
            break
        edges.add((a, a + d))
        segments += d
    return sorted(edges)


def hardest_graphs() -> dict[str, Graph]:
    """The graphs of the table, by name; each within every bound of the layout service.

    >>> graphs = hardest_graphs()
    >>> all(check_graph(boxes, edges) for boxes, edges in graphs.values())
    True
    """
    n = MAX_NODES
    width = int((MAX_EDGES / 2) ** 0.5)  # three layers, every box joined to every box of the next
    long = [(i, i + 1) for i in range(n - 1)]
    long += [(i, i + 2) for i in range(min(n - 2, MAX_SEGMENTS - len(long)) // 2)]
    shapes = {
        f"tree, 3 children each, {n:,} boxes": (n, [((i - 1) // 3, i) for i in range(1, n)]),
        f"star, {n:,} boxes": (n, [(0, i) for i in range(1, n)]),
        f"dense layers, 3 x {width}": (3 * width, [(k * width + a, (k + 1) * width + b)
                                                    for k in range(2) for a in range(width) for b in range(width)]),
        f"chain with edges over 2 ranks, {n:,} boxes": (n, long),
        f"random edges over 1-3 ranks, {n:,} boxes": (n, _short_edges(n, 3)),
        "random edges over 1-3 ranks, 1,500 boxes": (1500, _short_edges(1500, 3)),
    }
    return {name: ({i: BOX for i in range(count)}, edges) for name, (count, edges) in shapes.items()}


HARDEST = "random edges over 1-3 ranks, 1,500 boxes"  # the most CPU of dot in the table, in runs here


def request_body(graph: Graph) -> dict:
    """The ``POST /api/layout`` body of a graph."""
    boxes, edges = graph
    return {"nodes": [[n, w, h] for n, (w, h) in boxes.items()], "edges": [list(e) for e in edges]}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def hardest(quick: bool = False) -> dict[str, dict]:
    """Per graph: boxes, edges, segments, dot's CPU seconds and the wall seconds of one layout."""
    out = {}
    for name, (boxes, edges) in hardest_graphs().items():
        if quick and name != HARDEST:
            continue
        segments = check_graph(boxes, edges)
        start, used = time.perf_counter(), _children_cpu()
        layout(boxes, edges)
        out[name] = {"nodes": len(boxes), "edges": len(edges), "segments": segments,
                     "dot_cpu_seconds": _children_cpu() - used, "seconds": time.perf_counter() - start}
    return out


def siege(requests: int = 4) -> dict:
    """``requests`` hardest layouts at once against a fresh server while ``/api/win`` is asked; then as many
    again and SIGINT. Returns the slowest ``/api/win`` answer, the layouts' statuses, the seconds from
    SIGINT to the server's exit and the ``dot`` processes left after it."""
    body = request_body(hardest_graphs()[HARDEST])
    win = {"position": "1-2,22-52,27-4", "engine": "native"}
    with running_server() as url:
        server = server_process(url)
        statuses: list[int] = []

        def ask() -> None:
            try:
                statuses.append(httpx.post(url + "api/layout", json=body, timeout=120).status_code)
            except httpx.HTTPError:
                statuses.append(0)  # the connection closed (the server stopping)

        threads = [threading.Thread(target=ask) for _ in range(requests)]
        for t in threads:
            t.start()
        answers: list[float] = []
        with httpx.Client(timeout=30) as client:
            while any(t.is_alive() for t in threads):
                start = time.perf_counter()
                assert client.post(url + "api/win", json=win).json()["length"] == 6
                answers.append(time.perf_counter() - start)
                time.sleep(0.2)
        laid = sorted(statuses)
        statuses.clear()
        threads = [threading.Thread(target=ask) for _ in range(requests)]
        for t in threads:
            t.start()
        dots: list = []
        end = time.monotonic() + 30
        while not dots and time.monotonic() < end:
            dots = [p for p in server.children(recursive=True) if p.name() == "dot"]
            time.sleep(0.05)
        start = time.perf_counter()
        server.send_signal(signal.SIGINT)
        server.wait(30)
        exit_seconds = time.perf_counter() - start
        for t in threads:
            t.join(30)
    left = [p for p in dots if p.is_running() and p.status() != "zombie"]
    return {"win_answers": len(answers), "win_max_seconds": max(answers, default=0.0), "layouts": laid,
            "stopped_layouts": sorted(statuses), "dots_at_sigint": len(dots), "exit_seconds": exit_seconds,
            "dots_left": len(left)}


def run(console: Console, quick: bool = False) -> dict:
    found = hardest(quick)
    table = Table(title=f"the hardest layouts within the bounds ({MAX_NODES:,} boxes, {MAX_EDGES:,} edges, "
                        f"{MAX_SEGMENTS:,} edge segments)")
    for column in ("graph", "boxes", "edges", "segments", "dot CPU s", "wall s"):
        table.add_column(column, justify="left" if column == "graph" else "right")
    for name, row in found.items():
        table.add_row(name, f"{row['nodes']:,}", f"{row['edges']:,}", f"{row['segments']:,}",
                      f"{row['dot_cpu_seconds']:.2f}", f"{row['seconds']:.2f}")
    console.print(table)
    sieged = siege()
    console.print(f"four hardest layouts at once (statuses {sieged['layouts']}): /api/win answered "
                  f"{sieged['win_answers']} times, the slowest in {sieged['win_max_seconds']:.2f} s; SIGINT with "
                  f"{sieged['dots_at_sigint']} dot at work: the server exited after {sieged['exit_seconds']:.2f} s, "
                  f"{sieged['dots_left']} dot left", highlight=False)
    return {"hardest": found, "siege": sieged}
