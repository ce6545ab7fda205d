"""``citrenbaum-pdp4``: Citrenbaum's related-pair strategy (seed 000, ch. 4), as the PDP-4 played it.

Source: R. L. Citrenbaum (1965), seed ``000_1d713e51dcd9787b.txt``:
the four questions "posed in the following order" (L1366-1375), the preset
list (L1377-1391; on the PDP-4 "randomly ordered for each game", L2389-2391),
the flow chart Fig. 4.1 and its notes 1-5 (L1393-1436, L1457-1504), and the
related-pair search of Appendix I, procedure 3 (L2691-2744). This module
also holds the *elementary strategy* the UNIVAC 1107 program reused
(L2432-2446), so ``citrenbaum-1107`` and ``citrenbaum-general`` import it.

>>> from qubic_logic.notation import parse_position
>>> p = parse_position('moves:0,16,1,17,4,18')     # O (16, 17, 18) threatens 19
>>> elementary_step(p, concede=False).explanation
'blocks a 0-3 file at 19'
"""

from __future__ import annotations

import random as _random

from ..bitboard import threat_cells
from ..geometry import LINE_MASKS, LINES, LINES_THROUGH
from ..position import Game, Position, other
from .base import Move, register

SEVEN_FILE_CELLS: tuple[int, ...] = tuple(c for c in range(64) if len(LINES_THROUGH[c]) == 7)
"""The 8 vertices and 8 core cells, each in seven files and six planes (L1205-1210)."""


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def first_file_cell(a: int, d: int, marks: int) -> int | None:
    """Vacant cell of the first file (in file order) holding ``marks`` of ``a`` and none of ``d``.

    ``marks=3`` finds a 3-0 file's vacant cell, as the programs' file tally did.

    >>> first_file_cell(0b111, 0, 3)
    3
    """
    for lm in LINE_MASKS:
        if not lm & d and (lm & a).bit_count() == marks:
            return _low(lm & ~a)
    return None


def colt_table(a: int, d: int) -> list[int]:
    """QTABLE: the vacant cells of ``a``'s 2-0 files, file by file in file order (seed 000 L4513-4527).

    The listing fills TAB20 with the 2-0 files as its tally meets them (L4345),
    copies each file's four FILECELLS into CTABLE and keeps the vacant ones.

    >>> from qubic_logic.geometry import mask_of
    >>> colt_table(mask_of([1, 2, 16, 32]), 0)      # files 0-1-2-3 and 0-16-32-48
    [0, 3, 0, 48]
    """
    return [c for line, lm in zip(LINES, LINE_MASKS)
            if not lm & d and (lm & a).bit_count() == 2 for c in line if not a >> c & 1]


def first_major_cell(a: int, d: int) -> int | None:
    """Major cell of ``a``'s related pair as the listing's COLT loop finds it (L4528-4531, L5299-5302).

    COLT compares QTABLE(J) with every later QTABLE(K), J = 1, 2, ...: the
    major cell is the *first entry of the table that occurs again later* —
    Appendix I procedure 3, "if any cell is recorded twice it is a major
    cell" (L2725-2744), with the listing's tie-break.

    >>> from qubic_logic.geometry import mask_of
    >>> first_major_cell(mask_of([1, 2, 16, 32]), 0)    # 0-1-2-3 and 0-16-32-48 meet at 0
    0
    """
    table = colt_table(a, d)
    for j, cell in enumerate(table):
        if cell in table[j + 1 :]:
            return cell
    return None


class PresetList:
    """The preset move list: the first vacant cell on a fixed ordering of the 64 cells.

    ``order='random'``: "simply a random ordering", reshuffled for each game
    as on the PDP-4 (L2389-2391; ``seed`` makes it repeatable).
    ``order='seven-file'``: the cube vertices and core cells first (L1387-1389),
    then the rest, each ascending; ``seed`` is then the 1107's game number
    GAME, whose scan starts at entry 4·GAME−3 (L5336; 0-based 4·seed), and
    wraps round where the program declared a tie.

    >>> PresetList('seven-file').move(Position())
    0
    >>> PresetList('seven-file', seed=1).move(Position())     # starts at the fifth entry
    21
    """

    def __init__(self, order: str = "random", seed: int | None = None) -> None:
        if order not in ("random", "seven-file"):
            raise ValueError(f"unknown preset order {order!r}; expected 'random' or 'seven-file'")
        self._rng = _random.Random(seed)
        self._random = order == "random"
        rest = [c for c in range(64) if c not in SEVEN_FILE_CELLS]
        self._cells = list(SEVEN_FILE_CELLS) + rest
        if not self._random and seed is not None:
            start = 4 * seed % 64
            self._cells = self._cells[start:] + self._cells[:start]
        self._moves_seen = -1
        self.new_game()

    def new_game(self) -> None:
        """Reorder the list for a new game (random order only)."""
        if self._random:
            self._rng.shuffle(self._cells)

    def move(self, position: Position) -> int:
        """The first vacant cell on the list."""
        taken = position.x | position.o
        return next(c for c in self._cells if not taken >> c & 1)

    def follow(self, game: Game) -> None:
        """Start a new ordering when ``game`` is shorter than at the last call (a new game began)."""
        if len(game.moves) < self._moves_seen:
            self.new_game()
        self._moves_seen = len(game.moves)


def elementary_step(position: Position, concede: bool) -> Move | None:
    """Questions (a) and (b) of Fig. 4.1: make a 4-0 file, else block a 0-3 file.

    With ``concede``, the concession rules 5a ("more than one 0-3 file") and
    5c (a related pair beside the 0-3 file that the block neither destroys
    nor answers with a 3-0 file) are reported in the explanation; the move is
    still the block, as the ALGOL program printed its concession and blocked
    (L4395-4410): a player here cannot resign.
    """
    me = position.to_move
    a, d = position.mask(me), position.mask(other(me))
    win = first_file_cell(a, d, 3)
    if win is not None:
        return Move.citing(win, "makes a 4-0 file at {0}", win)
    block = first_file_cell(d, a, 3)
    if block is None:
        return None
    text = "blocks a 0-3 file at {0}"
    if concede:
        a2 = a | 1 << block
        if threat_cells(d, a) & ~(1 << block):
            text += "; concedes (rule 5a): the opponent has another 0-3 file"
        elif first_major_cell(d, a2) is not None and not threat_cells(a2, d):
            text += "; concedes (rule 5c): the opponent keeps a related pair"
    return Move.citing(block, text, block)


def own_related_pair(position: Position) -> Move | None:
    """Question (c): "form two 3-0 files simultaneously" at the major cell of a related pair."""
    me = position.to_move
    cell = first_major_cell(position.mask(me), position.mask(other(me)))
    if cell is None:
        return None
    return Move.citing(cell, "plays the major cell {0} of a related pair (two 3-0 files)", cell)


def block_related_pair(position: Position, concede: bool) -> Move | None:
    """Question (d): "block vacant cell in both 2-0 files" — the opponent's major cell.

    With ``concede``, rule 5b ("two independent related pairs": one is left
    after the block) is reported in the explanation.
    """
    me = position.to_move
    a, d = position.mask(me), position.mask(other(me))
    cell = first_major_cell(d, a)
    if cell is None:
        return None
    text = "blocks the opponent's related pair at its major cell {0}"
    if concede and first_major_cell(d, a | 1 << cell) is not None:
        text += "; concedes (rule 5b): two independent related pairs"
    return Move.citing(cell, text, cell)


@register("citrenbaum-pdp4", "Citrenbaum 1965 ch. 4: related-pair strategy of the PDP-4 program")
class CitrenbaumPDP4:
    """Citrenbaum's related-pair strategy, Fig. 4.1 (seed 000 L1366-1504).

    In order: (a) make a 4-0 file; (b) block a 0-3 file; (c) play the major
    cell of an own related pair; (d) block the opponent's related pair at its
    major cell; else the first vacant cell of the preset list. Note 4's "not
    before three (four) moves" thresholds need no test: a 3-0 file needs three
    marks, a related pair four. ``concede=True`` adds the concession rules
    5a-5c to the explanations; ``preset`` is ``'random'`` (default, reshuffled
    each game, as on the PDP-4) or ``'seven-file'``. Plays either side.

    >>> game = Game([1, 0, 2, 16, 63, 32])          # X (1, 2) and O (0, 16, 32)
    >>> CitrenbaumPDP4(seed=1).choose(game)
    Move(cell=48, explanation='blocks a 0-3 file at 48')
    """

    name = "citrenbaum-pdp4"

    def __init__(
        self,
        seed: int | None = None,
        preset: str = "random",
        concede: bool = False,
        time_limit: float | None = None,
    ) -> None:
        self.preset = PresetList(preset, seed)
        self.concede = concede

    def choose(self, game: Game) -> Move:
        self.preset.follow(game)
        position = game.position
        return (
            elementary_step(position, self.concede)
            or own_related_pair(position)
            or block_related_pair(position, self.concede)
            or Move(self.preset.move(position), "preset move")
        )


__all__ = [
    "SEVEN_FILE_CELLS",
    "CitrenbaumPDP4",
    "PresetList",
    "block_related_pair",
    "elementary_step",
    "first_file_cell",
    "colt_table",
    "first_major_cell",
    "own_related_pair",
]
