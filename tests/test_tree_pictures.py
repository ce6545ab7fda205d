"""Pictures of boards and force trees, and the ``qubic tree`` command."""

from __future__ import annotations

import io
import json
import math
import os
import re
import struct
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from qubic_logic.cli import main
from qubic_logic.forcegraph import fold_forced, force_graph
from qubic_logic.forcetree import force_tree
from qubic_logic.notation import CellNames, format_cell, parse_position
from qubic_logic.pictures import board_svg
from qubic_logic.position import Position
from qubic_logic.render import FORMATS, Drawing, format_for_path, render_tree, write_tree
from qubic_logic.render.dot import tree_dot
from qubic_logic.render.html import STATIC, external_references, tree_html
from qubic_logic.render.nodelink import tree_from_json, tree_json
from qubic_logic.render.pages import SMALLEST_SCALE, plan
from qubic_logic.render.view import opening_view, visible
from qubic_logic.render.text import tree_text

MCDANIEL = "1-2,22-52,27-4"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def big_tree():
    tree = force_tree(parse_position(MCDANIEL), engine="python")
    assert tree.number_of_nodes() >= 100
    return tree


@pytest.fixture(scope="module")
def small_tree():
    return force_tree(parse_position(MCDANIEL), engine="python", only_winning=True, max_length=6)


def test_board_svg_draws_marks_and_highlights_the_winning_line():
    won = Position.from_cells([0, 16, 1, 17, 2, 18, 3])
    svg = board_svg(won, marks={40: "+"})
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert svg.count('class="x"') == 4 and svg.count('class="o"') == 3
    assert svg.count('fill="#ffe082"') == 4  # the line 0-1-2-3
    assert ">+</text>" in svg
    assert board_svg(won, highlight=[]).count('fill="#ffe082"') == 0
    assert won._repr_svg_() == board_svg(won)


def test_svg_and_png_through_dot(small_tree):
    svg = render_tree(small_tree, "svg", drawing=Drawing(everything=True)).decode()
    root = ET.fromstring(svg)
    ids = {g.get("id") for g in root.iter() if (g.get("class") or "").startswith("node")}
    assert ids == {f"n{n}" for n in small_tree.nodes}
    assert small_tree._repr_svg_().count('<g id="n') == small_tree.number_of_nodes()
    assert render_tree(small_tree, "png").startswith(b"\x89PNG\r\n\x1a\n")


def test_dot_has_every_node_and_edge(big_tree):
    text = tree_dot(big_tree)
    assert len(re.findall(r"^  n\d+ \[id=", text, re.MULTILINE)) == big_tree.number_of_nodes()
    assert text.count(" -> ") == big_tree.number_of_edges()


def test_html_is_self_contained_carries_every_board_and_shares_the_analyse_pages_drawing(big_tree):
    page = tree_html(big_tree)
    assert external_references(page) == []
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    payload = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.DOTALL).group(1)
    nodes = {n["id"]: n for n in json.loads(payload)["nodes"]}
    assert len(nodes) == big_tree.number_of_nodes()
    leaf = next(n for n, d in big_tree.nodes(data=True) if d["role"] == "end")
    assert nodes[leaf]["win"] == list(big_tree.nodes[leaf]["position"].winning_line)
    for name in ("forcegraph.js", "qubic.js", "style.css"):  # the Analyse page's own files, not copies
        assert (STATIC / name).read_text(encoding="utf-8") in page, name


def test_json_round_trip(big_tree):
    doc = json.loads(json.dumps(tree_json(big_tree)))
    back = tree_from_json(doc)
    assert back.number_of_nodes() == big_tree.number_of_nodes()
    assert set(back.winning_paths()) == set(big_tree.winning_paths())
    assert back.summary() == big_tree.summary() and back.graph == big_tree.graph
    assert all(back.nodes[n]["position"] == big_tree.nodes[n]["position"] for n in big_tree.nodes)


def test_text_tree_has_one_line_per_node(small_tree):
    text = tree_text(small_tree)
    assert len(text.splitlines()) == small_tree.number_of_nodes()
    assert text.splitlines()[0] == f"X to move: wins in {small_tree.length}"
    assert text.splitlines()[1].startswith("├── X ")
    assert text.count("four in a row") == sum(1 for _ in small_tree.winning_paths())


def test_write_tree_by_suffix(tmp_path, small_tree):
    for fmt in FORMATS:
        suffix = {"text": "txt"}.get(fmt, fmt)
        path = tmp_path / f"tree.{suffix}"
        assert write_tree(small_tree, path) == fmt == format_for_path(path)
        assert path.stat().st_size > 0
        umask = os.umask(0)
        os.umask(umask)
        assert path.stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_cli_writes_valid_svg_and_offline_html_for_a_big_tree(tmp_path, capsys):
    svg, html = tmp_path / "tree.svg", tmp_path / "tree.html"
    assert main(["tree", MCDANIEL, "--engine", "python", "--all", "--unfold", "-o", str(svg)]) == 0
    out = capsys.readouterr().out
    root = ET.parse(svg).getroot()
    nodes = sum(1 for g in root.iter() if (g.get("class") or "").startswith("node"))
    assert nodes >= 100 and f"{nodes} nodes" in out
    assert main(["tree", MCDANIEL, "--engine", "python", "--unfold", "--format", "html", "-o", str(html)]) == 0
    page = html.read_text()
    payload = re.search(r'<script id="data" type="application/json">(.*?)</script>', page, re.DOTALL).group(1)
    assert external_references(page) == [] and len(json.loads(payload)["nodes"]) == nodes


def test_cli_summary_and_node_cap(capsys):
    assert main(["tree", MCDANIEL, "--engine", "python", "--only-winning", "--max-length", "6"]) == 0
    out = capsys.readouterr().out
    tree = fold_forced(force_tree(parse_position(MCDANIEL), engine="python", only_winning=True, max_length=6))
    assert out.strip().splitlines()[-1].startswith(tree.summary(CellNames("number")))  # McDaniel's input
    assert "winning first moves: 17 32 43 64" in out  # in McDaniel's numbers, as the input
    assert main(["tree", MCDANIEL, "--engine", "python", "--max-nodes", "40", "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "the node cap of 40 nodes was reached" in captured.err
    assert json.loads(captured.out)["graph"]["truncated"] == "max_nodes"


def test_cli_errors_are_one_line(capsys):
    assert main(["tree", MCDANIEL, "--format", "png"]) == 2
    assert "give a file with -o" in capsys.readouterr().err
    assert main(["tree", MCDANIEL, "-o", "tree.xyz"]) == 2
    assert "suffix" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["tree", MCDANIEL, "--max-nodes", "0"])
    assert exit_.value.code == 2 and "positive" in capsys.readouterr().err


# ------------------------------------------------------------------ pictures that fit, with boards and a legend


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    return struct.unpack(">II", data[16:24])


def svg_nodes(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter() if (g.get("class") or "").startswith("node")]


def test_png_of_the_trap_fits_2400_pixels_and_shows_mini_boards(tmp_path, capsys):
    png, svg = tmp_path / "t.png", tmp_path / "t.svg"
    assert main(["tree", MCDANIEL, "-o", str(png)]) == 0
    assert max(png_size(png.read_bytes())) <= 2400
    assert main(["tree", MCDANIEL, "-o", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    nodes = svg_nodes(root)
    folded = fold_forced(force_tree(parse_position(MCDANIEL)))
    assert 10 <= len(nodes) < folded.number_of_nodes()  # opens on the principal variation
    for g in nodes:  # a mini board: 64 cells drawn as filled polygons, and the step's caption
        cells = [p for p in g.iter(f"{SVG}polygon") if p.get("fill") not in (None, "none")]
        assert len(cells) >= 64, g.get("id")
        assert any(t.text and (t.text.startswith("after ") or t.text == "X to move") for t in g.iter(f"{SVG}text"))
    assert (root.get("width"), root.get("height")) == ("100%", "100%")  # fits the window that opens it
    style = dict(part.split(":") for part in root.get("style").split(";"))
    natural = [float(style[k].removesuffix("px")) for k in ("max-width", "max-height")]
    assert max(natural) <= 2400
    x, y, w, h = map(float, root.get("viewBox").split())
    assert (x, y) == (0, 0) and abs(w * 4 / 3 / natural[0] - 1) < 0.01 and abs(h * 4 / 3 / natural[1] - 1) < 0.01
    background = root.find(f"{SVG}g").find(f"{SVG}polygon")  # the drawing's page, in viewBox units
    xs, ys = zip(*((float(a), float(b)) for a, b in (p.split(",") for p in background.get("points").split())))
    assert max(xs) - min(xs) <= w + 0.5 and max(ys) - min(ys) <= h + 0.5  # the whole drawing inside


def test_every_picture_carries_its_legend_and_a_key_board(tmp_path):
    tree = fold_forced(force_graph(force_tree(parse_position(MCDANIEL))))
    root = ET.fromstring(render_tree(tree, "svg", "lrc"))
    graph_texts = [t.text for t in root.find(f"{SVG}g").findall(f"{SVG}text")]  # the graph's own label
    for words in ("a forced win follows", "no forced win", "a double threat", "X threat cell", "the step's moves",
                  "level 1", "level 4", tree.summary(CellNames("lrc"))):  # the title names cells as the picture does
        assert any(t and words in t for t in graph_texts), words
    key = {t for t in graph_texts if t and re.fullmatch(r"\d{3}", t)}
    assert key == {format_cell(c, "lrc") for c in range(64)}  # every cell named in the chosen notation


def test_unfold_max_depth_and_all_choose_what_is_drawn():
    tree = force_tree(parse_position(MCDANIEL))
    folded = fold_forced(tree)
    count = lambda t, d: len(svg_nodes(ET.fromstring(render_tree(t, "svg", drawing=d))))
    assert count(folded, Drawing(everything=True)) == folded.number_of_nodes()
    one = count(folded, Drawing(max_depth=1))
    assert one == 1 + folded.out_degree(0)
    assert count(folded, Drawing(max_depth=2)) > one
    text = render_tree(tree, "dot", drawing=Drawing(everything=True)).decode()
    assert text.count(" -> ") == tree.number_of_edges()  # unfolded: one edge per move
    hidden = re.findall(r"\+(\d+) positions?", render_tree(folded, "dot").decode())
    assert hidden and all(int(n) > 0 for n in hidden)


def pdf_pages(data: bytes) -> list[dict]:
    """Each page of a PDF as printed: its size, its text, the sizes its letters print at, where its links go."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    pages = []
    for page in reader.pages:
        sizes, upright = [], []

        def visit(text, cm, tm, font, size, sizes=sizes, upright=upright):
            if text.strip():
                a, b, c, d = (tm[0] * cm[0] + tm[1] * cm[2], tm[0] * cm[1] + tm[1] * cm[3],
                              tm[2] * cm[0] + tm[3] * cm[2], tm[2] * cm[1] + tm[3] * cm[3])
                sizes.append(size * math.hypot(c, d))
                upright.append(abs(b) < 1e-6 and abs(c) < 1e-6 and a > 0 and d > 0)

        text = page.extract_text(visitor_text=visit)
        links = [reader.get_destination_page_number(reader.named_destinations.get(a["/Dest"], a["/Dest"]))
                 if isinstance(a.get("/Dest"), str) else reader.get_page_number(a["/Dest"][0].get_object())
                 for a in (x.get_object() for x in page.get("/Annots", [])) if a.get("/Subtype") == "/Link"]
        pages.append({"size": (round(float(page.mediabox.width)), round(float(page.mediabox.height))),
                      "rotate": page.get("/Rotate", 0), "text": text, "smallest": min(sizes),
                      "upright": all(upright), "links": links})
    return pages


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_pdf_pages_are_the_paper_with_text_of_8_points_or_more_and_say_where_lines_go_on(tmp_path, paper, size):
    pdf = tmp_path / "t.pdf"
    assert main(["tree", MCDANIEL, "--paper", paper, "-o", str(pdf)]) == 0
    pages = pdf_pages(pdf.read_bytes())
    assert len(pages) > 1  # the opening view does not fit one page at 8 points
    for number, page in enumerate(pages, start=1):
        assert page["size"] in (size, size[::-1]), number  # the paper, upright or landscape
        assert page["rotate"] == 0 and page["upright"], number  # the drawing is never turned
        assert page["smallest"] >= 8 - 1e-6, (number, page["smallest"])
    assert any(p["size"] == size[::-1] for p in pages)  # a wide part goes on a landscape page
    folded = fold_forced(force_tree(parse_position(MCDANIEL)))
    shown = visible(folded, opening_view(folded))
    captions = sum(p["text"].count("after ") for p in pages) + sum(p["text"].count("X to move") for p in pages)
    assert captions >= len(shown)  # every node of the picture is on a page
    assert "a forced win follows" in pages[0]["text"] and f"page 1 of {len(pages)}" in pages[0]["text"]
    for number, page in enumerate(pages[1:], start=2):  # each later page says where it comes from...
        came = [int(n) for n in re.findall(r"from page (\d+)", page["text"])]
        assert came and all(n < number for n in came), number
        for n in came:  # ...and that page says it goes on here; both are links
            assert f"continued on page {number}" in pages[n - 1]["text"] or \
                f"more moves on page {number}" in pages[n - 1]["text"]
            assert number - 1 in pages[n - 1]["links"] and n - 1 in page["links"]


def test_every_node_of_a_merged_graph_lives_on_exactly_one_page_that_fits():
    graph = fold_forced(force_graph(force_tree(parse_position(MCDANIEL), only_winning=True)))
    assert any(graph.in_degree(n) > 1 for n in graph)  # positions reached by two lines
    book = plan(graph, set(graph), set(graph), "letter")
    assert sorted(book.home) == sorted(graph)
    for i, page in enumerate(book.pages):
        assert page.scale >= SMALLEST_SCALE and page.size in ((612, 792), (792, 612))
        for root in page.roots:  # a page starts where an earlier page left off
            assert root.node == graph.root or (book.home[root.node] < i if root.repeat
                                               else book.home[next(iter(graph.predecessors(root.node)))] < i)
    assert 1 < len(book.pages) < graph.number_of_nodes() / 4  # pages are filled, not one line each


def test_bad_picture_options_are_one_line_errors(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["tree", MCDANIEL, "--width", "50", "-o", "t.png"])
    assert exit_.value.code == 2 and "50 pixels is out of range" in capsys.readouterr().err
    assert main(["tree", MCDANIEL, "--format", "pdf"]) == 2
    assert "give a file with -o FILE.pdf" in capsys.readouterr().err


def test_svg_screenshot_of_the_export(tmp_path):
    """The export as a person sees it (``$QUBIC_SCREENSHOTS``/force-graph.png, or a temporary file)."""
    folder = Path(os.environ.get("QUBIC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    tree = fold_forced(force_graph(force_tree(parse_position(MCDANIEL))))
    write_tree(tree, folder / "force-graph.png")
    assert max(png_size((folder / "force-graph.png").read_bytes())) <= 2400


def test_the_guide_quotes_the_current_counts():
    guide = (Path(__file__).parent.parent / "docs" / "force-graphs.md").read_text()
    folded = fold_forced(force_graph(force_tree(parse_position(MCDANIEL))))
    assert folded.summary().split(" (winning")[0] in guide
