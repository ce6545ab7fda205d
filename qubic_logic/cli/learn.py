"""``qubic learn BRAIN --against NAME --games N``: train Doake's 1972 program into a brain file.

The brain (SQLite) keeps the learned TEST/SUTEST patterns and every game,
one transaction per game: Ctrl-C, --time-limit or even a crash keeps every
finished game. Training is seeded (game n of a brain uses seed S and n), so
the same command on a fresh file gives the same brain. Other actions, in
the order given here, run after training: --evaluate plays the frozen brain
against fixed opponents, --report lists the patterns, --curve draws the
learning curve (.png, .svg or .csv), --export writes the patterns as ASP
(.lp) or Prolog (.pl) rules.
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..errors import QubicError
from ..players import make_player, player_names
from ..players.doake.report import evaluation_rows, pattern_rows
from ..players.doake.store import Brain
from ..players.doake.train import SELF, evaluate, train, wilson
from ._common import check_output, positive_int, seconds
from ._terminal import plain, say, console as terminal_console


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("{task.fields[status]}"), console=console, transient=True,
                    disable=not console.is_terminal)


def _train(brain: Brain, args: argparse.Namespace, err: Console) -> bool:
    """Train as the arguments say and print the summary; True when Ctrl-C stopped it."""
    with _progress(err) as bar:
        task = bar.add_task(f"training v {args.against}", total=args.games, status="")

        def advance(row) -> None:
            bar.update(task, advance=1, status=f"game {row.number}: {row.result}, {row.patterns} patterns")

        summary = train(brain, args.against, args.games, args.seed, args.reading, args.time_limit, advance)
    how = "" if summary.complete else f" (stopped early: {summary.played} of {args.games} games; all kept)"
    err.print(f"trained {summary.played} games v {args.against}: {summary.wins} won, {summary.draws} drawn, "
              f"{summary.losses} lost; {summary.learned} new patterns; "
              f"{summary.games_per_second:.1f} games/s{how}", highlight=False)
    return summary.interrupted


def _evaluate(brain: Brain, args: argparse.Namespace, err: Console) -> None:
    for opponent in args.evaluate:
        with _progress(err) as bar:
            task = bar.add_task(f"evaluating v {opponent}", total=args.eval_games, status="")
            e = evaluate(brain, opponent, args.eval_games, args.seed, args.jobs, args.time_limit,
                         lambda r: bar.advance(task), args.reading)
        low, high = wilson(e.wins, e.games)
        say(f"after {e.after_games} training games v {opponent}: {e.wins} won, {e.draws} drawn, {e.losses} lost "
              f"of {e.games}; win rate {e.wins / max(e.games, 1):.1%} (95% CI {low:.1%}-{high:.1%})")


def _report(brain: Brain) -> None:
    console = Console(width=None if Console().is_terminal else 140)
    table = Table(title=f"{brain.path}: {brain.game_count()} training games")
    for col in ("table", "col", "line sums", "colour", "AJUST", "taught by game", "fired"):
        table.add_column(col, justify="left" if col in ("table", "line sums", "colour") else "right")
    for row in pattern_rows(brain.tables()):
        table.add_row(*row)
    console.print(table)
    rows = evaluation_rows(brain.evaluations())
    if rows:
        ev = Table(title="evaluations (sides swap every game)")
        for col in ("after games", "opponent", "games", "won", "drawn", "lost", "win rate (95% CI)"):
            ev.add_column(col)
        for row in rows:
            ev.add_row(*row)
        console.print(ev)


def run(args: argparse.Namespace) -> int:
    actions = args.against or args.evaluate or args.report or args.curve or args.export
    if not actions:
        raise QubicError("nothing to do; expected --against NAME --games N, --evaluate, --report, "
                         "--curve FILE or --export FILE")
    if args.against and args.games is None:
        raise QubicError("--against needs --games N (how many training games)")
    for spec in ([args.against] if args.against and args.against != SELF else []) + (args.evaluate or []):
        make_player(spec)  # an unknown player fails before a brain file is created
    check_output(args.curve, args.export, names=("--curve", "--export"))  # before hours of training, not after
    brain = Brain(args.brain, create=bool(args.against or args.evaluate))
    err = terminal_console(stderr=True)
    try:
        if args.against and _train(brain, args, err):
            return 130  # Ctrl-C: the finished games are kept; nothing else is done
        if args.evaluate:
            _evaluate(brain, args, err)
        if args.report:
            _report(brain)
        if args.curve:
            from ..players.doake.curve import write_curve

            write_curve(brain, args.curve, args.window)
            err.print(f"wrote the learning curve to {args.curve}")
        if args.export:
            from ..players.doake.export import write_rules

            n = write_rules(brain.tables(), args.export)
            err.print(f"wrote {n} patterns as rules to {args.export}")
    finally:
        brain.close()
    return 0


def _players(text: str) -> list[str]:
    return [t for t in text.split(",") if t]


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("learn", description=plain(__doc__))
    parser.add_argument("brain", metavar="BRAIN", help="the brain file (SQLite; created by the first training run)")
    parser.add_argument("--against", metavar="NAME",
                        help=f"train against a player NAME[:key=value,...] or {SELF}: {', '.join(player_names())}")
    parser.add_argument("--games", type=positive_int, metavar="N", help="training games to play")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of training and evaluation (default 0)")
    parser.add_argument("--reading", choices=["plausible", "literal"], default="plausible",
                        help="read the listing's bugs as intended (default) or literally")
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SEC",
                        help="start no new game after this many seconds (finished games are kept)")
    parser.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                        help="worker processes for evaluation games (training is sequential: it learns after each game)")
    parser.add_argument("--evaluate", type=_players, metavar="NAMES",
                        help="after training, play the frozen brain against these players (comma-separated)")
    parser.add_argument("--eval-games", type=positive_int, default=200, metavar="N",
                        help="games per evaluation opponent, sides swapping (default 200)")
    parser.add_argument("--report", action="store_true", help="list the learned patterns and the evaluations")
    parser.add_argument("--curve", metavar="FILE", help="draw the learning curve: FILE.png, FILE.svg or FILE.csv")
    parser.add_argument("--window", type=positive_int, default=50, metavar="W",
                        help="games in the curve's rolling win rate (default 50)")
    parser.add_argument("--export", metavar="FILE", help="write the patterns as rules: FILE.lp (ASP) or FILE.pl (Prolog)")
    parser.set_defaults(func=run)
