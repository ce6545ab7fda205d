"""``qubic check RULES_FILE``: check a user's rule (ASP or Prolog) over every position it names."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ..claims.rulecheck import check_rules
from ..geometry import cells_of
from ..errors import IllegalPositionError, Interrupted, QueryTimeout
from ..notation import diagram
from ..position import Position
from ..wording import counted
from ._common import cell_names, json_arg, memory_limit_arg, notation_arg, print_json, seconds
from ._terminal import say, console as terminal_console


def _picture(x: int, o: int) -> str:
    try:
        return diagram(Position(x, o))
    except IllegalPositionError:
        return ""  # not a game position (e.g. marks of one side only): the cell lists say it all


@contextmanager
def _counted() -> Iterator[None]:
    """Say how far a stopped check got (the worker reports ``(done, total)``)."""
    try:
        yield
    except (QueryTimeout, Interrupted) as exc:
        if isinstance(exc.partial, tuple):
            exc.args = (f"{exc} after {exc.partial[0]} of {exc.partial[1]} positions",)
        raise


def run(args: argparse.Namespace) -> int:
    err = terminal_console(stderr=True)
    with Progress(TextColumn("checking"), BarColumn(), TextColumn("{task.completed}/{task.total} positions"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("check", total=None)
        with _counted():
            result = check_rules(args.rules_file, stop_at_first=not args.all, time_limit=args.time_limit,
                                 memory_limit=args.memory_limit,
                                 progress=lambda done, total: progress.update(task, completed=done, total=total))
    domains = ", ".join(str(d) for d in result.domains)
    if args.json:
        print_json({"rules": args.rules_file, "engine": result.engine, "domains": domains,
                    "checked": result.checked, "holds": result.holds, "seconds": round(result.seconds, 3),
                    "notation": "index",
                    "counterexamples": [{"x": cells_of(case.x), "o": cells_of(case.o),
                                         "move": case.move if case.move >= 0 else None, "why": why}
                                        for case, why in result.counterexamples]})
        return 0 if result.holds else 1
    if result.holds:
        say(f"the rule holds in all {counted(result.checked, 'position')} of {domains} "
              f"[{result.engine}, {result.seconds:.1f} s]")
        return 0
    found = len(result.counterexamples)
    say(f"the rule FAILS: {found} counterexample{'s' * (found != 1)} "
          f"({counted(result.checked, 'position')} of {domains} checked) [{result.engine}, {result.seconds:.1f} s]")
    for case, why in result.counterexamples:
        say(f"counterexample: {case.describe(cell_names(args))}" + (f"\n  {why}" if why else ""))
        picture = _picture(case.x, case.o)
        if picture:
            say(picture)
    return 1


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("check", description="The file names its positions with domain(...) facts and defines "
                                                   "violated where the rule fails; see docs/checks.md.")
    parser.add_argument("rules_file", metavar="RULES_FILE", help="an ASP (.lp) or Prolog (.pl) rules file")
    parser.add_argument("--all", action="store_true", help="find every counterexample (default: stop at the first)")
    parser.add_argument("--time-limit", type=seconds, default=600.0, metavar="S",
                        help="seconds (default 600; inf for none)")
    memory_limit_arg(parser)
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
