"""One exception hierarchy for the whole project.

Every error says what was wrong and what was expected; the CLI turns any
:class:`QubicError` into one line on stderr and exit status 2.

>>> try:
...     raise NotationError("'99' is not a cell; expected 0..63")
... except QubicError as e:
...     print(e)
'99' is not a cell; expected 0..63
"""

from __future__ import annotations


class QubicError(Exception):
    """Base class of every error the project raises on purpose."""


class NotationError(QubicError, ValueError):
    """Text that does not parse as a cell, move list or position."""


class IllegalMoveError(QubicError, ValueError):
    """A move that the rules of Qubic do not allow (occupied, out of range, game over)."""


class IllegalPositionError(QubicError, ValueError):
    """A position that cannot arise in a game (wrong counts, both sides have four)."""


class GameOverError(IllegalPositionError):
    """A finished game handed to an analysis: nothing is left to analyse."""


class EngineUnavailableError(QubicError):
    """An engine that was asked for cannot run here (missing package or build)."""


class QueryTimeout(QubicError):
    """A query ran past its time limit; ``partial`` holds what was found so far."""

    def __init__(self, message: str, partial: object = None) -> None:
        super().__init__(message)
        self.partial = partial


class Interrupted(KeyboardInterrupt):
    """Work stopped by Ctrl-C; ``partial`` holds what was found so far (the CLI exits with 130).

    A :class:`KeyboardInterrupt`, so that code keeping partial results on Ctrl-C keeps them.
    """

    def __init__(self, message: str, partial: object = None) -> None:
        super().__init__(message)
        self.partial = partial


class RuleError(QubicError):
    """A rule file that does not load (syntax error, unknown predicate)."""


class DataFormatError(QubicError, ValueError):
    """A malformed data file (dictionary, saved game, certificate)."""


class StrategyError(QubicError):
    """A strategy that gives no valid answer: two moves, an occupied cell, a cell outside 0..63."""
