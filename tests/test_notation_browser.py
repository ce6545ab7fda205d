"""One numbering for a person, the Analyse stepper, and the small seams of the pages, in a real Chromium.

Every browser context starts as a new visitor (nothing kept in local storage): McDaniel's 1..64 until the
person chooses in the menu or types a position in another notation. Expected values come from the library
(the notation module, the force graph, the engines), never from the page. Uses the server and Chromium of
``test_server_browser``; screenshots go to ``$QUBIC_SCREENSHOTS`` as there.
"""

from __future__ import annotations

import re

import pytest

from qubic_logic.core import shortest_forced_win, threats
from qubic_logic.forcegraph import fold_forced, force_graph
from qubic_logic.forcetree import edge_moves, force_tree
from qubic_logic.geometry import cells_of
from qubic_logic.lessons import answer as lesson_answer, lesson, lesson_names
from qubic_logic.analysis import defences, win_of
from qubic_logic.notation import CellNames, parse_game, parse_position
from qubic_logic.puzzles import length_after
from qubic_logic.render.view import principal_variation

from tests.test_server_browser import (  # noqa: F401  (fixtures, and the skip when chromium is missing)
    browser, playwright, pytestmark, screenshot, server)

TRAP = "1-2,22-52,27-4"
NUMBER, INDEX, LRC = CellNames("number"), CellNames("index"), CellNames("lrc")
expect = playwright.expect


@pytest.fixture(scope="module")
def graph():
    """The folded force graph the Analyse page draws for the plane-17 trap, computed here."""
    return fold_forced(force_graph(force_tree(parse_position(TRAP))))


@pytest.fixture
def visit(browser, server):
    """``visit(path, width, height)``: a page in a new visitor's browser; page errors fail the test."""
    contexts, errors = [], []

    def open_page(path: str, width: int = 1280, height: int = 800, context=None):
        if context is None:
            phone = width < 700
            context = browser.new_context(viewport={"width": width, "height": height}, base_url=server,
                                          is_mobile=phone, has_touch=phone)
            contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert errors == []


def row_names(names: CellNames) -> list[str]:
    """The row names a board writes in ``names``: index and number name a row by its first cell."""
    if names.form in ("lrc", "hp67"):
        return ["1", "2", "3", "4"] * 4
    return [names.cell(16 * z + 4 * y) for z in range(4) for y in range(4)]


def rows_of(board) -> list[str]:
    return board.locator("text.axis.row").all_text_contents()


def step_words(graph, a: int, b: int, names: CellNames) -> str:
    side = graph.nodes[a]["to_move"]
    words = []
    for cell in edge_moves(graph.edges[a, b]):
        words.append(f"{side.upper()} {names.cell(cell)}")
        side = "o" if side == "x" else "x"
    return " · ".join(words)


def open_graph(visit, width: int = 1280, height: int = 800):
    page = visit(f"/analyse?position={TRAP}", width, height)
    expect(page.locator("#graph .gnode").first).to_be_visible(timeout=60_000)
    expect(page.locator("#stepinfo")).to_have_text(re.compile(r"step 0 of \d+"))
    return page


# ------------------------------------------------------------------ the Analyse stepper


def test_the_stepper_follows_a_node_off_the_principal_variation_along_its_own_path(visit, graph, tmp_path):
    """X 43 · O 64 (index 42 63) is off the principal variation; its fastest win runs into positions where
    lines meet, whose boxes were first reached by other moves. The stepper walks the picked node's path:
    every step is the edge's own, no cell twice, the board the node's."""
    pv = principal_variation(graph)
    node = next(n for n in graph.successors(0) if list(edge_moves(graph.edges[0, n])) == [42, 63])
    assert node not in pv
    page = open_graph(visit)
    page.locator(f'#graph .gnode[data-id="{node}"]').click()
    expect(page.locator("#nodeboard")).to_have_attribute("data-node", str(node))
    expect(page.locator("#nodecap")).to_contain_text("after X 43 · O 64")
    for _ in range(3):
        page.click("#forward")
    expect(page.locator("#stepinfo")).to_have_text(re.compile(r"step 4 of \d+"))
    path = page.locator("#nodepath")
    line = [int(n) for n in path.get_attribute("data-nodes").split()]
    moves = [int(m) for m in path.get_attribute("data-moves").split()]
    assert line[:2] == [0, node] and len(line) == 5
    assert moves == [c for a, b in zip(line, line[1:]) for c in edge_moves(graph.edges[a, b])]
    assert len(moves) == len(set(moves)), "no cell twice"
    first_parent = {n: next(iter(graph.predecessors(n))) for n in line[1:]}
    assert any(first_parent[b] != a for a, b in zip(line, line[1:])), "the line runs through a meeting"
    position = parse_position(TRAP)
    for cell in moves:
        position = position.play(cell)
    shown = line[-1]
    assert position == graph.nodes[shown]["position"]
    board = page.locator("#nodeboard")
    expect(board).to_have_attribute("data-node", str(shown))
    assert sorted(int(c) for c in board.locator("g.cell.x").evaluate_all("gs => gs.map(g => g.dataset.cell)")) \
        == cells_of(position.x)
    assert sorted(int(c) for c in board.locator("g.cell.o").evaluate_all("gs => gs.map(g => g.dataset.cell)")) \
        == cells_of(position.o)
    expect(path).to_contain_text("moves from the root: " + NUMBER.cells(moves))
    step = step_words(graph, line[-2], shown, NUMBER)
    expect(page.locator("#nodecap")).to_contain_text(f"after {step}:")
    # the graph shows the same: the node selected, the edge it was reached by on the line, its box's step
    expect(page.locator(f'#graph .gnode.hover[data-id="{shown}"]')).to_have_count(1)
    expect(page.locator(f'#graph .gedge.online[data-source="{line[-2]}"][data-target="{shown}"]')).to_have_count(1)
    expect(page.locator(f'#graph .gnode[data-id="{shown}"] text.step')).to_have_text(step)
    screenshot(page, "analyse-stepper", tmp_path)
    page.click("#opening")  # back to the principal variation: the stepper starts again at its root
    expect(page.locator("#stepinfo")).to_have_text(f"step 0 of {len(pv) - 1}")
    expect(page.locator("#nodeboard")).to_have_attribute("data-node", "0")
    expect(path).to_contain_text("moves from the root: (none)")


# ------------------------------------------------------------------ one numbering


def test_every_page_opened_with_a_mcdaniel_position_names_cells_1_to_64(visit, graph):
    p = parse_position(TRAP)
    forcing = NUMBER.cells(cells_of(threats(p).forcing_x))
    page = open_graph(visit)
    assert rows_of(page.locator("#board")) == row_names(NUMBER)
    expect(page.locator("#threats")).to_contain_text(forcing)
    expect(page.locator("#gsummary")).to_contain_text(graph.summary(NUMBER))
    native = page.locator('#wins tr[data-engine="native"] td')
    expect(native.nth(2)).to_have_text(NUMBER.cell(shortest_forced_win(p).sequence[0]), timeout=30_000)
    page.click("#forward")
    pv = principal_variation(graph)
    move, reply = edge_moves(graph.edges[pv[0], pv[1]])
    expect(page.locator("#nodecap")).to_contain_text(f"after {step_words(graph, pv[0], pv[1], NUMBER)}:")
    expect(page.locator("#stepnote")).to_contain_text(
        f"X {NUMBER.cell(move)} threatens four in a row at {NUMBER.cell(reply)}")
    assert rows_of(page.locator("#nodeboard")) == row_names(NUMBER)

    play = visit(f"/play?x=human&o=human&moves={TRAP}")
    moves = parse_game(TRAP).moves
    expect(play.locator("#log li")).to_have_count(len(moves))
    assert [li.split(" —")[0].split()[:2] for li in play.locator("#log li").all_inner_texts()] == \
        [["XO"[i % 2], NUMBER.cell(c)] for i, c in enumerate(moves)]
    assert rows_of(play.locator("#board")) == row_names(NUMBER)
    expect(play.locator("#mcdaniel")).to_have_text(f"({TRAP})")
    expect(play.locator("#analysis")).to_contain_text(NUMBER.cells(win_of(p, "x").sequence))  # its win
    play.click("#hint")
    expect(play.locator("#message")).to_contain_text(f"play {NUMBER.cell(shortest_forced_win(p).sequence[0])}")

    name = next(n for n in lesson_names() if "planar" in n)
    lessons = visit(f"/lessons?name={name}")
    first = lessons.locator('[data-exercise="0"]')
    expect(first).to_contain_text("O to move after 1-2,22-52,27:")
    assert rows_of(first) == row_names(NUMBER)
    exercise = lesson(name)["exercises"][0]
    before = parse_position(exercise["position"])
    wrong = next(c for c in before.legal_moves() if c not in defences(before))
    first.locator(f'g[data-cell="{wrong}"]').click()
    said = lesson_answer(exercise, before, 1, wrong, "number").explanation
    expect(first.locator(".verdict-line")).to_contain_text(said)

    verify = visit("/verify")
    expect(verify.locator("#text")).to_have_value(re.compile(r"after 1-2,22-52,27-4: X plays 17, then forces"))
    expect(verify.locator("#text")).to_have_value(re.compile(r"the entry writes 17 as 16"))

    puzzles = visit("/puzzles?seed=1")
    expect(puzzles.locator("#title")).to_contain_text("wins in", timeout=30_000)
    board = puzzles.locator("#board")
    assert rows_of(board) == row_names(NUMBER)
    position = parse_position("qubic:" + board.get_attribute("data-position"))
    left = int(board.get_attribute("data-left"))
    nothing = next(m for m in position.legal_moves() if length_after(position, m, left) == (None, None))
    board.locator(f'g[data-cell="{nothing}"]').click()
    expect(puzzles.locator("#verdict")).to_contain_text(f"{position.to_move.upper()} {NUMBER.cell(nothing)} makes no "
                                                        "threat")


def test_a_refutation_s_game_and_board_are_in_the_reader_s_numbers(visit):
    from qubic_logic.notation import root_of
    from qubic_logic.strategy.judge import judge
    from qubic_logic.strategy.sources import load_strategy

    root = "1-2,4-26,13-6"
    strategy = load_strategy("rules/strategies/citrenbaum-pdp4.pl")
    try:
        expected = judge(strategy, root_of(root)[0], root_moves=root_of(root)[1]).refutation
    finally:
        strategy.close()
    page = visit("/verify?strategy=citrenbaum-pdp4.pl")
    expect(page.locator("#controls")).to_be_enabled()
    page.select_option("#notation", "index")
    page.fill("#root", root)  # a root typed in McDaniel's numbers chooses them
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("REFUTED", timeout=60_000)
    panel = page.locator("#refutation .failure")
    expect(panel.locator(".game")).to_have_text("game: " + NUMBER.line(expected.moves))
    assert rows_of(panel) == row_names(NUMBER)  # the typed root was McDaniel's: his numbers
    page.select_option("#notation", "index")
    expect(panel.locator(".game")).to_have_text("game: " + INDEX.line(expected.moves))
    assert rows_of(page.locator("#refutation .failure")) == row_names(INDEX)


def test_the_chosen_notation_is_kept_across_pages_and_typing_another_chooses_it(visit, graph):
    page = open_graph(visit)
    page.select_option("#notation", "lrc")
    assert rows_of(page.locator("#board")) == row_names(LRC)
    p = parse_position(TRAP)
    expect(page.locator("#threats")).to_contain_text(LRC.cells(cells_of(threats(p).forcing_x)))
    expect(page.locator("#gsummary")).to_contain_text(graph.summary(LRC))
    expect(page.locator("#nodecap")).to_contain_text("X to move")
    context = page.context
    name = next(n for n in lesson_names() if "planar" in n)
    lessons = visit(f"/lessons?name={name}", context=context)
    expect(lessons.locator("#notation")).to_have_value("lrc")
    expect(lessons.locator('[data-exercise="1"] .status').first).to_contain_text(
        f"O played {LRC.cell(3)} and did not stop it")
    expect(lessons.locator("#text")).to_contain_text(LRC.line(parse_game("1-2,22-52,27").moves))
    analyse = visit("/analyse", context=context)
    expect(analyse.locator("#notation")).to_have_value("lrc")
    analyse.fill("#position", "moves:" + ",".join(map(str, parse_game(TRAP).moves)))
    analyse.click("#form button[type=submit]")
    expect(analyse.locator("#notation")).to_have_value("index")
    expect(analyse.locator("#threats")).to_contain_text(INDEX.cells(cells_of(threats(p).forcing_x)))
    play = visit("/play", context=context)
    expect(play.locator("#notation")).to_have_value("index")
    expect(play.locator("#board text.axis.row")).to_have_count(16)
    assert rows_of(play.locator("#board")) == row_names(INDEX)


# ------------------------------------------------------------------ seams


def test_a_shown_puzzle_does_not_count_and_ends_the_daily_streak(visit):
    page = visit("/puzzles")
    expect(page.locator("#title")).to_contain_text("the puzzle of", timeout=30_000)
    page.evaluate("""() => {
      const d = new Date(); d.setDate(d.getDate() - 1);
      localStorage.setItem('qubic-logic.daily', JSON.stringify({[d.toLocaleDateString('en-CA')]: true}));
    }""")
    page.reload()
    expect(page.locator("#record")).to_contain_text("daily streak: 1 day")
    expect(page.locator("#title")).to_contain_text("the puzzle of", timeout=30_000)
    page.click("#reveal")
    expect(page.locator("#verdict")).to_contain_text("the daily streak ends")
    expect(page.locator("#record")).to_contain_text("daily streak: 0 days")
    board = page.locator("#board")
    while True:
        position = parse_position("qubic:" + board.get_attribute("data-position"))
        left = int(board.get_attribute("data-left"))
        move = next(m for m in position.legal_moves() if (length_after(position, m, left)[0] or 99) <= left)
        board.locator(f'g[data-cell="{move}"]').click()
        if left == 1:
            break
        expect(board).to_have_attribute("data-left", str(left - 1))
    expect(page.locator("#verdict")).to_contain_text("not counted")
    page.reload()
    expect(page.locator("#record")).to_have_text(re.compile(r"Solved in this browser: 0 puzzles · daily streak: 0 days$"))
    expect(page.locator("#verdict")).to_contain_text("does not count", timeout=30_000)


@pytest.mark.parametrize("form", ["number", "index"])
def test_on_a_phone_every_row_name_is_inside_its_board_and_every_timing_column_on_screen(visit, form, tmp_path):
    page = open_graph(visit, 390, 844)
    page.select_option("#notation", form)
    play = visit(f"/play?x=human&o=human&moves={TRAP}&notation={form}", 390, 844)
    expect(play.locator("#log li")).to_have_count(6)
    for where in (page, play):
        cut = where.evaluate("""() => [...document.querySelectorAll('svg.board:not(.iso)')].flatMap(svg => {
          const box = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('text.axis.row')].map(t => [t.textContent, t.getBoundingClientRect().left - box.left])
            .filter(([, gap]) => gap < 0);
        })""")
        assert cut == [], f"row names cut at the left: {cut}"
    assert rows_of(page.locator("#board")) == row_names(CellNames(form))
    expect(page.locator('#wins tr[data-engine="native"] .answer')).to_have_text("X wins in 6", timeout=30_000)
    columns = page.evaluate("""() => {
      const table = document.getElementById('wins'), panel = document.getElementById('winspanel').getBoundingClientRect();
      return [table.scrollWidth <= table.clientWidth + 1,
              [...table.querySelectorAll('th')].map(th => th.getBoundingClientRect().right <= Math.min(panel.right, innerWidth) + 0.5)];
    }""")
    assert columns[0] and all(columns[1]) and len(columns[1]) == 5
    if form == "number":
        screenshot(page, "analyse-phone", tmp_path)


def test_the_404_page_has_the_menu_of_every_page(visit):
    home = visit("/")
    menu = home.locator("nav a").evaluate_all("as => as.map(a => a.getAttribute('href'))")
    assert {"/play", "/puzzles", "/lessons", "/analyse", "/verify", "/api"} <= set(menu)
    missing = visit("/no/such/page")
    expect(missing.locator("nav a")).to_have_count(len(menu))
    assert missing.locator("nav a").evaluate_all("as => as.map(a => a.getAttribute('href'))") == menu
    expect(missing.locator("nav #notation option")).to_have_count(4)
