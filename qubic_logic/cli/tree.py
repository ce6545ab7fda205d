"""``qubic tree POSITION``: the force tree of the side to move, drawn or printed.

Writes SVG/PNG (Graphviz), an offline interactive HTML page, DOT, JSON or a
text tree (``-o FILE``, format from ``--format`` or the file's suffix; without
``-o`` the text tree goes to the terminal), then one summary line: nodes,
winning first moves, minimal length. ``--graph`` merges transpositions (and
with ``--symmetric`` positions equal up to symmetry) into one node and
reports both node counts.
"""

from __future__ import annotations

import argparse
import sys
import time


from ..engines import ENGINE_NAMES
from ..errors import QubicError
from ..forcegraph import force_graph
from ..forcetree import force_tree
from ..render import FORMATS, format_for_path, render_tree, write_tree
from ._common import (
    DECLARATIVE_TIME_LIMIT, ENGINE_DEFAULT, cell_names, check_output, declarative_time_limit, memory_limit_arg, notation_arg,
    position_arg, positive_int, seconds, supervised_engine,
)
from ._terminal import say, console as terminal_console


def run(args: argparse.Namespace) -> int:
    fmt = args.format or (format_for_path(args.output) if args.output else "text")
    names = cell_names(args)
    args.notation = names.form
    err = terminal_console(stderr=True)
    start = time.perf_counter()
    args.position.require_in_play()
    check_output(args.output)
    engine = supervised_engine(args)
    time_limit = declarative_time_limit(args)
    with err.status("growing the force tree…") as status:
        try:
            tree = force_tree(args.position, engine=engine, max_length=args.max_length,
                              max_nodes=args.max_nodes, only_winning=args.only_winning, time_limit=time_limit,
                              progress=lambda n: status.update(f"growing the force tree… {n} nodes"))
        finally:
            if hasattr(engine, "close"):
                engine.close()
    if args.graph or args.symmetric:
        tree = force_graph(tree, symmetric=args.symmetric)
    seconds = time.perf_counter() - start
    stopped = {"max_nodes": f"node cap of {args.max_nodes} nodes reached",
               "time_limit": f"time limit of {time_limit} s reached",
               "interrupted": "interrupted"}.get(tree.graph["truncated"])
    if stopped:
        err.print(f"{stopped}: the tree is incomplete (unexpanded nodes are marked cut); raise "
                  "--max-nodes or --time-limit, or add --only-winning or --max-length", highlight=False,
                  soft_wrap=True)
    if args.output:
        write_tree(tree, args.output, fmt, args.notation)
        where = f"; wrote {fmt} to {args.output}"
    elif fmt == "text":
        from ..render.text import rich_tree

        terminal_console().print(rich_tree(tree, args.notation))
        where = ""
    elif fmt == "png":
        raise QubicError("PNG is binary: give a file with -o FILE.png")
    else:
        sys.stdout.write(render_tree(tree, fmt, args.notation).decode())
        where = ""
    say(f"{tree.summary(names)} [{tree.graph['engine']}, {seconds:.2f} s{where}]",
          file=sys.stderr if not args.output and fmt != "text" else sys.stdout)
    return 130 if tree.graph["truncated"] == "interrupted" else 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("tree", help="the force tree of the side to move: every forcing line, drawn")
    position_arg(parser)
    parser.add_argument("--engine", default="auto", choices=ENGINE_NAMES,
                        help="which engine answers the threats (default auto: native when built)")
    parser.add_argument("--max-length", type=positive_int, default=None, metavar="N",
                        help="longest win to follow, in attacker moves (default: no bound)")
    parser.add_argument("--max-nodes", type=positive_int, default=5000, metavar="N",
                        help="stop growing at N nodes (default 5000)")
    parser.add_argument("--time-limit", type=seconds, default=ENGINE_DEFAULT, metavar="S",
                        help=f"stop growing after S seconds (default: none for native/python, "
                             f"{DECLARATIVE_TIME_LIMIT:g} for asp/prolog; inf for none)")
    memory_limit_arg(parser)
    parser.add_argument("--only-winning", action="store_true",
                        help="keep only attacker moves that start a forced win")
    parser.add_argument("--graph", action="store_true",
                        help="draw the force graph: one node per position (transpositions merged)")
    parser.add_argument("--symmetric", action="store_true",
                        help="with --graph, also merge positions equal up to symmetry (implies --graph)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="svg | png | html | dot | json | text (default: from -o's suffix, else text)")
    parser.add_argument("-o", "--output", metavar="FILE", default=None, help="write the tree to FILE")
    notation_arg(parser)
    parser.set_defaults(func=run)
