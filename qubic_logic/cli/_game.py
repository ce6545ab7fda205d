"""Reading a game (a move list in order) for ``qubic reply`` and ``qubic play``."""

from __future__ import annotations

import argparse

from ..errors import QubicError
from ..notation import GAME_FORMS, input_notation, parse_game
from ..position import Game

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
    """Add the GAME argument (a move list in order), read by :func:`game_of` once ``--notation`` is known."""
    parser.add_argument("game", metavar="GAME", help=f"the moves so far: {GAME_FORMS}; bare numbers are "
                                                    "read in --notation (index or number)")


def game_of(args: argparse.Namespace) -> Game:
    """The GAME argument read with ``--notation``; sets ``args.input_notation`` for the answers."""
    args.input_notation = input_notation(args.game)
    try:
        return parse_game(args.game, args.notation)
    except QubicError as exc:
        raise QubicError(f"GAME: {exc}") from None
