"""Force graphs: a force tree with transpositions (and optionally symmetric positions) merged.

A force tree (:mod:`qubic_logic.forcetree`) holds one node per *line of play*:
the same position reached by two move orders appears twice. :func:`force_graph`
merges them into one node, so a tree becomes a directed acyclic graph (marks
are only ever added). With ``symmetric=True`` positions equal up to the 192
automorphisms (:mod:`qubic_logic.symmetry`) are merged too.

The result is a :class:`ForceGraph`, a :class:`~qubic_logic.forcetree.ForceTree`
with the same node and edge attributes (each node shows the first position of
its class met in the tree, depth-first), so every renderer draws it. Each node
also says how many tree nodes it stands for (``tree_nodes``); the graph
attributes ``tree_nodes`` and ``merge`` give the counts and the rule.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> tree = force_tree(parse_position('1-2,22-52,27-4'), engine='python')
>>> graph = force_graph(tree)
>>> tree.number_of_nodes(), graph.number_of_nodes(), graph.length == tree.length
(731, 271, True)
>>> corners = force_tree(parse_position('moves:0,63,3,60,12'), engine='python')
>>> [g.number_of_nodes() for g in (corners, force_graph(corners), force_graph(corners, symmetric=True))]
[5, 5, 3]
"""

from __future__ import annotations

from itertools import pairwise

import networkx as nx

from .forcetree import ForceTree
from .notation import CellNames
from .position import Position
from .symmetry import canonical_masks
from .wording import counted

MERGES = ("transpositions", "symmetry")
_STATUS_RANK = {"win": 0, "fail": 1, "cut": 2}


class ForceGraph(ForceTree):
    """A force tree with equal positions merged; node 0 is still the root.

    ``path_to(node)`` follows a shortest line from the root (a node may have
    several parents).
    """

    def path_to(self, node: int) -> tuple[int, ...]:
        """The moves of one shortest line from the root to ``node``."""
        nodes = nx.shortest_path(self, self.root, node)
        return tuple(self.edges[a, b]["move"] for a, b in pairwise(nodes))

    def summary(self, names: CellNames = CellNames()) -> str:
        """The tree's summary with both node counts.

        >>> from qubic_logic.notation import parse_position
        >>> from qubic_logic.forcetree import force_tree
        >>> force_graph(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python')).summary()
        'X to move: 93 tree nodes, 89 graph nodes (transpositions merged); wins in 6 (winning first moves: 3)'
        """
        text = super().summary(names)
        head, _, rest = text.partition(": ")
        _, _, tail = rest.partition(" node")
        tail = tail.removeprefix("s")
        return (f"{head}: {counted(self.graph['tree_nodes'], 'tree node')}, "
                f"{counted(self.number_of_nodes(), 'graph node')} ({self.graph['merge']} merged){tail}")


def position_key(position: Position, symmetric: bool = False) -> tuple[int, int]:
    """The key under which positions are merged: the masks, or their canonical form.

    >>> position_key(Position.from_cells([63])) == position_key(Position.from_cells([0]))
    False
    >>> position_key(Position.from_cells([63]), True) == position_key(Position.from_cells([0]), True)
    True
    """
    if symmetric:
        return canonical_masks(position.x, position.o)[:2]
    return position.x, position.o


def force_graph(tree: ForceTree, symmetric: bool = False) -> ForceGraph:
    """Merge the nodes of ``tree`` that hold the same position (``symmetric``: up to symmetry).

    A merged node keeps the attributes of the first tree node of its class
    (depth-first from the root), with the best status among them (win, then
    fail, then cut) and the least length; ``tree_nodes`` counts the tree nodes
    it stands for. Edge ``move`` and ``kind`` come from the first tree edge
    between the two classes.
    """
    graph = ForceGraph(**tree.graph, merge=MERGES[symmetric], tree_nodes=tree.number_of_nodes())
    index: dict[tuple[int, int], int] = {}
    of_tree: dict[int, int] = {}
    for node in nx.dfs_preorder_nodes(tree, tree.root):
        data = tree.nodes[node]
        key = position_key(data["position"], symmetric)
        if key not in index:
            index[key] = graph.number_of_nodes()
            graph.add_node(index[key], **data, tree_nodes=0)
        merged = graph.nodes[index[key]]
        merged["tree_nodes"] += 1
        if _better(data, merged):
            merged.update(status=data["status"], length=data["length"], reason=data["reason"])
        of_tree[node] = index[key]
    for parent, child, edge in tree.edges(data=True):
        a, b = of_tree[parent], of_tree[child]
        if not graph.has_edge(a, b):
            graph.add_edge(a, b, **edge)
    return graph


def _better(new: dict, old: dict) -> bool:
    """Does ``new`` carry a better-settled status (or a shorter win) than ``old``?"""
    rank_new, rank_old = _STATUS_RANK[new["status"]], _STATUS_RANK[old["status"]]
    if rank_new != rank_old:
        return rank_new < rank_old
    return new["status"] == "win" and new["length"] < old["length"]
