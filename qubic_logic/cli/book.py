"""``qubic book build|show|stats|verify``: the opening book (proven values up to N stones, in SQLite)."""

from __future__ import annotations

import argparse
import os
import tempfile
from contextlib import contextmanager
from typing import Iterator

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from ..book import OpeningBook, build_book
from ..errors import QubicError
from ..position import Position
from ..book.build import DEFAULT_BUDGET, DEFAULT_MEMORY, FIRST_ROUND, ROUND_FACTOR, BuildReport
from ..book.stats import book_stats, format_stats, largest_proofs, reply_table
from ..book.archive import export_archive, import_archive, shipped_archive, verify_archive
from ..book.verify import verify_book
from ..book.store import position_name
from ..wording import counted
from ._common import (_position, cell_names, check_output, executor_args, executor_from, json_arg, non_negative_int, notation_arg,
                      positive_int, print_json, seconds)
from ._terminal import say, console as terminal_console
from . import _book_solve as book_solve


MAX_DEPTH = 4  # stones below the root: 20,851 positions to search at 4 from the empty board, ~30 times more at 6


def _check_stones(stones: int, root: Position | None) -> None:
    """Refuse, before any work, a book deeper than :data:`MAX_DEPTH` stones below its root.

    >>> _check_stones(8, None)
    Traceback (most recent call last):
    ...
    qubic_logic.errors.QubicError: --stones 8 is too deep; expected 0..4 (at most 4 stones below the root: the positions to enumerate and search grow about 30 times per stone)
    """
    have = root.count if root is not None else 0
    if not have <= stones <= have + MAX_DEPTH:
        raise QubicError(f"--stones {stones:,} is {'too deep' if stones > have else 'fewer than the root has'}; "
                         f"expected {have}..{have + MAX_DEPTH} (at most {MAX_DEPTH} stones below the root: the "
                         "positions to enumerate and search grow about 30 times per stone)")


def run_build(args: argparse.Namespace) -> int:
    _check_stones(args.stones, args.root)
    check_output(args.book)  # a new book's folder must exist and be writable before any search
    err = terminal_console(stderr=True)
    # one line within 80 columns (the bar takes what is left): round, bar, searches, settled, times
    columns = (TextColumn("{task.description}"), BarColumn(bar_width=None), TextColumn("{task.fields[counts]}"),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with executor_from(args) as executor, Progress(*columns, console=err, transient=False, expand=True,
                                                   disable=not err.is_terminal) as bar:
        task = bar.add_task("searching", total=None, counts="")
        logged: tuple[int, int] = (-1, 0)

        def show(r: BuildReport) -> None:
            nonlocal logged
            limit = "no limit" if r.round_budget is None else f"{r.round_budget:g} s"
            bar.update(task, total=r.units or None, completed=r.searched, description=f"round {r.round}/{r.rounds} "
                       f"({limit})", counts=f"{r.searched:,}/{r.units:,} · {r.settled:,} settled")
            quarter = 4 * r.searched // r.units if r.units else 0
            if not err.is_terminal and (r.round, quarter) != logged:  # piped: a line a quarter of each round
                logged = (r.round, quarter)
                err.print(f"round {r.round} of {r.rounds} ({limit} a position): searched {r.searched:,} of "
                          f"{r.units:,}; {counted(r.settled, 'position')} settled, {r.open:,} open", highlight=False,
                          soft_wrap=True)

        report = build_book(args.book, args.stones, root=args.root, budget=args.budget or None,
                            memory_limit=args.memory_limit or None, executor=executor, progress=show,
                            time_limit=args.time_limit, first_round=args.first_round)
    budget = f"the budget of {args.budget:g} s each" if args.budget else "the memory limit"
    left_open = (f"done, {counted(report.open, 'position')} left open within {budget}: a larger --budget "
                 "or --memory-limit goes on with them from their saved tables")
    state = {None: "complete: every position is settled" if not report.open else left_open,
             "interrupted": "interrupted (Ctrl-C or kill): every settled position is kept, "
             "and the searches then running kept their tables (local workers); run the same command to continue",
             "time limit": "time limit: every settled position is kept, and the searches it cut short kept their "
             "tables; run the same command to go on"}[report.stopped]
    say(f"{args.book}: {report.settled:,} of {counted(report.total, 'position')} settled, {report.open:,} open; "
        f"{report.searched:,} of {counted(report.units, 'search', 'searches')} run this time "
        f"({counted(report.propagated, 'position')} settled by propagation), {report.seconds:.1f} s on "
        f"{counted(report.jobs, f'{report.executor} worker')}")
    say(state)
    return 130 if report.stopped == "interrupted" else 0  # as every command after Ctrl-C


@contextmanager
def _book_file(book: str | None) -> Iterator[str]:
    """``book``, or (None) the package's archive imported into a temporary book (its proofs are checked by
    ``qubic book verify``)."""
    if book is not None:
        yield book
        return
    with tempfile.TemporaryDirectory(prefix="qubic-book-") as folder:
        path = os.path.join(folder, "shipped.sqlite")
        import_archive(path, shipped_archive(), verify=False)
        yield path


def _book_and_position(args: argparse.Namespace) -> None:
    """``show [BOOK] POSITION``: with one argument, the position in the package's book."""
    if len(args.args) > 2:
        raise QubicError(f"expected [BOOK] POSITION, got {len(args.args)} arguments")
    args.book = args.args[0] if len(args.args) == 2 else None
    try:
        args.position = _position(args.args[-1])
    except argparse.ArgumentTypeError as exc:
        raise QubicError(str(exc)) from None


def run_show(args: argparse.Namespace) -> int:
    _book_and_position(args)
    check_output(args.output)
    with _book_file(args.book) as path:
        return _show(args, path)


def _show(args: argparse.Namespace, path: str) -> int:
    with OpeningBook.open(path) as book:
        answer = book.lookup(args.position)
        replies = reply_table(book, args.position) if answer is not None else []
        if not any(child is not None for _, child in replies):
            replies = []  # the replies are beyond the book
        stones = book.stones
        searches = book.searches(args.position) if answer is not None and answer.value == "open" else []
        saved = answer is not None and answer.value == "open" and book.saved_table(args.position) is not None
    if answer is None:
        msg = (f"{position_name(args.position)}: not in the book ({args.book or 'the shipped book'} holds the positions up to "
               f"{stones} stones from its root; this one has {args.position.count})")
        if args.json:
            print_json({"position": position_name(args.position), "value": None, "in_book": False})
        else:
            say(msg)
        return 1
    # A loss's strategy answers each move of the side to move: it has no single root to verify from.
    strategy = answer.entry.strategy() if answer.entry.value == "win" else None
    refused = bool(args.output) and strategy is None
    if args.output and not refused:
        strategy.save(args.output)
    if args.json:
        out = answer.to_json()
        out["in_book"] = True
        out["replies"] = [{"move": m, "value": e.value if e else None, "proof_size": e.proof_size if e else None}
                          for m, e in replies]
        out["output"] = None if refused else args.output
        print_json(out)
        return 1 if refused else 0
    e = answer.entry
    side = args.position.to_move.upper()
    names = cell_names(args)
    move = "none" if answer.move is None else names.cell(answer.move)
    what = {"win": f"{side} to move WINS with {move}", "loss": f"{side} to move LOSES (longest defence: {move})",
            "no win": f"{side} to move cannot force a win (proven)",
            "open": f"{side} to move: open ("
                    + ("not settled yet)" if e.budget is None else f"not settled within a budget of {e.budget:g} s)")
            }[e.value]
    size = "" if e.proof_size is None else f": {e.proof_size:,} strategic positions"
    say(f"{position_name(args.position)}: {what}{size} [{e.how or ('searched' if e.nodes else 'not searched')}, {e.nodes:,} nodes, "
          f"{e.seconds:.1f} s]")
    for s in searches:  # an open position's searches: how far each got
        numbers = "" if s.proof_number is None else (f", root proof number {s.proof_number:,}, disproof number "
                                                     f"{s.disproof_number:,}")
        say(f"  search in build {s.build}: {s.status}, {s.nodes:,} nodes, {s.seconds:,.1f} s{numbers}")
    if saved:
        say("  its search table is saved: a build with a larger --budget goes on from it")
    for m, child in replies:
        value = "not in the book" if child is None else child.value
        size = "" if child is None or child.proof_size is None else f"  {child.proof_size:,} strategic positions"
        say(f"  {names.cell(m):>4}  {value}{size}")
    if refused:
        why = ("its strategy answers each move of the side to move; write the position after one of them"
               if e.value == "loss" else "no strategy is stored for it")
        say(f"nothing written: this position's value is {e.value}, and {why}")
        return 1
    if args.output:
        say(f"strategy written to {args.output} ({len(strategy):,} strategic positions); "
              f"check it with: qubic verify dictionary {args.output}")
    return 0


def run_stats(args: argparse.Namespace) -> int:
    with OpeningBook.open(args.book, check=True) as book:
        stats = book_stats(book)
        stats["largest"] = largest_proofs(book, args.top)
    if args.json:
        print_json(stats)
    else:
        say(format_stats(str(args.book), stats))
    return 0


def run_verify(args: argparse.Namespace) -> int:
    err = terminal_console(stderr=True)
    with executor_from(args) as executor, err.status("verifying…") as status:
        def show(done: int, total: int) -> None:
            status.update(f"verifying… {done} of {total} entries")

        if args.book is None:  # the shipped archive: every proof file, then the values that follow from them
            result = verify_archive(shipped_archive(), executor=executor, progress=show, time_limit=args.time_limit)
            result.path = f"{shipped_archive()} (the book shipped with qubic-logic)"
        else:
            result = verify_book(args.book, executor=executor, time_limit=args.time_limit, progress=show)
    if args.json:
        print_json(result.to_json())
    else:
        for line in result.lines():
            say(line)
    return 0 if result.verified else 1


def run_export(args: argparse.Namespace) -> int:
    report = export_archive(args.book, args.folder, args.positions or None)
    print(f"{report.folder}: {report.entries:,} positions, {report.proofs:,} proof files ({report.bytes:,} bytes); "
          f"import them into a book with: qubic book import BOOK {report.folder}")
    if report.kept:
        print(f"note: files that appeared in the archive replaced during the export were kept in {report.kept}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    check_output(args.book)
    err = terminal_console(stderr=True)
    with executor_from(args) as executor, err.status("verifying…") as status:
        def show(stage: str, done: int, total: int) -> None:
            status.update(f"{stage}… {done:,} of {total:,} {'proofs' if stage == 'verifying' else 'entries'}")

        report = import_archive(args.book, args.folder, executor=executor, progress=show,
                                time_limit=args.time_limit)
    for line in report.lines():
        print(line)
    if report.stopped == "interrupted":
        return 130  # as every command after Ctrl-C
    return 1 if report.refused or report.unchecked else 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("book")
    books = parser.add_subparsers(dest="book_command", metavar="COMMAND", required=True)

    b = books.add_parser("build", help="build or continue a book (each searched position is a work unit)")
    b.add_argument("book", metavar="BOOK", help="the SQLite file (created if absent, continued if present)")
    b.add_argument("--stones", type=non_negative_int, required=True, metavar="N",
                   help=f"every position up to symmetry with at most N stones, at most {MAX_DEPTH} more than the "
                        "root has (0..4 from the empty board)")
    b.add_argument("--budget", type=seconds, default=DEFAULT_BUDGET, metavar="S",
                   help=f"seconds per searched position, in all its searches (default {DEFAULT_BUDGET:g}); a "
                        "re-run with a larger budget goes on with the open positions from their saved tables")
    b.add_argument("--first-round", type=seconds, default=FIRST_ROUND, metavar="S",
                   help=f"the build runs in rounds: every open position gets S seconds (default {FIRST_ROUND:g}), "
                        f"then those left open {ROUND_FACTOR} times as much, and so on up to --budget, each round "
                        "going on from the tables the last one saved (inf: one round at the budget)")
    b.add_argument("--memory-limit", type=positive_int, default=int(DEFAULT_MEMORY), metavar="MB",
                   help=f"cap on each search's table (default {DEFAULT_MEMORY:g} MB per worker)")
    b.add_argument("--root", type=_position, default=None, metavar="POSITION",
                   help="build the book below this position instead of the empty board")
    b.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="seconds for the whole build: every search ends by then and keeps its table, so the same "
                        "command goes on from there")
    executor_args(b)
    b.set_defaults(func=run_build)

    s = books.add_parser("show", help="the value, best move and proof size of a position",
                         usage="qubic book show [-h] [-o DICT] [--notation ...] [--json] [BOOK] POSITION")
    s.add_argument("args", nargs="+", metavar="[BOOK] POSITION",
                   help="the book (default: the book to two stones shipped with qubic-logic) and a position: "
                        "McDaniel moves 1-2,22-52,27 | Patashnik xo1x8x8o41o | moves:0,1,21 | empty")
    s.add_argument("-o", "--output", metavar="DICT", default=None,
                   help="write the stored strategy of a won position (Patashnik's dictionary format) here")
    notation_arg(s)
    json_arg(s)
    s.set_defaults(func=run_show)

    t = books.add_parser("stats", help="counts by stones, value and proof size; the largest proofs")
    t.add_argument("book", metavar="BOOK", help="the opening book (an SQLite file made by qubic book build)")
    t.add_argument("--top", type=positive_int, default=5, metavar="K", help="how many largest proofs (default 5)")
    json_arg(t)
    t.set_defaults(func=run_stats)

    v = books.add_parser("verify", help="re-verify every stored strategy (VERIFIED per entry)")
    v.add_argument("book", metavar="BOOK", nargs="?", default=None,
                   help="the book (default: the book to two stones shipped with qubic-logic)")
    v.add_argument("--time-limit", type=seconds, default=None, metavar="S", help="seconds before stopping")
    executor_args(v)
    json_arg(v)
    v.set_defaults(func=run_verify)

    e = books.add_parser("export", help="write a book's proofs to a folder: one proof file per settled position")
    e.add_argument("book", metavar="BOOK", help="the opening book (an SQLite file made by qubic book build)")
    e.add_argument("folder", metavar="DIR", help="the archive folder: new, empty, or an archive to replace as a "
                                                  "whole (a folder holding anything else is refused)")
    e.add_argument("positions", nargs="*", type=_position, metavar="POSITION",
                   help="write only these positions (each up to symmetry; default: every position of the book)")
    e.set_defaults(func=run_export)

    i = books.add_parser("import", help="verify an archive's proofs and add them to a book (values propagate)")
    i.add_argument("book", metavar="BOOK", help="the SQLite file (created if absent)")
    i.add_argument("folder", metavar="DIR", help="a folder written by qubic book export")
    i.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="seconds for the verification: the proofs verified by then are imported, the rest left "
                        "for the same command to go on with")
    executor_args(i)
    i.set_defaults(func=run_import)

    book_solve.register(books)
