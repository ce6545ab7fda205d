"""The 76 lines and 18 planes, checked against independent definitions and McDaniel's Table I."""

from collections import Counter
from itertools import combinations

from qubic_logic.geometry import (
    LINES, LINES_THROUGH, PLANE_LINES, PLANES, PLANES_THROUGH, cell_at, coords, line_kind,
)


def _collinear(cells):
    pts = [coords(c) for c in cells]
    steps = {tuple(b[i] - a[i] for i in range(3)) for a, b in zip(pts, pts[1:])}
    return len(steps) == 1


def test_lines_are_the_straight_fours():
    assert len(LINES) == 76 == len(set(LINES))
    # independent definition: every 4-set of cells that, in index order, steps evenly through space
    brute = {q for q in combinations(range(64), 4) if _collinear(q)}
    assert brute == set(LINES)
    assert Counter(line_kind(line) for line in LINES) == {"orthogonal": 48, "planar diagonal": 24, "space diagonal": 4}


def test_lines_per_cell_and_prime_cells():
    per_cell = Counter(len(LINES_THROUGH[c]) for c in range(64))
    assert per_cell == {7: 16, 4: 48}
    primes = sorted(c + 1 for c in range(64) if len(LINES_THROUGH[c]) == 7)
    # McDaniel's list of prime cells (seed 003, L221), in 1..64 numbering
    assert primes == [1, 4, 13, 16, 22, 23, 26, 27, 38, 39, 42, 43, 49, 52, 61, 64]


def test_planes_follow_mcdaniel_table_one():
    table_one = {  # seed 003 L223-243, 1..64 numbering: the diagonal planes
        13: "1 5 9 13 18 22 26 30 35 39 43 47 52 56 60 64",
        14: "1 2 3 4 21 22 23 24 41 42 43 44 61 62 63 64",
        15: "4 8 12 16 19 23 27 31 34 38 42 46 49 53 57 61",
        16: "13 14 15 16 25 26 27 28 37 38 39 40 49 50 51 52",
        17: "1 6 11 16 17 22 27 32 33 38 43 48 49 54 59 64",
        18: "4 7 10 13 20 23 26 29 36 39 42 45 52 55 58 61",
    }
    for number, cells in table_one.items():
        assert [c + 1 for c in PLANES[number - 1]] == [int(v) for v in cells.split()]
    assert PLANES[0] == tuple(range(16)) and PLANES[4][:4] == (0, 1, 2, 3)
    assert len(PLANES) == 18 and all(len(p) == 16 for p in PLANES)
    assert all(len(lines) == 10 for lines in PLANE_LINES)
    # McDaniel (L269): cubic primes lie in six planes, non-primes in four
    assert Counter(len(PLANES_THROUGH[c]) for c in range(64)) == {6: 16, 4: 48}


def test_plane_lines_lie_in_their_plane():
    for plane, lines in zip(PLANES, PLANE_LINES):
        assert all(set(LINES[i]) <= set(plane) for i in lines)
    # every line lies in some plane; the orthogonal ones in two or three
    counts = Counter(sum(i in lines for lines in PLANE_LINES) for i in range(76))
    assert sum(k * v for k, v in counts.items()) == 18 * 10 and 0 not in counts


def test_cell_coordinates_round_trip():
    assert all(cell_at(*coords(c)) == c for c in range(64))
