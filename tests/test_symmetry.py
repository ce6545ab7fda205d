"""The automorphism group: generated, closed, line-preserving, of order 192."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from qubic_logic.geometry import LINES
from qubic_logic.position import Position
from qubic_logic.symmetry import (
    INVERSES, TRANSFORMS, canonical, canonical_masks, cell_orbits, map_mask,
)

from .conftest import random_position

LINE_SET = set(LINES)


def test_group_order_closure_and_lines():
    assert len(TRANSFORMS) == len(set(TRANSFORMS)) == 192
    assert TRANSFORMS[0] == tuple(range(64))
    group = set(TRANSFORMS)
    for a in TRANSFORMS:
        assert all(tuple(sorted(a[c] for c in line)) in LINE_SET for line in LINES)
    rng = random.Random(1)
    for _ in range(2000):
        a, b = rng.choice(TRANSFORMS), rng.choice(TRANSFORMS)
        assert tuple(a[b[c]] for c in range(64)) in group
    for i, t in enumerate(TRANSFORMS):
        inv = TRANSFORMS[INVERSES[i]]
        assert all(inv[t[c]] == c for c in range(64))


def test_no_other_line_preserving_maps_fix_a_corner_frame():
    # Every automorphism is determined by the images of cells 0, 1, 4, 16 (a corner and its
    # three orthogonal neighbours); distinct transforms differ there.
    frames = {(t[0], t[1], t[4], t[16]) for t in TRANSFORMS}
    assert len(frames) == 192


def test_two_first_move_classes():
    assert sorted(len(o) for o in cell_orbits()) == [16, 48]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 20), st.integers(0, 191))
def test_canonical_form_is_invariant(seed, marks, t):
    p = random_position(random.Random(seed), marks)
    image = Position(map_mask(t, p.x), map_mask(t, p.o))
    c1, c2 = canonical(p), canonical(image)
    assert c1.position == c2.position
    assert canonical_masks(p.x, p.o)[:2] == (c1.position.x, c1.position.o)
    # the transform really maps the position onto its canonical form, and back
    assert all(p.at(cell) == c1.position.at(c1.to_canonical(cell)) for cell in range(64))
    assert all(c1.from_canonical(c1.to_canonical(cell)) == cell for cell in range(64))
