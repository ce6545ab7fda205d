"""``qubic win POSITION``: the shortest forced win by threat sequence (docs/design.md §3)."""

from __future__ import annotations

import argparse

from ..engines import ENGINE_NAMES
from ..wording import counted
from ._common import (
    DECLARATIVE_TIME_LIMIT, ENGINE_DEFAULT, cell_names, declarative_time_limit, json_arg, memory_limit_arg, notation_arg,
    position_arg, positive_int, print_json, seconds, supervised_engine,
)
from ._terminal import say


def run(args: argparse.Namespace) -> int:
    args.position.require_in_play()
    engine = supervised_engine(args)
    try:
        win = engine.shortest_forced_win(args.position, args.max_length, declarative_time_limit(args))
    finally:
        if hasattr(engine, "close"):
            engine.close()
    if args.json:
        print_json(win.to_json())
        return 0
    bound = f" within {counted(args.max_length, 'move')}" if args.max_length else ""
    nodes = f"{counted(win.nodes, 'node')}, " if win.nodes else ""
    if not win.found:
        say(f"{win.attacker.upper()} to move has no forced win by threat sequence{bound} "
              f"[{win.engine}, {nodes}{win.seconds:.3f} s]")
        return 0
    say(f"{win.attacker.upper()} wins in {win.length} move{'s' * (win.length != 1)}: {cell_names(args).cells(win.sequence)} "
          f"[{win.engine}, {nodes}{win.seconds:.3f} s]")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("win")
    position_arg(parser)
    parser.add_argument("--max-length", type=positive_int, default=None, metavar="N",
                        help="longest win to look for, in attacker moves (default: no bound)")
    parser.add_argument("--time-limit", type=seconds, default=ENGINE_DEFAULT, metavar="S",
                        help=f"seconds before giving up (default: none for native/python, "
                             f"{DECLARATIVE_TIME_LIMIT:g} for asp/prolog; inf for none)")
    parser.add_argument("--engine", default="auto", choices=ENGINE_NAMES,
                        help="which engine answers: asp (clingo), prolog (SWI-Prolog), native, python, "
                        "or auto (default: native when built, else python)")
    memory_limit_arg(parser)
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
