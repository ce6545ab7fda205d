"""``qubic puzzles``: "X to move wins in N" puzzles from seeded games, as JSON for teachers."""

from __future__ import annotations

import argparse
import json


from ..errors import QubicError
from ..notation import diagram
from ..puzzles import SOURCES, generate
from ..saving import write_atomically
from ..wording import counted
from ._common import check_output, non_negative_int, positive_int
from ._terminal import say, console as terminal_console


def run(args: argparse.Namespace) -> int:
    if args.min_length > args.max_length:
        raise QubicError(f"--min-length {args.min_length} is above --max-length {args.max_length}")
    if args.min_length < 2:
        raise QubicError("--min-length must be at least 2 (a win in 1 is no puzzle)")
    check_output(args.output)
    err = terminal_console(stderr=True)
    with err.status("playing games for puzzles…") as status:
        found = generate(args.count, args.seed, args.min_length, args.max_length, args.source,
                         progress=lambda n, g: status.update(
                             f"playing games for puzzles… {n} found in {g} games"))
    doc = {"seed": args.seed, "source": args.source, "min_length": args.min_length,
           "max_length": args.max_length, "puzzles": [q.to_json() for q in found]}
    if args.output:
        write_atomically(args.output, json.dumps(doc, indent=1) + "\n")
    else:
        say(json.dumps(doc, indent=1))
    if len(found) < args.count:
        err.print(f"found only {len(found)} of {args.count} puzzles; widen the lengths or change --seed")
    if args.output:
        for q in found:
            say(f"{q.title} ({q.grade}, {len(q.solutions)} winning first moves)\n{diagram(q.position)}\n")
        say(f"wrote {counted(len(found), 'puzzle')} to {args.output}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("puzzles")
    parser.add_argument("--count", type=positive_int, default=10, help="how many puzzles (default 10)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="seed of the games (default 0)")
    parser.add_argument("--min-length", type=positive_int, default=3, metavar="N",
                        help="least minimal length, attacker moves (default 3)")
    parser.add_argument("--max-length", type=positive_int, default=7, metavar="N",
                        help="greatest minimal length (default 7)")
    parser.add_argument("--source", choices=SOURCES, default="random",
                        help="random games, or self-play of greedy against greedy (default random)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the JSON to FILE (default: standard output)")
    parser.set_defaults(func=run)
