"""threats.lp and threats.pl against direct Python computations: line states, to_move,
double threats and the counter-threat condition."""

import random

import pytest

from qubic_logic.bitboard import threat_cells
from qubic_logic.engines.asp import solve
from qubic_logic.engines.prolog import query
from qubic_logic.geometry import LINES, cells_of
from qubic_logic.position import other

from .conftest import random_position

POSITIONS = [random_position(random.Random(seed), marks) for seed, marks in
             [(1, 6), (2, 13), (3, 20), (4, 27), (5, 33), (6, 40), (7, 9), (8, 17)]]


def _expected(p):
    states = sorted((i, s, sum(p.at(c) == s for c in line), sum(p.at(c) == other(s) for c in line))
                    for i, line in enumerate(LINES) for s in ("x", "o"))
    doubles = sorted(s for s in ("x", "o") if len(cells_of(threat_cells(p.mask(s), p.mask(other(s))))) >= 2)
    counters = []
    for s in ("x", "o"):
        mine = threat_cells(p.mask(s), p.mask(other(s)))
        theirs = cells_of(threat_cells(p.mask(other(s)), p.mask(s)))
        if not mine and len(theirs) == 1:
            counters.append((s, theirs[0]))
    return states, p.to_move, doubles, sorted(counters)


def test_positions_cover_the_cases():
    assert any(_expected(p)[2] for p in POSITIONS) and any(_expected(p)[3] for p in POSITIONS)
    assert {p.to_move for p in POSITIONS} == {"x", "o"}


def _args(symbol):
    return tuple(a.number if a.type.name == "Number" else a.name for a in symbol.arguments)


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_asp_threat_predicates(index):
    p = POSITIONS[index]
    (model,) = solve("#show line_state/4. #show to_move/1. #show double_threat/1. #show counter_threat/2.",
                     rules=("geometry", "threats"), position=p).models
    states, to_move, doubles, counters = _expected(p)
    assert sorted(_args(s) for s in model if s.name == "line_state") == states
    assert [_args(s) for s in model if s.name == "to_move"] == [(to_move,)]
    assert sorted(_args(s)[0] for s in model if s.name == "double_threat") == doubles
    assert sorted(_args(s) for s in model if s.name == "counter_threat") == counters


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_prolog_threat_predicates(index):
    p = POSITIONS[index]
    states, to_move, doubles, counters = _expected(p)
    assert sorted((b["L"], b["S"], b["M"], b["N"]) for b in query("line_state(L, S, M, N)", position=p)) == states
    assert query("to_move(S)", position=p) == [{"S": to_move}]
    assert sorted(b["S"] for b in query("double_threat(S)", position=p)) == doubles
    assert sorted((b["S"], b["C"]) for b in query("counter_threat(S, C)", position=p)) == counters
