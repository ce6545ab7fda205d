"""The player interface and the registry of players by name.

A player sees the whole game so far (a :class:`~qubic_logic.position.Game`),
as in a real game, and returns a :class:`Move`: a legal cell and an
explanation such as ``"blocks a 0-3 file"``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Protocol

from ..core import threats
from ..errors import QubicError
from ..geometry import cells_of
from ..notation import CellNames, shown
from ..position import Game, Position, other


@dataclass(frozen=True, slots=True)
class Move:
    """A chosen cell (0..63) and why it was chosen.

    A player names cells only through :meth:`citing`: the explanation keeps the
    cells (and lines of moves, as tuples) it names, and :meth:`explain` writes
    them with the project's :class:`~qubic_logic.notation.CellNames`;
    ``explanation`` is the text in 0..63.

    >>> m = Move.citing(42, "stored game: {0}, then {1}", (42, 63), 10)
    >>> m.explanation, m.explain("number"), m.explain("lrc")
    ('stored game: 42 63, then 10', 'stored game: 43-64, then 11', 'stored game: 333 444, then 133')
    >>> m.within("(as O) {why}").explain("hp67")
    '(as O) stored game: .333 .444, then .133'
    """

    cell: int
    explanation: str = ""
    template: str = field(default="", repr=False, compare=False)
    cells: tuple[int | tuple[int, ...], ...] = field(default=(), repr=False, compare=False)

    @classmethod
    def citing(cls, cell: int, template: str, *cells: int | tuple[int, ...]) -> Move:
        """A move whose explanation ``template`` names ``cells`` as ``{0}``, ``{1}``, ...
        (a tuple of cells is a line of moves)."""
        cited = tuple(tuple(c) if isinstance(c, (tuple, list)) else c for c in cells)
        return cls(cell, _written(template, cited, CellNames()), template, cited)

    def explain(self, names: CellNames | str = "index") -> str:
        """The explanation with its cells written by ``names`` (or the name of a cell notation)."""
        if not self.template:
            return self.explanation
        return _written(self.template, self.cells, names if isinstance(names, CellNames) else CellNames(names))

    def within(self, outer: str, cell: int | None = None) -> Move:
        """This move's explanation put in ``outer`` at ``{why}`` (for ``cell``, default the same cell)."""
        inner = self.template or self.explanation.replace("{", "{{").replace("}", "}}")
        template = outer.replace("{", "{{").replace("}", "}}").replace("{{why}}", inner)
        return Move.citing(self.cell if cell is None else cell, template, *self.cells)


def _written(template: str, cited: tuple, names: CellNames) -> str:
    return template.format(*(names.line(c) if isinstance(c, tuple) else names.cell(c) for c in cited))


class Player(Protocol):
    """Anything with a ``name`` and ``choose(game) -> Move``.

    A player may also define ``game_over(game, side, opponent) -> str | None``:
    ``qubic play`` calls it when a game the player played ends (a learning
    program learns there) and prints what it returns.
    """

    name: str

    def choose(self, game: Game) -> Move:
        """The move to play in ``game``'s current position (never called when it is over)."""
        ...


REGISTRY: dict[str, tuple[Callable[..., Player], str]] = {}


def register(name: str, summary: str) -> Callable[[Callable[..., Player]], Callable[..., Player]]:
    """Class decorator: make a player available as ``name`` (``summary`` cites its source)."""

    def deco(factory: Callable[..., Player]) -> Callable[..., Player]:
        REGISTRY[name] = (factory, summary)
        return factory

    return deco


def player_names() -> list[str]:
    """Registered player names, sorted."""
    return sorted(REGISTRY)


def get_player(name: str, **options) -> Player:
    """Build the player registered as ``name`` (options such as ``seed`` go to its constructor)."""
    if name not in REGISTRY:
        raise QubicError(f"unknown player {shown(name)}; expected one of {', '.join(player_names())}")
    return REGISTRY[name][0](**options)


def winning_move(position: Position) -> Move | None:
    """Complete a 3-0 line of the side to move, if there is one (lowest cell first).

    >>> winning_move(Position.from_cells([0, 16, 1, 17, 2, 18]))
    Move(cell=3, explanation='wins: completes a 3-0 line at 3')
    """
    mine = threats(position).of(position.to_move)
    if not mine:
        return None
    cell = cells_of(mine)[0]
    return Move.citing(cell, "wins: completes a 3-0 line at {0}", cell)


def blocking_move(position: Position) -> Move | None:
    """Block the opponent's 0-3 line, if there is one (lowest cell first).

    >>> blocking_move(Position.from_cells([0, 16, 1, 17, 2]))
    Move(cell=3, explanation='blocks a 0-3 line at 3')
    """
    theirs = threats(position).of(other(position.to_move))
    if not theirs:
        return None
    cell = cells_of(theirs)[0]
    return Move.citing(cell, "blocks a 0-3 line at {0}", cell)
