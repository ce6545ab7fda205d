"""Forced wins by threat sequence (docs/design.md §3): the core against a naive reference, and the referee."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qubic_logic.core import shortest_forced_win
from qubic_logic.errors import IllegalMoveError, QueryTimeout
from qubic_logic.geometry import LINES
from qubic_logic.notation import parse_position
from qubic_logic.position import Position
from qubic_logic.referee import replay_forced_win

from .conftest import random_position


def _threats(p: Position, side: str) -> set[int]:
    """Threat cells found by looking at every line's four cells (no masks, no shortcuts)."""
    out = set()
    for line in LINES:
        marks = [p.at(c) for c in line]
        if marks.count(side) == 3 and marks.count(".") == 1:
            out.add(line[marks.index(".")])
    return out


def _wins_within(p: Position, k: int) -> bool:
    """The rules of §3 read literally: can the side to move force a win in <= k of its moves?"""
    me = p.to_move
    you = "o" if me == "x" else "x"
    if _threats(p, me):
        return k >= 1
    if k < 2:
        return False
    theirs = _threats(p, you)
    if len(theirs) >= 2:
        return False
    candidates = theirs or [c for c in p.legal_moves() if _threats(p.play(c), me)]
    for c in candidates:
        q = p.play(c)
        mine = _threats(q, me)
        if len(mine) >= 2:
            return True
        if len(mine) == 1 and k >= 3 and _wins_within(q.play(mine.pop()), k - 1):
            return True
    return False


def _naive_length(p: Position, bound: int) -> int | None:
    return next((k for k in range(1, bound + 1) if _wins_within(p, k)), None)


@pytest.mark.parametrize("core", ["auto", "python"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), marks=st.integers(6, 30))
def test_core_matches_the_literal_rules(core, seed, marks):
    p = random_position(random.Random(seed), marks)
    win = shortest_forced_win(p, max_length=4, core=core)
    assert win.length == _naive_length(p, 4)
    if win.found:
        assert replay_forced_win(p, win.sequence) == win.length


def test_mcdaniel_plane_17_line():
    # seed 003 L288: after 1-2,22-52,27-4 X wins in plane 17 with six more moves
    p = parse_position("1-2,22-52,27-4")
    win = shortest_forced_win(p)
    assert win.attacker == "x" and win.length == 6
    assert replay_forced_win(p, win.sequence) == 6
    assert shortest_forced_win(p, max_length=5).length is None
    # the seed's own line is a legal forced win too
    seed_line = [c - 1 for c in (32, 17, 64, 43, 16, 48, 6, 11, 38, 49, 54)]
    assert replay_forced_win(p, seed_line) == 6


def test_counter_threat_rule_is_used():
    """Some wins begin by blocking the defender's single threat (Citrenbaum's proviso)."""
    rng = random.Random(7)
    found = 0
    for _ in range(400):
        p = random_position(rng, rng.randrange(10, 30))
        win = shortest_forced_win(p, max_length=6)
        theirs = _threats(p, "o" if p.to_move == "x" else "x")
        if win.found and len(theirs) == 1 and win.length > 1:
            assert win.sequence[0] in theirs
            assert replay_forced_win(p, win.sequence) == win.length
            found += 1
    assert found > 0


def test_referee_rejects_broken_witnesses():
    p = parse_position("1-2,22-52,27-4")
    seq = list(shortest_forced_win(p).sequence)
    with pytest.raises(IllegalMoveError, match="not a threat cell"):
        replay_forced_win(p, seq[:1] + [seq[1] ^ 1] + seq[2:])
    with pytest.raises(IllegalMoveError):
        replay_forced_win(p, seq[:-1])
    with pytest.raises(IllegalMoveError, match="makes no threat"):
        replay_forced_win(p, [7, 8, 9])


def test_time_limit_reports_progress():
    p = parse_position("1-2,22-52,27-4")
    with pytest.raises(QueryTimeout) as info:
        shortest_forced_win(p, time_limit=1e-9, core="python")
    assert "time limit" in str(info.value) and info.value.partial is not None
