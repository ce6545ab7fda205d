"""Puzzles: "X (or O) to move wins in N", found by the engines in real games.

:func:`generate` plays seeded games (uniformly random moves, or ``greedy``
against ``greedy`` for self-play), and takes from each game one position
where the side to move has a shortest forced win by threat sequence
(docs/design.md §3) of the wanted length. The puzzle is shown in one of the 192
orientations (:mod:`qubic_logic.symmetry`), drawn at random, so that two
puzzles from one game family do not look alike. It is graded by its minimal
length and by how many first moves win that fast (:func:`winning_first_moves`).

:func:`answer` checks a solver's move: a move that keeps a forced win within
the moves left is answered by the defender's forced block; a wrong move is
explained by the defence that refutes it.

>>> from qubic_logic.notation import parse_position
>>> p = parse_position('1-2,22-52,27-4')
>>> winning_first_moves(p)
(6, [16, 31, 42, 63])
>>> a = answer(p, 6, 16)
>>> a.verdict, a.reply, a.left
('continue', 31, 5)
>>> answer(p, 6, 5).verdict
'wrong'
>>> again = [generate(2, seed=1, min_length=3, max_length=5) for _ in range(2)]
>>> again[0] == again[1] and all(3 <= q.length <= 5 for q in again[0])
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from .core import shortest_forced_win, threats
from .errors import QubicError
from .geometry import cells_of
from .players import make_player
from .notation import format_cell, format_mcdaniel, format_position
from .position import Game, Position, other
from .symmetry import TRANSFORMS, map_mask
from .wording import counted

SOURCES = ("random", "self-play")
GRADES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Puzzle:
    """A position whose side to move wins by force in ``length`` moves, at the least."""

    position: Position
    length: int
    solutions: tuple[int, ...]  # the first moves that win in ``length``
    orientation: int  # index into TRANSFORMS applied to the game's position
    source: dict = field(default_factory=dict, compare=False)

    @property
    def to_move(self) -> str:
        """The side that wins."""
        return self.position.to_move

    @property
    def title(self) -> str:
        """``'X to move wins in 4'``."""
        return f"{self.to_move.upper()} to move wins in {self.length}"

    @property
    def grade(self) -> str:
        """``easy`` (wins in 1 or 2, or 4+ winning first moves), ``hard`` (5+ moves, one or two
        winning first moves) or ``medium``."""
        if self.length <= 2 or len(self.solutions) >= 4:
            return "easy"
        return "hard" if self.length >= 5 and len(self.solutions) <= 2 else "medium"

    def to_json(self) -> dict:
        """The puzzle as written by ``qubic puzzles``."""
        return {"title": self.title, "position": format_position(self.position),
                "patashnik": format_position(self.position, "patashnik"), "to_move": self.to_move,
                "length": self.length, "solutions": list(self.solutions), "grade": self.grade,
                "orientation": self.orientation, "source": self.source}


@dataclass(frozen=True)
class Answer:
    """What a move does in a puzzle: ``solved``, ``continue`` (with the defender's reply) or ``wrong``."""

    verdict: str
    move: int
    reply: int | None = None  # the defender's forced reply (continue) or refuting move (wrong)
    left: int = 0  # attacker moves still allowed after the reply
    explanation: str = ""

    def to_json(self) -> dict:
        """The answer as a JSON object."""
        return {"verdict": self.verdict, "move": self.move, "reply": self.reply, "left": self.left,
                "explanation": self.explanation}


def length_after(position: Position, move: int,
                 max_length: int | None = None) -> tuple[int | None, int | None]:
    """Attacker moves of the shortest forced win that starts with ``move``, and the defender's reply.

    The length counts ``move``; None when ``move`` starts no forced win (within
    ``max_length``). The reply is the defender's forced block (the lowest threat
    cell after a double threat), or the defender's winning cell when ``move``
    leaves a defender threat open; None when the move wins at once or makes no threat.

    >>> from qubic_logic.notation import parse_position
    >>> length_after(parse_position('1-2,22-52,27-4'), 16)
    (6, 31)
    """
    attacker, defender = position.to_move, other(position.to_move)
    after = position.play(move)
    if after.winner:
        return 1, None
    t = threats(after)
    theirs, mine = cells_of(t.of(defender)), cells_of(t.of(attacker))
    if theirs:
        return None, theirs[0]
    if not mine:
        return None, None
    if len(mine) >= 2:
        return (2 if max_length is None or max_length >= 2 else None), mine[0]
    if max_length is not None and max_length < 2:
        return None, mine[0]
    win = shortest_forced_win(after.play(mine[0]), None if max_length is None else max_length - 1)
    return (None if win.length is None else win.length + 1), mine[0]


def winning_first_moves(position: Position) -> tuple[int | None, list[int]]:
    """The minimal length of a forced win and every first move that wins that fast."""
    best = shortest_forced_win(position).length
    if best is None:
        return None, []
    return best, [m for m in position.legal_moves() if length_after(position, m, best)[0] == best]


def answer(position: Position, left: int, move: int, form: str = "index") -> Answer:
    """Judge ``move`` by the side to move in a puzzle it must win within ``left`` moves.

    Raises :class:`IllegalMoveError` for an occupied cell or a finished game.
    Cells in explanations are written in ``form``.
    """
    if left < 1:
        raise QubicError(f"moves left {left} must be at least 1")
    side, them = position.to_move.upper(), other(position.to_move).upper()
    length, reply = length_after(position, move, left)

    def cell(c: int) -> str:
        return format_cell(c, form)

    if length == 1:
        return Answer("solved", move, None, 0, f"{side} {cell(move)} completes four in a row")
    if length is not None:
        return Answer("continue", move, reply, left - 1,
                      f"{side} {cell(move)} threatens; {them} must block at {cell(reply)}")
    after = position.play(move)
    if reply is not None and threats(after).of(other(position.to_move)) >> reply & 1:
        why = f"{them} completes four at {cell(reply)}: {side} had to block it"
    elif reply is None:
        why = (f"{side} {cell(move)} makes no threat, so {them} is free to answer anywhere "
               "and the forced win is lost")
    else:
        slower = length_after(position, move)[0]
        why = (f"{them} blocks at {cell(reply)}, and then {side} has no forced win within "
               f"{counted(left - 1, 'more move')}" + (f" ({side} still wins, but in {slower}, not {left})"
                                          if slower else ""))
    return Answer("wrong", move, reply, left, why)


def daily(day: date) -> Puzzle:
    """The puzzle of the day: the same for everyone on ``day``, from a generator seeded by the date.

    The length cycles through 1, 2, 3, 4 (Monday a win in 1 ... Thursday in 4, Friday in 1 again ...),
    the position is shown in an orientation drawn from the seed.

    >>> q = daily(date(2026, 1, 5))  # a Monday
    >>> q.length, q == daily(date(2026, 1, 5)), daily(date(2026, 1, 8)).length
    (1, True, 4)
    """
    length = day.weekday() % 4 + 1
    found = generate(1, seed=day.toordinal(), min_length=length, max_length=length)
    if not found:
        raise QubicError(f"no puzzle found for {day.isoformat()}")
    q = found[0]
    return Puzzle(q.position, q.length, q.solutions, q.orientation, {**q.source, "date": day.isoformat()})


def _game_moves(source: str, rng: random.Random) -> list[int]:
    """The moves of one seeded game from ``source`` (one of :data:`SOURCES`)."""
    seed = rng.randrange(2**31)
    spec = "random" if source == "random" else "greedy"
    players = {"x": make_player(spec, seed), "o": make_player(spec, seed + 1)}
    game = Game()
    while not game.position.is_over:
        game.play(players[game.position.to_move].choose(game).cell)
    return game.moves


def generate(count: int, seed: int = 0, min_length: int = 2, max_length: int = 6, source: str = "random",
             max_games: int | None = None,
             progress: Callable[[int, int], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles with minimal lengths in ``min_length..max_length``, from seeded games.

    Each game gives at most one puzzle: a position drawn at random among those
    of the game where the side to move wins in the wanted range (a win in 1 is
    a three to complete). Gives up after ``max_games`` games (default ``50 * count``)
    with the puzzles found. ``progress(found, games)`` is called after each game.
    """
    if source not in SOURCES:
        raise QubicError(f"unknown puzzle source {source!r}; expected one of {', '.join(SOURCES)}")
    if not 1 <= min_length <= max_length:
        raise QubicError(f"lengths {min_length}..{max_length}: expected 1 <= min_length <= max_length")
    if count < 1:
        raise QubicError(f"count {count} must be at least 1")
    rng = random.Random(seed)
    found: list[Puzzle] = []
    seen: set[Position] = set()
    games = 0
    while len(found) < count and games < (max_games or 50 * count):
        games += 1
        moves = _game_moves(source, rng)
        candidates = []
        for n in range(4, len(moves)):
            p = Position.from_cells(moves[:n])
            win = shortest_forced_win(p, max_length)
            if win.length is not None and win.length >= min_length:
                candidates.append(n)
        if candidates:
            n = rng.choice(candidates)
            orientation = rng.randrange(len(TRANSFORMS))
            p = Position.from_cells(moves[:n])
            shown = Position(map_mask(orientation, p.x), map_mask(orientation, p.o))
            if shown not in seen:
                seen.add(shown)
                best, firsts = winning_first_moves(shown)
                found.append(Puzzle(shown, best, tuple(firsts), orientation,
                                    {"kind": source, "game": games, "seed": seed,
                                     "moves": format_mcdaniel(moves[:n])}))
        if progress:
            progress(len(found), games)
    return sorted(found, key=lambda q: (q.length, -len(q.solutions)))

