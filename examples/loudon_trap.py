"""Loudon's three-level trap (McDaniel's thesis, seed 003, Fig. 29; notes/003-mcdaniel.md §5.8).

The thesis shows "the most complex trap recognized by Loudon's program" as
"a forced win for X in three moves": X holds planar cells 1, 3, 5 and 10 of
a plane; X forces at 13 (O blocks 9), then plays 4, threatening 2 and 7.

The figure shows one plane only, so the script puts X's four marks in
McDaniel's plane 5 (a vertical plane whose rows are the four levels: X's
marks then lie on three levels) and O's four marks outside it, no two on a
line, so that nothing outside the plane interferes.

Run: python examples/loudon_trap.py [OUT_DIR]   (default out/)
"""

from __future__ import annotations

from _seeds import follow, isolated_plane_position, out_dir, planar_cells, planar_grid, save

from qubic_logic.core import shortest_forced_win
from qubic_logic.forcetree import force_tree
from qubic_logic.planes import planar_cell
from qubic_logic.referee import replay_forced_win

PLANE = 4  # McDaniel's plane 5: cells 1-4, 17-20, 33-36, 49-52
X_PLANAR = [1, 3, 5, 10]
SEED_X_MOVES = [13, 4]  # planar; O blocks at 9; the final dashes are at 2 and 7
SEED_LENGTH = 3
FIG29 = ["X-X2", "X.-.", "OX..", "1..."]  # thesis L735-738, right-hand grid


def main() -> None:
    folder = out_dir()
    start = isolated_plane_position(PLANE, X_PLANAR)
    print(f"Loudon's trap: X on planar {X_PLANAR} of McDaniel's plane {PLANE + 1}, X to move")
    print(planar_grid(start, PLANE), "\n")
    win = shortest_forced_win(start)
    replay_forced_win(start, win.sequence)
    in_plane = [planar_cell(PLANE, c) for c in win.sequence]
    print(f"seed:     a forced win for X in {SEED_LENGTH} moves: X 13, O 9, X 4, then 2 or 7")
    print(f"computed: shortest forced win in {win.length} X moves, e.g. (planar) "
          f"{' '.join(map(str, in_plane))} -> {'agrees' if win.length == SEED_LENGTH else 'differs'}")

    tree = force_tree(start, only_winning=True, max_length=win.length)
    firsts = sorted(planar_cell(PLANE, c) for c in tree.winning_first_moves())
    print(f"          winning first moves (planar): {firsts}")
    node, played = follow(tree, planar_cells(PLANE, SEED_X_MOVES))
    d = tree.nodes[node]
    replies = sorted(planar_cell(PLANE, tree.edges[node, c]["move"]) for c in tree.successors(node))
    print(f"          the seed's line {[planar_cell(PLANE, c) for c in played]} is in the tree: "
          f"{d['status']}, O's choices then {replies}")
    marks = {planar_cells(PLANE, [13])[0]: "1", planar_cells(PLANE, [9])[0]: "O",
             planar_cells(PLANE, [4])[0]: "2"}
    marks.update({c: "-" for c in planar_cells(PLANE, replies)})
    drawn = planar_grid(start, PLANE, marks).replace(" ", "").splitlines()
    print(f"          drawn: {' / '.join(drawn)}; thesis Fig. 29: {' / '.join(FIG29)} -> "
          f"{'the same' if drawn == FIG29 else 'different'}")
    paths = save(tree, start, folder, "loudon-trap", marks=marks)
    print("wrote " + ", ".join(str(p) for p in paths))


if __name__ == "__main__":
    main()
