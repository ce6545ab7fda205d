"""The force-graph explorer of the Analyse page, measured in a real Chromium (Playwright, Debian's chromium).

The plane-17 trap ``1-2,22-52,27-4`` is drawn at 1280×800 and on a 390×844 phone: no two node boxes
overlap, node text is at least 11 px high as the page opens, the whole principal variation is on screen,
an expand keeps the zoom and the clicked node where they were, a tap works like pointing, and a line
steps forward to its final double threat. Screenshots go to ``$QUBIC_SCREENSHOTS`` (docs/screenshots).
"""

from __future__ import annotations

import pytest

from qubic_logic.forcegraph import fold_forced, force_graph
from qubic_logic.forcetree import force_tree
from qubic_logic.notation import parse_position
from qubic_logic.render.view import principal_variation

from . import test_server_browser as shared
from .test_server_browser import CHROMIUM, playwright, screenshot

browser, server = shared.browser, shared.server  # the module's Chromium and `qubic serve`

pytestmark = pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium")
TRAP = "1-2,22-52,27-4"

GEOMETRY = """() => {
  const svg = document.getElementById('graph'), r = svg.getBoundingClientRect();
  const nodes = [...svg.querySelectorAll('.gnode')].map(g => {
    const b = g.querySelector('rect.box').getBoundingClientRect();
    const fonts = [...g.querySelectorAll('text')].map(t =>
      parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
    return {id: Number(g.dataset.id), x: b.x, y: b.y, w: b.width, h: b.height, font: Math.min(...fonts)};
  });
  return {svg: {x: r.x, y: r.y, w: r.width, h: r.height}, nodes, view: [innerWidth, innerHeight],
          viewBox: svg.getAttribute('viewBox').split(' ').map(Number)};
}"""


@pytest.fixture(scope="module")
def trap_line() -> list[int]:
    """The principal variation of the folded plane-17 graph, computed here, not by the page."""
    return principal_variation(fold_forced(force_graph(force_tree(parse_position(TRAP)))))


def open_graph(browser, server, width: int, height: int, phone: bool = False):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server,
                                  has_touch=phone, is_mobile=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/analyse?position={TRAP}")
    playwright.expect(page.locator("#graph .gnode").first).to_be_visible(timeout=60_000)
    page.locator("#graph").scroll_into_view_if_needed()
    page.wait_for_function("document.getElementById('graph').dataset.visible !== undefined")
    return page, errors


def overlapping(nodes: list[dict]) -> list[tuple[int, int]]:
    return [(a["id"], b["id"]) for i, a in enumerate(nodes) for b in nodes[i + 1:]
            if a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5
            and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5]


def inside(node: dict, box: dict) -> bool:
    return (box["x"] - 0.5 <= node["x"] and node["x"] + node["w"] <= box["x"] + box["w"] + 0.5
            and box["y"] - 0.5 <= node["y"] and node["y"] + node["h"] <= box["y"] + box["h"] + 0.5)


def check_opening(page, line: list[int]) -> dict:
    geo = page.evaluate(GEOMETRY)
    shown = {n["id"]: n for n in geo["nodes"]}
    assert set(line) <= set(shown), "the principal variation is drawn"
    assert overlapping(geo["nodes"]) == []
    assert min(n["font"] for n in geo["nodes"]) >= 11 - 1e-6
    window = {"x": 0, "y": 0, "w": geo["view"][0], "h": geo["view"][1]}
    for node in line:
        assert inside(shown[node], geo["svg"]) and inside(shown[node], window), node
    return geo


def test_desktop_opens_on_the_readable_principal_variation_and_keeps_zoom_on_expand(browser, server, trap_line,
                                                                                   tmp_path):
    page, errors = open_graph(browser, server, 1280, 800)
    geo = check_opening(page, trap_line)
    screenshot(page, "analyse-force-graph", tmp_path)
    collapsed = page.locator("#graph .gnode.collapsed").first
    node = int(collapsed.get_attribute("data-id"))
    before = next(n for n in geo["nodes"] if n["id"] == node)
    visible = page.locator("#graph").get_attribute("data-visible")
    collapsed.click()  # pointing selects it, the click opens it
    playwright.expect(page.locator("#graph")).not_to_have_attribute("data-visible", visible)
    after = page.evaluate(GEOMETRY)
    moved = next(n for n in after["nodes"] if n["id"] == node)
    assert after["viewBox"][2:] == geo["viewBox"][2:], "the zoom is kept"
    assert abs(moved["x"] - before["x"]) < 1 and abs(moved["y"] - before["y"]) < 1, "the clicked node stays put"
    assert overlapping(after["nodes"]) == []
    page.uncheck("#fold")  # one edge per move again: the same line in more steps
    unfolded = force_graph(force_tree(parse_position(TRAP)))
    playwright.expect(page.locator("#stepinfo")).to_have_text(
        f"step 0 of {len(principal_variation(unfolded)) - 1}", timeout=30_000)
    assert "folded" not in page.locator("#gsummary").inner_text()
    assert errors == []


def test_phone_shows_the_whole_line_and_a_tap_works_like_pointing(browser, server, trap_line, tmp_path):
    page, errors = open_graph(browser, server, 390, 844, phone=True)
    check_opening(page, trap_line)
    screenshot(page, "analyse-force-graph-phone", tmp_path)
    graph = page.locator("#graph")
    visible = graph.get_attribute("data-visible")
    second = page.locator(f'#graph .gnode[data-id="{trap_line[1]}"]')
    second.tap()  # the first tap shows the position...
    playwright.expect(page.locator("#nodecap")).to_contain_text("after X ")
    assert graph.get_attribute("data-visible") == visible
    assert page.locator("#nodeboard svg.board text.axis").count() == 32  # rows and columns named
    second.tap()  # ...the second opens the node
    playwright.expect(graph).not_to_have_attribute("data-visible", visible)
    assert errors == []


def test_stepping_through_the_line_ends_on_the_double_threat_and_four_in_a_row(browser, server, trap_line):
    page, errors = open_graph(browser, server, 1280, 800)
    expect = playwright.expect
    graph = fold_forced(force_graph(force_tree(parse_position(TRAP))))
    expect(page.locator("#stepinfo")).to_have_text(f"step 0 of {len(trap_line) - 1}")
    page.click("#forward")
    first = graph.edges[trap_line[0], trap_line[1]]
    expect(page.locator("#nodeboard g.cell.stepmove")).to_have_attribute("data-cell", str(first["move"]))
    expect(page.locator("#nodeboard g.cell.forced")).to_have_attribute("data-cell", str(first["reply"]))
    expect(page.locator("#stepnote")).to_contain_text("is forced")
    double = next(i for i in range(1, len(trap_line))
                  if graph.edges[trap_line[i - 1], trap_line[i]]["kind"] == "double")
    for _ in range(double - 1):
        page.click("#forward")
    expect(page.locator("#stepnote")).to_contain_text("double threat")
    threats = graph.nodes[trap_line[double]]["x_threats"]
    expect(page.locator("#nodeboard g.cell.dbl")).to_have_count(len(threats))
    page.click("#back")
    expect(page.locator("#stepinfo")).to_have_text(f"step {double - 1} of {len(trap_line) - 1}")
    page.click("#autoplay")
    expect(page.locator("#stepinfo")).to_have_text(f"step {len(trap_line) - 1} of {len(trap_line) - 1}",
                                                  timeout=15_000)
    expect(page.locator("#nodeboard g.cell.won")).to_have_count(4)
    expect(page.locator("#graph .gedge.online")).to_have_count(len(trap_line) - 1)
    assert errors == []


def test_expand_all_shows_every_node_with_none_cut_off(browser, server):
    page, errors = open_graph(browser, server, 1280, 800)
    page.click("#expandall")
    graph = fold_forced(force_graph(force_tree(parse_position(TRAP))))
    playwright.expect(page.locator("#graph")).to_have_attribute("data-visible", str(graph.number_of_nodes()))
    geo = page.evaluate(GEOMETRY)
    assert len(geo["nodes"]) == graph.number_of_nodes() and overlapping(geo["nodes"]) == []
    assert all(inside(n, geo["svg"]) for n in geo["nodes"]), "every node is inside the drawing's frame"
    assert errors == []


# ---------------------------------------------------------------- the offline page (qubic tree -o tree.html)

KEY_COLOURS = """() => {
  const fill = el => getComputedStyle(el).fill;
  const key = Object.fromEntries([...document.querySelectorAll('#glegend .mini rect')].map(r => [r.className.baseVal, fill(r)]));
  const drawn = {};
  for (const r of document.querySelectorAll('#graph .mini rect:not(.lv)')) {
    for (const c of r.className.baseVal.split(' ')) if (c && c !== 'st') drawn[c] = fill(r);
  }
  const board = {};
  for (const g of document.querySelectorAll('#nodeboard g.cell')) {
    for (const c of ['tx', 'to', 'won']) if (g.classList.contains(c)) board[c] = fill(g.querySelector('rect'));
  }
  const status = Object.fromEntries([...document.querySelectorAll('#glegend .gnode')].map(g =>
    [g.getAttribute('class'), fill(g.querySelector('rect'))]));
  const boxes = {};
  for (const g of document.querySelectorAll('#graph .gnode')) for (const s of ['win', 'fail', 'cut'])
    if (g.classList.contains(s)) boxes[s] = fill(g.querySelector('rect.box'));
  return {key, drawn, board, status, boxes};
}"""


@pytest.mark.parametrize("width, height, name", [(1280, 800, "offline-force-graph"),
                                                 (390, 844, "offline-force-graph-phone")])
def test_the_offline_page_opens_readable_draws_as_the_analyse_page_and_its_key_matches(browser, trap_line, tmp_path,
                                                                                     width, height, name):
    from qubic_logic.render.html import tree_html

    tree = fold_forced(force_tree(parse_position(TRAP)))  # what `qubic tree TRAP -o tree.html` writes
    path = tmp_path / "tree.html"
    path.write_text(tree_html(tree, "number"))
    phone = width < 700
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    playwright.expect(page.locator("#graph .gnode").first).to_be_visible()
    geo = page.evaluate(GEOMETRY)
    line = principal_variation(tree)
    shown = {n["id"]: n for n in geo["nodes"]}
    assert set(line) <= set(shown) and overlapping(geo["nodes"]) == []
    assert min(n["font"] for n in geo["nodes"]) >= 11 - 1e-6  # readable as it opens, not a strip
    assert geo["svg"]["w"] >= min(width - 40, 1100)  # the drawing has the page's width (no side panel beside it)
    window = {"x": 0, "y": 0, "w": width, "h": height}
    for node in line[:3]:
        assert inside(shown[node], window), node
    assert all(n["h"] > 40 for n in geo["nodes"])  # every node carries its mini board
    screenshot(page, name, tmp_path)
    colours = page.evaluate(KEY_COLOURS)
    for cls, fill in colours["drawn"].items():  # the key's swatches are the drawing's colours
        assert colours["key"][cls] == fill, cls
    assert colours["board"]["tx"] == colours["key"]["tx"] if "tx" in colours["board"] else True
    for status, fill in colours["boxes"].items():
        assert fill in colours["status"].values(), status
    leaf = line[-1]
    node = page.locator(f'#graph .gnode[data-id="{leaf}"]')
    node.scroll_into_view_if_needed()
    node.click()  # pointing (or a first tap) shows its board
    playwright.expect(page.locator("#nodecap")).to_contain_text("four in a row")
    board = page.locator("#nodeboard svg.board")
    assert board.locator("text.level").all_text_contents() == [f"level {z}" for z in range(1, 5)]
    won = sorted(int(c) for c in board.locator("g.cell.won").evaluate_all("gs => gs.map(g => g.dataset.cell)"))
    assert won == sorted(tree.nodes[leaf]["position"].winning_line)
    assert board.locator("title").first.text_content() == "1"  # McDaniel's numbers, as written
    assert errors == []
    context.close()


# ---------------------------------------------------------------- present mode, for a projector

PRESENT = """() => {
  const box = el => { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const cells = [...document.querySelectorAll('#nodeboard g.cell rect')].map(box);
  const texts = [...document.querySelectorAll('#graph .gnode text')].map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a);
  return {board: box(document.querySelector('#nodeboard svg.board')), graph: box(document.getElementById('graph')),
          cell: Math.min(...cells.map(c => Math.min(c.w, c.h))), font: Math.min(...texts),
          view: {x: 0, y: 0, w: innerWidth, h: innerHeight}};
}"""


def test_present_mode_puts_a_big_step_board_beside_a_graph_in_large_print(browser, server, trap_line, tmp_path):
    page, errors = open_graph(browser, server, 1280, 800)
    page.click("#present")
    playwright.expect(page.locator("body")).to_have_class("present")
    page.wait_for_function("document.querySelector('#nodeboard svg.board').getBoundingClientRect().width > 500")
    page.evaluate("window.scrollTo(0, 0)")
    geo = page.evaluate(PRESENT)
    assert geo["cell"] >= 64 - 0.5, geo["cell"]
    assert geo["font"] >= 16 - 1e-6, geo["font"]
    assert inside(geo["board"], geo["view"]) and inside(geo["graph"], geo["view"]), geo  # on screen together
    assert geo["board"]["x"] + geo["board"]["w"] <= geo["graph"]["x"]  # side by side
    assert "present=1" in page.url
    screenshot(page, "analyse-present", tmp_path)
    page.keyboard.press("Escape")
    playwright.expect(page.locator("body")).not_to_have_class("present")
    assert errors == []
