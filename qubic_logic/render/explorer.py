"""A force graph as the browser's explorer reads it (``server/static/forcegraph.js``).

The Analyse page gets this from ``POST /api/tree``; the offline page of
``qubic tree -o tree.html`` carries it inline. Each node comes with what its box
and board show (the step's moves, the marks, threat cells, the winning line),
each edge with its kind and whether it lies on a shortest win; the graph with
its principal variation and the nodes the explorer opens on. Cells are 0..63;
the page writes them in the notation chosen.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> data = explorer_data(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> len(data['nodes']), data['attacker'], data['length'], data['nodes'][0]['step']
(93, 'x', 6, [])
>>> sorted(data['summaries'])
['hp67', 'index', 'lrc', 'number']
"""

from __future__ import annotations

from ..forcetree import ForceTree, edge_moves
from ..geometry import cells_of
from ..notation import CELL_FORMS, CellNames
from .dot import node_caption, on_shortest_win, several_lines_meet, value_text
from .view import opening_view, principal_variation


def explorer_data(graph: ForceTree) -> dict:
    """The graph's nodes, edges, line and opening view, and its summary in every cell notation."""
    nodes = []
    for n, d in graph.nodes(data=True):
        q = d["position"]
        parent = next(iter(graph.predecessors(n)), None)
        nodes.append({"id": n, "role": d["role"], "to_move": d["to_move"], "status": d["status"],
                      "length": d["length"], "reason": d["reason"], "depth": d["depth"], "move": d["move"],
                      "step": list(edge_moves(graph.edges[parent, n])) if parent is not None else [],
                      "mover": graph.nodes[parent]["to_move"] if parent is not None else None,
                      "caption": node_caption(graph, n), "value": value_text(graph, n),
                      "x": cells_of(q.x), "o": cells_of(q.o), "xt": list(d["x_threats"]),
                      "ot": list(d["o_threats"]), "win": list(q.winning_line or ()),
                      "tree_nodes": d.get("tree_nodes", 1), "merged": several_lines_meet(graph, n)})
    edges = [{"source": a, "target": b, "move": e["move"], "reply": e.get("reply"), "kind": e["kind"],
              "step": list(edge_moves(e)), "best": on_shortest_win(graph, a, b)} for a, b, e in graph.edges(data=True)]
    return {"summaries": {f: graph.summary(CellNames(f)) for f in CELL_FORMS},
            "attacker": graph.attacker, "length": graph.length,
            "winning_first_moves": graph.winning_first_moves(), "truncated": graph.graph["truncated"],
            "tree_nodes": graph.graph.get("tree_nodes", graph.graph.get("folded_from", graph.number_of_nodes())),
            "graph_nodes": graph.graph.get("folded_from", graph.number_of_nodes()),
            "engine": graph.graph["engine"],
            "principal_variation": principal_variation(graph), "opening": sorted(opening_view(graph)),
            "nodes": nodes, "edges": edges}
