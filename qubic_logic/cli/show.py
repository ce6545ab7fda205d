"""``qubic show POSITION``: the 4-level diagram with threat cells marked."""

from __future__ import annotations

import argparse

from ..core import threats
from ..notation import format_position
from ..position import Position
from ._board import labelled_diagram
from ._common import cell_names, json_arg, notation_arg, position_arg, print_json
from ._terminal import say

LEGEND = "+ = X threat cell, * = O threat cell, # = both"


def threat_marks(position: Position) -> dict[int, str]:
    """Characters for the threat cells of both sides (see :data:`LEGEND`)."""
    t = threats(position)
    return {c: "#" if t.x >> c & 1 and t.o >> c & 1 else "+" if t.x >> c & 1 else "*"
            for c in range(64) if (t.x | t.o) >> c & 1}


def run(args: argparse.Namespace) -> int:
    p: Position = args.position
    if args.json:
        print_json({"qubic": format_position(p), "patashnik": format_position(p, "patashnik"),
                    "to_move": p.to_move, "winner": p.winner, "draw": p.is_draw,
                    "winning_line": list(p.winning_line or [])})
        return 0
    names = cell_names(args)
    say(labelled_diagram(p, threat_marks(p), names.form))
    status = f"{p.winner.upper()} has won on {names.cells(p.winning_line)}" if p.winner else (
        "draw" if p.is_draw else f"{p.to_move.upper()} to move")
    say(f"{status}; {LEGEND}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("show")
    position_arg(parser)
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
