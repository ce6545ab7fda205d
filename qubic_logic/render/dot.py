"""Graphviz pictures of force trees: DOT text, and SVG/PNG through the ``dot`` layout.

Node colours give the status (green win, red fail, yellow cut); edge colours
give the kind of move (:data:`EDGE_STYLES`); thick edges lie on the shortest
wins. Small trees draw each node's board in the node, larger ones put it in
the tooltip.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> text = tree_dot(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> text.startswith('digraph force_tree {') and text.count(' -> ') == 92
True
"""

from __future__ import annotations

import shutil
import subprocess
from html import escape

from ..errors import QubicError
from ..forcetree import ForceTree
from ..notation import diagram, format_cell
from ..pictures import HIGHLIGHT, O_COLOUR, X_COLOUR, cell_grid

STATUS_FILL = {"win": "#c8e6c9", "fail": "#ffcdd2", "cut": "#fff9c4"}
EDGE_STYLES = {
    "forcing": 'color="#37474f"',
    "double": 'color="#6a1b9a" penwidth=1.6',
    "counter": 'color="#ef6c00"',
    "block": 'color="#9e9e9e" style=dashed',
    "complete": 'color="#2e7d32" penwidth=1.6',
}
BOARDS_UP_TO = 60  # nodes; larger trees show boards in tooltips only


def node_caption(tree: ForceTree, node: int) -> str:
    """Short text for a node: who moves, status and length.

    >>> from qubic_logic.notation import parse_position
    >>> from qubic_logic.forcetree import force_tree
    >>> node_caption(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'), 0)
    'X to move: wins in 6'
    """
    d = tree.nodes[node]
    if d["role"] == "end":
        return f"{tree.attacker.upper()} has four in a row"
    who = f"{d['to_move'].upper()} to move"
    if d["status"] == "win":
        return f"{who}: wins in {d['length']}" if d["role"] == "attacker" else f"{who}: lost in {d['length']}"
    return f"{who}: {d['status']} ({d['reason']})"


def on_shortest_win(tree: ForceTree, parent: int, child: int) -> bool:
    """Is the edge on a shortest forced win (the attacker's best choice at each OR node)?"""
    p, c = tree.nodes[parent], tree.nodes[child]
    if c["status"] != "win" or p["status"] != "win":
        return False
    return p["role"] != "attacker" or c["length"] + 1 == p["length"] or c["role"] == "end"


def _board_label(tree: ForceTree, node: int, caption: str) -> str:
    d = tree.nodes[node]
    p = d["position"]
    won = set(p.winning_line or ())
    threat = set(d["x_threats"]) | set(d["o_threats"])
    levels = []
    for z in range(4):
        rows = []
        for row in cell_grid(z):
            cells = []
            for c in row:
                mark = p.at(c)
                colour = (HIGHLIGHT if c in won else X_COLOUR if mark == "x" else O_COLOUR if mark == "o"
                          else "#f8bbd0" if c in threat else "white")
                if c == d["move"] and not won:
                    colour += '" BORDER="2" COLOR="black'
                cells.append(f'<TD WIDTH="7" HEIGHT="7" FIXEDSIZE="TRUE" BGCOLOR="{colour}"></TD>')
            rows.append("<TR>" + "".join(cells) + "</TR>")
        levels.append('<TD><TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0">'
                      + "".join(rows) + "</TABLE></TD>")
    return ('<<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="0">'
            f'<TR><TD COLSPAN="4">{escape(caption)}</TD></TR><TR>{"".join(levels)}</TR></TABLE>>')


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_dot(tree: ForceTree, boards: bool | None = None, form: str = "index") -> str:
    """The tree in Graphviz DOT; ``boards`` draws boards in nodes (default: small trees only)."""
    if boards is None:
        boards = tree.number_of_nodes() <= BOARDS_UP_TO
    out = ["digraph force_tree {",
           ('  graph [rankdir=TB nodesep=0.15 ranksep=0.35 fontname="sans-serif" '
            f'label={_quote(tree.summary())} labelloc=t];'),
           '  node [shape=box style="rounded,filled" fontname="sans-serif" fontsize=9 margin="0.04,0.02"];',
           '  edge [fontname="sans-serif" fontsize=9 arrowsize=0.5];']
    for node, d in tree.nodes(data=True):
        caption = node_caption(tree, node)
        tooltip = f"{caption}\n{diagram(d['position'], _threat_marks(d))}"
        label = _board_label(tree, node, caption) if boards else _quote(caption)
        shape = " peripheries=2" if d["role"] == "end" else ""
        out.append(f'  n{node} [id="n{node}" label={label} tooltip={_quote(tooltip)} '
                   f'fillcolor="{STATUS_FILL[d["status"]]}"{shape}];')
    for parent, child, e in tree.edges(data=True):
        side = tree.nodes[parent]["to_move"].upper()
        style = EDGE_STYLES[e["kind"]]
        if on_shortest_win(tree, parent, child):
            style += " penwidth=2.6"
        label = f"{side} {format_cell(e['move'], form)}"
        out.append(f'  n{parent} -> n{child} [label={_quote(label)} tooltip={_quote(e["kind"])} {style}];')
    out.append("}")
    return "\n".join(out) + "\n"


def _threat_marks(d: dict) -> dict[int, str]:
    marks = {c: "+" for c in d["x_threats"]}
    marks.update({c: "#" if c in marks else "*" for c in d["o_threats"]})
    return marks


def run_dot(dot_text: str, fmt: str) -> bytes:
    """Lay out DOT text with Graphviz ``dot`` into ``fmt`` ('svg', 'png', ...)."""
    exe = shutil.which("dot")
    if exe is None:
        raise QubicError("Graphviz 'dot' is not installed; install graphviz (apt-get install graphviz) "
                         "or choose --format dot, html-free text or json")
    done = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        raise QubicError(f"Graphviz dot failed on the tree: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def tree_svg(tree: ForceTree, boards: bool | None = None, form: str = "index") -> str:
    """The tree laid out by ``dot`` as an SVG document."""
    return run_dot(tree_dot(tree, boards, form), "svg").decode()
