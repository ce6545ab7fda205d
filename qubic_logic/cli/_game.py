"""Reading a game (a move list in order) for ``qubic reply`` and ``qubic play``."""

from __future__ import annotations

import argparse
import re

from ..errors import NotationError, QubicError
from ..notation import parse_cell, parse_mcdaniel, parse_moves, parse_position
from ..position import Game, Position

GAME_FORMS = ("McDaniel 1-2,22-52,27 (one move: 1,) | moves:0,1,21 | cells separated by spaces in any "
              "unambiguous notation (.231 .322, 231 322) | empty")


def parse_game(text: str) -> Game:
    """A game from its moves, oldest first; each move is checked for legality.

    >>> parse_game('1-2,22').moves, parse_game('moves:0,1,21').moves, parse_game('.231 .322').moves
    ([0, 1, 21], [0, 1, 21], [24, 37])
    >>> parse_game('empty').moves
    []
    """
    s = text.strip()
    if s in ("", "empty"):
        cells: list[int] = []
    elif s.startswith("moves:"):
        cells = parse_moves(s[len("moves:"):])
    elif re.fullmatch(r"[\d,\-\s]+", s) and re.search(r"[-,]", s):
        cells = parse_mcdaniel(s)
    else:
        try:
            cells = [parse_cell(token) for token in s.split()]
        except NotationError as exc:
            raise NotationError(f"{exc}; a game is written as {GAME_FORMS}") from None
    return Game(cells)


def root_of(text: str) -> tuple[Position, tuple[int, ...] | None]:
    """A root position and, when ``text`` is a game (a move list), the moves that reach it.

    A player judged from a root sees those moves as its game; a position in any
    other notation has no history (None).

    >>> root_of('1-2,22')[1], root_of('xx1oo')[1]
    ((0, 1, 21), None)
    """
    try:
        game = parse_game(text)
        return game.position, tuple(game.moves)
    except QubicError:
        return parse_position(text), None


MAX_GAME_FILE = 100_000  # bytes: a saved game is a few hundred


def read_game_file(path: str) -> Game:
    """The game saved in the file ``path`` (UTF-8 text, at most :data:`MAX_GAME_FILE` bytes).

    >>> read_game_file('/nonexistent/game.txt')
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: cannot read /nonexistent/game.txt: No such file or directory
    """
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_GAME_FILE + 1)
    except OSError as exc:
        raise QubicError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_GAME_FILE:
        raise QubicError(f"{path} is larger than {MAX_GAME_FILE:,} bytes; expected a saved game (a move list)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise QubicError(f"{path} is not text (UTF-8); expected a saved game (a move list)") from None
    return parse_game(text)


def game_arg(parser: argparse.ArgumentParser) -> None:
    """Add the GAME argument (a move list in order)."""
    parser.add_argument("game", metavar="GAME", type=_game, help=f"the moves so far: {GAME_FORMS}")


def _game(text: str) -> Game:
    try:
        return parse_game(text)
    except QubicError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
