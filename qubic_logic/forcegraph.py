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

:func:`fold_forced` makes the *line* the unit: an attacker's threat and the
defender's only reply become one step edge ("X 16 · O 17"), so a threat
sequence reads as a chain and every branch point is a real choice (the
attacker's alternatives, the blocks of a double threat).

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> tree = force_tree(parse_position('1-2,22-52,27-4'), engine='python')
>>> graph = force_graph(tree)
>>> tree.number_of_nodes(), graph.number_of_nodes(), graph.length == tree.length
(731, 271, True)
>>> folded = fold_forced(graph)
>>> folded.number_of_nodes(), folded.length == tree.length
(110, True)
>>> corners = force_tree(parse_position('moves:0,63,3,60,12'), engine='python')
>>> [g.number_of_nodes() for g in (corners, force_graph(corners), force_graph(corners, symmetric=True))]
[5, 5, 3]
"""

from __future__ import annotations

from itertools import pairwise

import networkx as nx

from .forcetree import ForceTree, edge_moves
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
        return tuple(c for a, b in pairwise(nodes) for c in edge_moves(self.edges[a, b]))

    def summary(self, names: CellNames = CellNames()) -> str:
        """The tree's summary with both node counts.

        >>> from qubic_logic.notation import parse_position
        >>> from qubic_logic.forcetree import force_tree
        >>> force_graph(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python')).summary()
        'X to move: 93 tree nodes, 89 graph nodes (transpositions merged); wins in 6 (winning first moves: 3)'
        """
        text = super().summary(names)
        head, _, rest = text.partition(": ")
        if "folded_from" in self.graph:
            nodes, _, tail = rest.partition(" with forced replies folded")
            nodes = nodes.split(", ")[-1]
            return (f"{head}: {counted(self.graph['tree_nodes'], 'tree node')}, "
                    f"{counted(self.graph['folded_from'], 'graph node')} ({self.graph['merge']} merged), "
                    f"{nodes} with forced replies folded{tail}")
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


def fold_forced(graph: ForceTree) -> ForceTree:
    """Fold each forced reply into the move before it: one step edge per move and its only answer.

    Three kinds of node disappear into the edges around them:

    * a defender node with one child (the only block of a single threat): the
      threat and the block become one edge, ``move`` the threat, ``reply`` the
      block, ``kind`` the threat's;
    * after a double threat, an attacker node whose one move completes four:
      the block and the completing move become one edge to the won end;
    * a defender node with no child after an attacker's only move (a forced
      counter-threat block that makes no threat): the attacker node keeps
      its ``'fail'`` status and says why.

    Branch points stay: the attacker's alternatives, the blocks of a double
    threat. Works on trees and merged graphs alike (node ids are kept);
    ``graph.graph['folded_from']`` keeps the node count before folding.

    >>> from qubic_logic.notation import parse_position
    >>> from qubic_logic.forcetree import force_tree
    >>> folded = fold_forced(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
    >>> folded.summary()
    'X to move: 93 nodes, 43 with forced replies folded; wins in 6 (winning first moves: 3)'
    >>> folded.path_to(max(folded))[:4], folded.out_degree(0)
    ((3, 2, 12, 9), 2)
    """
    folded = type(graph)(**graph.graph, folded_from=graph.number_of_nodes())
    role = graph.nodes.data("role")
    kept_defender = {n for n in graph if role[n] == "defender" and graph.out_degree(n) != 1}
    through: dict[int, tuple[int, int]] = {}  # folded node -> (its one child, the move to it)
    dead: set[int] = set()
    for node in graph:
        out = list(graph.out_edges(node, data="move"))
        parents = list(graph.predecessors(node))
        forced_reply = role[node] == "defender" and len(out) == 1
        finishing = (role[node] == "attacker" and len(out) == 1 and bool(parents)
                     and graph.edges[out[0][:2]]["kind"] == "complete" and set(parents) <= kept_defender)
        if forced_reply or finishing:
            through[node] = out[0][1:]
        elif role[node] == "defender" and not out and all(graph.out_degree(p) == 1 for p in parents):
            dead.add(node)
    for node, data in graph.nodes(data=True):
        if node not in through and node not in dead:
            folded.add_node(node, **data)
    for parent, child, edge in graph.edges(data=True):
        if parent in through or parent in dead:
            continue
        if child in dead:
            folded.nodes[parent]["reason"] = "its only move makes no threat"
        elif child in through:
            target, reply = through[child]
            if not folded.has_edge(parent, target):
                folded.add_edge(parent, target, **edge, reply=reply)
        elif not folded.has_edge(parent, child):
            folded.add_edge(parent, child, **edge)
    return folded
