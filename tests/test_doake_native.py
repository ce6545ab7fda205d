"""Doake's fast paths against their readable references: the native matcher (solvers/doake.c)
against search.py's Python SEARCH, and the backtrack's win-in-one scan against the listing's loop.

They must not change a single decision: the same matches on random boards, and the same seeded
training games leaving the same brain as the reference (computed here, never stored).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic_logic.players.doake import search as doake_search
from qubic_logic.players.doake.backtrack import _wins_in_one
from qubic_logic.players.doake.board import COMPUTER, LINES, OPPONENT, Board
from qubic_logic.players.doake.search import (match, python_match, python_matcher, python_search,
                                              python_sugoal, search, sugoal)
from qubic_logic.players.doake.store import Brain
from qubic_logic.players.doake.tables import RULE_BOOK, TEST_SIZE
from qubic_logic.players.doake.train import train

needs_native = pytest.mark.skipif(doake_search.NATIVE is None, reason="the native matcher is not built")

# Line sums a pattern names: blanks, one to three counters of a side, and mixed lines.
SUMS = st.sampled_from([0, 1, 2, 3, 5, 6, 10, 11, 15, 7, 4, 20])


@st.composite
def boards(draw) -> Board:
    """A board of 0..30 counters of either value (not necessarily reachable in play)."""
    squares = draw(st.lists(st.integers(1, 64), max_size=30, unique=True))
    board = Board()
    for s in squares:
        board.put(s, draw(st.sampled_from([COMPUTER, OPPONENT])))
    return board


@st.composite
def patterns(draw, board: Board | None = None) -> tuple[int, ...]:
    """A pattern of one to five sums, padded with -1, as TEST stores them.

    With a board, mostly the sums of lines that meet on it (so that many patterns match).
    """
    n = draw(st.integers(1, 5))
    if board is None or draw(st.booleans()):
        sums = draw(st.lists(SUMS, min_size=n, max_size=n))
    else:
        first = draw(st.integers(1, 76))
        near = [j for j in range(1, 77) if j != first and set(LINES[j]) & set(LINES[first])]
        lines = [first] + draw(st.lists(st.sampled_from(near), min_size=n - 1, max_size=n - 1))
        sums = [board.sums[j] for j in lines]
    return tuple(sums) + (-1,) * (5 - n)


def listing_wins_in_one(board: Board, value: int) -> int:
    """L73–75 as written: a test counter on each blank square in turn, every line re-summed."""
    for s in range(1, 65):
        if not board.move[s]:
            for j in range(1, 77):
                if board.sums[j] + (value if s in LINES[j] else 0) == 4 * value:
                    return j
    return 0


@settings(max_examples=300, deadline=None)
@given(boards(), st.sampled_from([COMPUTER, OPPONENT]))
def test_wins_in_one_follows_the_listing_loop(board, value):
    assert _wins_in_one(board, value) == listing_wins_in_one(board, value)


@needs_native
def test_native_lines_are_the_documented_numbering():
    assert doake_search.NATIVE.lines() == LINES[1:]


@needs_native
@settings(max_examples=500, deadline=None)
@given(boards(), st.data(), st.booleans())
def test_match_agrees_with_the_reference(board, data, literal):
    pattern = data.draw(patterns(board))
    assert match(board, pattern, literal) == python_match(board, pattern, literal)


@needs_native
@settings(max_examples=300, deadline=None)
@given(boards(), st.data(), st.booleans(), st.booleans())
def test_search_and_sugoal_agree_with_the_reference(board, data, listing, literal):
    learned = data.draw(st.lists(patterns(board), max_size=28))
    test = list(RULE_BOOK) + learned
    assert search(board, test, listing, literal) == python_search(board, test, listing, literal)
    sutest = [p[:3] for p in learned[:20]]
    assert sugoal(board, sutest) == python_sugoal(board, sutest)


@needs_native
def test_a_board_with_a_known_pattern_matches_in_both():
    board = Board()
    for s in (1, 2, 10, 13):  # 10 on lines 1 (1,2,3,4) and 9 (4,7,10,13), meeting at blank 4
        board.put(s, COMPUTER)
    assert match(board, (10, 10, -1, -1, -1)) == python_match(board, (10, 10, -1, -1, -1)) == 4
    found = search(board, list(RULE_BOOK) + [(10, 10, -1, -1, -1)], listing=True)
    assert found.m11 == [(4, 5)] == python_search(board, list(RULE_BOOK) + [(10, 10, -1, -1, -1)], True).m11


@needs_native
def test_bad_arguments_are_refused():
    native = doake_search.NATIVE
    with pytest.raises(TypeError, match="77 line sums"):
        native.match([0] * 10, 0, (10, 10), False)
    with pytest.raises(ValueError, match="expected 0..20"):
        native.match([0] * 76 + [25], 0, (10, 10), False)
    with pytest.raises(ValueError, match="at most five"):
        native.match([0] * 77, 0, (10,) * 6, False)


def _same_training(tmp_path, against: str, games: int, reading: str, seed: int = 11) -> Brain:
    """Train two fresh brains with the same seed, native and reference; assert they are equal."""
    brains = []
    for name in ("native", "python"):
        brain = Brain(tmp_path / f"{name}.sqlite", create=True)
        if name == "python":
            with python_matcher():
                train(brain, against, games, seed=seed, reading=reading)
        else:
            train(brain, against, games, seed=seed, reading=reading)
        brains.append(brain)
    native, python = brains
    assert native.games() == python.games()
    assert native.tables() == python.tables()
    return native


@pytest.mark.parametrize("against, reading", [("greedy", "plausible"), ("greedy", "literal"),
                                              ("self", "plausible"), ("hp67", "plausible")])
@needs_native
def test_seeded_training_gives_the_same_games_and_brain_as_the_reference(tmp_path, against, reading):
    brain = _same_training(tmp_path, against, 25, reading)
    assert brain.tables().learned() > 0  # something was learned, so the patterns were used


@needs_native
@pytest.mark.slow
def test_training_with_a_full_test_table_gives_the_same_games_as_the_reference(tmp_path):
    brain = _same_training(tmp_path, "greedy", 180, "plausible", seed=9)  # TEST full after game 108
    tables = brain.tables()
    assert len(tables.tests) == TEST_SIZE  # the last games ran with a full TEST
    assert sum(e.fired for e in tables.tests) > 0
