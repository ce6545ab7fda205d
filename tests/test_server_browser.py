"""The pages of ``qubic serve`` in a real Chromium (Debian's, driven by Playwright; no browser is downloaded).

A server runs on a free loopback port for the module (``qubic serve --port 0``).
Screenshots go to a temporary folder, or to ``$QUBIC_SCREENSHOTS`` (the pictures of
docs/browser.md come from ``QUBIC_SCREENSHOTS=docs/screenshots pytest tests/test_server_browser.py``).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from qubic_logic.notation import parse_game
from qubic_logic.forcegraph import force_graph
from qubic_logic.forcetree import force_tree
from qubic_logic.notation import parse_cell, parse_position
from qubic_logic.puzzles import length_after
from qubic_logic.render.html import tree_html
from qubic_logic.server.launch import running_server

playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="Debian's chromium is not installed "
                                "(make test installs it)")
LAUNCH_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]
# The seed's sample game (seed 004, L309-319): Alan's moves; the HP-67 answers and wins.
ALAN = [".231", ".414", ".243", ".324", ".212", ".133", ".332", ".214", ".411", ".413"]
HP67 = [".322", ".142", ".323", ".144", ".111", ".434", ".422", ".233", ".143", ".141"]


@pytest.fixture(scope="module")
def server():
    """``qubic serve --port 0`` in a subprocess; yields its address."""
    with running_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    yield page
    context.close()
    assert all(u.startswith((server, "blob:", "data:")) for u in requests), requests


def screenshot(page, name: str, tmp_path: Path) -> None:
    folder = Path(os.environ.get("QUBIC_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def click_cell(page, cell: int) -> None:
    page.locator(f'#board g[data-cell="{cell}"]').click()


def test_a_whole_game_against_hp67_by_clicking_reaches_the_sample_ending(page, tmp_path):
    expect = playwright.expect
    page.goto("/play?x=human&o=hp67&notation=hp67")
    expect(page.locator("#status")).to_have_text("X (human) to move")
    for n, (human, machine) in enumerate(zip(ALAN, HP67), start=1):
        click_cell(page, parse_cell(human))
        expect(page.locator("#log li")).to_have_count(2 * n)
        expect(page.locator("#log li").nth(2 * n - 1)).to_contain_text(f"O {machine}")
    expect(page.locator("#status")).to_have_text("O (hp67) wins on .141 .142 .143 .144 after 20 moves.")
    expect(page.locator("#log li").last).to_contain_text("hp67:")
    assert page.locator("#board g.cell.won").count() == 4
    assert page.locator("#board g.cell.free").count() == 0  # the game is over: no cell takes a click
    screenshot(page, "play", tmp_path)


def test_mcdaniel_answers_clicks_and_undo_takes_back_a_pair(page, tmp_path):
    expect = playwright.expect
    page.goto("/play?o=mcdaniel")
    expect(page.locator("#status")).to_have_text("X (human) to move")
    click_cell(page, 0)
    expect(page.locator("#log li")).to_have_count(2)
    expect(page.locator("#log li").nth(1)).to_contain_text("mcdaniel:")
    page.fill("#move", ".444")
    page.click("#typed button")
    expect(page.locator("#log li")).to_have_count(4)
    page.click("#undo")
    expect(page.locator("#log li")).to_have_count(2)
    page.click("#iso")  # the 3-D view takes clicks too
    free = page.locator("#board svg.iso g.cell.free").first
    free.click()
    expect(page.locator("#log li")).to_have_count(4)
    screenshot(page, "play-3d", tmp_path)


@pytest.mark.parametrize("name", ["play", "puzzles", "verify"])
def test_controls_wait_for_their_handlers(page, name):
    """A file or a submit before the page's script attached its handlers would be lost: the controls
    are served disabled and enabled once every handler is in place."""
    served = page.request.get(f"/{name}").text()
    assert 'id="controls" disabled' in served
    page.goto(f"/{name}")
    playwright.expect(page.locator("#controls")).to_be_enabled()


def test_save_load_and_hint_use_qubic_play_s_game_format(page, tmp_path):
    expect = playwright.expect
    page.goto("/play")
    expect(page.locator("#load")).to_be_enabled()  # the controls wait for their handlers
    page.set_input_files("#load", files=[{"name": "game.txt", "mimeType": "text/plain",
                                          "buffer": b"1-2,22-52,27-4\n"}])
    expect(page.locator("#log li")).to_have_count(6)
    expect(page.locator("#status")).to_have_text("X (human) to move")
    page.click("#hint")  # a game loaded in McDaniel's numbers is answered in them
    expect(page.locator("#message")).to_contain_text("X has a forced win in 6 moves: play 17")
    expect(page.locator("#board g.cell.hint")).to_have_count(1)
    click_cell(page, 16)
    expect(page.locator("#log li")).to_have_count(8)
    with page.expect_download() as download:
        page.click("#save")
    saved = Path(download.value.path()).read_text()
    assert saved.startswith("1-2,22-52,27-4,17-") and parse_game(saved).moves == page_moves(page)


def page_moves(page) -> list[int]:
    """The moves in the page's log, read back in the page's notation."""
    form = page.evaluate("Q.notation()")
    return [parse_cell(li.split()[1], form) for li in page.locator("#log li").all_inner_texts()]


def test_player_against_player_plays_to_the_end(page):
    expect = playwright.expect
    page.goto("/play?x=greedy&o=hp67")
    page.select_option("#delay", "0")
    ended = re.compile(r"wins on .* after \d+ moves|Draw")
    expect(page.locator("#status")).to_contain_text(ended, timeout=60_000)
    final = parse_game("moves:" + ",".join(map(str, page_moves(page)))).position
    assert final.is_over and page.locator("#board g.cell.won").count() == (4 if final.winner else 0)


def test_analyse_shows_x_wins_in_6_from_three_engines_and_a_smaller_force_graph(page, tmp_path):
    expect = playwright.expect
    page.goto("/analyse?position=1-2,22-52,27-4")
    for engine in ("asp", "prolog", "native"):
        answer = page.locator(f'#wins tr[data-engine="{engine}"] .answer')
        expect(answer).to_have_text("X wins in 6", timeout=30_000)
    summary = page.locator("#gsummary")
    expect(summary).to_contain_text("graph nodes")
    tree = int(summary.get_attribute("data-tree-nodes"))
    graph = int(summary.get_attribute("data-graph-nodes"))
    full = force_tree(parse_position("1-2,22-52,27-4"))
    assert graph < tree == full.number_of_nodes()
    assert graph == force_graph(full).number_of_nodes()
    svg = page.locator("#graph")
    visible = int(svg.get_attribute("data-visible"))
    assert 1 + full.out_degree(0) <= visible < graph  # opens on the principal variation and its branch points
    box, root = svg.bounding_box(), page.locator('#graph .gnode[data-id="0"]').bounding_box()
    assert box["x"] <= root["x"] and root["x"] + root["width"] <= box["x"] + box["width"]
    child = page.locator("#graph .gnode.collapsed").first
    child.hover()
    expect(page.locator("#nodecap")).to_contain_text("after X ")
    child.click()
    expect(svg).not_to_have_attribute("data-visible", str(visible))
    assert int(svg.get_attribute("data-visible")) > visible
    before = svg.get_attribute("viewBox")
    svg.hover()
    page.mouse.wheel(0, 300)  # zooms out about the pointer
    expect(svg).not_to_have_attribute("viewBox", before)
    assert float(svg.get_attribute("viewBox").split()[2]) > float(before.split()[2])
    page.click("#opening")
    screenshot(page, "analyse", tmp_path)


def test_the_api_page_lists_every_endpoint_from_the_schema(page):
    page.goto("/api")
    playwright.expect(page.locator("#paths h2").first).to_be_visible()
    titles = page.locator("#paths h2").all_inner_texts()
    schema = page.request.get("/openapi.json").json()
    assert titles == [f"{m.upper()} {path}" for path, ops in schema["paths"].items() for m in ops]
    assert "POST /api/win" in titles and "POST /api/verify" in titles
    assert "engine" in page.locator("#paths .panel", has_text="POST /api/win").inner_text()


def test_the_offline_tree_page_opens_on_its_root(browser, tmp_path):
    page = browser.new_page(viewport={"width": 1000, "height": 700})
    path = tmp_path / "tree.html"
    path.write_text(tree_html(force_tree(parse_position("1-2,22-52,27-4"))))
    page.goto(path.as_uri())
    root = page.locator('#graph .gnode[data-id="0"] rect.box').bounding_box()
    view = page.locator("#graph").bounding_box()
    assert view["x"] <= root["x"] and root["x"] + root["width"] <= view["x"] + view["width"]
    assert view["y"] <= root["y"] and root["y"] + root["height"] <= view["y"] + view["height"]
    page.close()


def test_a_puzzle_is_solved_and_a_wrong_move_refuted(page, tmp_path):
    expect = playwright.expect
    page.goto("/puzzles?seed=1")  # a generated set (without a seed the page opens on the daily puzzle)
    expect(page.locator("#title")).to_contain_text("wins in", timeout=30_000)
    expect(page.locator("#title")).not_to_contain_text("the puzzle of")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-left", re.compile(r"\d"))
    position = parse_position("qubic:" + board.get_attribute("data-position"))
    left = int(board.get_attribute("data-left"))
    answers = {m: length_after(position, m, left) for m in position.legal_moves()}
    wrong = min((m for m, (length, reply) in answers.items() if length is None),
                key=lambda m: answers[m][1] is None)  # a move that threatens, and is refuted, if any
    click_cell(page, wrong)
    expect(page.locator("#verdict")).to_contain_text("Not this one")
    if answers[wrong][1] is not None:  # the defence is drawn on the board
        expect(page.locator("#verdict")).to_contain_text("blocks at")
        expect(page.locator("#board g.cell.refute")).to_have_count(1)
    page.click("#retry")
    while True:
        position = parse_position("qubic:" + board.get_attribute("data-position"))
        left = int(board.get_attribute("data-left"))
        move = next(m for m in position.legal_moves() if (length_after(position, m, left)[0] or 99) <= left)
        click_cell(page, move)
        if left == 1:
            break
        expect(board).to_have_attribute("data-left", str(left - 1))
    expect(page.locator("#verdict")).to_contain_text("Solved!")
    screenshot(page, "puzzles", tmp_path)


def test_a_verification_streams_progress_and_says_verified(page, tmp_path):
    expect = playwright.expect
    page.goto("/verify")
    page.select_option("#shipped", "patashnik")
    page.fill("#root", "patashnik:x2x1o6x14o20o")  # a position of Patashnik's tree
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=60_000)
    expect(page.locator('progress[data-phase="forced wins"]')).to_be_attached()
    assert page.locator("#figures").inner_text().count("forced win") >= 1
    screenshot(page, "verify", tmp_path)
    page.check('input[value="text"]')
    page.fill("#text", "a strategy with no moves\n-----\n")
    page.fill("#root", "")
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("REFUTED", timeout=60_000)
    expect(page.locator(".failure")).to_have_count(1)
    expect(page.locator(".failure")).to_contain_text("no dictionary move and no forced win")


def test_a_strategy_written_as_rules_is_refuted_with_the_game_that_beats_it(page, tmp_path):
    from qubic_logic.notation import root_of
    from qubic_logic.strategy.judge import judge
    from qubic_logic.strategy.sources import load_strategy

    root = "1-2,4-26,13-6"
    strategy = load_strategy("rules/strategies/citrenbaum-pdp4.pl")
    try:
        expected = judge(strategy, *root_of(root)[:1], root_moves=root_of(root)[1]).refutation
    finally:
        strategy.close()
    expect = playwright.expect
    page.goto("/verify?strategy=citrenbaum-pdp4.pl")
    expect(page.locator('input[value="strategy"]')).to_be_checked()
    page.fill("#root", root)
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("REFUTED", timeout=60_000)
    panel = page.locator("#refutation .failure")
    expect(panel).to_contain_text(f"{expected.result.upper()} wins after {expected.length} moves")
    expect(panel).to_contain_text(expected.game_text)
    expect(panel.locator("svg")).to_have_count(1)
    screenshot(page, "verify-strategy", tmp_path)
    panel.locator("a").click()  # the game opens on the Play page, both sides human
    expect(page.locator("#status")).to_contain_text(f"{expected.result.upper()} (human) wins on", timeout=30_000)
    expect(page.locator("#status")).to_contain_text(f"after {len(expected.moves)} moves")


@pytest.mark.slow
def test_patashnik_s_whole_dictionary_is_verified_in_the_page(page, tmp_path):
    expect = playwright.expect
    page.goto("/verify")
    page.select_option("#shipped", "patashnik")
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=300_000)
    assert "528,788" in page.locator("#figures").inner_text()
    screenshot(page, "verify-patashnik", tmp_path)
