"""``qubic claims``: recompute the seeds' claims and compare with the seeds' figures."""

from __future__ import annotations

import argparse
import sys
import time

from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..claims import load_claims
from ..claims.catalog import Claim
from ..claims.runner import ClaimResult, run_claim
from ..claims.report import PLAYED_CLAIMS, figures_text, markdown, verdict
from ..errors import QubicError
from ..supervisor import Supervisor
from ._common import memory_limit_arg, print_json, seconds
from ._terminal import console, say, width_of, console as terminal_console


def _run_claim(worker: Supervisor, claim: Claim, args: argparse.Namespace) -> ClaimResult:
    """One claim in the supervised worker; past its time limit (or out of memory) a result with the error."""
    start = time.perf_counter()
    try:
        return worker.call(run_claim, claim, args.engine, args.time_limit or 10**9, limit=args.time_limit,
                           what=f"claim {claim.id}")
    except QubicError as exc:
        result = ClaimResult(claim, args.engine or claim.engines()[0], error=str(exc))
        result.seconds = time.perf_counter() - start
        return result


TABLE_WIDTH = 120  # columns: a narrower terminal (or a pipe) gets a record per claim
COLUMNS = ("claim", "source", "seed", "computed", "verdict", "why")


def _row(r: ClaimResult) -> tuple[str, ...]:
    """A claim's result as the six fields of :data:`COLUMNS`."""
    return (r.claim.id, r.claim.source.split(")")[0] + ")", figures_text(r.claim.seed_figure, list(r.claim.seed_figure)),
            figures_text(r.computed, r.claim.shown()), f"{verdict(r)} [{r.engine}, {r.seconds:.1f} s]", r.why)


def _records(rows: list[tuple[str, ...]]) -> None:
    """A record per claim: its id and verdict, then a line per field (wrapped between words in a terminal)."""
    say("The seeds' claims, recomputed")
    for claim, *fields in rows:
        verdict_text = fields[3]
        say(f"\n{claim}: {verdict_text}")
        for name, value in zip(COLUMNS[1:], fields):
            if name != "verdict" and value:
                say(f"  {name + ':':<10}{value}", hang=12)
    say(f"\n{PLAYED_CLAIMS}")


def run(args: argparse.Namespace) -> int:
    claims = load_claims()
    if args.only:
        unknown = [i for i in args.only if i not in claims]
        if unknown:
            raise QubicError(f"no claim {', '.join(unknown)}; known claims: {', '.join(claims)}")
        chosen = [claims[i] for i in args.only]
    else:
        chosen = list(claims.values())
    if args.engine:
        missing = [c.id for c in chosen if args.engine not in c.rules]
        if args.only and missing:
            raise QubicError(f"claim {', '.join(missing)} has no {args.engine} version; "
                             f"leave out --engine or choose claims written for {args.engine}")
        chosen = [c for c in chosen if args.engine in c.rules]
    results = []
    err = terminal_console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                  TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("claims", total=len(chosen))
        try:
            with Supervisor(args.memory_limit) as worker:  # clingo and swipl stop at the limit and on Ctrl-C
                for claim in chosen:
                    progress.update(task, description=f"claim {claim.id}")
                    results.append(_run_claim(worker, claim, args))
                    progress.advance(task)
                    if not err.is_terminal and args.format == "table":
                        err.print(f"{claim.id}: {verdict(results[-1])} ({results[-1].seconds:.1f} s)",
                                  highlight=False)
        except KeyboardInterrupt:
            interrupted = True
        else:
            interrupted = False
    if args.format == "json":
        print_json([r.to_json() for r in results])
    elif args.format == "markdown":
        sys.stdout.write(markdown(results))
    else:
        rows = [_row(r) for r in results]
        width = width_of(sys.stdout)
        if width is not None and width >= TABLE_WIDTH:
            table = Table(title="The seeds' claims, recomputed", show_lines=True, caption=PLAYED_CLAIMS)
            for col in COLUMNS:
                table.add_column(col)
            for row in rows:
                table.add_row(*(escape(c) for c in row))
            console().print(table)
        else:
            _records(rows)
    if interrupted:
        err.print(f"qubic claims: interrupted after {len(results)} of {len(chosen)} claims (shown above)")
        return 130
    return 1 if any(r.error for r in results) else 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("claims")
    parser.add_argument("--only", action="append", metavar="ID", help="run only this claim (repeatable)")
    parser.add_argument("--engine", choices=["asp", "prolog"], help="only the claims written for this engine")
    parser.add_argument("--format", choices=["table", "json", "markdown"], default="table",
                        help="table (default; a record per claim in a narrow terminal), one JSON object, "
                             "or a Markdown report")
    parser.add_argument("--time-limit", type=seconds, default=120.0, metavar="S", help="seconds per claim (default 120; inf for none)")
    memory_limit_arg(parser)
    parser.set_defaults(func=run)
