"""``qubic review GAME``: every move of a game with the engines' verdict.

GAME is a move list (``1-2,22-52,27-4,10``, ``moves:0,1,21``, cells with spaces)
or a file holding one (a game saved by ``qubic play`` or the Play page).
Each move is marked: wins, forced (plays a forced win), missed (gives one up),
allowed (lets the opponent have one another move would have stopped), only
(the one move that stops the opponent's forced win), check, block, threat,
strategic (Patashnik's dictionary move); ``--json`` prints them as one object.
"""

from __future__ import annotations

import argparse
import os

from ..notation import format_mcdaniel, input_notation, parse_game
from ..review import review, summary
from ._common import json_arg, notation_arg, print_json
from ._terminal import plain, say
from ._game import read_game_file


def run(args: argparse.Namespace) -> int:
    game = read_game_file(args.game) if os.path.isfile(args.game) else parse_game(args.game)
    reviewed = review(game)
    # a saved game is a McDaniel move list: its cells are numbers 1..64
    form = args.notation or ("number" if os.path.isfile(args.game) else input_notation(args.game))
    if args.json:
        print_json({"game": format_mcdaniel(game.moves), "result": game.position.winner or
                    ("draw" if game.position.is_over else None), "summary": summary(reviewed),
                    "moves": [m.to_json(form) for m in reviewed]})
        return 0
    for m in reviewed:
        tags = f" [{', '.join(m.tags)}]" if m.tags else ""
        say(f"{m.number:3d}. {m.text(form)}{tags}")
    counts = summary(reviewed)
    say("; ".join(f"{s.upper()}: {c['missed']} missed, {c['allowed']} allowed" for s, c in counts.items()))
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("review", description=plain(__doc__))
    parser.add_argument("game", metavar="GAME", help="a move list, or a file holding one")
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
