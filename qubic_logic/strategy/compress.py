"""Compress a strategy dictionary into few wildcard lines, choosing each entry's orientation.

A wildcard line (:mod:`.wildcard`) holds the entries that share X's marks
and move and whose O marks differ from a common base by one cell. Each
entry may be written in any of its 192 images; lines can only merge
entries whose X marks are equal, so it is enough to try the images that
bring X's marks to their canonical form (a line may be moved as a whole by
any automorphism). Every (image, O cell) pair names a possible line: its X
marks, move and the O marks without that cell. Choosing the fewest lines
covering every entry is set cover: :func:`cover` takes the largest line
first (greedy, lazy updates), then dissolves each line whose entries all
fit into other chosen lines, until none does.

>>> d = StrategyDictionary.parse("---\\nx1o 5\\nx2o 5\\n")   # X at 0, O at 2 or 3, X's move 5
>>> len(compressed(d)), [len(line.positions()) for line in compressed(d)]
(1, [2])
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence

from ..geometry import cells_of
from ..symmetry import TRANSFORMS, map_mask
from .dictionary import StrategyDictionary
from .wildcard import WildcardLine, x_entries

Image = tuple[int, int, int]  # X marks, O marks, move
LineKey = tuple[int, int, int, int]  # X marks, O base, move, 1 when the line has wildcards else 0


def _images(x: int, o: int, move: int) -> list[Image]:
    """The distinct images of an entry whose X marks are canonical (least mask)."""
    xs = [map_mask(t, x) for t in range(len(TRANSFORMS))]
    least = min(xs)
    return sorted({(least, map_mask(t, o), TRANSFORMS[t][move]) for t, image in enumerate(xs) if image == least})


def _lines_of(images: Sequence[Image]) -> Iterator[tuple[LineKey, int]]:
    """The lines an entry written as one of ``images`` can go in, each with its wildcard cell (-1: none)."""
    for x, o, move in images:
        if not o:
            yield (x, 0, move, 0), -1
        for w in cells_of(o):
            yield (x, o ^ 1 << w, move, 1), w


def line_keys(x: int, o: int, move: int) -> set[LineKey]:
    """The wildcard lines the entry (X's marks ``x``, O's ``o``, X's ``move``; any orientation) can go in.

    >>> bool(line_keys(1, 4, 5) & line_keys(1, 8, 5))    # X at 0 and move 5: O at 2 or at 3 share a line
    True
    >>> bool(line_keys(1, 4, 5) & line_keys(1, 4, 6))    # another move: never
    False
    """
    return {key for key, _ in _lines_of(_images(x, o, move))}


def _possible_lines(candidates: Sequence[Sequence[Image]]) -> dict[LineKey, dict[int, int]]:
    """Each possible line → the entries it can hold and the wildcard cell of each (-1: no wildcard)."""
    lines: dict[LineKey, dict[int, int]] = defaultdict(dict)
    for i, images in enumerate(candidates):
        for key, w in _lines_of(images):
            lines[key].setdefault(i, w)
    return lines


def cover(candidates: Sequence[Sequence[Image]], report: Callable[[str], None] = lambda text: None
          ) -> list[WildcardLine]:
    """Few wildcard lines covering every entry, entry ``i`` written as one of ``candidates[i]``.

    >>> [line.text()[:4] for line in cover([[(1, 2, 5)], [(1, 4, 5)]])]
    ['xOO.']
    """
    possible = _possible_lines(candidates)
    owner: list[LineKey | None] = [None] * len(candidates)
    chosen: dict[LineKey, dict[int, int]] = {}
    heap = [(-len(members), key) for key, members in possible.items()]
    heapq.heapify(heap)
    left = len(candidates)
    while left:
        size, key = heapq.heappop(heap)
        live = {i: w for i, w in possible[key].items() if owner[i] is None}
        if len(live) < -size:
            if live:
                heapq.heappush(heap, (-len(live), key))
            continue
        chosen[key] = live
        for i in live:
            owner[i] = key
        left -= len(live)
    report(f"greedy cover: {len(chosen):,} lines")
    _dissolve(possible, chosen, owner)
    report(f"after dissolving lines: {len(chosen):,} lines")
    return [_line(key, members) for key, members in sorted(chosen.items(), key=_order)]


def _dissolve(possible: dict[LineKey, dict[int, int]], chosen: dict[LineKey, dict[int, int]],
              owner: list[LineKey | None]) -> None:
    """Remove, smallest first, each chosen line whose entries can all join other chosen lines."""
    homes: dict[int, list[LineKey]] = defaultdict(list)
    for key, members in possible.items():
        for i in members:
            homes[i].append(key)
    changed = True
    while changed:
        changed = False
        for key in sorted(chosen, key=lambda k: (len(chosen[k]), k)):
            members = chosen.get(key)
            if members is None:
                continue
            moves = {}
            for i in members:
                other = next((k for k in homes[i] if k != key and k in chosen and k[3]), None)
                if other is None:
                    break
                moves[i] = other
            else:
                for i, other in moves.items():
                    chosen[other][i] = possible[other][i]
                    owner[i] = other
                del chosen[key]
                changed = True


def _order(item: tuple[LineKey, dict[int, int]]) -> tuple:
    (x, o, move, _), members = item
    return (x | o).bit_count(), x, o, move


def _line(key: LineKey, members: dict[int, int]) -> WildcardLine:
    x, o, move, has_wild = key
    wild = 0
    for w in members.values():
        if w >= 0:
            wild |= 1 << w
    return WildcardLine(x, o, wild, move)


def merged_lines(dictionary: StrategyDictionary) -> list[WildcardLine]:
    """The entries as written (no re-orientation), merged greedily into wildcard lines.

    Entries with the same X marks and move whose O marks differ in one cell
    share a line; the largest groups are taken first.
    """
    return cover([[(e.position.x, e.position.o, e.move)] for e in x_entries(dictionary)])


def compressed(dictionary: StrategyDictionary, report: Callable[[str], None] = lambda text: None
               ) -> list[WildcardLine]:
    """The dictionary's entries in few wildcard lines, each entry in the orientation that merges best."""
    candidates = [_images(e.position.x, e.position.o, e.move) for e in x_entries(dictionary)]
    report(f"{len(candidates):,} entries, {sum(map(len, candidates)):,} orientations with canonical X marks")
    return cover(candidates, report)
