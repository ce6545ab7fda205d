"""All engines agree: threats, related pairs, existence and minimal length of forced wins.

Positions are generated (6 to 40 marks, either side to move); every witness
replays in the referee. The reference for related pairs is the geometry
(:func:`related_pairs_of`); for forced wins the engines are compared with each
other. Positions that need the counter-threat rule are collected separately.
"""

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from qubic_logic.bitboard import threat_cells
from qubic_logic.core import NATIVE
from qubic_logic.engines import get_engine, related_pairs_of
from qubic_logic.position import Position, other
from qubic_logic.referee import replay_forced_win

from .conftest import random_position

ENGINES = ["asp", "prolog", "python"] + (["native"] if NATIVE is not None else [])
MAX_LENGTH = 8


@st.composite
def positions(draw, low: int = 6, high: int = 40) -> Position:
    """A position after ``low``..``high`` random legal moves, game not over."""
    seed = draw(st.integers(0, 2**32))
    marks = draw(st.integers(low, high))
    return random_position(random.Random(seed), marks)


def _check_win(position: Position, max_length: int | None, engines=ENGINES) -> int | None:
    wins = {e: get_engine(e).shortest_forced_win(position, max_length=max_length) for e in engines}
    lengths = {e: w.length for e, w in wins.items()}
    assert len(set(lengths.values())) == 1, (position, lengths)
    for e, w in wins.items():
        assert w.engine == e and w.attacker == position.to_move
        if w.found:
            assert replay_forced_win(position, w.sequence) == w.length, (e, w)
    return next(iter(lengths.values()))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
@example(Position(x=73183532599869440, o=153122524769550608))  # pairs once came out of line order
def test_threats_and_related_pairs_agree(position):
    expected_pairs = sorted(related_pairs_of(position, "x") + related_pairs_of(position, "o"))
    reference = get_engine("python").threats(position)
    for e in ENGINES:
        engine = get_engine(e)
        assert engine.threats(position) == reference, e
        assert engine.related_pairs(position) == expected_pairs, e
        assert engine.forcing_moves(position) == engine.forcing_moves(position, position.to_move)
    assert {p.major for p in expected_pairs if p.side == "x"} == {
        c for c in range(64) if reference.major_x >> c & 1}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_forced_wins_agree(position):
    _check_win(position, MAX_LENGTH)


def _counter_threat_positions(count: int, mid_sequence: bool) -> list[Position]:
    """Positions with a forced win that meets a single defender threat (at the start or later)."""
    rng = random.Random(3)
    core = get_engine("python")
    found: list[Position] = []
    while len(found) < count:
        p = random_position(rng, rng.randint(8, 30))
        win = core.shortest_forced_win(p, max_length=MAX_LENGTH)
        if not win.found or win.length < 2:
            continue
        a, d = p.to_move, other(p.to_move)
        at_start = bool(threat_cells(p.mask(d), p.mask(a)))
        later = False
        q = p
        for i, cell in enumerate(win.sequence[:-3]):
            q = q.play(cell)
            if i % 2 == 1 and threat_cells(q.mask(d), q.mask(a)):
                later = True
        if (later if mid_sequence else at_start):
            found.append(p)
    return found


@pytest.mark.parametrize("mid_sequence", [False, True], ids=["at-start", "mid-sequence"])
def test_counter_threat_positions_agree(mid_sequence):
    for p in _counter_threat_positions(4, mid_sequence):
        assert _check_win(p, MAX_LENGTH) is not None


def test_counter_threat_decides():
    """A single defender threat the attacker cannot block with a threat: no forced win, in every engine."""
    rng = random.Random(11)
    checked = 0
    while checked < 3:
        p = random_position(rng, rng.randint(10, 30))
        a, d = p.mask(p.to_move), p.mask(other(p.to_move))
        theirs = threat_cells(d, a)
        if threat_cells(a, d) or not theirs or theirs & (theirs - 1):
            continue
        # without the rule the attacker could ignore the threat; with it, every engine must block
        wins = [get_engine(e).shortest_forced_win(p, max_length=MAX_LENGTH) for e in ENGINES]
        for w in wins:
            if w.found:
                assert w.sequence[0] == theirs.bit_length() - 1
        assert len({w.length for w in wins}) == 1
        checked += 1


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_forced_wins_agree_unbounded(position):
    _check_win(position, None)


@pytest.mark.slow
def test_long_sequences_from_patashnik_strategy_agree():
    """Positions where Patashnik's strategy needs a forced win: long sequences, counter-threats."""
    from qubic_logic.bench._positions import dictionary_queries

    for p in dictionary_queries(12, 20):
        _check_win(p, None)
