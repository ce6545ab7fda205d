"""The counting machinery on boards with independently known answers (3x3 tic-tac-toe)."""

from __future__ import annotations

from itertools import product

from qubic_logic.claims.counting import (
    burnside_count,
    canonical,
    classes,
    count_classes,
    k_subsets,
    line_automorphisms,
    orbit_size_histogram,
)
from qubic_logic.claims.plane import dihedral_group, plane_group

TTT_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
TTT_GROUP = line_automorphisms(9, TTT_LINES)


def _ttt_positions():
    """Every position of 3x3 tic-tac-toe reachable in play (play stops at a win)."""
    def won(cells):
        return any(set(line) <= cells for line in TTT_LINES)

    seen = set()
    frontier = [(frozenset(), frozenset())]
    while frontier:
        x, o = frontier.pop()
        if (x, o) in seen:
            continue
        seen.add((x, o))
        if won(x) or won(o) or len(x) + len(o) == 9:
            continue
        for c in range(9):
            if c not in x and c not in o:
                frontier.append((x | {c}, o) if len(x) == len(o) else (x, o | {c}))
    return seen


def test_ttt_group_is_the_square_symmetries():
    assert len(TTT_GROUP) == 8


def test_ttt_positions_up_to_symmetry():
    # Known: 5,478 legal positions, 765 essentially different ones.
    positions = _ttt_positions()
    assert len(positions) == 5478
    assert count_classes(TTT_GROUP, positions) == 765


def test_ttt_openings():
    # Known: 3 first moves, 12 two-move positions, 38 three-move positions up to symmetry.
    positions = _ttt_positions()
    by_count = {n: [p for p in positions if len(p[0]) + len(p[1]) == n] for n in (1, 2, 3)}
    assert [count_classes(TTT_GROUP, by_count[n]) for n in (1, 2, 3)] == [3, 12, 38]


def test_burnside_agrees_with_explicit_classes():
    for group, n in ((TTT_GROUP, 9), (plane_group(), 16), (dihedral_group(), 16)):
        for k in range(6):
            assert burnside_count(group, n, k) == count_classes(group, k_subsets(range(n), k))


def test_orbit_sizes_add_up():
    for k in (2, 3, 4):
        configs = k_subsets(range(16), k)
        hist = orbit_size_histogram(dihedral_group(), configs)
        assert sum(size * n for size, n in hist.items()) == len(configs)


def test_line_automorphisms_of_a_cycle_and_a_grid():
    assert len(line_automorphisms(5, [(i, (i + 1) % 5) for i in range(5)])) == 10  # dihedral D5
    rows_cols = [tuple(r * 3 + c for c in range(3)) for r in range(3)] + \
        [tuple(r * 3 + c for r in range(3)) for c in range(3)]
    assert len(line_automorphisms(9, rows_cols)) == 2 * 6 * 6  # rook's graph K3 x K3


def test_canonical_is_constant_on_a_class():
    for members in classes(TTT_GROUP, k_subsets(range(9), 2)).values():
        assert len({canonical(TTT_GROUP, m) for m in members}) == 1


def test_plane_group_contains_the_square_symmetries():
    assert set(dihedral_group()) <= set(plane_group())
    for g, h in product(plane_group()[:6], repeat=2):
        assert tuple(g[h[c]] for c in range(16)) in set(plane_group())
