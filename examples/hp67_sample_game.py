"""Stein's HP-67 sample game (seed 004, Program Description II, L307-319; notes/004-hp67.md §7).

"This is a real game; since the program is deterministic, if you make the
same moves, the machine will make the same responses as these." The script
plays Alan's ten moves against the ``hp67`` player and prints each reply
beside the seed's, with the program's reason.

Run: python examples/hp67_sample_game.py
"""

from __future__ import annotations

from qubic_logic.notation import diagram, format_cell, parse_cell
from qubic_logic.players import get_player
from qubic_logic.position import Game

# (ALAN, 67) as printed, L310-319; 1.141 is the calculator's "machine wins" display
SAMPLE = [(".231", ".322"), (".414", ".142"), (".243", ".323"), (".324", ".144"), (".212", ".111"),
          (".133", ".434"), (".332", ".422"), (".214", ".233"), (".411", ".143"), (".413", "1.141")]


def main() -> None:
    game, hp67, same = Game(), get_player("hp67"), 0
    print(f"{'move':>4}  {'ALAN':6}{'seed':7}{'hp67':7}reason")
    for n, (alan, printed) in enumerate(SAMPLE, start=1):
        game.play(parse_cell(alan))
        move = hp67.choose(game)
        shown = format_cell(move.cell, "hp67")
        same += shown == printed.removeprefix("1")
        print(f"{n:>4}  {alan:6}{printed:7}{shown:7}{move.explanation}")
        game.play(move.cell)
    print()
    print(diagram(game.position))
    print(f"\n{same} of {len(SAMPLE)} replies as printed; winner: {game.position.winner.upper()} (the HP-67)")


if __name__ == "__main__":
    main()
