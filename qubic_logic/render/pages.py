"""Force graphs on paper: a PDF of whole A4 or Letter pages, a large drawing split by subtree.

Every page is exactly the paper's size (A4 595×842 points, Letter 612×792),
upright or, for a wide part of the drawing, landscape; the drawing itself is
never turned. Text is set in 10 points and never printed below 8 (a scale of
:data:`SMALLEST_SCALE`): a drawing that needs more room is split over pages by
subtree. Page 1 carries the legend and the top of the graph. A node whose
children go on elsewhere says "continued on page 3", and page 3 starts with
that node again, "from page 1"; a node with more children than a page holds
shows some and says where the others are ("more moves on page 4"). The
references are links as well. Subtrees that fit whole share a page.

>>> from qubic_logic.notation import parse_position
>>> from qubic_logic.forcetree import force_tree
>>> from qubic_logic.forcegraph import fold_forced
>>> tree = fold_forced(force_tree(parse_position('1-2,22-52,27-4')))
>>> from qubic_logic.render.view import opening_view, visible
>>> book = plan(tree, visible(tree, opening_view(tree)), opening_view(tree), 'a4')
>>> len(book.pages) > 1, min(p.scale for p in book.pages) >= SMALLEST_SCALE
(True, True)
>>> sorted(book.home) == sorted(visible(tree, opening_view(tree)))  # every node lives on one page
True
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tempfile
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import QubicError
from ..forcetree import ForceTree
from ..notation import CellNames
from .dot import run_dot, tree_dot

PAPERS: dict[str, tuple[int, int]] = {"a4": (595, 842), "letter": (612, 792)}
"""Upright page sizes in PostScript points."""
MARGIN = 28.8  # points (0.4 inch) left blank on every side
SMALLEST_SCALE = 0.8  # 10-point text printed at 8 points or more
NODESEP, RANKSEP = 0.12, 0.3  # inches between boxes of a rank and between ranks, as tree_dot draws them
_SPARE = 0.98  # a planned page keeps 2 % of its room for what a layout of plain boxes does not see
_PLACEHOLDER = 999  # a page number as wide as any a plan needs


@dataclass(frozen=True)
class Root:
    """A node a page starts from: ``only`` some of its children (default all); ``repeat`` when the node
    lives on an earlier page and is drawn again here, where its children go on."""

    node: int
    only: tuple[int, ...] | None = None
    repeat: bool = False


@dataclass
class Page:
    """One page: its first nodes, every node drawn, the nodes only referred to, the notes on nodes."""

    roots: list[Root]
    nodes: set[int]
    stubs: set[int] = field(default_factory=set)
    notes: dict[int, list[str]] = field(default_factory=dict)
    size: tuple[int, int] = (0, 0)  # (width, height) in points
    scale: float = 1.0


@dataclass
class Book:
    """The pages of one PDF in order, and the index of the page each node lives on (first drawn)."""

    pages: list[Page]
    home: dict[int, int]

    def continued(self, node: int, after: int) -> int | None:
        """The first page after ``after`` that starts from ``node`` again (where its children go on)."""
        return next((j for j in range(after + 1, len(self.pages)) for r in self.pages[j].roots
                     if r.node == node and r.repeat), None)


class _Planner:
    """Fills pages that print at :data:`SMALLEST_SCALE` or more on ``paper``.

    A page grows breadth first from its first node, opening one node (all its children) at a time
    while the page still fits; nodes left closed go on in later pages. Whether a page fits is asked of
    ``dot`` laying out plain boxes of each node's measured size, spaced as the real page: the same
    layout as the real page's, at a fraction of the cost.
    """

    def __init__(self, tree: ForceTree, form: str, shown: set[int], expanded: set[int], paper: str) -> None:
        if paper not in PAPERS:
            raise QubicError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")
        self.tree, self.form, self.shown, self.expanded, self.paper = tree, form, shown, expanded, paper
        self.kids: dict[int, list[int]] = {n: [] for n in shown}  # children in the spanning tree
        self.below: dict[int, list[int]] = {n: [c for c in tree.successors(n) if c in shown] if n in expanded
                                            else [] for n in shown}  # every child drawn
        self.parent: dict[int, int] = {}
        queue, seen = deque([tree.root]), {tree.root}
        while queue:  # a spanning tree: each node under the first parent that reaches it
            node = queue.popleft()
            if node not in expanded:
                continue
            for child in tree.successors(node):
                if child in shown and child not in seen:
                    seen.add(child)
                    self.parent[child] = node
                    self.kids[node].append(child)
                    queue.append(child)
        self.boxes, self.note_height = self._measure()
        self.legend = _size(_layout(tree_dot(tree, form=form, shown=set(), heading=_heading(99, 99))))
        self.heading = _size(_layout(tree_dot(tree, form=form, shown=set(), with_legend=False,
                                              heading=_heading(99, 99, tree))))

    def _measure(self) -> tuple[dict[int, tuple[float, float]], float]:
        """Each shown node's box (points), and the height a line of notes adds to a box."""
        def boxes(shown: set[int], notes: dict[int, str] | None = None) -> dict[int, tuple[float, float]]:
            text = tree_dot(self.tree, True, self.form, shown, self.expanded, with_legend=False,
                            drawn=self.shown, notes=notes)
            doc = _layout("\n".join(line for line in text.splitlines() if " -> " not in line))
            return {int(o["name"][1:]): (float(o["width"]) * 72, float(o["height"]) * 72)
                    for o in doc.get("objects", [])}

        plain = boxes(self.shown)
        root = self.tree.root
        noted = boxes({root}, {root: f"continued on page {_PLACEHOLDER}"})
        return plain, noted[root][1] - plain[root][1]

    def children(self, root: Root) -> list[int]:
        """The children a page shows below one of its first nodes: its own first, then references."""
        drawn = self.below[root.node] if root.only is None else root.only
        return sorted(drawn, key=lambda c: self.parent.get(c) != root.node)

    def own(self, root: Root, children: list[int]) -> list[int]:
        return [c for c in children if self.parent.get(c) == root.node]

    def whole(self, roots: list[Root]) -> set[int]:
        """The roots and all their descendants (a root with ``only``: below those children)."""
        nodes, stack = set(), []
        for root in roots:
            nodes.add(root.node)
            stack.extend(self.own(root, self.children(root)))
        while stack:
            node = stack.pop()
            nodes.add(node)
            stack.extend(self.kids[node])
        return nodes

    def stubs(self, nodes: set[int], roots: list[Root]) -> set[int]:
        """Nodes drawn on the page only to say where they live: children reached by a second parent."""
        kept = {r.node: set(r.only) for r in roots if r.only is not None}
        return {c for n in nodes for c in self.below[n]
                if c not in nodes and self.parent.get(c) != n and c in kept.get(n, {c})}

    def scale(self, nodes: set[int], roots: list[Root], first: bool) -> tuple[float, tuple[int, int]]:
        """The scale a page of ``nodes`` prints at, and its size (the better way up)."""
        stubs = self.stubs(nodes, roots)
        kept = {r.node: set(r.only) for r in roots if r.only is not None}
        boxes = {}
        for n in nodes | stubs:
            lines = (n in stubs) + any(k not in nodes for k in self.kids[n]) \
                + any(r.node == n and r.repeat for r in roots)
            w, h = self.boxes[n]
            boxes[n] = (w, h + self.note_height * lines)
        label = self.legend if first else self.heading
        if not _may_fit(self, boxes, roots, label):
            return 0.0, PAPERS[self.paper]
        edges = [(a, b) for a, b in self.tree.edges()  # in the order the real page lists them
                 if a in nodes and a in self.expanded and b in boxes and (a not in kept or b in kept[a])]
        w, h = _size(_layout(_plain_boxes(boxes, edges)))
        return best_fit(self.paper, (max(w, label[0]), h + label[1]))

    def fits(self, nodes: set[int], roots: list[Root], first: bool) -> bool:
        return self.scale(nodes, roots, first)[0] * _SPARE >= SMALLEST_SCALE

    def page(self, roots: list[Root], first: bool) -> tuple[list[Root], set[int]]:
        """The page that starts from ``roots``: whole subtrees when they fit, else as much of the one
        root's subtree as fits, opened breadth first (a crowded root shows only its first children)."""
        if self.fits(whole := self.whole(roots), roots, first):
            return roots, whole
        root = roots[0]
        children = self.children(root)
        low, high = 1, len(children) + 1  # `low` children always go on the page; `high` do not fit
        while high - low > 1:
            mid = (low + high) // 2
            part = Root(root.node, tuple(children[:mid]), root.repeat)
            if self.fits({root.node, *self.own(part, children[:mid])}, [part], first):
                low = mid
            else:
                high = mid
        if low < len(children):
            root = Root(root.node, tuple(children[:low]), root.repeat)
        nodes = {root.node, *self.own(root, children[:low])}
        queue = deque(c for c in self.own(root, children[:low]) if self.kids[c])
        while queue:
            node = queue.popleft()
            trial = nodes | set(self.kids[node])
            if self.fits(trial, [root], first):
                nodes = trial
                queue.extend(c for c in self.kids[node] if self.kids[c])
        return [root], nodes

    def plan(self) -> list[Page]:
        pages: list[Page] = []
        placed: set[int] = set()  # nodes drawn on a page already (a node lives on the first)
        work: deque[Root] = deque([Root(self.tree.root)])
        while work:
            roots = [work.popleft()]
            if self.fits(self.whole(roots), roots, not pages):  # neighbours that fit whole share the page
                while work and self.fits(self.whole(roots + [work[0]]), roots + [work[0]], not pages):
                    roots.append(work.popleft())
            asked = roots[0]
            roots, nodes = self.page(roots, first=not pages)
            if roots[0].only != asked.only:  # a crowded node: its other children start the next page
                rest = tuple(c for c in self.children(asked) if c not in roots[0].only)
                work.appendleft(Root(asked.node, rest, repeat=True))
            pages.append(Page(roots, nodes, self.stubs(nodes, roots)))
            placed |= nodes
            work.extend(Root(n, repeat=True) for n in _breadth_first(self, roots, nodes)
                        if self.kids[n] and not any(k in placed for k in self.kids[n]))
        return pages


def _may_fit(planner: _Planner, boxes: dict[int, tuple[float, float]], roots: list[Root],
             label: tuple[float, float]) -> bool:
    """False when the page cannot fit whatever the layout: a rank wider, or ranks taller, than the paper."""
    depth = {r.node: 0 for r in roots}
    queue = deque(depth)
    while queue:
        node = queue.popleft()
        for child in planner.kids[node]:
            if child in boxes and child not in depth:
                depth[child] = depth[node] + 1
                queue.append(child)
    widths: dict[int, float] = {}
    heights: dict[int, float] = {}
    for node, (w, h) in boxes.items():
        if node not in depth:  # a reference to a node of another page: somewhere, perhaps beside another
            continue
        d = depth[node]
        widths[d] = widths.get(d, -NODESEP * 72) + w + NODESEP * 72
        heights[d] = max(heights.get(d, 0.0), h)
    short, long = PAPERS[planner.paper]
    room = (long - 2 * MARGIN) / SMALLEST_SCALE
    return max(widths.values()) <= room and sum(heights.values()) + label[1] <= room


def _breadth_first(planner: _Planner, roots: list[Root], nodes: set[int]) -> list[int]:
    """A page's nodes breadth first, left to right: the order its continuations are numbered in."""
    out, queue, seen = [], deque(r.node for r in roots), {r.node for r in roots}
    while queue:
        node = queue.popleft()
        out.append(node)
        for child in planner.kids[node]:
            if child in nodes and child not in seen:
                seen.add(child)
                queue.append(child)
    return out


def best_fit(paper: str, drawing: tuple[float, float]) -> tuple[float, tuple[int, int]]:
    """The scale (at most 1) a drawing of ``drawing`` points prints at, and the page it goes on: the
    paper upright or, when that prints it larger, turned (landscape).

    >>> scale, page = best_fit('a4', (900.0, 400.0))
    >>> round(scale, 3), page
    (0.872, (842, 595))
    >>> best_fit('letter', (300.0, 500.0))
    (1.0, (612, 792))
    """
    short, long = PAPERS[paper]
    options = []
    for width, height in ((short, long), (long, short)):
        scale = min(1.0, (width - 2 * MARGIN) / max(drawing[0], 1), (height - 2 * MARGIN) / max(drawing[1], 1))
        options.append((scale, (width, height)))
    return max(options, key=lambda o: o[0])  # upright on a tie


def _heading(page: int, pages: int, tree: ForceTree | None = None) -> str:
    """A page's line at the top: its number, and on pages after the first what the drawing is of."""
    where = f"page {page} of {pages}"
    if tree is None:
        return where
    wins = f", wins in {tree.length}" if tree.length else ""
    return f"{tree.attacker.upper()} to move{wins} · {where}"


def _plain_boxes(boxes: dict[int, tuple[float, float]], edges: list[tuple[int, int]]) -> str:
    """DOT of boxes of fixed size (points), in the order and spacing of :func:`.dot.tree_dot`."""
    out = [f"digraph g {{ graph [rankdir=TB nodesep={NODESEP} ranksep={RANKSEP}];",
           ' node [shape=box fixedsize=true label=""];']
    out += [f" n{n} [width={w / 72:.4f} height={h / 72:.4f}];" for n, (w, h) in sorted(boxes.items())]
    out += [f" n{a} -> n{b};" for a, b in edges]
    return "\n".join(out) + "}\n"


def _layout(dot_text: str) -> dict:
    return json.loads(run_dot(dot_text.replace(" dpi=96 ", " dpi=72 ", 1), "json"))


def _size(doc: dict) -> tuple[float, float]:
    x0, y0, x1, y1 = map(float, doc["bb"].split(","))
    return x1 - x0, y1 - y0


def plan(tree: ForceTree, shown: set[int], expanded: set[int], paper: str = "a4", form: str = "index") -> Book:
    """The pages of the drawing of ``shown`` (``expanded``: the nodes whose children are drawn)."""
    planner = _Planner(tree, form, set(shown), set(expanded), paper)
    book = Book(planner.plan(), {})
    for i, page in enumerate(book.pages):
        for n in page.nodes:
            book.home.setdefault(n, i)
    for i, page in enumerate(book.pages):
        notes: dict[int, list[str]] = {n: [f"on page {book.home[n] + 1}"] for n in page.stubs}
        starts = {r.node: r for r in page.roots}
        for n in page.nodes:
            root = starts.get(n)
            if root is not None and root.repeat:
                notes.setdefault(n, []).append(f"from page {book.home[n] + 1}")
            later = book.continued(n, i)
            if later is not None:
                words = "more moves" if root is not None and root.only is not None else "continued"
                notes.setdefault(n, []).append(f"{words} on page {later + 1}")
        page.notes = notes
        page.scale, page.size = planner.scale(page.nodes, page.roots, first=i == 0)
    return book


def _link_target(book: Book, index: int, node: int) -> int | None:
    """The page a node drawn on page ``index`` refers to: onwards where its children go on, else back
    to where it lives; None when it says nothing of another page."""
    page = book.pages[index]
    onward = book.continued(node, index)
    if node in page.stubs or (onward is None and any(r.node == node and r.repeat for r in page.roots)):
        return book.home[node]
    return onward


def pdf_document(tree: ForceTree, shown: set[int], expanded: set[int], paper: str = "a4",
                 form: str = "index") -> bytes:
    """The PDF: each page of :func:`plan` drawn by ``dot``, placed on its paper, its references linked."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation
    from pypdf.annotations import Link

    book = plan(tree, shown, expanded, paper, form)
    writer = PdfWriter()
    links: list[tuple[int, tuple[float, float, float, float], int]] = []
    total = len(book.pages)
    for i, page in enumerate(book.pages):
        heading = _heading(i + 1, total, None if i == 0 else tree) if total > 1 else None
        text = tree_dot(tree, True, form, page.nodes | page.stubs, expanded, with_legend=i == 0,
                        notes={n: "\n".join(lines) for n, lines in page.notes.items()}, heading=heading,
                        drawn=shown, edges=_page_edges(tree, page, expanded))
        drawing, doc = _pdf_and_layout(text.replace(" dpi=96 ", " dpi=72 margin=0 ", 1))
        source = PdfReader(io.BytesIO(drawing)).pages[0]
        w0, h0 = float(source.mediabox.width), float(source.mediabox.height)
        page.scale, page.size = best_fit(paper, (w0, h0))
        width, height = page.size
        x0, y0 = (width - page.scale * w0) / 2, height - MARGIN - page.scale * h0
        sheet = PageObject.create_blank_page(width=width, height=height)
        sheet.merge_transformed_page(source, Transformation().scale(page.scale).translate(x0, y0))
        writer.add_page(sheet)
        bw, bh = _size(doc)
        pad_x, pad_y = (w0 - bw) / 2, (h0 - bh) / 2
        for obj in doc.get("objects", []):
            target = _link_target(book, i, int(obj["name"][1:]))
            if target is None or target == i:
                continue
            cx, cy = map(float, obj["pos"].split(","))
            w, h = float(obj["width"]) * 72, float(obj["height"]) * 72
            s = page.scale
            links.append((i, (x0 + s * (pad_x + cx - w / 2), y0 + s * (pad_y + cy - h / 2),
                              x0 + s * (pad_x + cx + w / 2), y0 + s * (pad_y + cy + h / 2)), target))
    for index, rect, target in links:
        writer.add_annotation(index, Link(rect=rect, target_page_index=target))
    writer.add_metadata({"/Title": tree.summary(CellNames(form)), "/Creator": "qubic-logic"})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _page_edges(tree: ForceTree, page: Page, expanded: set[int]) -> set[tuple[int, int]]:
    """The edges a page draws: from its nodes to the nodes and references on it, a crowded root's to the
    children shown here only."""
    kept = {r.node: set(r.only) for r in page.roots if r.only is not None}
    boxes = page.nodes | page.stubs
    return {(a, b) for a, b in tree.edges() if a in page.nodes and a in expanded and b in boxes
            and (a not in kept or b in kept[a])}


def _pdf_and_layout(dot_text: str) -> tuple[bytes, dict]:
    """One ``dot`` run: the page as PDF, and the layout that drew it (where its links go)."""
    exe = shutil.which("dot")
    if exe is None:
        run_dot("", "pdf")  # says how to install Graphviz
    with tempfile.TemporaryDirectory() as folder:
        pdf, layout = Path(folder, "page.pdf"), Path(folder, "page.json")
        done = subprocess.run([exe, "-Tpdf", f"-o{pdf}", "-Tjson", f"-o{layout}"], input=dot_text.encode(),
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise QubicError(f"Graphviz dot failed on the tree: {done.stderr.decode(errors='replace').strip()}")
        return pdf.read_bytes(), json.loads(layout.read_text())
