"""``qubic reply NAME GAME``: the move the named player makes after the given moves."""

from __future__ import annotations

import argparse

from ..errors import IllegalMoveError
from ..players import make_player, player_names
from ._common import cell_names, json_arg, notation_arg, print_json
from ._game import game_arg, game_of
from ._terminal import say


def run(args: argparse.Namespace) -> int:
    game = game_of(args)
    if game.position.is_over:
        raise IllegalMoveError("the game is already over; expected a game with a move to make")
    player = make_player(args.player)
    side = game.position.to_move
    move = player.choose(game)
    names = cell_names(args)
    if args.json:
        print_json({"player": args.player, "side": side, "move": move.cell, "notation": names.form,
                    "cell": names.cell(move.cell), "explanation": move.explain(names)})
        return 0
    say(f"{args.player} ({side.upper()}) plays {names.cell(move.cell)}: {move.explain(names)}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("reply")
    parser.add_argument("player", metavar="NAME",
                        help=f"a player NAME[:key=value,...] (e.g. mccarthy:depth=3): {', '.join(player_names())}")
    game_arg(parser)
    notation_arg(parser)
    json_arg(parser)
    parser.set_defaults(func=run)
