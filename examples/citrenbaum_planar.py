"""Citrenbaum's planar terminal forcing sequences (seed 000, chapter 6; notes/000-citrenbaum.md §3).

The thesis's figures are lost; only the text survives: which of a 4-0
plane's ten files are 2-0 and 1-0 (files 1-4 rows, 5-8 columns, 9 = planar
{1,6,11,16}, 10 = planar {4,7,10,13}) and, for examples 1 and 2, the moves.
For each example this script

1. reconstructs the plane: every set of four X cells whose 2-0 and 1-0 files
   are the ones the text names and on which the text's moves are a forced
   win (the project's own rules, docs/design.md §3);
2. prints what the thesis says and what the project computes (shortest
   forced win, winning first moves) for each reconstruction;
3. writes the force tree of the shortest wins and the board.

The plane is placed as level 1 (McDaniel's plane 1) of an otherwise quiet
cube: O's four marks lie outside it, no two on a line.

Run: python examples/citrenbaum_planar.py [OUT_DIR]   (default out/)
"""

from __future__ import annotations

from itertools import combinations

from _seeds import follow, isolated_plane_position, out_dir, planar_cells, planar_grid, save

from qubic_logic.core import shortest_forced_win
from qubic_logic.forcetree import force_tree
from qubic_logic.planes import PLANAR_FILES, planar_cell

PLANE = 0
FULL_TREE_CAP = 20000

EXAMPLES = [
    # name, 2-0 files, 1-0 files (None: not all named), X's moves (planar), O's blocks the
    # text names (by X move), what the thesis says
    ("example-1", {4, 10}, None, [4, 16], {0: 7},
     ("files 10 and 4 are 2-0, file 8 a 1-0 file through their free cells 4 and 16; "
      "X 4 (O blocks 7), X 16 makes two 3-0 files: X wins with 2 forcing moves")),
    ("example-2", {1, 3}, {5, 6, 7, 8, 9, 10}, [4, 16, 11], {},
     ("files 1 and 3 are 2-0, joined by the 1-0 files 5-10; chain 1->8->9->3: "
      "X 4, 16, 11 and then 6 or 9, whichever O leaves: X wins with 3 forcing moves")),
    ("example-3", {1, 7}, {3, 4, 5, 6}, None, {},
     ("files 1 and 7 are 2-0, files 3-6 are 1-0; the chain (garbled in the OCR) "
      "can be 'shortened by one X move' by re-examining it after each X-O pair")),
    ("example-4", {2, 3, 6, 10}, {7, 8, 9}, None, {},
     "four 2-0 files (2, 3, 10, 6) and three files 7, 8, 9 (printed '3-0', read 1-0)"),
]


def file_counts(xs: tuple[int, ...]) -> list[int]:
    mask = sum(1 << c for c in planar_cells(PLANE, list(xs)))
    return [(f & mask).bit_count() for f in PLANAR_FILES[PLANE]]


def reconstructions(twos: set[int], ones: set[int] | None, moves: list[int] | None,
                    blocks: dict[int, int]):
    """X's four planar cells matching the text; with ``moves``, those where they force a win
    (with O's forced blocks where the text names them)."""
    for xs in combinations(range(1, 17), 4):
        counts = file_counts(xs)
        if max(counts) > 2 or {i + 1 for i, n in enumerate(counts) if n == 2} != twos:
            continue
        if ones is not None and {i + 1 for i, n in enumerate(counts) if n == 1} != ones:
            continue
        position = isolated_plane_position(PLANE, list(xs))
        if moves is None:
            yield xs, position, None
            continue
        tree = force_tree(position, max_length=len(moves) + 1)
        try:
            node, played = follow(tree, planar_cells(PLANE, moves))
        except ValueError:
            continue
        named = all(planar_cell(PLANE, played[2 * i + 1]) == cell for i, cell in blocks.items())
        if tree.nodes[node]["status"] == "win" and named:
            yield xs, position, played


def main() -> None:
    folder = out_dir()
    for name, twos, ones, moves, blocks, claim in EXAMPLES:
        print(f"Citrenbaum {name}")
        print(f"  seed:     {claim}")
        found = list(reconstructions(twos, ones, moves, blocks))
        print(f"  reconstructed planes: {len(found)} (X's planar cells "
              f"{', '.join(str(list(xs)) for xs, _, _ in found)})")
        for k, (xs, position, played) in enumerate(found):
            length = shortest_forced_win(position).length
            best = force_tree(position, only_winning=True, max_length=length)
            full = force_tree(position, max_nodes=FULL_TREE_CAP)
            size = (f"more than {FULL_TREE_CAP}" if full.graph["truncated"]
                    else str(full.number_of_nodes()))
            firsts = sorted(planar_cell(PLANE, c) for c in best.winning_first_moves())
            print(f"  X on {list(xs)}:")
            print("    " + planar_grid(position, PLANE).replace("\n", "\n    "))
            if played is not None:
                print(f"    the seed's moves are a forced win here: planar "
                      f"{[planar_cell(PLANE, c) for c in played]} (X, O alternately), "
                      f"{len(moves) + 1} X moves with the completing one")
            print(f"    computed: shortest forced win {length} X moves; first moves of the shortest "
                  f"wins {firsts}; full force tree {size} nodes")
            if played is not None:
                verdict = "agrees" if length == len(moves) + 1 else "differs: a shorter win exists"
                print(f"    seed's length {len(moves) + 1} vs shortest {length}: {verdict}")
            stem = f"citrenbaum-{name}" + (f"-{k + 1}" if len(found) > 1 else "")
            paths = save(best, position, folder, stem)
            print(f"    wrote {', '.join(str(p) for p in paths)}")
        print()


if __name__ == "__main__":
    main()
