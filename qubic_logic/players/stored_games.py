"""McDaniel's disk: the stored games of Appendix C, which his program looked up before WHIZ.

Source: J. W. McDaniel (1975), seed ``003_281b7b4dfe1e32ad.txt``: the
program looks the game up "on disk" with "a hashing method combined with a
linear search" and plays the stored moves (L715-721); Appendix C holds "All
logical games for 1-2,22-4" (L660, L1069-1395), written by the program. The
games are parsed from the committed excerpt ``rules/claims/seed003-appendix-c.txt``
(:func:`~qubic_logic.claims.seedtext.appendix_c`), each run of O alternatives
expanded (L625). Only games that replay legally to an X win are kept (1,278
of 1,282; the other four carry OCR slips). Where two kept games ask for
different X moves after the same moves (O's 24 is listed both in a run of
alternatives and on its own, L1089/L1092 and L1154/L1157), the first in
the appendix's order wins, as a linear search finds it.

>>> from qubic_logic.notation import parse_mcdaniel
>>> found = disk().lookup(parse_mcdaniel('1-2,22-4,27-3'))
>>> found.cell + 1, found.line, [c + 1 for c in found.remaining]      # Fig. 24 (L654), L1073
(43, 1073, [43, 64, 11, 59, 17, 32, 49, 33, 16, 38, 6])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..claims.seedtext import appendix_c, record_games
from ..geometry import LINE_MASKS, LINES_THROUGH

_LINES_THROUGH_MASKS = tuple(tuple(LINE_MASKS[i] for i in LINES_THROUGH[c]) for c in range(64))


@dataclass(frozen=True, slots=True)
class StoredGame:
    """One game of Appendix C: its moves (0..63, X first) and the seed line of its record."""

    moves: tuple[int, ...]
    line: int


@dataclass(frozen=True, slots=True)
class StoredMove:
    """The stored move after some moves: the game it comes from and where in it we are."""

    game: StoredGame
    index: int

    @property
    def cell(self) -> int:
        """The stored move (0..63)."""
        return self.game.moves[self.index]

    @property
    def line(self) -> int:
        """The seed line of the record."""
        return self.game.line

    @property
    def remaining(self) -> tuple[int, ...]:
        """The stored game from this move to X's win."""
        return self.game.moves[self.index :]


def wins_for_x(moves: tuple[int, ...]) -> bool:
    """True if ``moves`` (0..63, X first) replay legally and end with X completing four in a row.

    >>> wins_for_x((0, 16, 1, 17, 2, 18, 3)), wins_for_x((0, 0)), wins_for_x((0, 16, 1, 17, 2, 18, 3, 19))
    (True, False, False)
    """
    marks = [0, 0]
    for i, cell in enumerate(moves):
        side = marks[i % 2]
        if (marks[0] | marks[1]) >> cell & 1:
            return False
        side |= 1 << cell
        marks[i % 2] = side
        if any(side & lm == lm for lm in _LINES_THROUGH_MASKS[cell]):
            return i == len(moves) - 1 and i % 2 == 0
    return False


@lru_cache(maxsize=1)
def stored_games() -> tuple[StoredGame, ...]:
    """Appendix C's games that replay legally to an X win, in the appendix's order.

    >>> len(stored_games())
    1278
    """
    out = []
    for record in appendix_c():
        for game in record_games(record):
            signed = [cell for cell, _ in game]
            if any((cell > 0) != (i % 2 == 0) for i, cell in enumerate(signed)):
                continue  # two moves of one side in a row: an OCR slip (L1367)
            moves = tuple(abs(cell) - 1 for cell in signed)
            if wins_for_x(moves):
                out.append(StoredGame(moves, record.line))
    return tuple(out)


class Disk:
    """The stored games as a table from the moves so far to X's stored move."""

    def __init__(self, games: tuple[StoredGame, ...]) -> None:
        self.games = games
        self._table: dict[tuple[int, ...], StoredMove] = {}
        for game in games:
            for i in range(0, len(game.moves), 2):
                self._table.setdefault(game.moves[:i], StoredMove(game, i))

    def lookup(self, moves: list[int] | tuple[int, ...]) -> StoredMove | None:
        """X's stored move after ``moves`` (X to move), or None if no stored game has them."""
        return self._table.get(tuple(moves))

    def __len__(self) -> int:
        """Stored positions (X to move)."""
        return len(self._table)


@lru_cache(maxsize=1)
def disk() -> Disk:
    """McDaniel's disk: Appendix C's games."""
    return Disk(stored_games())


__all__ = ["Disk", "StoredGame", "StoredMove", "disk", "stored_games", "wins_for_x"]
