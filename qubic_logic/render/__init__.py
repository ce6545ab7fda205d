"""Renderers of force trees, kept apart from the model: they draw, they never search.

========= ===========================================================
format    what
========= ===========================================================
``svg``   Graphviz ``dot`` layout (:mod:`.dot`)
``png``   the same as a PNG image (at most 2,400 pixels a side)
``pdf``   A4 or Letter pages, split by subtree (:mod:`.pages`)
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
from dataclasses import dataclass
from pathlib import Path

from ..errors import QubicError
from ..forcetree import ForceTree
from ..saving import write_atomically

FORMATS = ("svg", "png", "pdf", "html", "dot", "json", "text")
_SUFFIXES = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".html": "html", ".htm": "html", ".dot": "dot", ".gv": "dot",
             ".json": "json", ".txt": "text"}


def format_for_path(path: str | os.PathLike) -> str:
    """The format a file name asks for by its suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in _SUFFIXES:
        raise QubicError(f"cannot tell the format of {str(path)!r} from its suffix; use one of "
                         f"{', '.join(sorted(_SUFFIXES))} or say --format {'|'.join(FORMATS)}")
    return _SUFFIXES[suffix]


@dataclass(frozen=True)
class Drawing:
    """What a picture shows and how big it may be.

    ``everything``: every node; ``max_depth``: every node fewer than that many
    steps from the root; else the opening view (:func:`.view.opening_view`).
    ``width``: the longest side in pixels; ``paper``: the PDF's page.
    """

    everything: bool = False
    max_depth: int | None = None
    width: int = 2400
    paper: str = "a4"

    def nodes(self, tree: ForceTree) -> tuple[set[int], set[int]]:
        """(shown, expanded) nodes of ``tree``."""
        from .view import opening_view, visible

        expanded = set(tree) if self.everything else opening_view(tree, self.max_depth)
        return visible(tree, expanded), expanded


def render_tree(tree: ForceTree, fmt: str, form: str = "index", drawing: Drawing = Drawing()) -> bytes:
    """The tree in ``fmt`` (one of :data:`FORMATS`) as bytes, cells written in ``form``.

    Pictures (svg, png, pdf, dot) show the part ``drawing`` chooses; the other
    formats carry every node.
    """
    from . import dot, html, nodelink, pages, text

    shown, expanded = drawing.nodes(tree)
    if fmt in ("svg", "png"):
        return dot.picture(tree, fmt, form, shown, expanded, drawing.width)
    if fmt == "pdf":
        return pages.pdf_document(tree, shown, expanded, drawing.paper, form)
    if fmt == "dot":
        return dot.tree_dot(tree, form=form, shown=shown, expanded=expanded).encode()
    if fmt == "html":
        return html.tree_html(tree, form).encode()
    if fmt == "json":
        return (json.dumps(nodelink.tree_json(tree)) + "\n").encode()
    if fmt == "text":
        return (text.tree_text(tree, form) + "\n").encode()
    raise QubicError(f"unknown tree format {fmt!r}; expected one of {', '.join(FORMATS)}")


def write_tree(tree: ForceTree, path: str | os.PathLike, fmt: str | None = None, form: str = "index",
               drawing: Drawing = Drawing()) -> str:
    """Write the tree to ``path`` (format from ``fmt`` or the suffix); returns the format used."""
    fmt = fmt or format_for_path(path)
    write_atomically(path, render_tree(tree, fmt, form, drawing))
    return fmt
