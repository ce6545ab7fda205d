"""One plane on its own (an *isolated plane*): its symmetry and forcing play in it.

Planar cells are numbered 1..16, four per row, as in McDaniel's Tables II-IV and
Citrenbaum's Table III. The plane is embedded as plane 1 of the cube (level
z = 0, planar cell k = cube cell k-1): with no marks elsewhere, every forcing
move of the cube is a forcing move of that plane, so the core's forced-win
search (docs/design.md §3) answers for the plane alone.

>>> len(plane_group()), len(dihedral_group())
(32, 8)
>>> two_zero_files([1, 4, 13])
3
>>> forced_win_length([1, 4, 13], [])
6
"""

from __future__ import annotations

from functools import cache

from ..core import core_module
from ..geometry import LINES, PLANE_LINES, mask_of
from .counting import Perm, line_automorphisms

PLANAR_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(c + 1 for c in LINES[i]) for i in PLANE_LINES[0]
)
PLANAR_PRIMES: tuple[int, ...] = tuple(
    k for k in range(1, 17) if sum(k in line for line in PLANAR_LINES) == 3
)


def _mask(planar_cells) -> int:
    return mask_of(k - 1 for k in planar_cells)


@cache
def plane_group() -> tuple[Perm, ...]:
    """Every permutation of the 16 planar cells (as 0..15) that keeps lines lines (computed)."""
    return line_automorphisms(16, [tuple(k - 1 for k in line) for line in PLANAR_LINES])


@cache
def dihedral_group() -> tuple[Perm, ...]:
    """The 8 rotations and reflections of the square (Citrenbaum's "eight symmetries")."""
    maps = []
    for swap in (False, True):
        for fx in (False, True):
            for fy in (False, True):
                perm = []
                for c in range(16):
                    x, y = c % 4, c // 4
                    if swap:
                        x, y = y, x
                    perm.append((3 - x if fx else x) + 4 * (3 - y if fy else y))
                maps.append(tuple(perm))
    return tuple(sorted(set(maps)))


def two_zero_files(attacker: list[int], defender: list[int] = (), at_least: int = 2) -> int:
    """Planar lines holding ``at_least`` attacker marks (or more) and no defender mark.

    >>> two_zero_files([1, 2, 6], [3])
    2
    """
    a, d = set(attacker), set(defender)
    return sum(1 for line in PLANAR_LINES
               if not d & set(line) and len(a & set(line)) >= at_least)


def four_in_a_row(cells) -> bool:
    """Whether cells (0..15) hold a whole planar line: a game already won.

    >>> four_in_a_row([0, 1, 2, 3])
    True
    """
    have = {c + 1 for c in cells}
    return any(set(line) <= have for line in PLANAR_LINES)


def forced_win_length(attacker: list[int], defender: list[int], core: str = "auto") -> int:
    """Shortest forced win for the attacker (to move) in the isolated plane; 0 when none.

    >>> forced_win_length([1, 2, 3], [])
    1
    >>> forced_win_length([1, 7, 12], [])
    0
    """
    length, _seq, _nodes, _reached = core_module(core).forced_win(_mask(attacker), _mask(defender))
    if length < 0:  # no limit was given, so this cannot happen
        raise RuntimeError("forced-win search stopped without a limit")
    return length


def opening_moves(attacker: list[int], defender: list[int] = (), core: str = "auto") -> list[int]:
    """First moves of the attacker's forced wins: forcing moves after which the win goes on.

    >>> opening_moves([1, 7, 10])
    [4, 13]
    """
    if forced_win_length(attacker, defender, core) == 1:
        return [k for line in PLANAR_LINES for k in line
                if k not in attacker and len(set(line) & set(attacker)) == 3 and not set(line) & set(defender)]
    out = []
    for k in range(1, 17):
        if k in attacker or k in defender:
            continue
        after = [*attacker, k]
        threats = [c for line in PLANAR_LINES if not set(line) & set(defender)
                   and len(set(line) & set(after)) == 3 for c in line if c not in after]
        if len(set(threats)) >= 2 or (
            len(set(threats)) == 1 and forced_win_length(after, [*defender, threats[0]], core) > 0
        ):
            out.append(k)
    return sorted(set(out))


def situation_category(marks: list[int], core: str = "auto") -> str:
    """McDaniel's Table IV category of three marks of one side alone in a plane.

    ``three in a row`` | ``no two in a row`` | ``no solution`` (two in a row, no
    forced win) | ``forced win``.

    >>> situation_category([1, 4, 13])
    'forced win'
    """
    if two_zero_files(marks, at_least=3):
        return "three in a row"
    if not two_zero_files(marks):
        return "no two in a row"
    return "forced win" if forced_win_length(marks, [], core) else "no solution"


def erdos_selfridge_value(attacker: list[int], defender: list[int] = ()) -> int:
    """Sum over the plane's lines without a defender mark of 2^(attacker marks on it).

    >>> erdos_selfridge_value([])
    10
    """
    d = set(defender)
    return sum(2 ** len(set(line) & set(attacker)) for line in PLANAR_LINES if not d & set(line))
