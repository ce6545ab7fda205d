"""McDaniel's disk: the stored games of Appendix C, which his program looked up before WHIZ.

Source: J. W. McDaniel (1975), seed ``003_281b7b4dfe1e32ad.txt``: the
program looks the game up "on disk" with "a hashing method combined with a
linear search" and plays the stored moves (L715-721); Appendix C holds "All
logical games for 1-2,22-4" (L660, L1069-1395), written by the program. The
games are parsed from the committed excerpt ``rules/claims/seed003-appendix-c.txt``
(:func:`~qubic_logic.seeds.excerpts.appendix_c`), each run of O alternatives
expanded (L625), with one reading corrected (:data:`OCR_CORRECTIONS`).
:func:`appendix_games` are the games that replay legally to an X win
(1,279 of 1,282; the other three carry OCR slips). The disk
(:func:`stored_games`) keeps those whose every X move respects rules (1)-(2)
of the program's play: complete four when it can, else block O's three. Five
games break them, with 22 stored moves: after O's 24 in L1089 and in L1154, X's
9, 18, 52 and 13 leave O's three 4-24-64 open (O wins at 44 in real play); in
L1263 X passes its win at 52 for ten moves, and in L1391 (O's 17 and 20) its win
at 35 for four. Where two kept games ask for different X moves after the same
moves (O's 24 is listed both in a run of alternatives and on its own,
L1089/L1092 and L1154/L1157), the first in the appendix's order wins, as a
linear search finds it.

>>> from qubic_logic.notation import parse_mcdaniel
>>> found = disk().lookup(parse_mcdaniel('1-2,22-4,27-3'))
>>> found.cell + 1, found.line, [c + 1 for c in found.remaining]      # Fig. 24 (L654), L1073
(43, 1073, [43, 64, 11, 59, 17, 32, 49, 33, 16, 38, 6])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..seeds.excerpts import appendix_c, record_games
from ..bitboard import threat_cells
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
    1274
    """
    return tuple(g for g in appendix_games() if respects_rules(g.moves))


OCR_CORRECTIONS: dict[tuple[int, int], int] = {(1222, 42): 52}
"""Readings of Appendix C corrected: ``(seed line, token as printed): token read``.

L1220-1222 print X's eighth move as ``42-35``; L1089-1090 print the same continuation
(``43-64 9-60 18-30 52-35 13-39 5``) with 52, and one of the record's 38 O alternatives
is 42 itself, so as printed that game is not even legal; with 52 all 38 replay to an X win.
"""


@lru_cache(maxsize=1)
def appendix_games() -> tuple[StoredGame, ...]:
    """Appendix C's games that replay legally to an X win, in the appendix's order
    (with :data:`OCR_CORRECTIONS` applied).

    >>> len(appendix_games())
    1279
    """
    out = []
    for record in appendix_c():
        for game in record_games(record):
            signed = [OCR_CORRECTIONS.get((line, cell), cell) for cell, line in game]
            if any((cell > 0) != (i % 2 == 0) for i, cell in enumerate(signed)):
                continue  # two moves of one side in a row: an OCR slip (L1367)
            moves = tuple(abs(cell) - 1 for cell in signed)
            if wins_for_x(moves):
                out.append(StoredGame(moves, record.line))
    return tuple(out)


def respects_rules(moves: tuple[int, ...]) -> bool:
    """True if every X move of ``moves`` (X first) completes four when X can, else blocks an O three.

    >>> respects_rules((0, 16, 1, 17, 2, 18, 3)), respects_rules((0, 16, 1, 17, 2, 18, 5))
    (True, False)
    >>> respects_rules((0, 16, 1, 17, 5, 18, 6))     # X's 6 leaves O's 16, 17, 18 open
    False
    """
    marks = [0, 0]
    for i, cell in enumerate(moves):
        own, theirs = marks[i % 2], marks[1 - i % 2]
        if i % 2 == 0:
            wins, threats = threat_cells(own, theirs), threat_cells(theirs, own)
            if wins and not wins >> cell & 1:
                return False  # rule (1): a win was there
            if not wins and threats and not threats >> cell & 1:
                return False  # rule (2): O's three left open
        marks[i % 2] = own | 1 << cell
    return True


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


__all__ = ["OCR_CORRECTIONS", "Disk", "StoredGame", "StoredMove", "appendix_games", "disk", "respects_rules",
           "stored_games", "wins_for_x"]
