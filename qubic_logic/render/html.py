"""A self-contained interactive HTML page of a force tree, for any browser, offline.

The page is the Analyse page's force-graph explorer on its own: the same
script (``server/static/forcegraph.js``), style sheet and board drawing
(``qubic.js``), inlined with the graph's data, so that it draws what the
Analyse page draws: the same layout, the same boxes with mini boards, the same
key. It opens on the principal variation and its branch points at full size
(on a phone, on the line alone); a node pointed at or tapped shows its board
and the line through it, which can be stepped through; *Fit*, *Expand all* and
*Present* work as on the page. It loads nothing from the network.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> page = tree_html(force_tree(parse_position('moves:0,48,1,49,6,60'), engine='python'))
>>> page.startswith('<!DOCTYPE html>') and '<script src' not in page and 'FG.show(data)' in page
True
"""

from __future__ import annotations

import json
import re
from html import escape
from importlib.resources import files

from ..forcetree import ForceTree
from ..notation import CellNames, format_cell
from .explorer import explorer_data

STATIC = files("qubic_logic") / "server" / "static"
"""The browser's files the page inlines (the server serves the same ones)."""

_START = """
'use strict';
const data = JSON.parse(document.getElementById('data').textContent);
Q.info = {cells: {[data.notation]: data.cells}};
Q.chosen = data.notation;  // the cells as the command wrote them
FG.mount(document.getElementById('explorer'));
Q.presentMode(() => FG.redraw());
FG.show(data);
"""


def tree_html(tree: ForceTree, form: str = "index", title: str | None = None) -> str:
    """The interactive page as one string (cells written in ``form``)."""
    data = {**explorer_data(tree), "notation": form, "cells": [format_cell(c, form) for c in range(64)]}
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    summary = escape(tree.summary(CellNames(form)))
    heading = escape(title or "Force graph")
    inline = {name: (STATIC / name).read_text(encoding="utf-8") for name in ("style.css", "qubic.js", "forcegraph.js")}
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{heading}: {summary}</title>"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<style>{inline['style.css']}</style></head><body class=\"offline\"><main>"
            f"<h1>{heading}</h1><div class=\"status\" id=\"gsummary\">{summary}</div>"
            "<div id=\"explorer\" class=\"fg\"></div>"
            "<p class=\"note\">Written by qubic-logic (<code>qubic tree</code>); the page works offline.</p></main>"
            f"<script id=\"data\" type=\"application/json\">{payload}</script>"
            f"<script>{inline['qubic.js']}</script><script>{inline['forcegraph.js']}</script>"
            f"<script>{_START}</script></body></html>\n")


def external_references(page: str) -> list[str]:
    """URLs the page would load (scripts, styles, images, frames): none for :func:`tree_html`.

    >>> external_references('<script src="https://cdn.example/x.js"></script>')
    ['https://cdn.example/x.js']
    """
    found = re.findall(r"""(?:src|href)\s*=\s*["']((?:https?:)?//[^"']+)""", page)
    found += re.findall(r"""url\(\s*["']?((?:https?:)?//[^)"']+)""", page)
    found += re.findall(r"""@import\s+["']((?:https?:)?//[^"']+)""", page)
    return found
