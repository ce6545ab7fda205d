"""The Play and Lessons pages as a player and a teacher meet them, in a real Chromium (Playwright, Debian's chromium).

Play reads like a game site: stepping back keeps the analysis beside the board, the analysis says one
sentence (the server's, in the words of the hint) and at most five checks, the shortest win is a side line
to step into and out of, and a move on an earlier position starts a side line while the game stays as it
was. Present mode makes the boards big enough for a projector. Screenshots go to ``$QUBIC_SCREENSHOTS``.
"""

from __future__ import annotations

import re

import pytest

from qubic_logic.analysis import analyse
from qubic_logic.notation import parse_game, parse_position

from . import test_server_browser as shared
from .test_server_browser import CHROMIUM, playwright, screenshot

browser, server = shared.browser, shared.server  # the module's Chromium and `qubic serve`

pytestmark = pytest.mark.skipif(not CHROMIUM, reason="needs Debian's chromium")
expect = playwright.expect
TRAP = "1-2,22-52,27-4"  # X to move wins in 6 (plane 17)

BOX = "sel => { const r = document.querySelector(sel).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; }"
SMALLEST_CELL = """sel => Math.min(...[...document.querySelectorAll(sel + ' g.cell rect')].map(r => {
  const b = r.getBoundingClientRect(); return Math.min(b.width, b.height); }))"""


def open_page(browser, server, path: str, width: int = 1280, height: int = 800):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path)
    return page, errors


def test_the_analysis_stays_beside_the_board_and_says_few_things_in_the_hints_words(browser, server, tmp_path):
    page, errors = open_page(browser, server, "/play?x=human&o=human&moves=1-2,22-52,27")
    expect(page.locator("#analysis-note")).to_have_text(re.compile("O stops it only with"), timeout=30_000)
    page.click("#prev")  # back one move: O to move... and back again, the board keeps its width
    expect(page.locator("#where")).to_have_text("showing move 4 of 5")
    expect(page.locator("#analysis-of")).to_have_text("after move 4")
    board, analysis = page.evaluate(BOX, ".play-board"), page.evaluate(BOX, ".analysis")
    assert board["w"] < 700 and analysis["x"] >= board["x"] + board["w"] and abs(analysis["y"] - board["y"]) < 2
    checks = page.locator("#checks").inner_text()  # X to move after 1-2,22-52: many checks, five shown
    found = analyse(parse_game("1-2,22-52").position)["x"]["checks"]
    assert len(found) > 5 and checks.count("(in ") == 5 and checks.endswith(f"and {len(found) - 5} more")
    page.click("#next")
    expect(page.locator("#analysis-note")).to_have_text(
        re.compile(r"^X threatens a forced win in 6 moves in plane 17; O stops it only with 6, 16, .* or \d+ more\.$"))
    page.click("#hint")  # the hint, in the same words: moves counted, the defences listed with "or"
    expect(page.locator("#message")).to_contain_text("X threatens a forced win in 6 moves in plane 17")
    expect(page.locator("#message")).to_contain_text(" or 64)")
    screenshot(page, "play-analysis", tmp_path)
    assert errors == []


def test_the_shortest_win_is_a_side_line_to_step_into_and_back_out_of(browser, server, tmp_path):
    page, errors = open_page(browser, server, f"/play?x=human&o=human&moves={TRAP}")
    expect(page.locator("#stepwin")).to_be_visible(timeout=30_000)
    win = analyse(parse_position(TRAP))["x"]["win"]
    page.click("#stepwin")
    expect(page.locator("#board")).to_have_attribute("data-line", "0")
    expect(page.locator(".variation a.vmove.here")).to_have_text(f"7. X {win[0] + 1}")  # McDaniel's numbers
    assert page.locator(".variation a.vmove").count() == len(win)
    for _ in range(len(win) - 1):
        page.click("#next")
    expect(page.locator("#board")).to_have_attribute("data-shown", str(6 + len(win)))
    expect(page.locator("#board g.cell.won")).to_have_count(4)  # the line ends in four in a row
    expect(page.locator("#analysis-note")).to_have_text("The game is over.")
    assert page.locator("#status").inner_text() == "X (human) to move"  # the game itself goes on
    screenshot(page, "play-side-line", tmp_path)
    page.click("#togame")
    expect(page.locator("#board")).to_have_attribute("data-line", "game")
    expect(page.locator("#board")).to_have_attribute("data-shown", "6")
    expect(page.locator("#log li.step")).to_have_count(6)
    page.click("#first")
    page.locator('#board g[data-cell="63"]').click()  # a move on the empty board: a side line of its own
    expect(page.locator("#board")).to_have_attribute("data-line", "1")
    expect(page.locator(".variation")).to_have_count(2)
    expect(page.locator("#log li.step")).to_have_count(6)  # the game is as it was
    page.locator(".variation").nth(0).locator("button.drop").click()
    expect(page.locator(".variation")).to_have_count(1)
    assert errors == []


def test_the_first_opponent_plays_to_win_but_is_no_master(browser, server):
    page, errors = open_page(browser, server, "/play")
    expect(page.locator("#origin")).to_contain_text("O: ")
    info = page.request.get("/api/info").json()
    chosen = page.locator("#po").input_value()
    rating = next(r for r in info["ratings"]["ratings"] if r["name"] == chosen)
    assert chosen != "random" and rating["group"] not in ("unbeatable", "expert")
    assert rating["elo"] == min(r["elo"] for r in info["ratings"]["ratings"] if r["name"] != "random")
    assert errors == []


@pytest.mark.parametrize("path, board, name", [
    (f"/play?x=human&o=human&moves={TRAP}&present=1", "#board", "play-present"),
    ("/lessons?name=04-planar-traps&present=1", ".exercise .exboard", "lesson-present"),
])
def test_present_mode_fills_the_screen_with_the_board(browser, server, tmp_path, path, board, name):
    page, errors = open_page(browser, server, path)
    page.wait_for_selector(f"{board} svg.board g.cell", timeout=30_000)
    page.locator(board).first.scroll_into_view_if_needed()
    assert page.evaluate(SMALLEST_CELL, board) >= 64 - 0.5
    box = page.evaluate(BOX, f"{board} svg.board")
    assert box["y"] >= 0 and box["y"] + box["h"] <= 800 and box["x"] + box["w"] <= 1280  # the whole board on screen
    screenshot(page, name, tmp_path)
    page.keyboard.press("Escape")
    expect(page.locator("body")).not_to_have_class("present")
    assert page.evaluate(SMALLEST_CELL, board) < 64
    assert errors == []
