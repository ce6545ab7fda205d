"""Which part of a large force graph a picture opens on.

A picture of a few hundred positions is a strip nobody reads. It opens on the
*principal variation* (a shortest win, the defender resisting longest) with
every branch point along it: the nodes of the line are expanded, their other
children shown collapsed, each saying how many positions it hides. The page's
explorer and the exports share this choice.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> from qubic_logic.forcegraph import fold_forced
>>> g = fold_forced(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> line = principal_variation(g)
>>> len(line), g.nodes[line[-1]]['role']
(7, 'end')
>>> opened = opening_view(g, everything_up_to=0)
>>> shown = visible(g, opened)
>>> len(shown), sum(hidden_below(g, n, shown) for n in shown - opened) + len(shown) == g.number_of_nodes()
(16, True)
"""

from __future__ import annotations

import networkx as nx

from ..forcetree import ForceTree

EVERYTHING_UP_TO = 40
"""Graphs of at most this many nodes open with every node shown."""


def principal_variation(graph: ForceTree) -> list[int]:
    """The nodes of one shortest win from the root: the attacker's fastest move, the defender's longest resistance.

    Just the root when there is no win.
    """
    line = [graph.root]
    node = graph.root
    while True:
        wins = [c for c in graph.successors(node) if graph.nodes[c]["status"] == "win"]
        if graph.nodes[node]["status"] != "win" or not wins:
            return line
        sign = 1 if graph.nodes[node]["role"] == "attacker" else -1  # fastest win / longest resistance
        node = min(wins, key=lambda c: (sign * graph.nodes[c]["length"], c))
        line.append(node)


def steps_from_root(graph: ForceTree) -> dict[int, int]:
    """Edges from the root to each node along a shortest path."""
    return nx.single_source_shortest_path_length(graph, graph.root)


def opening_view(graph: ForceTree, max_depth: int | None = None,
                 everything_up_to: int = EVERYTHING_UP_TO) -> set[int]:
    """The nodes shown expanded at first.

    Every node when the graph has at most ``everything_up_to`` nodes; with
    ``max_depth``, every node fewer than ``max_depth`` steps from the root;
    otherwise the principal variation.
    """
    if max_depth is not None:
        return {n for n, d in steps_from_root(graph).items() if d < max_depth}
    if graph.number_of_nodes() <= everything_up_to:
        return set(graph)
    return set(principal_variation(graph))


def visible(graph: ForceTree, expanded: set[int]) -> set[int]:
    """The root and every child of an expanded node reachable through expanded nodes."""
    seen = {graph.root}
    stack = [graph.root]
    while stack:
        node = stack.pop()
        if node not in expanded:
            continue
        for child in graph.successors(node):
            if child not in seen:
                seen.add(child)
                stack.append(child)
    return seen


def hidden_below(graph: ForceTree, node: int, shown: set[int]) -> int:
    """How many positions below ``node`` are not shown (what a collapsed node hides)."""
    return len(nx.descendants(graph, node) - shown)
