"""The ``qubic`` command.

Each subcommand lives in its own module of this package, named in
:data:`COMMANDS`, and defines ``register(subparsers)``, which adds its parser
and sets ``func`` (a callable taking the parsed arguments and returning an
exit status). A command imports its own module only, and each module
imports its work inside the function that does it, so that ``qubic --help``
and a quick question start at once. Any
:class:`~qubic_logic.errors.QubicError` becomes one line on stderr and exit
status 2; Ctrl-C exits with status 130. Any other exception is a bug: it is
reported on one line too (exit status 2), with the traceback when
``QUBIC_DEBUG=1`` is set.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Sequence

from ..core import CORE_NAME
from ..errors import Interrupted, QubicError
from ..notation import cut_at_word, shown
from ._terminal import fit, say, width_of


MAX_MESSAGE = 1000  # characters of a usage error: ours quote long input cut already, and stay whole


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr, exit status 2."""

    def error(self, message: str):  # type: ignore[override]
        message = " ".join(message.split())  # arguments may hold newlines: still one line
        if len(message) > MAX_MESSAGE:  # argparse's own messages quote whole arguments
            message = f"{cut_at_word(message, MAX_MESSAGE)}… ({len(message)} characters)"
        self.exit(2, fit(f"{self.prog}: error: {message} (see {self.prog} --help)", width_of(sys.stderr)) + "\n")


COMMANDS: dict[str, str] = {  # each subcommand (the module of that name) and its line in ``qubic --help``
    "book": "the opening book: proven values and strategies up to N stones",
    "check": "check your own rule (ASP .lp or Prolog .pl) over the positions it names",
    "claims": "recompute the seeds' claims (ASP/Prolog, cross-checked) and compare",
    "learn": "train Doake's 1972 learning program into a brain file; report, plot, export",
    "list": "what ships: strategies, dictionaries or players, one line each",
    "match": "play a series between players, or a round robin",
    "play": "play a game in the terminal (human or engines on each side)",
    "puzzles": "write 'X to move wins in N' puzzles from seeded games as JSON",
    "query": "your own ASP program or Prolog goal over the project's rules",
    "reply": "the move a named player makes after the given moves",
    "review": "annotate every move of a game with the engines' verdict",
    "serve": "the pages (home, play, puzzles, lessons, analyse, verify) and the JSON API",
    "show": "draw a position with its threat cells",
    "solve": "proof-number search: does the side to move force a win?",
    "strategy": "convert or compress a strategy dictionary (Patashnik, wildcard, ASP, Prolog)",
    "threats": "threat cells, forcing moves and major cells of both sides",
    "tree": "the force tree of the side to move: every forcing line, drawn",
    "verify": "verify a strategy (rules, dictionary or player; or refute it) or a certificate",
    "win": "shortest forced win by threat sequence for the side to move",
}


class _Version(argparse.Action):
    """``--version``: print the version and the core in use, and exit (the version is read only then)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, default=argparse.SUPPRESS, nargs=0,
                         help="show the version and the core in use, and exit")

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        from .. import __version__

        print(f"qubic-logic {__version__} ({CORE_NAME} core)")
        parser.exit()


class _Commands(argparse._SubParsersAction):
    """The subcommands' action: each one's help line (and, unless it has its own, the description of its
    ``--help``) is its line in :data:`COMMANDS`."""

    def add_parser(self, name: str, **kwargs):  # type: ignore[override]
        about = COMMANDS[name]
        kwargs.setdefault("help", about)
        kwargs.setdefault("description", about[0].upper() + about[1:] + ("" if about.endswith("?") else "."))
        return super().add_parser(name, **kwargs)


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser; ``commands`` are the subcommands built in full (default: every one), the
    others only named, with their help line, so that building the parser imports their modules not.

    >>> parser = build_parser(['win'])
    >>> parser.parse_args(['win', '1-2']).position.count
    2
    >>> hasattr(parser.parse_args(['match']), 'func')   # only named: its module was not needed
    False
    """
    full = set(COMMANDS if commands is None else commands)
    parser = OneLineParser(
        prog="qubic", description="Analyse 4x4x4 tic-tac-toe (Qubic) declaratively."
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", action=_Commands)
    for name in sorted(COMMANDS):
        if name in full:
            importlib.import_module(f"{__name__}.{name}").register(sub)
        else:
            sub.add_parser(name)
    return parser


def command_in(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (``qubic`` itself takes
    only ``-h``, ``--help`` and ``--version``, none with a value).

    >>> command_in(['--help']), command_in(['win', '--json', '1-2'])
    (None, 'win')
    """
    return next((word for word in argv if not word.startswith("-")), None)


def one_line(message: str) -> str:
    """An error message as one line, each long word (a path, a witness, a pasted position) cut.

    >>> len(one_line('bad witness ' + ','.join(['1'] * 1000) + '\\n  at step 3'))
    163
    """
    return " ".join(shown(word, 120) if len(word) > 120 else word for word in message.split())


def _stop_on_sigterm() -> None:
    """``kill PID`` (SIGTERM) stops a command as Ctrl-C does: what it had is reported, workers stop.

    Only for a real command line: a background job's shell may have set SIGINT
    to be ignored, and SIGTERM is what stops it then.
    """
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, stop)


def main(argv: list[str] | None = None) -> int:
    """Run the command line (``argv`` None: this process's own arguments); returns the exit status."""
    own_process = argv is None
    started = None if own_process else time.monotonic()  # a program's call: its time limit starts now
    if own_process:
        _stop_on_sigterm()
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser([command_in(argv)])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    args.own_process = own_process  # a real command line: the command may end the process itself
    args.started = started
    try:
        return int(args.func(args) or 0)
    except QubicError as exc:
        say(f"qubic {args.command}: error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        detail = f": {one_line(str(exc))}" if isinstance(exc, Interrupted) else ""
        say(f"qubic {args.command}: interrupted{detail}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        if exc.filename is None:
            raise
        # a file the user named cannot be used (a name over 255 bytes, no permission, a folder...)
        print(f"qubic {args.command}: error: cannot use {one_line(os.fsdecode(exc.filename))}: {exc.strerror or exc}",
              file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: still one line, the traceback on request
        if os.environ.get("QUBIC_DEBUG"):
            raise
        print(f"qubic {args.command}: internal error: {type(exc).__name__}: {exc} "
              "(set QUBIC_DEBUG=1 for the traceback and please report it)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
