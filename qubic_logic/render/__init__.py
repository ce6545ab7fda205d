"""Renderers of force trees, kept apart from the model: they draw, they never search.

========= ===========================================================
format    what
========= ===========================================================
``svg``   Graphviz ``dot`` layout (:mod:`.dot`)
``png``   the same as a PNG image
``dot``   Graphviz source text
``html``  a self-contained interactive page (:mod:`.html`)
``json``  networkx node-link JSON (:mod:`.nodelink`)
``text``  a compact text tree (:mod:`.text`)
========= ===========================================================

>>> format_for_path('out/tree.svg'), format_for_path('tree.txt')
('svg', 'text')
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..errors import QubicError
from ..forcetree import ForceTree
from ..saving import write_atomically

FORMATS = ("svg", "png", "html", "dot", "json", "text")
_SUFFIXES = {".svg": "svg", ".png": "png", ".html": "html", ".htm": "html", ".dot": "dot", ".gv": "dot",
             ".json": "json", ".txt": "text"}


def format_for_path(path: str | os.PathLike) -> str:
    """The format a file name asks for by its suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise QubicError(f"cannot tell the format of {str(path)!r} from its suffix; use one of "
                         f"{', '.join(sorted(_SUFFIXES))} or say --format {'|'.join(FORMATS)}")
    return _SUFFIXES[suffix]


def render_tree(tree: ForceTree, fmt: str, form: str = "index") -> bytes:
    """The tree in ``fmt`` (one of :data:`FORMATS`) as bytes, cells written in ``form``."""
    from . import dot, html, nodelink, text

    if fmt in ("svg", "png"):
        return dot.run_dot(dot.tree_dot(tree, form=form), fmt)
    if fmt == "dot":
        return dot.tree_dot(tree, form=form).encode()
    if fmt == "html":
        return html.tree_html(tree, form).encode()
    if fmt == "json":
        return (json.dumps(nodelink.tree_json(tree)) + "\n").encode()
    if fmt == "text":
        return (text.tree_text(tree, form) + "\n").encode()
    raise QubicError(f"unknown tree format {fmt!r}; expected one of {', '.join(FORMATS)}")


def write_tree(tree: ForceTree, path: str | os.PathLike, fmt: str | None = None, form: str = "index") -> str:
    """Write the tree to ``path`` (format from ``fmt`` or the suffix); returns the format used."""
    fmt = fmt or format_for_path(path)
    write_atomically(path, render_tree(tree, fmt, form))
    return fmt
