"""``qubic tree POSITION``: the force tree of the side to move, drawn or printed.

Writes SVG/PNG (Graphviz), an offline interactive HTML page, DOT, JSON or a
text tree (``-o FILE``, format from ``--format`` or the file's suffix; without
``-o`` the text tree goes to the terminal), then one summary line: nodes,
winning first moves, minimal length. ``--graph`` merges transpositions (and
with ``--symmetric`` positions equal up to symmetry) into one node and
reports both node counts. Each threat and its forced reply are folded into one
step ("X 16 · O 17") unless ``--unfold``.

Pictures (svg, png, pdf, dot) of large graphs open on the principal variation
and its branch points, the other branches collapsed ("+37 positions");
``--max-depth N`` shows every step up to N, ``--all`` every node. PNG and SVG
stay within ``--width`` pixels (2,400); a PDF is whole ``--paper`` pages (A4 or
Letter, landscape for a wide part), split by subtree, text never under 8 points.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING


from ..engines import ENGINE_NAMES
from ..errors import QubicError
from ..forcegraph import fold_forced, force_graph
from ..forcetree import ForceTree, force_tree
from ..render import FORMATS, Drawing, format_for_path, render_tree, write_tree
from ..render.pages import PAPERS
from ._common import (
    DECLARATIVE_TIME_LIMIT, ENGINE_DEFAULT, cell_names, check_output, declarative_time_limit, memory_limit_arg, notation_arg,
    position_arg, positive_int, seconds, supervised_engine,
)
from ._terminal import say, console as terminal_console

if TYPE_CHECKING:
    from ..core import ForcedWin
    from ..notation import CellNames


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
            win = None
            if tree.graph["truncated"] == "max_nodes" and tree.length is None:  # one the tree did not reach?
                left = None if time_limit is None else time_limit - (time.perf_counter() - start)
                if left is None or left > 0:
                    win = engine.shortest_forced_win(args.position, args.max_length, left)
        finally:
            if hasattr(engine, "close"):
                engine.close()
    if args.graph or args.symmetric:
        tree = force_graph(tree, symmetric=args.symmetric)
    if not args.unfold:
        tree = fold_forced(tree)
    drawing = Drawing(everything=args.all, max_depth=args.max_depth, width=args.width, paper=args.paper)
    seconds = time.perf_counter() - start
    if tree.graph["truncated"]:
        err.print(incomplete(tree, args, time_limit, win, names), highlight=False, soft_wrap=True)
    if args.output:
        write_tree(tree, args.output, fmt, args.notation, drawing)
        where = f"; wrote {fmt} to {args.output}"
    elif fmt == "text":
        from ..render.text import rich_tree

        terminal_console().print(rich_tree(tree, args.notation, args.max_depth))
        where = ""
    elif fmt in ("png", "pdf"):
        raise QubicError(f"{fmt.upper()} is binary: give a file with -o FILE.{fmt}")
    else:
        sys.stdout.write(render_tree(tree, fmt, args.notation, drawing).decode())
        where = ""
    say(f"{tree.summary(names)} [{tree.graph['engine']}, {seconds:.2f} s{where}]",
          file=sys.stderr if not args.output and fmt != "text" else sys.stdout)
    return 130 if tree.graph["truncated"] == "interrupted" else 0


def incomplete(tree: ForceTree, args: argparse.Namespace, time_limit: float | None, win: ForcedWin | None,
               names: CellNames) -> str:
    """Why the tree stopped growing, what it shows all the same, and what to change: only options the
    command does not have yet. ``win``: the engine's shortest forced win from the root, asked when the
    node cap came before the tree reached any (None: not asked).

    >>> from argparse import Namespace
    >>> from qubic_logic.forcetree import force_tree
    >>> from qubic_logic.notation import CellNames, parse_position
    >>> t = force_tree(parse_position('1-2,22-52,27-4'), engine='python', max_nodes=5, only_winning=True)
    >>> given = Namespace(max_nodes=5, only_winning=True, max_length=None)
    >>> for part in incomplete(t, given, None, None, CellNames()).split('; '):
    ...     print(part)
    the node cap of 5 nodes was reached: the tree is incomplete (unexpanded nodes are marked cut)
    it shows a win in 6, not every winning line
    raise --max-nodes, or bound the wins with --max-length
    """
    hit = tree.graph["truncated"]
    if hit == "interrupted":
        return "interrupted: the tree is incomplete (unexpanded nodes are marked cut)"
    limit = (f"the node cap of {args.max_nodes:,} nodes" if hit == "max_nodes"
             else f"the time limit of {time_limit:g} s")
    lines = "winning line" if args.only_winning else "forcing line"
    if tree.length is not None:
        shows = f"it shows a win in {tree.length}, not every {lines}"
    elif win is not None and win.found:
        shows = (f"it shows no win, but {win.attacker.upper()} wins in {win.length} by the engine "
                 f"({names.cells(win.sequence[:8])}{' …' if len(win.sequence) > 8 else ''})")
    else:
        shows = "it shows no forced win" + (", and there is none" if win is not None else "")
    changes = [f"raise {'--max-nodes' if hit == 'max_nodes' else '--time-limit'}"]
    if not args.only_winning:
        first = win is not None and win.found  # the way to draw the win the engine found
        changes.insert(0 if first else 1, "add --only-winning to follow only the moves that win")
    if args.max_length is None:
        changes.append("bound the wins with --max-length")
    return f"{limit} was reached: the tree is incomplete (unexpanded nodes are marked cut); {shows}; " \
           + ", or ".join(changes)


def picture_width(text: str) -> int:
    """``--width``: a whole number of pixels from 200 to 10,000."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of pixels (200..10000)") from None
    if not 200 <= value <= 10000:
        raise argparse.ArgumentTypeError(f"{value} pixels is out of range; expected 200..10000")
    return value


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("tree")
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
    parser.add_argument("--unfold", action="store_true",
                        help="one edge per move (default: a threat and its forced reply are one step)")
    parser.add_argument("--max-depth", type=positive_int, default=None, metavar="N",
                        help="pictures and text: show every step up to N from the root (default: pictures "
                             "of large graphs show the principal variation and its branch points)")
    parser.add_argument("--all", action="store_true", help="pictures: draw every node, however large")
    parser.add_argument("--width", type=picture_width, default=2400, metavar="PX",
                        help="pictures: longest side in pixels, 200..10000 (default 2400)")
    parser.add_argument("--paper", choices=sorted(PAPERS), default="a4",
                        help="PDF pages: a4 or letter, upright or landscape, split by subtree (default a4)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help=f"{' | '.join(FORMATS)} (default: from -o's suffix, else text)")
    parser.add_argument("-o", "--output", metavar="FILE", default=None, help="write the tree to FILE")
    notation_arg(parser)
    parser.set_defaults(func=run)
