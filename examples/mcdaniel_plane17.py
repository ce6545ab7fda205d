"""McDaniel's plane-17 trap after 1-2,22-52,27 (seed 003, Figs 9-10; notes/003-mcdaniel.md §2).

The thesis says that after X 1, O 2, X 22, O 52, X 27, O loses "on or before
the ninth move" unless he plays in plane 17, in one of the cells
6, 16, 17, 32, 38, 43, 49, 54 or 64 (1..64 numbering), and gives the line
1-2, 22-52, 27-4, 32-17, 64-43, 16-48, 6-11, 38-49, 54.

This script checks each claim with the project's search (docs/design.md §3),
replays the seed's line in the referee and draws the force tree after 27-4.

Run: python examples/mcdaniel_plane17.py [OUT_DIR]   (default out/)
"""

from __future__ import annotations

from _seeds import out_dir, planar_grid, save

from qubic_logic.core import shortest_forced_win
from qubic_logic.forcetree import force_tree
from qubic_logic.geometry import PLANES
from qubic_logic.notation import format_mcdaniel, parse_mcdaniel
from qubic_logic.position import Position
from qubic_logic.referee import replay_forced_win

PLANE = 16  # McDaniel's plane 17
SEED_SAFE = [6, 16, 17, 32, 38, 43, 49, 54, 64]  # 1..64, thesis L275
SEED_LINE = "1-2,22-52,27-4,32-17,64-43,16-48,6-11,38-49,54"  # thesis L288
SEED_MOVE_LIMIT = 9  # "on or before the ninth move" (X's ninth)
FIG10 = ["X4O3", "OXX1", ".5OO", "--.2"]  # thesis L292-295, right-hand grid


def numbers(cells) -> str:
    return " ".join(str(c + 1) for c in sorted(cells))


def main() -> None:
    folder = out_dir()
    start = Position.from_cells(parse_mcdaniel("1-2,22-52,27"))
    print("McDaniel (1975), plane 17 after 1-2,22-52,27; cells in 1..64 numbering\n")
    print("The plane after X's third move (thesis Fig. 9):")
    print(planar_grid(start, PLANE), "\n")

    safe, slowest = [], 0
    for reply in start.legal_moves():
        win = shortest_forced_win(start.play(reply))
        if win.length is None:
            safe.append(reply)
        else:
            slowest = max(slowest, win.length)
    in_plane = [c for c in safe if c in PLANES[PLANE]]
    print(f"seed:     O is safe only at {' '.join(map(str, SEED_SAFE))} (all in plane 17)")
    print(f"computed: X has no forced win by threat sequence after O {numbers(safe)}")
    print(f"          ({len(in_plane)} of them in plane 17: {numbers(in_plane)})")
    seed_safe = [c - 1 for c in SEED_SAFE]
    if sorted(safe) == sorted(seed_safe):
        print("          agreement: the same cells")
    else:
        print(f"          differ: seed only {numbers(set(seed_safe) - set(safe)) or '-'}, "
              f"project only {numbers(set(safe) - set(seed_safe)) or '-'}")
        for cell in sorted(set(seed_safe) - set(safe)):
            win = shortest_forced_win(start.play(cell))
            replay_forced_win(start.play(cell), win.sequence)  # the referee checks the witness
            print(f"          after O {cell + 1} X still forces a win in {win.length} (referee-checked): "
                  f"{format_mcdaniel(parse_mcdaniel('1-2,22-52,27') + [cell] + list(win.sequence))}")
        print("          (the project searches threat sequences only; a reply safe from them may "
              "still lose to quiet moves)")
    latest = 3 + slowest
    print(f"seed:     otherwise O loses on or before X's move {SEED_MOVE_LIMIT}")
    print(f"computed: the longest shortest win after a losing reply needs {slowest} X moves, "
          f"i.e. X completes four by his move {latest} -> "
          f"{'agrees' if latest <= SEED_MOVE_LIMIT else 'differs'}\n")

    line = parse_mcdaniel(SEED_LINE)
    after = Position.from_cells(line[:6])
    length = replay_forced_win(after, line[6:])
    best = shortest_forced_win(after)
    print(f"seed line {SEED_LINE}:")
    print(f"  the referee accepts it as a forced win of {length} X moves after 27-4")
    print(f"  shortest forced win found: {best.length} X moves, e.g. "
          f"{format_mcdaniel(list(line[:6]) + list(best.sequence))}")
    marks = {c: str(i // 2 + 1) if i % 2 == 0 else "O" for i, c in enumerate(line[6:-2])}
    marks.update({line[-2]: "-", line[-1]: "-"})  # O's last block and X's win: either way round
    drawn = planar_grid(after, PLANE, marks).replace(" ", "")
    print("  the line in the plane (digits = X's forces, O = O's blocks, - = O's last choice):")
    print("  " + planar_grid(after, PLANE, marks).replace("\n", "\n  "))
    print(f"  thesis Fig. 10 (OCR, 0 read as O): {' / '.join(FIG10)}")
    print(f"  drawn from the line: {' / '.join(drawn.splitlines())} -> "
          f"{'the same' if drawn.splitlines() == FIG10 else 'different'}")

    tree = force_tree(after, only_winning=True, max_length=best.length)
    full = force_tree(after)
    print(f"\nforce tree of the shortest wins: {tree.number_of_nodes()} nodes, X wins in {tree.length}, "
          f"winning first moves {numbers(tree.winning_first_moves())} (the seed plays 32)")
    print(f"full force tree: {full.number_of_nodes()} nodes, every forcing line")
    paths = save(tree, after, folder, "mcdaniel-plane17", marks=marks)
    paths += save(full, after, folder, "mcdaniel-plane17-full", marks=marks)[:2]
    print("wrote " + ", ".join(str(p) for p in paths))


if __name__ == "__main__":
    main()
