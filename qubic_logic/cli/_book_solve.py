"""``qubic book solve|status``: the two-level proof-number search kept in the book, and where it stands."""

from __future__ import annotations

import argparse
import time

from rich.text import Text

from ..book import OpeningBook
from ..book.build import DEFAULT_MEMORY
from ..book.prooftree import EPSILON, POLICIES
from ..book.treestatus import format_status, plot_roots, tree_status
from ..book.twolevel import DEFAULT_GROWTH, DEFAULT_JOB_NODES, RootResult, SearchPlan, SolveReport, solve_in_book
from ..position import Position
from ..saving import check_writable
from ..proof.solve import INFINITY
from ..wording import counted, short_count
from ._common import (_number, _position, check_output, executor_args, executor_from, json_arg, positive_int,
                      print_json, seconds)
from ._terminal import console as terminal_console, say

PIPED_EVERY = 60.0  # seconds between progress lines when stderr is not a terminal
LEGEND = "the root's proof / disproof numbers │ jobs settled, open, running │ nodes searched"


def _short(n: int) -> str:
    return "inf" if n >= INFINITY else short_count(n)


def progress_line(r: SolveReport) -> str:
    """The one-line progress of a search: at most 80 characters, whatever the counts.

    >>> r = SolveReport('b.sqlite', pn=312, dn=99_999_999, jobs=123_456, settled_jobs=99_999, running=512,
    ...                 nodes=3_123_456_789_012, seconds=10.0)
    >>> progress_line(r), len(progress_line(r)) <= 80
    ('pn 312 dn 100M │ 100k settled 23.5k open 512 running │ 3.12T nodes 312G/s', True)
    """
    if r.verifying:
        return f"{r.root} is proven: verifying its proof │ {short_count(r.settled_jobs)} settled"
    return (f"pn {_short(r.pn)} dn {_short(r.dn)} │ {short_count(r.settled_jobs)} settled "
            f"{short_count(r.open_jobs)} open {short_count(r.running)} running │ "
            f"{short_count(r.nodes + r.running_nodes)} nodes {short_count(r.rate)}/s")


def _took(result: RootResult) -> str:
    return f"[{counted(result.jobs, 'job')}, {result.nodes:,} nodes, {result.seconds:,.1f} s]"


def _root_line(text: str, result: RootResult, position: Position, book: OpeningBook) -> str:
    name = text if text == result.position else f"{text} ({result.position})"
    if result.value in ("win", "loss") and result.settled:
        answer = book.lookup(position)
        move = "none" if answer is None or answer.move is None else answer.move
        side = position.to_move.upper()
        what = f"WINS with {move}" if result.value == "win" else f"LOSES (longest defence: {move})"
        check = "its proof VERIFIED" if result.verdict == "verified" else "settled in the book before"
        return f"{name}: {side} to move {what}: {result.proof_size or 0:,} strategic positions, {check} {_took(result)}"
    if result.settled:
        return f"{name}: {result.verdict} {_took(result)}"
    return f"{name}: open: root proof number {_short(result.pn)}, disproof number {_short(result.dn)} {_took(result)}"


def run_solve(args: argparse.Namespace) -> int:
    check_output(args.book)
    positions = [_position(text).require_in_play() for text in args.positions]
    plan = SearchPlan(job_nodes=args.job_nodes, growth=args.growth, split_at=args.split_at, job_time=args.job_time,
                      memory_limit=args.memory_limit, policy=args.virtual, saved_tables=not args.no_saved_tables,
                      weak_pns=args.weak_pns, pass_nodes=0 if args.no_proof_reuse else None,
                      thresholds=not args.no_thresholds, epsilon=args.epsilon, known_wins=not args.no_known_wins)
    err = terminal_console(stderr=True)
    shown = [0.0]
    with executor_from(args) as executor, err.status("starting…") as status:
        if not err.is_terminal:
            status.stop()
        say(f"solving {', '.join(args.positions)} in {args.book} on "
            f"{counted(executor.jobs, f'{executor.name} worker')}; progress: {LEGEND}", file=err.file)

        def show(r: SolveReport) -> None:
            line = progress_line(r)
            if err.is_terminal:  # one line, whatever the window's width
                status.update(Text(line, no_wrap=True, overflow="ellipsis"))
            elif time.monotonic() - shown[0] >= PIPED_EVERY:
                shown[0] = time.monotonic()
                say(f"{r.root}: {line}", file=err.file, flush=True)

        report = solve_in_book(args.book, positions, plan=plan, executor=executor, progress=show,
                               time_limit=args.time_limit)
    with OpeningBook.open(args.book) as book:
        for text, position, result in zip(args.positions, positions, report.results):
            say(_root_line(text, result, position, book))
    jobs = max(report.jobs, 1)
    say(f"{args.book}: {counted(report.jobs, 'job')} this run ({report.settled_jobs:,} settled their leaf, "
        f"{report.open_jobs:,} came back open, {report.lost:,} lost), {report.nodes:,} nodes in "
        f"{report.seconds:,.1f} s on {counted(report.workers, f'{report.executor} worker')}; the master's own work "
        f"{report.master_seconds * 1000 / jobs:,.1f} ms per job; verifying proofs {report.verify_seconds:,.1f} s")
    if report.pruned_tables:
        say(f"  {counted(report.pruned_tables, 'saved table')} deleted ({report.pruned_bytes / 1e6:,.1f} MB): "
            "their leaves were expanded, settled or below no open position")
    left = len(positions) - sum(r.settled for r in report.results)
    state = {None: "complete: every position given is settled" if not left else
             f"stopped: {counted(left, 'position')} open",
             "interrupted": "interrupted: every finished job is kept, and the jobs then running handed in their "
                            "tables (local workers); run the same command to go on",
             "time limit": "time limit: every finished job is kept; run the same command to go on",
             "disk full": f"stopped: the disk is full ({report.why}); every job finished before is kept: free "
                          "some space and run the same command to go on"}[report.stopped]
    say(state)
    return {None: 0, "time limit": 0, "interrupted": 130, "disk full": 2}[report.stopped]


def run_status(args: argparse.Namespace) -> int:
    if args.plot:
        check_writable(args.plot)
    status = tree_status(args.book)
    if args.json:
        print_json(status.to_json())
    else:
        say(format_status(status))
    if args.plot:
        plot_roots(status, args.plot)
        if not args.json:
            say(f"the roots' numbers drawn in {args.plot}")
    return 0


def _epsilon(text: str) -> float:
    return _number(text, float, 0.0, "a number from 0 to 100", 100.0)


def _nodes(text: str) -> int:
    return positive_int(text.replace("_", "").replace(",", ""))


def register(books: argparse._SubParsersAction) -> None:
    """Add ``solve`` and ``status`` to ``qubic book``."""
    s = books.add_parser("solve", help="settle positions by a two-level proof-number search kept in the book "
                                       "(resumes where it stopped)")
    s.add_argument("book", metavar="BOOK", help="the SQLite file (created if absent, continued if present)")
    s.add_argument("positions", nargs="+", metavar="POSITION", type=_position_text,
                   help="the positions to settle (X attacks: does X win?), searched at once in equal shares: a "
                        "free worker takes a leaf of the open one that has had the fewest nodes (the first given "
                        "first among equals)")
    s.add_argument("--job-nodes", type=_nodes, default=DEFAULT_JOB_NODES, metavar="N",
                   help=f"nodes of a leaf's first job (default {DEFAULT_JOB_NODES:,})")
    s.add_argument("--growth", type=positive_int, default=DEFAULT_GROWTH, metavar="F",
                   help=f"a leaf back unsettled gets F times the budget next, going on from its table "
                        f"(default {DEFAULT_GROWTH})")
    s.add_argument("--split-at", type=_nodes, default=None, metavar="N",
                   help="a leaf whose jobs have searched N nodes is expanded instead (default: job nodes × "
                        "(1 + growth), two jobs)")
    s.add_argument("--job-time", type=seconds, default=None, metavar="S", help="seconds a job may take at most")
    s.add_argument("--memory-limit", type=positive_int, default=int(DEFAULT_MEMORY), metavar="MB",
                   help=f"cap on each job's table (default {DEFAULT_MEMORY:g} MB per worker)")
    s.add_argument("--virtual", choices=POLICIES, default="win",
                   help="how a leaf whose job runs counts meanwhile: proven (win, default), disproven (loss), or "
                        "as it is (equal)")
    s.add_argument("--epsilon", type=_epsilon, default=EPSILON, metavar="E",
                   help=f"a job stops once its leaf's proof number passes (1 + E) times the next-best leaf's "
                        f"(default {EPSILON:g}; df-pn's own is 0.25)")
    s.add_argument("--no-thresholds", action="store_true",
                   help="every job uses its whole budget, even when its leaf is no longer the most-proving one")
    s.add_argument("--no-saved-tables", action="store_true",
                   help="each job starts afresh instead of going on from the leaf's last table")
    s.add_argument("--weak-pns", type=int, choices=(0, 1, 2), default=0,
                   help="the df-pn's weak proof numbers: 1 at O's turns, 2 at both (default 0: plain sums)")
    s.add_argument("--no-proof-reuse", action="store_true",
                   help="no proofs reused across O's replies in the df-pn (its pass searches)")
    s.add_argument("--no-known-wins", action="store_true",
                   help="jobs do not take the book's proofs as known wins (by default a job stops where a proof "
                        "of another leaf or position already goes)")
    s.add_argument("--time-limit", type=seconds, default=None, metavar="S",
                   help="seconds for the whole run: the jobs hand in what they have by then; the same command "
                        "goes on")
    executor_args(s)
    s.set_defaults(func=run_solve)

    t = books.add_parser("status", help="where a book's two-level search stands (running or stopped)")
    t.add_argument("book", metavar="BOOK", help="the opening book (an SQLite file made by qubic book solve)")
    t.add_argument("--plot", metavar="PNG", default=None, help="draw the roots' proof and disproof numbers here")
    json_arg(t)
    t.set_defaults(func=run_status)


def _position_text(text: str) -> str:
    """argparse type: a position, kept as written (read again by :func:`_positions`)."""
    _position(text)
    return text
