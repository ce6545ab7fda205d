"""Helpers shared by the subcommands: reading positions, printing JSON."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import QubicError
from ..notation import CELL_FORMS, CellNames, input_notation, parse_cell, parse_position, shown
from ..position import Position

if TYPE_CHECKING:
    from ..executor import Executor


def position_arg(parser: argparse.ArgumentParser) -> None:
    """Add the POSITION argument (any notation of :mod:`qubic_logic.notation`); the notation it is
    written in is kept for :func:`cell_names`."""
    parser.add_argument(
        "position",
        metavar="POSITION",
        action=ReadAs(_position),
        help="a position: McDaniel moves 1-2,22-52,27 | Patashnik xo1x8x8o41o | "
        "qubic x...,....,....,..../... | moves:0,1,21 | empty",
    )


def ReadAs(read):  # noqa: N802 - an argparse action class made for one reader
    """An argparse action that stores ``read(text)`` and the notation ``text`` is written in
    (as ``input_notation``)."""

    class _Read(argparse.Action):
        def __call__(self, parser, namespace, values, option_string=None):
            try:
                setattr(namespace, self.dest, read(values))
            except argparse.ArgumentTypeError as exc:
                raise argparse.ArgumentError(self, str(exc)) from None
            namespace.input_notation = input_notation(values)

    return _Read


def _position(text: str) -> Position:
    try:
        return parse_position(text)
    except QubicError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def notation_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--notation`` for how answers name cells (see :func:`cell_names`)."""
    parser.add_argument(
        "--notation", choices=CELL_FORMS, default=None,
        help="how answers name cells: index 0..63, number 1..64, lrc level-row-column, hp67 .zyx "
             "(default: the notation of your input)",
    )


def cell_names(args: argparse.Namespace) -> CellNames:
    """How this command's answers name cells: ``--notation``, else the notation of the input."""
    return CellNames(getattr(args, "notation", None) or getattr(args, "input_notation", None) or "index")


def json_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``."""
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def print_json(obj: object) -> None:
    """Print one JSON object on one line."""
    json.dump(obj, sys.stdout)
    sys.stdout.write("\n")


MAX_WHOLE = 10**9  # the largest count any option takes (lengths, nodes, games, jobs)
MAX_SECONDS = 10**9  # about 31 years: longer limits are "no limit" in practice
MAX_MEGABYTES = 2**24  # 16 TB


def _number(text: str, kind: type, least: float, what: str, most: float | None = None):
    try:
        value = kind(text) if len(text) <= 40 else None
    except ValueError:
        value = None
    if value is None or value != value or value < least or (most is not None and value > most):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not {what}")
    return value


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1.

    >>> positive_int('3')
    3
    """
    return _number(text, int, 1, f"a positive whole number (1 to {MAX_WHOLE:,})", MAX_WHOLE)


def non_negative_int(text: str) -> int:
    """argparse type: a whole number >= 0 (0 usually means "no bound")."""
    return _number(text, int, 0, f"a whole number from 0 to {MAX_WHOLE:,}", MAX_WHOLE)


def seconds(text: str) -> float:
    """argparse type: a number of seconds > 0; ``inf`` (or anything past ~31 years) means no limit.

    >>> seconds('0.5'), seconds('inf')
    (0.5, None)
    """
    what = "a number of seconds greater than 0 (or inf for no limit)"
    value = _number(text, float, 0, what)
    if value == 0:
        raise argparse.ArgumentTypeError(f"{shown(text)} is not {what}")
    return None if value > MAX_SECONDS else value


def deadline_of(args: argparse.Namespace) -> float | None:
    """The ``time.monotonic()`` at which ``args.time_limit`` seconds end, counted from the command's
    start: ``args.started``, set by ``main`` when a program calls it, else the process's start (the
    interpreter's start-up counts: ``--time-limit 3`` ends 3 s after the command began). None: no limit.

    >>> import time
    >>> a = argparse.Namespace(time_limit=60, started=time.monotonic())
    >>> deadline_of(argparse.Namespace(time_limit=None)), deadline_of(a) - a.started
    (None, 60.0)
    """
    if args.time_limit is None:
        return None
    started = getattr(args, "started", None)
    if started is None:
        import time

        import psutil

        started = time.monotonic() - max(time.time() - psutil.Process().create_time(), 0.0)
    return started + args.time_limit


def megabytes(text: str) -> int:
    """argparse type: a memory size in megabytes, 64 to :data:`MAX_MEGABYTES`.

    >>> megabytes('2048')
    2048
    """
    return _number(text, int, 64, f"a number of megabytes from 64 to {MAX_MEGABYTES:,}", MAX_MEGABYTES)


def cell(text: str) -> int:
    """argparse type: a cell; a bare number is an index 0..63, other forms are detected.

    >>> cell('21'), cell('.111')
    (21, 0)
    """
    try:
        return parse_cell(text, "index" if text.strip().isdigit() else None)
    except QubicError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def executor_args(parser: argparse.ArgumentParser, prefix: str = "", jobs: int | None = None) -> None:
    """``--jobs`` (default ``jobs``, None: every core), ``--executor local|dask`` and ``--scheduler
    ADDRESS`` (see :mod:`qubic_logic.executor`)."""
    from ..executor import EXECUTORS

    parser.add_argument("--jobs", type=positive_int, default=jobs, metavar="J",
                        help=f"{prefix}worker processes (default: {jobs or 'every core'})")
    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help=f"{prefix}where work units run: local processes (default) or a Dask cluster")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help=f"{prefix}address of a running Dask scheduler (implies --executor dask); "
                             "without it --executor dask starts a LocalCluster of --jobs workers")


def executor_from(args: argparse.Namespace) -> Executor:
    """The executor that :func:`executor_args` options ask for."""
    from ..executor import make_executor

    return make_executor(args.executor, args.jobs, scheduler=args.scheduler)


def memory_limit_arg(parser: argparse.ArgumentParser) -> None:
    """``--memory-limit MB`` for work run in a supervised worker (see :mod:`qubic_logic.supervisor`)."""
    from ..supervisor import DEFAULT_MEMORY_MB

    parser.add_argument("--memory-limit", type=megabytes, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help=f"memory cap of the clingo / SWI-Prolog worker in megabytes, 64..{MAX_MEGABYTES} "
                             f"(default {DEFAULT_MEMORY_MB})")


DECLARATIVE_TIME_LIMIT = 600.0  # seconds: the default for asp/prolog when a command has no --time-limit
ENGINE_DEFAULT = -1.0  # the --time-limit default that means "the engine's own default"


def declarative_time_limit(args: argparse.Namespace) -> float | None:
    """``--time-limit`` (None: ``inf``, no limit); when not given, :data:`DECLARATIVE_TIME_LIMIT` for
    ``--engine asp|prolog`` and none for the native and Python cores."""
    if args.time_limit == ENGINE_DEFAULT:
        return DECLARATIVE_TIME_LIMIT if args.engine in ("asp", "prolog") else None
    return args.time_limit


def supervised_engine(args: argparse.Namespace):
    """The engine ``args.engine`` names; ``asp`` and ``prolog`` run in a supervised worker."""
    from ..engines.supervised import engine_for

    return engine_for(args.engine, getattr(args, "memory_limit", None) or None)


def check_output(*paths: str | None, names: Sequence[str] = ()) -> None:
    """Refuse, before any work, an output path that cannot be written (None: no output asked), and one file
    given for two outputs (``names``: the options that give the paths, for the message), however it is
    spelled (``./t.md`` and ``t.md``, a link and its file).

    >>> check_output('t.md', './t.md', names=('--table', '--ratings'))
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: --table and --ratings name the same file './t.md'; expected a different file for each
    """
    from ..saving import check_writable

    seen: dict[object, int] = {}
    for i, path in enumerate(paths):
        if path is None:
            continue
        check_writable(path)
        try:
            found = os.stat(path)
            key: object = (found.st_dev, found.st_ino)
        except OSError:  # a new file: its path, links resolved
            key = os.path.realpath(path)
        if key in seen:
            first, second = (names[seen[key]], names[i]) if names else ("two outputs", "")
            raise QubicError(f"{first}{' and ' + second if second else ''} name the same file {shown(path, 120)}; "
                             "expected a different file for each")
        seen[key] = i
