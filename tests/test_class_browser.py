"""The pages for a class in a real Chromium: home, lessons, review, ratings in the menus, the daily puzzle,
hints that warn, a phone's screen, the 404 page.

Uses the server, browser and page fixtures of ``test_server_browser``; expected values come from the library.
"""

from __future__ import annotations

import re

import pytest

from qubic_logic.analysis import defences
from qubic_logic.lessons import lesson, lesson_names
from qubic_logic.notation import parse_position
from qubic_logic.puzzles import length_after
from qubic_logic.ratings import shipped_ratings
from qubic_logic.review import review
from qubic_logic.notation import parse_game

from tests.test_server_browser import (  # noqa: F401  (fixtures, and the skip when chromium is missing)
    browser, click_cell, page, playwright, pytestmark, screenshot, server)

PHONE = {"width": 390, "height": 844}
PAGES = ["/", "/play", "/puzzles", "/lessons", "/lessons?name=04-planar-traps", "/verify", "/analyse", "/api",
         "/no-such-page"]


def solve_on(page, board) -> None:
    """Play a forced win on ``board`` (an element with data-position and data-left), as the engines find it."""
    while True:
        position = parse_position("qubic:" + board.get_attribute("data-position"))
        left = int(board.get_attribute("data-left"))
        move = next(m for m in position.legal_moves() if (length_after(position, m, left)[0] or 99) <= left)
        board.locator(f'g[data-cell="{move}"]').click()
        if left == 1:
            return
        playwright.expect(board).to_have_attribute("data-left", str(left - 1))


def test_the_home_page_leads_to_every_part(page, tmp_path):
    page.goto("/")
    for href in ("/play", "/puzzles", "/lessons", "/analyse", "/verify"):
        playwright.expect(page.locator(f'.cards a[href="{href}"]')).to_have_count(1)
    screenshot(page, "home", tmp_path)


def test_the_plane_17_lesson_is_solved_on_the_board(page, tmp_path):
    name = next(n for n in lesson_names() if "planar" in n)
    page.goto(f"/lessons?name={name}")
    expect = playwright.expect
    first = page.locator('[data-exercise="0"]')
    position = parse_position(lesson(name)["exercises"][0]["position"])
    wrong = next(c for c in position.legal_moves() if c not in defences(position))
    first.locator(f'g[data-cell="{wrong}"]').click()
    expect(first.locator(".verdict-line")).to_contain_text("still wins by force")
    first.locator(f'g[data-cell="{defences(position)[0]}"]').click()
    expect(first.locator(".verdict-line")).to_contain_text("Solved!")
    second = page.locator('[data-exercise="1"]')
    solve_on(page, second.locator(".exboard"))
    expect(second.locator(".verdict-line")).to_contain_text("Solved! X")
    screenshot(page, "lesson-plane-17", tmp_path)
    page.goto("/lessons")
    expect(page.locator(".cards a", has_text="✓")).to_have_count(1)  # remembered in this browser


def test_a_reviewed_game_flags_the_missed_win_and_steps_through_the_moves(page, tmp_path):
    game = "1-2,22-52,27-4,10"
    reviewed = review(parse_game(game))
    page.goto(f"/play?x=human&o=human&moves={game}")
    expect = playwright.expect
    log = page.locator("#log li")
    expect(log.nth(6)).to_have_attribute("data-tags", "missed")  # loaded games are reviewed at once
    expect(log.nth(5)).to_have_attribute("data-tags", "allowed")
    expect(page.locator("#summary")).to_have_text("X: 1 missed, 0 allowed; O: 0 missed, 1 allowed")
    log.nth(4).click()  # back to the board after X's 27
    expect(page.locator("#board")).to_have_attribute("data-shown", "5")
    expect(page.locator("#message")).to_contain_text(reviewed[4].text("number"))  # the game's own numbers
    expect(page.locator("#board g.cell.x")).to_have_count(3)
    page.click("#next")
    expect(page.locator("#board")).to_have_attribute("data-shown", "6")
    expect(page.locator("#analysis-note")).to_contain_text("X to move wins by force in 6")
    screenshot(page, "review", tmp_path)
    page.click("#last")
    expect(page.locator("#board")).to_have_attribute("data-shown", "7")


def test_hint_warns_o_of_the_plane_17_trap(page):
    page.goto("/play?x=human&o=human&moves=1-2,22-52,27")
    expect = playwright.expect
    expect(page.locator("#analysis-note")).to_contain_text("X threatens a forced win in 6 moves in plane 17; O stops it only with")
    page.click("#hint")
    expect(page.locator("#message")).to_contain_text("X threatens a forced win in 6 moves in plane 17")
    stop = defences(parse_position("1-2,22-52,27"))[0]
    expect(page.locator(f'#board g.cell.hint[data-cell="{stop}"]')).to_have_count(1)


def test_the_opponent_menu_is_ordered_by_the_shipped_ratings(page):
    page.goto("/play")
    expect = playwright.expect
    expect(page.locator("#controls")).to_be_enabled()
    data = shipped_ratings()
    weakest_first = [r["name"] for r in sorted(data["ratings"], key=lambda r: r["elo"])]
    options = page.locator("#po option").evaluate_all("os => os.map(o => o.value)")
    assert options == ["human"] + weakest_first
    groups = page.locator("#po optgroup").evaluate_all("gs => gs.map(g => g.label)")
    order = [g["name"] for g in data["groups"]]
    assert groups == sorted(groups, key=order.index) and len(groups) >= 2
    page.select_option("#po", weakest_first[0])
    expect(page.locator("#origin")).to_contain_text(f"O: {weakest_first[0]}")


def test_the_daily_puzzle_is_solved_and_remembered_after_a_reload(page, tmp_path):
    page.goto("/puzzles")
    expect = playwright.expect
    expect(page.locator("#title")).to_contain_text("the puzzle of", timeout=30_000)
    expect(page.locator("#record")).to_contain_text("daily streak: 0 days")
    solve_on(page, page.locator("#board"))
    expect(page.locator("#verdict")).to_contain_text("Solved! ")
    assert not page.locator("#verdict").inner_text().endswith(": solved.")
    screenshot(page, "puzzles-daily", tmp_path)
    page.reload()
    expect(page.locator("#record")).to_contain_text("today's puzzle solved ✓")
    expect(page.locator("#record")).to_contain_text("daily streak: 1 day")
    expect(page.locator("button.puzzle.on")).to_contain_text("✓")


def test_the_winning_moves_are_shown_after_the_first_move_too(page):
    page.goto("/puzzles?seed=1")
    expect = playwright.expect
    page.fill("#min", "4")
    page.fill("#max", "4")
    page.click("#form button[type=submit]")
    expect(page.locator("#title")).to_contain_text("wins in 4", timeout=30_000)
    board = page.locator("#board")
    expect(board).to_have_attribute("data-left", "4")
    position = parse_position("qubic:" + board.get_attribute("data-position"))
    move = next(m for m in position.legal_moves() if length_after(position, m, 4)[0] == 4)
    click_cell(page, move)
    expect(board).to_have_attribute("data-left", "3")
    page.click("#reveal")
    now = parse_position("qubic:" + board.get_attribute("data-position"))
    winning = sorted(m for m in now.legal_moves() if length_after(now, m, 3)[0] == 3)
    expect(page.locator("#board g.cell.hint")).to_have_count(len(winning))


@pytest.mark.parametrize("path", PAGES)
def test_every_page_fits_a_phone(browser, server, path, tmp_path):  # noqa: F811
    context = browser.new_context(viewport=PHONE, base_url=server)
    phone = context.new_page()
    phone.goto(path)
    phone.wait_for_load_state("networkidle")
    width, inner = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{path}: {width} px wide on a {inner} px screen"
    if path == "/play":
        box = phone.locator('#board g[data-cell="0"] rect').bounding_box()
        assert box["width"] >= 40 and box["height"] >= 40  # big enough to tap
        screenshot(phone, "play-phone", tmp_path)
    context.close()


def test_an_unknown_page_is_a_friendly_404(page):
    response = page.goto("/no/such/page")
    assert response.status == 404
    playwright.expect(page.locator("h1")).to_have_text("No page here")
    playwright.expect(page.locator('main a[href="/"]')).to_have_count(1)
    assert re.search(r"svg", page.request.get("/favicon.ico").headers["content-type"])


def test_verify_s_example_verifies_and_its_bars_end_at_the_result(page):
    page.goto("/verify")
    expect = playwright.expect
    page.click("#go")  # the example as served: McDaniel's trap as a one-entry dictionary
    expect(page.locator("#verdict")).to_have_text("VERIFIED", timeout=60_000)
    full = "ps => ps.length > 0 && ps.every(p => p.value === p.max)"
    assert page.locator("#phases progress").evaluate_all(full)
    page.fill("#text", "a strategy with no moves\n-----\n")
    page.click("#go")
    expect(page.locator("#verdict")).to_have_text("REFUTED", timeout=60_000)
    assert page.locator("#phases progress").evaluate_all(full)  # a new request cleared the old bars
    expect(page.locator("#figures")).not_to_contain_text("528,788")
