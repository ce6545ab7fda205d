"""A compact text drawing of a force tree for the terminal (rich).

One line per node: the move that led there, its kind, and what follows
(folded steps read ``X 16 · O 17``; ``win 5`` = the attacker needs 5 more moves; ``fail``/``cut`` with why).

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> t = force_tree(parse_position('moves:0,48,2,49,5,60,10,61'), engine='python')
>>> print(tree_text(t))
X to move: wins in 1
└── X 15 complete: four in a row
"""

from __future__ import annotations

import io

from rich.console import Console
from rich.tree import Tree

from ..forcetree import ForceTree
from .dot import node_caption, step_text

_STYLE = {"win": "green", "fail": "red", "cut": "yellow"}


def _line(tree: ForceTree, parent: int, node: int, form: str) -> str:
    d, e = tree.nodes[node], tree.edges[parent, node]
    head = f"{step_text(tree, node, form)} {e['kind']}"
    if d["role"] == "end":
        return f"{head}: four in a row"
    if d["status"] == "win":
        return f"{head}: win {d['length']}"
    return f"{head}: {d['status']} ({d['reason']})"


def rich_tree(tree: ForceTree, form: str = "index", max_depth: int | None = None) -> Tree:
    """The tree as a :class:`rich.tree.Tree` (``max_depth`` edges deep, None: all)."""
    top = Tree(node_caption(tree, tree.root), style=_STYLE[tree.nodes[tree.root]["status"]])
    stack = [(tree.root, top, 0)]
    while stack:
        node, branch, depth = stack.pop()
        if max_depth is not None and depth >= max_depth:
            if tree.out_degree(node):
                branch.add("…", style="dim")
            continue
        for child in sorted(tree.successors(node)):
            sub = branch.add(_line(tree, node, child, form), style=_STYLE[tree.nodes[child]["status"]])
            stack.append((child, sub, depth + 1))
    return top


def tree_text(tree: ForceTree, form: str = "index", max_depth: int | None = None, width: int = 200) -> str:
    """The tree as plain text (no colours), e.g. for a file."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None, highlight=False).print(
        rich_tree(tree, form, max_depth))
    return buffer.getvalue().rstrip("\n")
