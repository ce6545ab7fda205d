"""Graphviz pictures of force graphs: DOT text, and SVG/PNG/PDF through the ``dot`` layout.

Each node says which step led to it and what follows ("after X 16 · O 17: X
wins in 5") and, where the picture has room, draws the position as a mini
board: four 4×4 levels, the step's moves outlined, threat cells coloured.
Node colours give the status (green win, red no win, yellow cut off), edge
colours the kind of move (:data:`EDGE_STYLES`), thick edges lie on shortest
wins. The legend, with a key board naming every cell, is part of the picture.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> text = tree_dot(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> text.startswith('digraph force_tree {') and text.count(' -> ') == 92
True
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Collection
from html import escape

from ..errors import QubicError
from ..forcetree import ForceTree, edge_moves
from ..notation import CellNames, diagram, format_cell
from ..pictures import HIGHLIGHT, O_COLOUR, X_COLOUR, axis_labels, cell_grid
from ..position import other
from ..wording import counted

STATUS_FILL = {"win": "#c8e6c9", "fail": "#ffcdd2", "cut": "#fff9c4"}
STATUS_WORDS = {"win": "a forced win follows", "fail": "no forced win", "cut": "cut off (not searched further)"}
EDGE_STYLES = {
    "forcing": 'color="#37474f"',
    "double": 'color="#6a1b9a" penwidth=1.6',
    "counter": 'color="#ef6c00"',
    "block": 'color="#9e9e9e" style=dashed',
    "complete": 'color="#2e7d32" penwidth=1.6',
}
EDGE_WORDS = {
    "forcing": "a threat (and its forced block)",
    "double": "a double threat",
    "counter": "blocking the defender's threat",
    "block": "the defender's choice of block",
    "complete": "four in a row",
}
THREAT_FILL = {"x": "#ffcdd2", "o": "#bbdefb", "both": "#e1bee7"}
BOARDS_UP_TO = 60  # nodes shown; more, and nodes carry their label only
MAX_PIXELS = 2400  # the longest side of a PNG (at 96 dpi) and of an SVG (in CSS pixels)


def step_text(tree: ForceTree, node: int, form: str = "index") -> str | None:
    """The moves of the step that led to ``node`` ("X 16 · O 17"), None at the root.

    >>> from qubic_logic.notation import parse_position
    >>> from qubic_logic.forcetree import force_tree
    >>> from qubic_logic.forcegraph import fold_forced
    >>> g = fold_forced(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
    >>> step_text(g, next(g.successors(0)))
    'X 2 · O 3'
    """
    parent = next(iter(tree.predecessors(node)), None)
    if parent is None:
        return None
    side = tree.nodes[parent]["to_move"]
    words = []
    for cell in edge_moves(tree.edges[parent, node]):
        words.append(f"{side.upper()} {format_cell(cell, form)}")
        side = other(side)
    return " · ".join(words)


def value_text(tree: ForceTree, node: int) -> str:
    """What follows at ``node``: "X wins in 5", "X has four in a row", "no win (why)", "cut off (why)"."""
    d = tree.nodes[node]
    side = tree.attacker.upper()
    if d["role"] == "end":
        return f"{side} has four in a row"
    if d["status"] == "win":
        return f"{side} wins in {d['length']}"
    return f"{'no win' if d['status'] == 'fail' else 'cut off'} ({d['reason']})"


def node_caption(tree: ForceTree, node: int, form: str = "index") -> str:
    """Short text for a node: the step that led there and what follows.

    >>> from qubic_logic.notation import parse_position
    >>> from qubic_logic.forcetree import force_tree
    >>> tree = force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python')
    >>> node_caption(tree, 0), node_caption(tree, 1)
    ('X to move: wins in 6', 'after X 2: no win (every forcing move fails)')
    """
    step = step_text(tree, node, form)
    if step is None:
        value = value_text(tree, node)
        return f"{tree.attacker.upper()} to move: " + (value[2:] if value.startswith(tree.attacker.upper()) else value)
    return f"after {step}: {value_text(tree, node)}"


def on_shortest_win(tree: ForceTree, parent: int, child: int) -> bool:
    """Is the edge on a shortest forced win (the attacker's best choice at each OR node)?"""
    p, c = tree.nodes[parent], tree.nodes[child]
    if c["status"] != "win" or p["status"] != "win":
        return False
    return p["role"] != "attacker" or c["length"] + 1 == p["length"] or c["role"] == "end"


def several_lines_meet(tree: ForceTree, node: int) -> bool:
    """Does ``node`` stand for several lines of play (merged transpositions or symmetric positions)?"""
    return tree.nodes[node].get("tree_nodes", 1) > 1


def _cell_fill(d: dict, cell: int) -> str:
    p = d["position"]
    mark = p.at(cell)
    if cell in (p.winning_line or ()):
        return HIGHLIGHT
    if mark != ".":
        return X_COLOUR if mark == "x" else O_COLOUR
    x, o = cell in d["x_threats"], cell in d["o_threats"]
    return THREAT_FILL["both" if x and o else "x" if x else "o"] if x or o else "white"


def _mini_board(tree: ForceTree, node: int) -> str:
    """Four 4×4 levels as an HTML-like table, level numbers above, the step's moves outlined."""
    d = tree.nodes[node]
    parent = next(iter(tree.predecessors(node)), None)
    step = set(edge_moves(tree.edges[parent, node])) if parent is not None else set()
    levels, heads = [], []
    for z in range(4):
        rows = []
        for row in cell_grid(z):
            cells = []
            for c in row:
                border = ' BORDER="2" COLOR="black"' if c in step else ""
                cells.append(f'<TD WIDTH="7" HEIGHT="7" FIXEDSIZE="TRUE" BGCOLOR="{_cell_fill(d, c)}"{border}></TD>')
            rows.append("<TR>" + "".join(cells) + "</TR>")
        heads.append(f'<TD><FONT COLOR="#555555">{z + 1}</FONT></TD>')
        levels.append('<TD><TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="0" COLOR="#9e9e9e">'
                      + "".join(rows) + "</TABLE></TD>")
    return f'<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="0"><TR>{"".join(heads)}</TR><TR>{"".join(levels)}</TR></TABLE>'


def _label(tree: ForceTree, node: int, form: str, board: bool, hidden: int, note: str | None = None) -> str:
    step = step_text(tree, node, form)
    lines = [f"after {step}" if step else f"{tree.attacker.upper()} to move", value_text(tree, node)]
    if hidden:
        lines.append(f"+{counted(hidden, 'position')}")
    text = "".join(f'<TR><TD>{escape(line)}</TD></TR>' for line in lines)
    inner = f"<TR><TD>{_mini_board(tree, node)}</TD></TR>" if board else ""
    below = "".join(f'<TR><TD><B><FONT COLOR="#1565c0">{escape(line)}</FONT></B></TD></TR>'
                    for line in (note.splitlines() if note else ()))
    return f'<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1">{text}{inner}{below}</TABLE>>'


def _swatch(fill: str, text: str, extra: str = "") -> str:
    return (f'<TD BGCOLOR="{fill}" WIDTH="12" HEIGHT="10" FIXEDSIZE="TRUE"{extra}></TD>'
            f'<TD ALIGN="LEFT">{escape(text)}</TD>')


def _key_board(form: str) -> str:
    """One board naming every cell in ``form``: the key to reading the mini boards."""
    levels = []
    for z in range(4):
        rows_named, cols_named = axis_labels(z, form)
        head = "<TR><TD></TD>" + "".join(f'<TD><FONT COLOR="#777777">{escape(c)}</FONT></TD>'
                                          for c in cols_named) + "</TR>"
        rows = [head]
        for y, row in enumerate(cell_grid(z)):
            rows.append(f'<TR><TD><FONT COLOR="#777777">{escape(rows_named[y])}</FONT></TD>'
                        + "".join(f'<TD BORDER="1" COLOR="#bdbdbd">{escape(format_cell(c, form))}</TD>'
                                  for c in row) + "</TR>")
        levels.append(f'<TD><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1"><TR><TD COLSPAN="5">'
                      f'<B>level {z + 1}</B></TD></TR>{"".join(rows)}</TABLE></TD>')
    return ('<TABLE BORDER="0" CELLSPACING="4" CELLPADDING="0"><TR>' + "".join(levels) + "</TR></TABLE>")


def _graph_label(tree: ForceTree, form: str, with_legend: bool, heading: str | None) -> str | None:
    if with_legend:
        return legend(tree, form, heading)
    return f"<<B>{escape(heading)}</B>>" if heading else None


def legend(tree: ForceTree, form: str = "index", heading: str | None = None) -> str:
    """The picture's legend (an HTML-like Graphviz label): title, colours, edges, frames, the key board.

    ``heading`` is a line above the title (a page number).
    """
    nodes = "".join(_swatch(STATUS_FILL[s], STATUS_WORDS[s]) for s in STATUS_FILL)
    edges = "".join(f'<TD ALIGN="LEFT"><FONT COLOR="{EDGE_STYLES[k].split(chr(34))[1]}">'
                    f'{"- - -" if k == "block" else "——"}</FONT> {escape(EDGE_WORDS[k])}</TD>'
                    for k in EDGE_STYLES)
    boards = (_swatch(X_COLOUR, "X") + _swatch(O_COLOUR, "O") + _swatch(THREAT_FILL["x"], "X threat cell")
              + _swatch(THREAT_FILL["o"], "O threat cell") + _swatch(HIGHLIGHT, "four in a row")
              + _swatch("white", "the step's moves", ' BORDER="2" COLOR="black"'))
    frames = ('<TD ALIGN="LEFT">thick edges: a shortest win; double frame: four in a row; dashed frame: several '
              'lines of play meet here; "+N positions": a branch not drawn</TD>')
    top = f'<TR><TD ALIGN="LEFT">{escape(heading)}</TD></TR>' if heading else ""
    return ('<<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="1">'
            f'{top}<TR><TD ALIGN="LEFT"><B>{escape(tree.summary(CellNames(form)))}</B></TD></TR>'
            f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3"><TR>{nodes}</TR></TABLE></TD></TR>'
            f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3"><TR>{edges}</TR></TABLE></TD></TR>'
            f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0" CELLSPACING="3"><TR>{boards}</TR></TABLE></TD></TR>'
            f'<TR><TD ALIGN="LEFT"><TABLE BORDER="0"><TR>{frames}</TR></TABLE></TD></TR>'
            f'<TR><TD ALIGN="LEFT">Boards: levels 1 to 4 from left to right, cells named ({form}):</TD></TR>'
            f'<TR><TD ALIGN="LEFT">{_key_board(form)}</TD></TR></TABLE>>')


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def tree_dot(tree: ForceTree, boards: bool | None = None, form: str = "index",
             shown: Collection[int] | None = None, expanded: Collection[int] | None = None,
             size: tuple[float, float] | None = None, with_legend: bool = True,
             notes: dict[int, str] | None = None, heading: str | None = None,
             drawn: Collection[int] | None = None, edges: Collection[tuple[int, int]] | None = None) -> str:
    """The graph in Graphviz DOT.

    ``shown`` limits the nodes drawn (default: all); a shown node that is not
    ``expanded`` and has children not in ``drawn`` (default: ``shown``) says
    how many positions it hides. ``boards`` draws mini boards in the nodes
    (default: when at most :data:`BOARDS_UP_TO` nodes are shown). ``size``
    (inches) caps the drawing. ``with_legend=False`` leaves the legend out (for
    a page that shows its own); ``heading`` is a line above the drawing,
    ``notes`` lines more in some nodes (a page's "continued on page 3");
    ``edges`` the edges drawn (default: every edge between shown nodes from
    an expanded one). Every text is set in 10 points.
    """
    shown = set(tree) if shown is None else set(shown)
    expanded = shown if expanded is None else set(expanded)
    drawn = shown if drawn is None else set(drawn)
    notes = notes or {}
    if boards is None:
        boards = len(shown) <= BOARDS_UP_TO
    from .view import hidden_below

    size_attr = f' size="{size[0]:.2f},{size[1]:.2f}"' if size else ""
    label = _graph_label(tree, form, with_legend, heading)
    out = ["digraph force_tree {",
           ('  graph [rankdir=TB nodesep=0.12 ranksep=0.3 fontname="sans-serif" fontsize=10 dpi=96 '
            f'labelloc=t labeljust=l{" label=" + label if label else ""}{size_attr}];'),
           '  node [shape=box style="rounded,filled" fontname="sans-serif" fontsize=10 margin="0.05,0.03"];',
           '  edge [arrowsize=0.5];']
    for node in sorted(shown):
        d = tree.nodes[node]
        hidden = hidden_below(tree, node, drawn) if node not in expanded else 0
        tooltip = f"{node_caption(tree, node, form)}\n{diagram(d['position'], _threat_marks(d))}"
        style = "rounded,filled,dashed" if several_lines_meet(tree, node) else "rounded,filled"
        extra = " peripheries=2" if d["role"] == "end" else ""
        if hidden:
            extra += " penwidth=2"
        out.append(f'  n{node} [id="n{node}" label={_label(tree, node, form, boards, hidden, notes.get(node))} '
                   f'tooltip={_quote(tooltip)} style="{style}" fillcolor="{STATUS_FILL[d["status"]]}"{extra}];')
    for parent, child, e in tree.edges(data=True):
        if (parent, child) not in edges if edges is not None else (
                parent not in shown or child not in shown or parent not in expanded):
            continue
        style = EDGE_STYLES[e["kind"]]
        if on_shortest_win(tree, parent, child):
            style += " penwidth=2.6"
        out.append(f'  n{parent} -> n{child} [tooltip={_quote(step_text(tree, child, form) or "")} {style}];')
    out.append("}")
    return "\n".join(out) + "\n"


def _threat_marks(d: dict) -> dict[int, str]:
    marks = {c: "+" for c in d["x_threats"]}
    marks.update({c: "#" if c in marks else "*" for c in d["o_threats"]})
    return marks


def run_dot(dot_text: str, fmt: str) -> bytes:
    """Lay out DOT text with Graphviz ``dot`` into ``fmt`` ('svg', 'png', 'pdf', 'json', ...)."""
    exe = shutil.which("dot")
    if exe is None:
        raise QubicError("Graphviz 'dot' is not installed; install graphviz (apt-get install graphviz) "
                         "or choose --format html-free text, dot or json")
    done = subprocess.run([exe, f"-T{fmt}"], input=dot_text.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        raise QubicError(f"Graphviz dot failed on the tree: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout


def picture(tree: ForceTree, fmt: str, form: str = "index", shown: Collection[int] | None = None,
            expanded: Collection[int] | None = None, width: int = MAX_PIXELS) -> bytes:
    """SVG or PNG of the shown part of ``tree``, within ``width`` pixels."""
    inches = width / 96
    text = tree_dot(tree, form=form, shown=shown, expanded=expanded, size=(inches, inches))
    if fmt != "svg":
        return run_dot(text, fmt)
    # SVG at 72 dpi: Graphviz's viewBox then spans the drawing exactly (at 96 it is drawn 4/3 too large)
    return fit_to_window(run_dot(text.replace(" dpi=96 ", " dpi=72 ", 1), fmt).decode()).encode()


def fit_to_window(svg: str) -> str:
    """Let an SVG document scale to the window that opens it (whole, never above its natural size).

    >>> fit_to_window('<svg width="900pt" height="300pt" viewBox="0 0 900 300">')
    '<svg width="100%" height="100%" style="max-width:1200px;max-height:400px" viewBox="0 0 900 300">'
    """
    found = re.search(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"', svg)
    if not found:
        return svg
    w, h = (round(float(v) * 4 / 3) for v in found.groups())
    return svg.replace(found.group(0), f'<svg width="100%" height="100%" style="max-width:{w}px;max-height:{h}px"', 1)


def tree_svg(tree: ForceTree, boards: bool | None = None, form: str = "index", with_legend: bool = True) -> str:
    """The whole tree laid out by ``dot`` as an SVG document, at its natural size (1 pt a unit)."""
    text = tree_dot(tree, boards, form, with_legend=with_legend).replace(" dpi=96 ", " dpi=72 ", 1)
    return run_dot(text, "svg").decode()
