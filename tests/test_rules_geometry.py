"""The geometry the rules declare (rules/geometry.lp and .pl) equals qubic_logic.geometry."""

import pytest

from qubic_logic.engines.asp import solve
from qubic_logic.engines.prolog import query
from qubic_logic.geometry import LINES, PLANE_LINES, PLANES, coords, line_kind

KINDS = {"orthogonal": "orthogonal", "planar diagonal": "planar_diagonal", "space diagonal": "space_diagonal"}


def _asp(show: str) -> list[tuple]:
    (model,) = solve(show, rules=("geometry",)).models
    return sorted(tuple(a.number if a.type.name == "Number" else a.name for a in s.arguments) for s in model)


def _prolog(goal: str, names: str) -> list[tuple]:
    return sorted(tuple(b[n] for n in names.split(",")) for b in query(goal))


EXPECTED = {
    "lines": sorted((i, *line) for i, line in enumerate(LINES)),
    "in_line": sorted((c, i) for i, line in enumerate(LINES) for c in line),
    "kinds": sorted((i, KINDS[line_kind(line)]) for i, line in enumerate(LINES)),
    "coords": sorted((c, *coords(c)) for c in range(64)),
    "planes": sorted((p + 1, k + 1, c) for p, cells in enumerate(PLANES) for k, c in enumerate(cells)),
    "in_plane": sorted((c, p + 1) for p, cells in enumerate(PLANES) for c in cells),
    "line_in_plane": sorted((i, p + 1) for p, lines in enumerate(PLANE_LINES) for i in lines),
}

ASP_SHOW = {
    "lines": "#show line_cells/5.",
    "in_line": "#show in_line/2.",
    "kinds": "#show line_kind/2.",
    "coords": "#show coord/4.",
    "planes": "#show plane_cell/3.",
    "in_plane": "#show in_plane/2.",
    "line_in_plane": "#show line_in_plane/2.",
}

PROLOG_GOAL = {
    "lines": ("line_cells(L, A, B, C, D)", "L,A,B,C,D"),
    "in_line": ("in_line(C, L)", "C,L"),
    "kinds": ("line_kind(L, K)", "L,K"),
    "coords": ("coord(C, X, Y, Z)", "C,X,Y,Z"),
    "planes": ("plane_cell(P, K, C)", "P,K,C"),
    "in_plane": ("in_plane(C, P)", "C,P"),
    "line_in_plane": ("line_in_plane(L, P)", "L,P"),
}


@pytest.mark.parametrize("relation", sorted(EXPECTED))
def test_asp_geometry_equals_python(relation):
    assert _asp(ASP_SHOW[relation]) == EXPECTED[relation]


@pytest.mark.parametrize("relation", sorted(EXPECTED))
def test_prolog_geometry_equals_python(relation):
    assert _prolog(*PROLOG_GOAL[relation]) == EXPECTED[relation]


def test_counts_of_the_board():
    assert len(EXPECTED["lines"]) == 76 and len(PLANES) == 18
    assert all(len(lines) == 10 for lines in PLANE_LINES)
    (model,) = solve("n(N) :- N = #count { C : cell(C) }. #show n/1.", rules=("geometry",)).models
    assert [s.arguments[0].number for s in model] == [64]
    assert query("aggregate_all(count, cell(_), N)") == [{"N": 64}]
