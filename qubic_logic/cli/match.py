"""``qubic match A B --games N``: a series between two players; ``--round-robin``: all of them.

Prints a results table (wins/draws/losses per player and side, mean game
length, time per move) or, in round-robin mode, a markdown cross table (row
= X, column = O); ``--save FILE`` writes every game as JSON, ``--table FILE``
the cross table. Progress shows on stderr; Ctrl-C or ``--time-limit`` stops
the run and reports the games finished so far.

A round robin also rates the players (Bradley-Terry on the Elo scale, 95%
bootstrap intervals: qubic_logic/ratings.py) and prints the ratings table;
``--ratings FILE`` writes it as JSON with the command that made it. The
shipped table, qubic_logic/data/ratings.json, is reproduced by the command
stored in it. ``--opening K`` plays the first K moves of every game at random
(from the game's seed), so that deterministic players meet in varied games.
"""

from __future__ import annotations

import argparse
import sys
import time

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..errors import QubicError
from ..match import (
    GameRecord, SeriesResult, cross_table, run_games, save_games, schedule, series_table,
)
from ..notation import shown
from ..players import player_names
from ..saving import write_atomically
from ._common import check_output, deadline_of, positive_int, seconds
from ._terminal import plain, say, console as terminal_console

MAX_GAMES = 1_000_000  # games per series, and in all of a round robin
MAX_BOOTSTRAP = 100_000  # bootstrap samples of the ratings (each a fit of every player's strength)
ROUND_ROBIN_ONLY = ("table", "ratings", "bootstrap")  # options that only a round robin uses


def _run(tasks, args) -> tuple[list[GameRecord], str | None]:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=terminal_console(stderr=True), transient=True,
                  disable=not sys.stderr.isatty()) as bar:
        task = bar.add_task("games", total=len(tasks))
        records, stopped = run_games(tasks, args.jobs, _left(args.deadline), lambda r: bar.advance(task))
    if stopped:
        reason = "Ctrl-C" if stopped == "interrupted" else "the time limit"
        say(f"stopped early by {reason}: {len(records)} of {len(tasks)} games finished", file=sys.stderr)
    return records, stopped


def _check(args: argparse.Namespace, names: list[str]) -> None:
    """Everything that can be refused is refused before the first game: limits, players, output paths.

    >>> from argparse import Namespace
    >>> _check(Namespace(games=10**6, round_robin=True, save=None, table=None), ['random', 'greedy', 'mccarthy'])
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: --games 1,000,000 in a round robin of 3 players is 6,000,000 games; expected at most 1,000,000 in all (--games 166,666 or fewer)
    """
    if args.games > MAX_GAMES:
        raise QubicError(f"--games {args.games:,} is too many; expected at most {MAX_GAMES:,} per series")
    pairs = len(names) * (len(names) - 1) if args.round_robin else 1
    if args.games * pairs > MAX_GAMES:
        raise QubicError(f"--games {args.games:,} in a round robin of {len(names)} players is "
                         f"{args.games * pairs:,} games; expected at most {MAX_GAMES:,} in all "
                         f"(--games {MAX_GAMES // pairs:,} or fewer)")
    if args.round_robin and args.games >= 10_000:
        raise QubicError(f"--games {args.games:,} is too many for a round robin; expected at most 9,999 per pair")
    given = [f"--{name}" for name in ROUND_ROBIN_ONLY if getattr(args, name) != PARSER_DEFAULTS[name]]
    if given and not args.round_robin:
        raise QubicError(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} for a round robin; "
                         "expected --round-robin with it, or no such option for a series of two players")
    check_output(args.save, args.table, args.ratings, names=("--save", "--table", "--ratings"))


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(deadline - time.monotonic(), 0.001)


def run(args: argparse.Namespace) -> int:
    args.deadline = deadline_of(args)  # the limit counts from the command's start
    if args.round_robin:
        names = args.players or player_names()
        _check(args, names)
        pairs = [(a, b) for a in names for b in names if a != b]
        # Round by round (every pair's game j before any pair's game j + 1): a run stopped early has
        # played the same number of games for every pair, and is rated on its complete rounds.
        tasks = [(a, b, args.seed * 10_000_000 + i * 10_000 + j, args.opening)
                 for j in range(args.games) for i, (a, b) in enumerate(pairs)]
        records, stopped = _run(tasks, args)
        rounds = complete_rounds(records, len(pairs)) if stopped else args.games
        table = cross_table(records, names)
        say(table)
        if args.table:
            write_atomically(args.table, table + "\n")
        if args.save:
            save_games(args.save, records)
        rated = [g for g in records if g.seed % 10_000 < rounds]
        if rated:
            from ..ratings import rate, ratings_markdown, save_ratings  # SciPy's statistics: only to rate

            ratings = rate(rated, args.bootstrap, args.seed, deadline=args.deadline)
            if ratings.stopped:
                stopped = stopped or ratings.stopped
                say(f"the bootstrap was stopped by {'Ctrl-C' if ratings.stopped == 'interrupted' else 'the time limit'} "
                    f"after {ratings.samples:,} of {args.bootstrap:,} samples; "
                    f"{'the intervals are from those' if ratings.samples else 'no intervals'}", file=sys.stderr)
            print(f"\nRatings from {rounds} game(s) per ordered pair ({2 * rounds} per pair):\n"
                  + ratings_markdown(ratings))
            if args.ratings:
                command = (f"qubic match --round-robin --games {rounds} --seed {args.seed} --opening {args.opening} "
                           f"--bootstrap {ratings.samples} --ratings FILE " + " ".join(args.players)).strip()
                save_ratings(args.ratings, ratings, command, 2 * rounds)
        return _status(stopped)
    if len(args.players) != 2:
        raise QubicError(f"a match needs two players (got {len(args.players)}); expected "
                         "qubic match A B, or qubic match --round-robin")
    _check(args, args.players)
    a, b = args.players
    tasks = [(*task, args.opening) for task in schedule(a, b, args.games, args.swap_sides, args.seed)]
    records, stopped = _run(tasks, args)
    result = SeriesResult(a, b, records)
    table = Table(title=f"{a} v {b}: {len(records)} games, mean length {result.mean_length():.1f} moves")
    for col in ("player", "side", "wins", "draws", "losses", "time per move"):
        table.add_column(col, justify="left" if col in ("player", "side") else "right")
    for row in series_table(result):
        table.add_row(*row)
    terminal_console().print(table)
    if args.save:
        save_games(args.save, records)
    return _status(stopped)


def complete_rounds(records: list[GameRecord], pairs: int) -> int:
    """How many rounds (game j of every pair, from the seeds' last digits) were played in full.

    >>> complete_rounds([GameRecord('a', 'b', [], 'x', {}, 7), GameRecord('b', 'a', [], 'x', {}, 17)], 2)
    0
    >>> complete_rounds([GameRecord('a', 'b', [], 'x', {}, 10000), GameRecord('b', 'a', [], 'x', {}, 20000)], 2)
    1
    """
    played: dict[int, int] = {}
    for g in records:
        played[g.seed % 10_000] = played.get(g.seed % 10_000, 0) + 1
    rounds = 0
    while played.get(rounds, 0) == pairs:
        rounds += 1
    return rounds


def _status(stopped: str | None) -> int:
    """Exit status: 130 after Ctrl-C (the finished games were shown and saved), else 0."""
    return 130 if stopped == "interrupted" else 0


PARSER_DEFAULTS = {"table": None, "ratings": None, "bootstrap": 200}


def bootstrap_samples(text: str) -> int:
    """argparse type: a number of bootstrap samples, 0..:data:`MAX_BOOTSTRAP`.

    >>> bootstrap_samples('-1')
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-1' is not a number of bootstrap samples; expected 0..100,000
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_BOOTSTRAP or not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{shown(text, 20)} is not a number of bootstrap samples; expected "
                                         f"0..{MAX_BOOTSTRAP:,}")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("match", description=plain(__doc__))
    parser.add_argument("players", nargs="*", metavar="PLAYER",
                        help="two players NAME[:key=value,...] (round robin: any, default all): "
                             f"{', '.join(player_names())}")
    parser.add_argument("--games", type=positive_int, default=2, metavar="N",
                        help=f"games per series (round robin: per ordered pair), 1..{MAX_GAMES:,}, and at most "
                             f"{MAX_GAMES:,} in all of a round robin; default 2")
    parser.add_argument("--swap-sides", action="store_true", help="A and B change sides every game")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed for players that take one")
    parser.add_argument("--jobs", type=positive_int, default=1, metavar="J", help="worker processes (default 1)")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SEC",
                        help="start no new game after this many seconds")
    parser.add_argument("--save", metavar="FILE", help="write every game as JSON")
    parser.add_argument("--round-robin", action="store_true",
                        help="every player against every other, both sides; prints a markdown cross table")
    parser.add_argument("--table", metavar="FILE", help="round robin: also write the cross table here")
    parser.add_argument("--ratings", metavar="FILE", help="round robin: also write the ratings as JSON here")
    parser.add_argument("--bootstrap", type=bootstrap_samples, default=PARSER_DEFAULTS["bootstrap"], metavar="N",
                        help=f"round robin: bootstrap samples for the ratings' 95%% intervals, 0..{MAX_BOOTSTRAP:,} "
                             "(default 200; the time limit stops them early)")
    parser.add_argument("--opening", type=int, default=0, choices=range(0, 9), metavar="K",
                        help="play the first K moves (0..8) of every game at random, from its seed (default 0)")
    parser.set_defaults(func=run)
