"""Review of a game: every move annotated with the engines' verdict.

For each move, before it and after it, the native core's forced-win search
(:mod:`qubic_logic.analysis`) says:

* ``wins``: the move completes four in a row;
* ``forced``: it plays a forced win the mover had (``slower``: it keeps one, but a longer one);
* ``missed``: the mover had a forced win and the move gives it up (the review names the first move);
* ``allowed``: after the move the opponent has a forced win that another move would have stopped
  (``lost``: no move could);
* ``only``: the opponent threatened a forced win and this was the one move that stopped it
  (``defends``: one of several that did);
* ``check``: the mover now threatens a forced win, which the opponent must stop;
* ``block``: it blocks the opponent's three in a row; ``threat``: it makes a three of its own;
* ``strategic``: X's move is the one in Patashnik's dictionary for the position (up to symmetry;
  ``off-book``: the position is in the dictionary and X played something else).

>>> from qubic_logic.notation import parse_game
>>> r = review(parse_game('1-2,22-52,27-4,10'))  # O's 4 lets X's plane-17 trap through; 10 misses it
>>> [m.tags for m in r][-3:]
[('check',), ('allowed',), ('missed',)]
>>> print(r[-1].text('number'))
X 10: misses the forced win in 6 (17-32,43-64,11-59,16-6,49-33,38)
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import SEARCH_SECONDS, defences, plane_of, win_of
from .core import threats
from .errors import QubicError
from .geometry import cells_of
from .notation import CellNames, format_cell
from .position import Game, Position, other
from .puzzles import length_after
from .strategy.dictionary import patashnik_dictionary
from .symmetry import canonical_masks

VERDICTS = ("wins", "forced", "slower", "missed", "allowed", "lost", "only", "defends", "check", "block", "threat",
            "strategic", "off-book")
BAD = ("missed", "allowed")


@dataclass(frozen=True)
class MoveReview:
    """One move's verdicts and what they name: cells in ``parts`` are written by :meth:`text`."""

    number: int  # 1 for the first move of the game
    side: str
    cell: int
    tags: tuple[str, ...]
    parts: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...]  # (template, cells {0}.., sequence {seq})
    better: int | None = None  # the move the engines prefer, after a missed or allowed win

    def text(self, notation: str = "index") -> str:
        """``'X 43: misses the forced win in 6 (...)'`` with cells in ``notation``."""
        cell = lambda c: format_cell(c, notation)
        said = "; ".join(t.format(*map(cell, cells), seq=CellNames(notation).line(seq)) for t, cells, seq in self.parts)
        return f"{self.side.upper()} {cell(self.cell)}" + (f": {said}" if said else "")

    def to_json(self, notation: str = "index") -> dict:
        """The review of the move as printed by ``qubic review --json``."""
        return {"number": self.number, "side": self.side, "move": self.cell, "cell": format_cell(self.cell, notation),
                "tags": list(self.tags), "text": self.text(notation), "better": self.better}


def _strategic(position: Position, move: int) -> str | None:
    """``strategic`` or ``off-book`` for X in a position of Patashnik's dictionary, else None."""
    if position.to_move != "x":
        return None
    book = patashnik_dictionary().move_for(position)
    if book is None:
        return None
    return "strategic" if same_move(position, move, book) else "off-book"


def same_move(position: Position, a: int, b: int) -> bool:
    """Whether moves ``a`` and ``b`` give the same position up to the board's 192 symmetries.

    >>> same_move(Position(), 0, 63), same_move(Position(), 0, 1)
    (True, False)
    """
    one, two = position.play(a), position.play(b)
    return canonical_masks(one.x, one.o)[:2] == canonical_masks(two.x, two.o)[:2]


def review_move(position: Position, move: int, number: int,
                time_limit: float = SEARCH_SECONDS) -> MoveReview:
    """The verdicts on ``move`` played in ``position`` (which must be legal there)."""
    side, them = position.to_move, other(position.to_move)
    after = position.play(move)
    tags: list[str] = []
    parts: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
    better = None

    def say(tag: str, template: str, cells: tuple[int, ...] = (), seq: tuple[int, ...] = ()) -> None:
        tags.append(tag)
        parts.append((template, cells, seq))

    if after.winner:
        say("wins", "completes four in a row")
        return MoveReview(number, side, move, tuple(tags), tuple(parts))
    mine = win_of(position, side, time_limit)
    if mine.length is not None:
        kept = length_after(position, move)[0]
        if kept == mine.length:
            say("forced", f"plays the forced win in {mine.length}")
        elif kept is not None:
            say("slower", f"keeps a forced win, in {kept} moves instead of {mine.length} (the faster: {{seq}})",
                (), mine.sequence)
        else:
            better = mine.sequence[0]
            say("missed", f"misses the forced win in {mine.length} ({{seq}})", (), mine.sequence)
    before = cells_of(threats(position).of(them))
    if move in before:
        say("block", "blocks the three at {0}", (move,))
    threatened = win_of(position, them, time_limit)
    answer = win_of(after, them, time_limit) if not after.is_over else None
    if mine.length is None and answer is not None and answer.length is not None:
        stops = defences(position, time_limit)
        if stops:
            better = stops[0]
            say("allowed", f"allows {them.upper()}'s forced win in {answer.length} ({{seq}}); {{0}} would stop it",
                (stops[0],), answer.sequence)
        else:
            say("lost", f"{them.upper()} wins by force whatever {side.upper()} plays")
    elif mine.length is None and threatened.length is not None:
        stops = defences(position, time_limit)
        if stops == [move]:
            say("only", f"the only move that stops {them.upper()}'s forced win in {threatened.length}")
        else:
            say("defends", f"stops {them.upper()}'s forced win in {threatened.length}")
    if mine.length is None and answer is not None and answer.length is None:
        threat = win_of(after, side, time_limit)
        if threat.length is not None and threat.length > 1:
            plane = plane_of(threat)
            where = f" in plane {plane}" if plane else ""
            say("check", f"threatens a forced win in {threat.length}{where} ({{seq}})", (), threat.sequence)
    made = set(cells_of(threats(after).of(side))) - set(cells_of(threats(position).of(side)))
    if made and "wins" not in tags:
        say("threat", "threatens four at " + " ".join("{%d}" % i for i in range(len(made))), tuple(sorted(made)))
    book = _strategic(position, move)
    if book == "strategic":
        say(book, "Patashnik's strategic move (his dictionary)")
    elif book == "off-book":
        say(book, "leaves Patashnik's dictionary (it plays {0})", (patashnik_dictionary().move_for(position),))
    return MoveReview(number, side, move, tuple(tags), tuple(parts), better)


def review(game: Game, time_limit: float = SEARCH_SECONDS) -> list[MoveReview]:
    """Every move of ``game`` reviewed, in order."""
    position, found = Position(), []
    for n, move in enumerate(game.moves, start=1):
        if move not in position.legal_moves():
            raise QubicError(f"move {n} ({move}) is not legal; expected a game of legal moves")
        found.append(review_move(position, move, n, time_limit))
        position = position.play(move)
    return found


def summary(reviewed: list[MoveReview]) -> dict[str, dict[str, int]]:
    """How many moves of each side got each of the bad verdicts (``missed``, ``allowed``).

    >>> summary([])
    {'x': {'missed': 0, 'allowed': 0}, 'o': {'missed': 0, 'allowed': 0}}
    """
    return {s: {t: sum(t in m.tags for m in reviewed if m.side == s) for t in BAD} for s in ("x", "o")}
