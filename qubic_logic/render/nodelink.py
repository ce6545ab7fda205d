"""Force trees as JSON in networkx's node-link form, for other tools.

Positions become their ``qubic`` notation (``position``) and Patashnik
string (``patashnik``); everything else is kept as it is in the graph.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> doc = tree_json(force_tree(parse_position('moves:0,48,2,49,5,60,10,61'), engine='python'))
>>> doc['graph']['attacker'], len(doc['nodes']), doc['edges'][0]['kind']
('x', 2, 'complete')
>>> tree_from_json(doc).nodes[1]['position'].winner
'x'
"""

from __future__ import annotations

import networkx as nx

from ..forcetree import ForceTree
from ..notation import format_position, parse_position


def tree_json(tree: ForceTree) -> dict:
    """A JSON-ready dict (``json.dumps`` it) in node-link form."""
    copy = nx.DiGraph(tree)
    for _, d in copy.nodes(data=True):
        p = d.pop("position")
        d["position"] = format_position(p)
        d["patashnik"] = format_position(p, "patashnik")
    return nx.node_link_data(copy, edges="edges")


def tree_from_json(doc: dict) -> ForceTree:
    """Read back what :func:`tree_json` wrote (tuples come back as lists)."""
    graph = nx.node_link_graph(doc, directed=True, edges="edges")
    tree = ForceTree(graph)
    for _, d in tree.nodes(data=True):
        d["position"] = parse_position("qubic:" + d["position"])
        d.pop("patashnik", None)
    return tree
