"""The engine interface: what every engine answers, with the same result types.

An engine answers questions about a :class:`~qubic_logic.position.Position`:
threats (:class:`~qubic_logic.core.Threats`), forcing moves (a cell mask),
related pairs (:class:`RelatedPair`), the shortest forced win by threat
sequence (:class:`~qubic_logic.core.ForcedWin`, docs/design.md §3) and, for the
declarative engines, raw queries in their own language.

>>> from qubic_logic.position import Position
>>> from qubic_logic.geometry import mask_of
>>> pairs = related_pairs_of(Position(mask_of([1, 2, 4, 8]), mask_of([63, 42, 57])), 'x')
>>> [(p.major, p.lines) for p in pairs]
[(0, (0, 1))]
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable

from ..core import ForcedWin, Threats
from ..geometry import LINE_MASKS, LINES, cells_of
from ..position import Position, Side, other


@dataclass(frozen=True, slots=True, order=True)
class RelatedPair:
    """Two 2-0 lines of ``side`` meeting at the empty ``major`` cell (docs/design.md §2).

    ``lines`` are indices into :data:`qubic_logic.geometry.LINES`, ascending.
    """

    side: Side
    major: int
    lines: tuple[int, int]

    @property
    def line_cells(self) -> tuple[tuple[int, int, int, int], ...]:
        """The cells of the two lines.

        >>> RelatedPair('x', 0, (0, 1)).line_cells
        ((0, 1, 2, 3), (0, 4, 8, 12))
        """
        return tuple(LINES[i] for i in self.lines)

    def to_json(self) -> dict:
        """A JSON object: side, major cell, line indices and their cells."""
        return {"side": self.side, "major": self.major, "lines": list(self.lines),
                "line_cells": [list(c) for c in self.line_cells]}


def related_pairs_of(position: Position, side: Side) -> list[RelatedPair]:
    """Related pairs of ``side``, computed from the geometry (the reference for every engine)."""
    own, theirs = position.mask(side), position.mask(other(side))
    two_zero = [i for i, lm in enumerate(LINE_MASKS) if not lm & theirs and (lm & own).bit_count() == 2]
    pairs = []
    for k, i in enumerate(two_zero):
        for j in two_zero[k + 1:]:
            for cell in cells_of(LINE_MASKS[i] & LINE_MASKS[j] & ~own):
                pairs.append(RelatedPair(side, cell, (i, j)))
    return sorted(pairs)


ANALYSES = ("threats", "forcing_moves", "related_pairs", "shortest_forced_win", "query")


def _in_play(method: Callable) -> Callable:
    """``method`` refusing a finished game (:meth:`Position.require_in_play`) before any work."""

    @functools.wraps(method)
    def checked(self, position, *args, **kwargs):
        if position is not None:
            position.require_in_play()
        return method(self, position, *args, **kwargs)

    checked.checks_game_over = True
    return checked


class Engine(ABC):
    """One way of answering the project's questions; see :func:`qubic_logic.engines.get_engine`.

    Every method takes ``time_limit`` in seconds (None: no limit) and raises
    :class:`~qubic_logic.errors.QueryTimeout` naming the engine past it. Every
    engine refuses a finished game with :class:`~qubic_logic.errors.GameOverError`
    (each subclass's analysis methods are wrapped here, once):

    >>> from qubic_logic.engines import get_engine
    >>> get_engine('python').threats(Position.from_cells([0, 16, 1, 17, 2, 18, 3]))
    Traceback (most recent call last):
    ...
    qubic_logic.errors.GameOverError: the game is over: X has four in a row at cells 0 1 2 3; nothing to analyse
    """

    name: str = "?"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ANALYSES:
            method = cls.__dict__.get(name)
            if method is not None and not getattr(method, "checks_game_over", False):
                setattr(cls, name, _in_play(method))

    @abstractmethod
    def threats(self, position: Position, time_limit: float | None = None) -> Threats:
        """Threat cells, forcing moves and major cells of both sides."""

    def forcing_moves(self, position: Position, side: Side | None = None,
                      time_limit: float | None = None) -> int:
        """Mask of the forcing moves of ``side`` (default: the side to move)."""
        t = self.threats(position, time_limit)
        return t.forcing_x if (side or position.to_move) == "x" else t.forcing_o

    @abstractmethod
    def related_pairs(self, position: Position, side: Side | None = None,
                      time_limit: float | None = None) -> list[RelatedPair]:
        """Related pairs of ``side`` (default: both sides), sorted."""

    @abstractmethod
    def shortest_forced_win(self, position: Position, max_length: int | None = None,
                            time_limit: float | None = None) -> ForcedWin:
        """Shortest forced win by threat sequence for the side to move (docs/design.md §3)."""

    def query(self, position: Position | None, goal: str, files: tuple[str, ...] = (),
              time_limit: float | None = None, **options) -> Any:
        """A raw query in the engine's own language over the project's rules plus ``files``.

        ASP: ``goal`` is program text, the answer an
        :class:`~qubic_logic.engines.asp.AspResult`; Prolog: ``goal`` is a goal,
        the answer a list of bindings (see :func:`qubic_logic.engines.prolog.query`).
        """
        from ..errors import EngineUnavailableError

        raise EngineUnavailableError(
            f"engine {self.name!r} answers no raw queries; use engine 'asp' or 'prolog'"
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
