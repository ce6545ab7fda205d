"""The thesis's five appendix games (L2236–2481), replayed through the backtrack analysis.

Squares as printed (1..64). Each game is analysed from its winner's side
(computer v computer in Games 1, 2 and 4; in Game 3 the computer is Red and
wins; Game 5 does not say), with the tables accumulating from Game 1 to 5
as if one program had learned them in that order. Game 3 ends at Red's
winning 19: White's extra 8 was only needed because the program of the
time looked for a win after the opponent's moves (L2451).

>>> [g.number for g in GAMES], GAMES[0].winner
([1, 2, 3, 4, 5], 'red')
"""

from __future__ import annotations

from dataclasses import dataclass

from ...position import Game
from .backtrack import Lesson, analyse
from .tables import Tables


@dataclass(frozen=True)
class AppendixGame:
    """One printed game: who moved first, both move lists, the winner, the seed's lines."""

    number: int
    first: str  # 'red' or 'white'
    red: tuple[int, ...]
    white: tuple[int, ...]
    winner: str
    lines: str

    def cells(self) -> list[int]:
        """The moves as cells 0..63, in playing order."""
        a, b = (self.red, self.white) if self.first == "red" else (self.white, self.red)
        return interleave(a, b)


def interleave(first: tuple[int, ...] | list[int], second: tuple[int, ...] | list[int]) -> list[int]:
    """Cells (0..63) of a game from two lists of squares (1..64), ``first`` moving first.

    >>> interleave([1, 22], [2])
    [0, 1, 21]
    """
    out = []
    for i, s in enumerate(first):
        out.append(s - 1)
        if i < len(second):
            out.append(second[i] - 1)
    return out


GAMES = (
    AppendixGame(1, "red", (39, 13, 4, 23, 16, 43, 48, 47, 64, 30), (1, 26, 42, 7, 27, 15, 8, 35, 32),
                 "red", "L2240-2254"),
    AppendixGame(2, "white", (13, 42, 22, 3, 27, 8, 33, 52, 6, 14, 18),
                 (23, 4, 1, 43, 16, 38, 49, 26, 2, 50, 34, 19), "white", "L2316-2332"),
    AppendixGame(3, "white", (49, 1, 38, 26, 13, 56, 21, 17, 31, 7, 12, 4, 2, 50, 34, 19),
                 (22, 27, 39, 23, 42, 5, 29, 32, 33, 6, 16, 61, 10, 3, 14, 18), "red", "L2430-2449"),
    AppendixGame(4, "white", (43, 23, 22, 16, 2, 9, 8), (42, 4, 1, 13, 6, 5, 7, 10), "white", "L2453-2463"),
    AppendixGame(5, "red", (4, 13, 23, 39, 52, 29, 22, 38, 41, 64, 19, 54, 11, 8),
                 (1, 16, 26, 7, 36, 61, 30, 21, 56, 43, 37, 6, 5, 53), "white", "L2465-2481"),
)


def replay(tables: Tables | None = None) -> list[tuple[AppendixGame, Game, Lesson]]:
    """Each game replayed (legality checked by the referee) and analysed from its winner's side."""
    tables = tables if tables is not None else Tables()
    out = []
    for g in GAMES:
        game = Game(g.cells())
        p = game.position
        side = "x" if (g.winner == g.first) else "o"
        out.append((g, game, analyse(p, list(game.moves), side, tables, g.number)))
    return out
