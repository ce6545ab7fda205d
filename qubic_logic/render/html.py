"""A self-contained interactive HTML page of a force tree, for any browser, offline.

The page inlines everything it needs: the tree laid out by Graphviz as SVG,
the nodes' data as JSON, a small style sheet and script. Its header (title,
legend, zoom buttons) stays in view; the drawing scrolls below it. Clicking a
node shows its four-level board (rows, columns and levels named in the
chosen notation, threat cells marked, the step's moves outlined, the winning
line shaded), the moves that lead to it and its status. The page opens
scrolled to the root, which it shows selected. It loads nothing from the
network.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> page = tree_html(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> page.startswith('<!DOCTYPE html>') and '<script src' not in page and 'id="n92"' in page
True
"""

from __future__ import annotations

import json
import re
from html import escape

from ..forcetree import ForceTree, edge_moves
from ..geometry import cells_of
from ..notation import CellNames, format_cell
from ..pictures import axis_labels
from .dot import EDGE_STYLES, EDGE_WORDS, STATUS_FILL, STATUS_WORDS, node_caption, tree_svg

_STYLE = """
body{font-family:sans-serif;margin:0;display:flex;flex-direction:column;height:100vh}
header{padding:6px 10px;border-bottom:1px solid #ccc;font-size:14px}
header .cap{display:block;margin-top:3px}
main{flex:1;display:flex;min-height:0}
#tree{flex:1;min-width:0;overflow:auto;border-right:1px solid #ccc}
#tree svg{display:block;margin:10px}
#side{width:350px;padding:10px;overflow:auto;font-size:14px}
.sw{display:inline-block;width:11px;height:11px;border:1px solid #999;vertical-align:middle}
.lvname{font:11px sans-serif;color:#555;text-align:center}
.ax{background:none!important;color:#78909c;font-size:10px!important}
g.node{cursor:pointer} g.node.sel polygon,g.node.sel path{stroke:#000;stroke-width:3}
.lvbox{display:inline-block;margin:0 4px 6px 0}
.lv{display:grid;grid-template-columns:repeat(5,15px);gap:1px}
.lv div{width:15px;height:15px;background:#fff;font:11px/15px sans-serif;text-align:center;outline:1px solid #999}
.lv div.ax{outline:none;font-size:10px}
.lv .x{background:#c62828;color:#fff}.lv .o{background:#1565c0;color:#fff}
.lv .w{background:#ffe082;color:#000}.lv .t{background:#f8bbd0}.lv .last{outline:2px solid #000;z-index:1}
.cap{color:#555;font-size:12px} code{font-size:13px}
"""

_SCRIPT = """
const data = JSON.parse(document.getElementById('data').textContent);
function board(n) {
  const box = document.createElement('div');
  const cell = (text, cls) => { const d = document.createElement('div'); d.textContent = text; d.className = cls; return d; };
  for (let z = 0; z < 4; z++) {
    const wrap = document.createElement('div'); wrap.className = 'lvbox';
    const name = document.createElement('div'); name.className = 'lvname'; name.textContent = 'level ' + (z + 1);
    const lv = document.createElement('div'); lv.className = 'lv';
    lv.appendChild(cell('', 'ax'));
    for (const c of data.axes[z].cols) lv.appendChild(cell(c, 'ax'));
    for (let y = 0; y < 4; y++) {
      lv.appendChild(cell(data.axes[z].rows[y], 'ax'));
      for (let x = 0; x < 4; x++) {
        const c = x + 4 * y + 16 * z, d = document.createElement('div');
        d.title = data.cells[c];
        if (n.win.includes(c)) { d.className = 'w'; d.textContent = n.x.includes(c) ? 'X' : 'O'; }
        else if (n.x.includes(c)) { d.className = 'x'; d.textContent = 'X'; }
        else if (n.o.includes(c)) { d.className = 'o'; d.textContent = 'O'; }
        else if (n.xt.includes(c) || n.ot.includes(c)) {
          d.className = 't'; d.textContent = n.xt.includes(c) ? (n.ot.includes(c) ? '#' : '+') : '*'; }
        if (n.step.includes(c)) d.className += ' last';
        lv.appendChild(d);
      }
    }
    wrap.append(name, lv);
    box.appendChild(wrap);
  }
  return box;
}
function show(id) {
  const n = data.nodes[id]; if (!n) return;
  document.querySelectorAll('g.node.sel').forEach(g => g.classList.remove('sel'));
  const g = document.getElementById('n' + id); if (g) g.classList.add('sel');
  const side = document.getElementById('side'); side.innerHTML = '';
  const h = document.createElement('h3'); h.textContent = n.caption; side.appendChild(h);
  side.appendChild(board(n));
  const p = document.createElement('p');
  p.innerHTML = '<b>moves from the root:</b> <code></code><br><b>status:</b> ' + n.status +
    (n.reason ? ' (' + n.reason + ')' : '') + '<br><span class="cap">+ X threat, * O threat, ' +
    '# both; outlined: the moves of the step; yellow: four in a row</span>';
  p.querySelector('code').textContent = n.path.join(' ') || '(root)';
  side.appendChild(p);
}
document.querySelectorAll('g.node').forEach(g =>
  g.addEventListener('click', () => show(g.id.slice(1))));
const svg = document.querySelector('#tree svg');
const size = [parseFloat(svg.getAttribute('width')), parseFloat(svg.getAttribute('height'))];
let scale = 1;
function zoom(f) {
  scale = f ? scale * f : Math.min(1, document.getElementById('tree').clientWidth / (size[0] * 4 / 3));
  svg.setAttribute('width', size[0] * scale + 'pt'); svg.setAttribute('height', size[1] * scale + 'pt');
}
document.querySelectorAll('button[data-zoom]').forEach(b =>
  b.addEventListener('click', () => zoom(parseFloat(b.dataset.zoom))));
// open on the root: a wide tree puts it far right of the top-left corner the page starts at
const box = document.getElementById('tree'), root = document.getElementById('n0').getBoundingClientRect();
box.scrollLeft += root.left + root.width / 2 - box.getBoundingClientRect().left - box.clientWidth / 2;
show(0);
"""


def _node_data(tree: ForceTree, form: str) -> dict:
    nodes = {}
    for node, d in tree.nodes(data=True):
        p = d["position"]
        nodes[node] = {
            "caption": node_caption(tree, node, form), "status": d["status"], "reason": d["reason"],
            "move": d["move"], "x": cells_of(p.x), "o": cells_of(p.o), "step": _step(tree, node),
            "xt": list(d["x_threats"]), "ot": list(d["o_threats"]), "win": list(p.winning_line or ()),
            "path": [format_cell(c, form) for c in tree.path_to(node)],
        }
    axes = [dict(zip(("rows", "cols"), axis_labels(z, form), strict=True)) for z in range(4)]
    return {"nodes": nodes, "cells": [format_cell(c, form) for c in range(64)], "axes": axes}


def _step(tree: ForceTree, node: int) -> list[int]:
    parent = next(iter(tree.predecessors(node)), None)
    return [] if parent is None else list(edge_moves(tree.edges[parent, node]))


def tree_html(tree: ForceTree, form: str = "index", title: str | None = None) -> str:
    """The interactive page as one string (cells written in ``form``)."""
    svg = tree_svg(tree, form=form, with_legend=False)
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and DOCTYPE
    payload = json.dumps(_node_data(tree, form), separators=(",", ":")).replace("</", "<\\/")
    heading = escape(title or f"Force graph: {tree.summary(CellNames(form))}")
    fills = " ".join(f'<span class="sw" style="background:{STATUS_FILL[s]}"></span> {escape(STATUS_WORDS[s])}'
                     for s in STATUS_FILL)
    edges = "; ".join(f'<b style="color:{EDGE_STYLES[k].split(chr(34))[1]}">{"┅" if k == "block" else "━"}</b> '
                      f"{escape(EDGE_WORDS[k])}" for k in EDGE_STYLES)
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{heading}</title>"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<style>{_STYLE}</style></head><body><header><b>{heading}</b> "
            "<button data-zoom=\"1.25\">+</button><button data-zoom=\"0.8\">&minus;</button>"
            "<button data-zoom=\"0\">fit</button>"
            f"<span class=\"cap\">{fills}; edges: {edges}; thick: a shortest win; dashed frame: several "
            "lines of play meet here. Mini boards: levels 1 to 4 from left to right, the step's moves outlined. "
            "Click a node to see its board.</span></header>"
            f"<main><div id=\"tree\">{svg}</div><div id=\"side\"></div></main>"
            f"<script id=\"data\" type=\"application/json\">{payload}</script>"
            f"<script>{_SCRIPT}</script></body></html>\n")


def external_references(page: str) -> list[str]:
    """URLs the page would load (scripts, styles, images, frames): none for :func:`tree_html`.

    >>> external_references('<script src="https://cdn.example/x.js"></script>')
    ['https://cdn.example/x.js']
    """
    found = re.findall(r"""(?:src|href)\s*=\s*["']((?:https?:)?//[^"']+)""", page)
    found += re.findall(r"""url\(\s*["']?((?:https?:)?//[^)"']+)""", page)
    found += re.findall(r"""@import\s+["']((?:https?:)?//[^"']+)""", page)
    return found
