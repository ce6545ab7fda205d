"""Helpers shared by the subcommands: reading positions, printing JSON."""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import QubicError
from ..executor import EXECUTORS, Executor, make_executor
from ..notation import CELL_FORMS, format_cell, parse_cell, parse_position
from ..position import Position


def position_arg(parser: argparse.ArgumentParser) -> None:
    """Add the POSITION argument (any notation of :mod:`qubic_logic.notation`)."""
    parser.add_argument(
        "position",
        metavar="POSITION",
        type=_position,
        help="a position: McDaniel moves 1-2,22-52,27 | Patashnik xo1x8x8o41o | "
        "qubic x...,....,....,..../... | moves:0,1,21 | empty",
    )


def _position(text: str) -> Position:
    try:
        return parse_position(text)
    except QubicError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def notation_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--notation`` for how cells are printed."""
    parser.add_argument(
        "--notation", choices=CELL_FORMS, default="index", help="how cells are printed (default index 0..63)"
    )


def json_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def cells_text(cells, form: str) -> str:
    """Cells joined by spaces in the chosen notation."""
    return " ".join(format_cell(c, form) for c in cells) or "none"


def print_json(obj: object) -> None:
    """Print one JSON object on one line."""
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


def _number(text: str, kind: type, least: float, what: str):
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value < least or value != value:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1.

    >>> positive_int('3')
    3
    """
    return _number(text, int, 1, "a positive whole number (1 or more)")


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (0 usually means "no bound")."""
    return _number(text, int, 0, "a whole number, 0 or more")


def seconds(text: str) -> float:
    """argparse type: a number of seconds > 0.

    >>> seconds('0.5')
    0.5
    """
    value = _number(text, float, 0, "a number of seconds greater than 0")
    if value == 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds greater than 0")
    return value


def cell(text: str) -> int:
    """argparse type: a cell; a bare number is an index 0..63, other forms are detected.

    >>> cell('21'), cell('.111')
    (21, 0)
    """
    try:
        return parse_cell(text, "index" if text.strip().isdigit() else None)
    except QubicError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def executor_args(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--jobs``, ``--executor local|dask`` and ``--scheduler ADDRESS`` (see :mod:`qubic_logic.executor`)."""
    parser.add_argument("--jobs", type=positive_int, default=None, metavar="J",
                        help=f"{prefix}worker processes (default: every core)")
    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help=f"{prefix}where work units run: local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=f"{prefix}address of a running Dask scheduler (implies --executor dask); "
                             "without it --executor dask starts a LocalCluster of --jobs workers")


def executor_from(args: argparse.Namespace) -> Executor:
    """The executor that :func:`executor_args` options ask for."""
    return make_executor(args.executor, args.jobs, scheduler=args.scheduler)
