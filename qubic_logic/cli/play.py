"""``qubic play --x human --o mcdaniel``: a game in the terminal.

Either side is human or a registered player. A human types a move in any
notation (421, .421, 53; a bare number is read in --notation, default
index 0..63) or a command; the board names cells in --notation, else in the
notation of the moves typed (421 or .421)::

  undo      take back the last human move (and the engine's reply)
  hint      is there a forced win by threat sequence, and its first move
  save F    write the move list to file F (McDaniel form, written atomically)
  load F    replace the game by the move list in file F
  help      this list
  quit      leave the game

Engines print their move with its explanation. Bad input re-prompts with
what is expected; end of input (Ctrl-D) or Ctrl-C leaves the game cleanly.
"""

from __future__ import annotations

import argparse
import re
import sys

from rich.console import Console
from rich.markup import escape

from ..errors import NotationError, QubicError
from ..hints import hint
from ..notation import CellNames, format_mcdaniel, input_notation, read_move, shown
from ..players import make_player, player_names
from ..position import Game
from ..saving import write_atomically
from ..wording import counted
from ._board import LEGEND, board_text
from ._common import notation_arg
from ._terminal import console as terminal_console, plain, width_of
from ._game import read_game_file

HUMAN = "human"
COMMANDS = "a move (e.g. {example}), undo, hint, save FILE, load FILE, help or quit"


class Quit(Exception):
    """The user left the game."""


class Session:
    """One terminal game: the game, who plays each side, and the console."""

    def __init__(self, args: argparse.Namespace, console: Console) -> None:
        self.console = console
        self.fixed = args.notation is not None  # else the board follows the notation of the moves typed
        self.cells = CellNames(args.notation or "index")
        self.names = {"x": args.x, "o": args.o}
        self.players = {s: None if n == HUMAN else make_player(n) for s, n in self.names.items()}
        self.game = read_game_file(args.load) if args.load else Game()
        self.shown = False  # the board is drawn once per turn, when it has changed

    @property
    def notation(self) -> str:
        return self.cells.form

    @property
    def example(self) -> str:
        return self.cells.cell(21)

    def who(self, side: str) -> str:
        return f"{side.upper()} ({self.names[side]})"

    def show(self) -> None:
        if self.shown:
            return
        last = self.game.moves[-1] if self.game.moves else None
        self.console.print(board_text(self.game.position, self.notation, last))
        self.console.print(LEGEND, style="dim")
        self.shown = True

    def result(self) -> str:
        p = self.game.position
        if p.winner:
            return f"{self.who(p.winner)} wins on {self.cells.cells(p.winning_line)} after {counted(len(self.game.moves), 'move')}."
        return f"Draw: the board is full after {counted(len(self.game.moves), 'move')}."

    def play(self) -> str:
        while not self.game.position.is_over:
            side = self.game.position.to_move
            engine = self.players[side]
            if engine is None:
                self.show()
                self.human_turn(side)
                continue
            move = engine.choose(self.game)
            self.game.play(move.cell)
            self.shown = False
            self.console.print(f"{self.who(side)} plays {self.cells.cell(move.cell)}: {move.explain(self.cells)}")
            if all(self.players.values()):  # engines on both sides: every move is a turn to watch
                self.show()
        self.show()
        self.tell_the_end()
        return self.result()

    def tell_the_end(self) -> None:
        """Tell each program that the game is over (Doake's learns from it) and print what it says."""
        for side, player in self.players.items():
            game_over = getattr(player, "game_over", None)
            if game_over is not None:
                said = game_over(self.game, side, self.names["o" if side == "x" else "x"])
                if said:
                    self.console.print(f"{self.who(side)}: {said}")

    def human_turn(self, side: str) -> None:
        width = width_of(sys.stdout)
        if width:
            self.console.width = width  # the window may have been resized since the last turn
        try:
            text = input(f"{self.who(side)} to move> ").strip()  # the plain prompt keeps its space
        except EOFError:
            raise Quit from None
        word, _, rest = text.partition(" ")
        try:
            if word in ("quit", "exit"):
                raise Quit
            if word == "help":
                self.console.print(__doc__.split("\n\n", 1)[1].replace("::", ":"))
            elif word == "undo":
                self.undo()
            elif word == "hint":
                self.console.print(hint(self.game, self.cells))
            elif word == "save" and rest:
                write_atomically(rest.strip(), format_mcdaniel(self.game.moves) + "\n")
                self.console.print(f"saved {counted(len(self.game.moves), 'move')} to {rest.strip()}")
            elif word == "load" and rest:
                self.game = read_game_file(rest.strip())
                self.shown = False
                self.console.print(f"loaded {counted(len(self.game.moves), 'move')} from {rest.strip()} "
                                   f"(moves: {format_mcdaniel(self.game.moves) or 'none'}); "
                                   f"{self.game.position.to_move.upper()} to move")
            elif word in ("save", "load"):
                self.console.print(f"{word} needs a file name, e.g. {word} game.txt")
            elif text:
                try:
                    cell = read_move(text, self.notation)
                except NotationError:
                    raise NotationError(f"{shown(text)} is not a move or a command") from None
                self.game.play(cell)
                self.shown = False
                if not self.fixed and input_notation(text) in ("lrc", "hp67"):
                    self.cells = CellNames(input_notation(text))
            else:
                self.console.print(f"expected {COMMANDS.format(example=self.example)}")
        except Quit:
            raise
        except (QubicError, OSError) as exc:
            message = str(exc)
            if isinstance(exc, NotationError) or not re.search(r"\bexpected\b", message):
                message += f"; expected {COMMANDS.format(example=self.example)}"
            self.console.print(f"[red]{escape(message)}[/red]", highlight=False)
        except Exception as exc:  # a bug must not cost the game: say it and go on
            self.console.print(f"[red]internal error: {type(exc).__name__}: {escape(str(exc)[:200])}[/red] "
                               "(please report it); the game goes on", highlight=False)

    def undo(self) -> None:
        """Take back moves until it is a human's turn again, one human move back."""
        if not self.game.moves:
            self.console.print("nothing to undo")
            return
        self.game.undo()
        while self.game.moves and self.players[self.game.position.to_move] is not None:
            self.game.undo()
        self.show()


def run(args: argparse.Namespace) -> int:
    for spec in (args.x, args.o):
        if spec != HUMAN:
            make_player(spec)  # an unknown name or option fails before the game starts
    console = terminal_console()
    session = Session(args, console)
    try:
        console.print(session.play(), style="bold")
    except (Quit, KeyboardInterrupt):
        moves = format_mcdaniel(session.game.moves) or "none"
        console.print(f"\ngame left after {counted(len(session.game.moves), 'move')} (moves: {moves})")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", description=plain(__doc__), formatter_class=argparse.RawDescriptionHelpFormatter)
    choices = f"{HUMAN} or a player NAME[:key=value,...]: {', '.join(player_names())}"
    parser.add_argument("--x", default=HUMAN, metavar="NAME", help=f"who plays X: {choices} (default human)")
    parser.add_argument("--o", default="solver", metavar="NAME", help="who plays O (default solver)")
    parser.add_argument("--load", metavar="FILE", help="start from the move list in FILE")
    notation_arg(parser)
    parser.set_defaults(func=run)
