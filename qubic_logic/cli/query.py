"""``qubic query``: your own question, in ASP or Prolog, over the project's rules.

The project's rules (geometry, threats, forcing; docs/predicates.md) and
your ``--rules`` files are loaded with the position's facts ``x/1``, ``o/1``.
ASP: GOAL is program text (``#show`` what you want; without it every atom,
the project's included, is shown); the atoms of every model (or the optimal
ones) are printed. Prolog: GOAL is a goal; the bindings of each solution
are printed.
"""

from __future__ import annotations

import argparse
import re
import sys

from ..errors import Interrupted, QueryTimeout
from ._common import (
    json_arg, memory_limit_arg, non_negative_int, position_arg, print_json, seconds, supervised_engine,
)
from ._terminal import plain, say


def run(args: argparse.Namespace) -> int:
    engine = supervised_engine(args)
    answers: list = []  # models (atoms, costs) or solutions as they are found: kept when the query stops
    try:
        return _answer(engine, args, answers.append)
    except (QueryTimeout, Interrupted) as exc:
        if not answers and not args.json:
            raise
        _print_found(args, answers, "Ctrl-C" if isinstance(exc, Interrupted) else "the time limit")
        noun = "model" if args.engine == "asp" else "solution"
        raise type(exc)(f"{exc}; {len(answers)} {noun}{'s' * (len(answers) != 1)} found so far (printed)",
                        partial=answers) from None
    finally:
        engine.close()


def _print_found(args: argparse.Namespace, answers: list, reason: str) -> None:
    """What a query stopped by ``reason`` had found, printed as a finished one prints it."""
    if args.json:
        key = "models" if args.engine == "asp" else "solutions"
        print_json({"engine": args.engine, "stopped": reason,
                    key: [a[0] for a in answers] if args.engine == "asp" else answers})
    elif args.engine == "asp":
        for i, (atoms, costs) in enumerate(answers, 1):
            cost = f" (cost {' '.join(map(str, costs))})" if costs else ""
            print(f"Model {i}{cost}: {' '.join(atoms)}")
    else:
        for bindings in answers:
            print(", ".join(f"{name} = {value}" for name, value in bindings.items()) or "true.")


def _answer(engine, args: argparse.Namespace, on_found) -> int:
    if args.engine == "asp":
        result = engine.query(args.position, args.goal, args.rules, args.time_limit, models=args.models,
                              optimal=args.optimal, project=not args.every_model,
                              max_length=args.max_length, on_found=on_found)
        for warning in result.warnings:
            say(f"clingo: {warning}", file=sys.stderr)
        if args.json:
            print_json({"engine": "asp", "satisfiable": result.satisfiable, "models": result.atoms,
                        "costs": result.costs, "exhausted": result.exhausted})
            return 0
        for i, atoms in enumerate(result.atoms, 1):
            cost = f" (cost {' '.join(map(str, result.costs[i - 1]))})" if result.costs[i - 1] else ""
            say(f"Model {i}{cost}: {' '.join(atoms)}")
        state = "SATISFIABLE" if result.satisfiable else "UNSATISFIABLE"
        more = "" if result.exhausted or not result.satisfiable else ", more may exist"
        every = "" if _shows(args.goal, args.rules) else (
            "; the program has no #show, so every atom is shown, the project's rules' included: "
            "add e.g. '#show winning_move/3.' to choose")
        say(f"{state} ({len(result.models)} model{'s' * (len(result.models) != 1)} shown{more}{every})")
        return 0
    solutions = engine.query(args.position, args.goal, args.rules, args.time_limit, max_solutions=args.models,
                             on_found=on_found)
    if args.json:
        print_json({"engine": "prolog", "solutions": solutions})
        return 0
    for bindings in solutions:
        say(", ".join(f"{name} = {value}" for name, value in bindings.items()) or "true.")
    if not solutions:
        say("false.")
    return 0


def _shows(goal: str, rule_files: list[str]) -> bool:
    """Whether the ASP program (the goal and the user's rule files) has a ``#show`` directive.

    >>> _shows('#show m/1. m(X) :- x(X).', []), _shows('m(X) :- x(X).', [])
    (True, False)
    """
    texts = [goal]
    for path in rule_files:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                texts.append(f.read())
        except OSError:
            return True  # the engine reports the missing file
    return any(re.search(r"#show\b", t) for t in texts)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("query", description=plain(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", choices=["asp", "prolog"], required=True, help="the query language")
    parser.add_argument("--rules", metavar="FILE", action="append", default=[],
                        help="your own rule file (.lp or .pl) to load as well; repeat for several")
    position_arg(parser)
    parser.add_argument("goal", metavar="GOAL", help="ASP program text, or a Prolog goal")
    parser.add_argument("--models", type=non_negative_int, default=0, metavar="N",
                        help="at most N models (ASP) or solutions (Prolog); default 0 = all")
    parser.add_argument("--optimal", action="store_true", help="ASP: only optimal models (#minimize)")
    parser.add_argument("--every-model", action="store_true",
                        help="ASP: print models that differ only in hidden atoms too "
                        "(default: each set of shown atoms once)")
    parser.add_argument("--max-length", type=non_negative_int, default=0, metavar="N",
                        help="ASP: ground forcing.lp's rounds for forced wins up to length N")
    parser.add_argument("--time-limit", type=seconds, default=60.0, metavar="S",
                        help="seconds before giving up (default 60; inf for none)")
    memory_limit_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
