"""``qubic threats POSITION``: threat cells, forcing moves and major cells of both sides."""

from __future__ import annotations

import argparse

from ..core import CORE_NAME, threats
from ..geometry import cells_of
from ._common import cell_names, json_arg, notation_arg, position_arg, print_json
from ._terminal import say


def run(args: argparse.Namespace) -> int:
    t = threats(args.position.require_in_play())
    data = {
        side: {
            "threats": cells_of(t.of(side)),
            "forcing_moves": cells_of(t.forcing_x if side == "x" else t.forcing_o),
            "major_cells": cells_of(t.major_x if side == "x" else t.major_o),
        }
        for side in ("x", "o")
    }
    if args.json:
        print_json({"engine": CORE_NAME, "to_move": args.position.to_move, **data})
        return 0
    for side, parts in data.items():
        for name, cells in parts.items():
            say(f"{side.upper()} {name.replace('_', ' ')}: {cell_names(args).cells(cells)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("threats")
    position_arg(parser)
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
