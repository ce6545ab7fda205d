"""Counting configurations up to symmetry: permutation groups acting on cell sets.

The machinery behind the seeds' "unique situations" claims, kept general so it
can be tested on boards with independently known answers (3x3 tic-tac-toe).
A group is a tuple of permutations (``perm[c]`` = image of cell ``c``); a
configuration is a tuple of cell sets (e.g. X's cells and O's cells).

>>> square = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
>>> group = line_automorphisms(9, square)
>>> len(group)
8
>>> count_classes(group, k_subsets(range(9), 1))
3
>>> burnside_count(group, 9, 1)
3
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations

Perm = tuple[int, ...]
Config = tuple[frozenset[int], ...]


def k_subsets(cells: Iterable[int], k: int) -> list[Config]:
    """All configurations of ``k`` marks of one side on ``cells``.

    >>> len(k_subsets(range(16), 3))
    560
    """
    return [(frozenset(c),) for c in combinations(sorted(cells), k)]


def image(perm: Perm, config: Config) -> Config:
    """A configuration moved by a permutation.

    >>> image((1, 0, 2), (frozenset({0}),))
    (frozenset({1}),)
    """
    return tuple(frozenset(perm[c] for c in part) for part in config)


def canonical(group: Sequence[Perm], config: Config) -> tuple[tuple[int, ...], ...]:
    """The least image of a configuration (each part as a sorted tuple).

    >>> canonical([(0, 1, 2), (2, 1, 0)], (frozenset({2}),))
    ((0,),)
    """
    return min(tuple(tuple(sorted(part)) for part in image(g, config)) for g in group)


def stabilizer_order(group: Sequence[Perm], config: Config) -> int:
    """How many group elements leave the configuration unchanged.

    >>> stabilizer_order([(0, 1, 2), (2, 1, 0)], (frozenset({1}),))
    2
    """
    return sum(1 for g in group if image(g, config) == config)


def classes(group: Sequence[Perm], configs: Iterable[Config]) -> dict[tuple, list[Config]]:
    """Configurations grouped by canonical form (one entry per class).

    >>> len(classes([(0, 1, 2), (2, 1, 0)], k_subsets(range(3), 1)))
    2
    """
    out: dict[tuple, list[Config]] = {}
    for config in configs:
        out.setdefault(canonical(group, config), []).append(config)
    return out


def count_classes(group: Sequence[Perm], configs: Iterable[Config]) -> int:
    """Number of classes among the configurations (by explicit canonical forms)."""
    return len(classes(group, configs))


def orbit_size_histogram(group: Sequence[Perm], configs: Iterable[Config]) -> dict[int, int]:
    """How many classes have each orbit size (|G| / stabilizer order).

    >>> orbit_size_histogram([(0, 1, 2), (2, 1, 0)], k_subsets(range(3), 1))
    {1: 1, 2: 1}
    """
    hist: dict[int, int] = {}
    for members in classes(group, configs).values():
        size = len(group) // stabilizer_order(group, members[0])
        hist[size] = hist.get(size, 0) + 1
    return dict(sorted(hist.items()))


def burnside_count(group: Sequence[Perm], n: int, k: int) -> int:
    """Number of classes of ``k``-subsets of ``n`` cells, by Burnside's lemma.

    Independent of :func:`classes`: averages, over the group, the number of
    subsets each element fixes (unions of its cycles with ``k`` cells in all).

    >>> burnside_count([tuple(range(4))], 4, 2)
    6
    """
    total = Fraction(0)
    for g in group:
        lengths = _cycle_lengths(g, n)
        # subsets fixed by g: choose whole cycles summing to k (knapsack count)
        ways = [1] + [0] * k
        for length in lengths:
            for s in range(k, length - 1, -1):
                ways[s] += ways[s - length]
        total += ways[k]
    result = total / len(group)
    assert result.denominator == 1, "Burnside average must be an integer"
    return int(result)


def _cycle_lengths(perm: Perm, n: int) -> list[int]:
    seen = [False] * n
    lengths = []
    for start in range(n):
        if not seen[start]:
            length, c = 0, start
            while not seen[c]:
                seen[c] = True
                c = perm[c]
                length += 1
            lengths.append(length)
    return lengths


def line_automorphisms(n: int, lines: Iterable[Iterable[int]]) -> tuple[Perm, ...]:
    """Every permutation of ``n`` cells that maps each line onto a line.

    A backtracking search that assigns images cell by cell and prunes as soon
    as a line with all its cells assigned does not land on a line; it assumes
    nothing about the board's shape, so it also proves there are no others.

    >>> len(line_automorphisms(4, [(0, 1), (1, 2), (2, 3), (3, 0)]))
    8
    """
    line_sets = {frozenset(line) for line in lines}
    lines_of = [[line for line in line_sets if c in line] for c in range(n)]
    # every part of a line with two or more cells: images of assigned cells must be one
    parts = {frozenset(p) for line in line_sets for k in range(2, len(line) + 1)
             for p in combinations(sorted(line), k)}
    collinear = [[any(d in line for line in lines_of[c]) for d in range(n)] for c in range(n)]
    found: list[Perm] = []
    perm = [-1] * n
    used = [False] * n

    def consistent(c: int) -> bool:
        if any(collinear[c][d] != collinear[perm[c]][perm[d]] for d in range(c)):
            return False
        for line in lines_of[c]:
            placed = frozenset(perm[d] for d in line if perm[d] >= 0)
            if len(placed) >= 2 and placed not in parts:
                return False
        return True

    def extend(c: int) -> None:
        if c == n:
            found.append(tuple(perm))
            return
        for target in range(n):
            if not used[target] and len(lines_of[target]) == len(lines_of[c]):
                perm[c], used[target] = target, True
                if consistent(c):
                    extend(c + 1)
                perm[c], used[target] = -1, False

    extend(0)
    return tuple(sorted(found))
