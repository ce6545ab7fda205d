"""McCarthy's tic-tac-toe examples (seed 002, L984-1043; notes/002-mccarthy-search.md §6-7).

The generic αβ layer (``qubic_logic.search``: ``linemax``, ``treemax``) is
given the seed's tic-tac-toe functions and hidden board
(``qubic_logic.tictactoe``) in the two positions of the examples, "2 moves
into a game where the X player has moved first". Squares are numbered 1..9
row by row and printed in octal (8 and 9 as 10 and 11), as in the seed.

Run: python examples/mccarthy_tictactoe.py
"""

from __future__ import annotations

from qubic_logic.search import linemax, treemax
from qubic_logic.tictactoe import TicTacToe, octal_repr

EXAMPLES = {
    "Example 1, board (O X _)": [2, 1],   # X took square 2, then O took square 1
    "Example 2, board (O _ X)": [3, 1],
}


def main() -> None:
    for title, moves in EXAMPLES.items():
        print(title)
        game = TicTacToe(moves)
        print("  lmax[p1, -1000, 1000] =", octal_repr(linemax(game, game.p1, -1000, 1000)))
        game = TicTacToe(moves)
        print("  tmax[p1, -1000, 1000] =", octal_repr(treemax(game, game.p1, -1000, 1000)))
        print(f"  ({game.count - len(moves)} moves examined)\n")


if __name__ == "__main__":
    main()
