"""The ``qubic`` command.

Each subcommand lives in its own module of this package and defines
``register(subparsers)``, which adds its parser and sets ``func`` (a callable
taking the parsed arguments and returning an exit status). Any
:class:`~qubic_logic.errors.QubicError` becomes one line on stderr and exit
status 2; Ctrl-C exits with status 130. Any other exception is a bug: it is
reported on one line too (exit status 2), with the traceback when
``QUBIC_DEBUG=1`` is set.
"""

from __future__ import annotations

import argparse
import os
import importlib
import pkgutil
import signal
import sys
import threading

from .. import __version__
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand module registered."""
    parser = OneLineParser(
        prog="qubic", description="Analyse 4x4x4 tic-tac-toe (Qubic) declaratively."
    )
    parser.add_argument(
        "--version", action="version", version=f"qubic-logic {__version__} ({CORE_NAME} core)"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"{__name__}.{info.name}").register(sub)
    return parser


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
    if argv is None:
        _stop_on_sigterm()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    args.own_process = argv is None  # a real command line: the command may end the process itself
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
