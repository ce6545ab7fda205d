"""A self-contained interactive HTML page of a force tree, for any browser, offline.

The page inlines everything it needs: the tree laid out by Graphviz as SVG,
the nodes' data as JSON, a small style sheet and script. Clicking a node
shows its four-level board (threat cells marked, the last move outlined, the
winning line shaded), the moves that lead to it and its status. The page
opens scrolled to the root, which it shows selected. It loads nothing from
the network.

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

from ..forcetree import EDGE_KINDS, ForceTree
from ..geometry import cells_of
from ..notation import format_cell
from .dot import node_caption, tree_svg

_STYLE = """
body{font-family:sans-serif;margin:0;display:flex;height:100vh}
#tree{flex:1;overflow:auto;border-right:1px solid #ccc}
#side{width:360px;padding:12px;overflow:auto;font-size:14px}
g.node{cursor:pointer} g.node.sel polygon,g.node.sel path{stroke:#000;stroke-width:3}
.lv{display:inline-grid;grid-template-columns:repeat(4,18px);gap:1px;margin:0 6px 6px 0;
 background:#999;border:1px solid #999}
.lv div{width:18px;height:18px;background:#fff;font:12px/18px sans-serif;text-align:center}
.lv .x{background:#c62828;color:#fff}.lv .o{background:#1565c0;color:#fff}
.lv .w{background:#ffe082;color:#000}.lv .t{background:#f8bbd0}.lv .last{outline:2px solid #000}
.cap{color:#555;font-size:12px} code{font-size:13px}
"""

_SCRIPT = """
const data = JSON.parse(document.getElementById('data').textContent);
function board(n) {
  const box = document.createElement('div');
  for (let z = 0; z < 4; z++) {
    const lv = document.createElement('div'); lv.className = 'lv'; lv.title = 'level ' + (z + 1);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) {
      const c = x + 4 * y + 16 * z, d = document.createElement('div');
      d.title = data.cells[c];
      if (n.win.includes(c)) { d.className = 'w'; d.textContent = n.x.includes(c) ? 'X' : 'O'; }
      else if (n.x.includes(c)) { d.className = 'x'; d.textContent = 'X'; }
      else if (n.o.includes(c)) { d.className = 'o'; d.textContent = 'O'; }
      else if (n.xt.includes(c) || n.ot.includes(c)) {
        d.className = 't'; d.textContent = n.xt.includes(c) ? (n.ot.includes(c) ? '#' : '+') : '*'; }
      if (c === n.move) d.className += ' last';
      lv.appendChild(d);
    }
    box.appendChild(lv);
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
    '# both; outlined: last move; yellow: four in a row</span>';
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
document.getElementById('n0').scrollIntoView({block: 'center', inline: 'center'});
show(0);
"""


def _node_data(tree: ForceTree, form: str) -> dict:
    nodes = {}
    for node, d in tree.nodes(data=True):
        p = d["position"]
        nodes[node] = {
            "caption": node_caption(tree, node), "status": d["status"], "reason": d["reason"],
            "move": d["move"], "x": cells_of(p.x), "o": cells_of(p.o),
            "xt": list(d["x_threats"]), "ot": list(d["o_threats"]), "win": list(p.winning_line or ()),
            "path": [format_cell(c, form) for c in tree.path_to(node)],
        }
    return {"nodes": nodes, "cells": [format_cell(c, form) for c in range(64)]}


def tree_html(tree: ForceTree, form: str = "index", title: str | None = None) -> str:
    """The interactive page as one string (cells written in ``form``)."""
    svg = tree_svg(tree, boards=False, form=form)
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and DOCTYPE
    payload = json.dumps(_node_data(tree, form), separators=(",", ":")).replace("</", "<\\/")
    heading = escape(title or f"Force tree: {tree.summary()}")
    legend = "; ".join(f"<b>{k}</b>: {escape(v)}" for k, v in EDGE_KINDS.items())
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{heading}</title>"
            f"<style>{_STYLE}</style></head><body>"
            f"<div id=\"tree\"><p style=\"margin:8px\">{heading}<br><span class=\"cap\">{legend}. "
            "Thick edges: shortest wins. Click a node to see its board.</span> "
            "<button data-zoom=\"1.25\">+</button><button data-zoom=\"0.8\">&minus;</button>"
            "<button data-zoom=\"0\">fit</button></p>"
            f"{svg}</div><div id=\"side\"></div>"
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
