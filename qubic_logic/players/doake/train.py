"""Training and evaluation: Doake's program learns game by game into a brain file.

Game *n* of a brain (1, 2, ...) is played with seed ``seed * 1_000_003 + n``:
the learner draws its first strong square from it and a seeded opponent gets
it too, and the learner is X in odd games, O in even ones. So the same
command on a fresh file gives the same brain, and a run resumed after a
crash plays on exactly as the uninterrupted run would have (under the
plausible reading, the learner's only state is its tables). Against
``self`` both sides play with the brain being trained and each game is
analysed from the winner's side, as in the thesis's games (L2240).

>>> import tempfile, os
>>> brain = Brain(os.path.join(tempfile.mkdtemp(), 'b.sqlite'), create=True)
>>> summary = train(brain, 'greedy', 2, seed=1)
>>> summary.played, brain.game_count()
(2, 2)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ...errors import QubicError
from ...match import run_games, schedule
from ..spec import make_player
from ...position import Game
from .backtrack import Lesson, analyse
from .player import check_reading, choose
from .select import Selector
from .store import Brain, Evaluation, GameRow, result_for
from .tables import Tables

SELF = "self"


def game_seed(seed: int, number: int) -> int:
    """The seed of a brain's game ``number``."""
    return seed * 1_000_003 + number


@dataclass
class TrainingSummary:
    """What a training run did."""

    played: int
    wins: int
    draws: int
    losses: int
    learned: int  # new TEST/SUTEST patterns
    seconds: float
    complete: bool
    interrupted: bool = False  # stopped by Ctrl-C (not the time limit)

    @property
    def games_per_second(self) -> float:
        """Training games per second."""
        return self.played / self.seconds if self.seconds else 0.0


def play_training_game(tables: Tables, against: str, number: int, seed: int, literal: bool,
                       fired: dict[int, int]) -> tuple[Game, str]:
    """One game of the learner (tables) against ``against``; returns it and the learner's side."""
    s = game_seed(seed, number)
    learner_side = "x" if number % 2 else "o"
    learner = Selector(tables, literal, random.Random(s))
    opponent = Selector(tables, literal, random.Random(s + 1)) if against == SELF else make_player(against, s + 1)
    game = Game()
    while not game.position.is_over:
        side = game.position.to_move
        if side == learner_side or against == SELF:
            choice = choose(learner if side == learner_side else opponent, game)
            if choice.column > 4:
                fired[choice.column] = fired.get(choice.column, 0) + 1
            cell = choice.square - 1
        else:
            cell = opponent.choose(game).cell
            if cell not in game.position.legal_moves():
                raise QubicError(f"player {against!r} chose {cell}, which is not a legal move after "
                                 f"{game.moves}; expected an empty cell")
        game.play(cell)
    return game, learner_side


def play_and_learn(tables: Tables, against: str, number: int, seed: int, literal: bool = False,
                   observe: Callable[[Game, str], None] | None = None) -> tuple[Game, str, Lesson]:
    """Play game ``number`` and learn from it; ``observe(game, side)`` sees it before the analysis."""
    fired: dict[int, int] = {}
    game, side = play_training_game(tables, against, number, seed, literal, fired)
    if observe:
        observe(game, side)
    p = game.position
    analysed_side = p.winner if against == SELF and p.winner else side
    lesson = analyse(p, list(game.moves), analysed_side, tables, number, literal)
    for column, n in fired.items():
        if column <= len(tables.tests):
            tables.tests[column - 1].fired += n
    return game, side, lesson


def train(brain: Brain, against: str, games: int, seed: int = 0, reading: str = "plausible",
          time_limit: float | None = None, progress: Callable[[GameRow], None] | None = None) -> TrainingSummary:
    """Play ``games`` training games against ``against`` (a player spec or ``self``), learning after each.

    Each finished game is committed with what it taught. Past ``time_limit``
    seconds, or on Ctrl-C, the game in progress is dropped and the summary
    says so (every finished game is already stored).
    """
    literal = check_reading(reading)
    if against != SELF:
        make_player(against)  # an unknown name or option fails before any game
    tables = brain.tables()
    start = time.monotonic()
    wins = draws = losses = learned = played = 0
    complete = True
    try:
        for _ in range(games):
            if time_limit is not None and time.monotonic() - start > time_limit:
                complete = False
                break
            number = brain.game_count() + 1
            before = tables.learned()
            game, side, lesson = play_and_learn(tables, against, number, seed, literal)
            p = game.position
            result = result_for(p, side)
            row = GameRow(number, against, side, list(game.moves), result, game_seed(seed, number),
                          lesson.summary(), tables.learned())
            brain.record_game(row, tables, reading)
            played += 1
            learned += tables.learned() - before
            wins, draws, losses = wins + (result == "win"), draws + (result == "draw"), losses + (result == "loss")
            if progress:
                progress(row)
    except KeyboardInterrupt:
        return TrainingSummary(played, wins, draws, losses, learned, time.monotonic() - start, False, True)
    return TrainingSummary(played, wins, draws, losses, learned, time.monotonic() - start, complete)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> [round(v, 3) for v in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def evaluate(brain: Brain, opponent: str, games: int, seed: int = 0, jobs: int = 1,
             time_limit: float | None = None, progress: Callable[[object], None] | None = None,
             reading: str | None = None) -> Evaluation:
    """Play the brain (frozen) against ``opponent``, sides swapping every game; store and return the score."""
    spec = f"doake:brain={brain.path.resolve()}" + (f",reading={reading}" if reading else "")
    tasks = schedule(spec, opponent, games, True, seed)
    records, _ = run_games(tasks, jobs, time_limit, progress)
    wins = sum(1 for r in records if r.result != "draw" and getattr(r, r.result) == spec)
    draws = sum(1 for r in records if r.result == "draw")
    result = Evaluation(brain.game_count(), opponent, len(records), wins, draws, len(records) - wins - draws, seed)
    brain.record_evaluation(result)
    return result
