"""``qubic claims``: recompute the seeds' claims and compare with the seeds' figures."""

from __future__ import annotations

import argparse
import sys
import time

from rich.console import Console
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
    err = Console(stderr=True)
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
        table = Table(title="The seeds' claims, recomputed", show_lines=True, caption=PLAYED_CLAIMS)
        for col in ("claim", "source", "seed", "computed", "verdict", "why"):
            table.add_column(col, overflow="fold")
        for r in results:
            names = list(r.claim.seed_figure)
            cells = (r.claim.id, r.claim.source.split(")")[0] + ")", figures_text(r.claim.seed_figure, names),
                     figures_text(r.computed, r.claim.shown()), f"{verdict(r)} [{r.engine}, {r.seconds:.1f} s]", r.why)
            table.add_row(*(escape(c) for c in cells))
        Console(width=None if Console().is_terminal else 160).print(table)
    if interrupted:
        err.print(f"qubic claims: interrupted after {len(results)} of {len(chosen)} claims (shown above)")
        return 130
    return 1 if any(r.error for r in results) else 0


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("claims", help="recompute the seeds' claims (ASP/Prolog, cross-checked) and compare")
    parser.add_argument("--only", action="append", metavar="ID", help="run only this claim (repeatable)")
    parser.add_argument("--engine", choices=["asp", "prolog"], help="only the claims written for this engine")
    parser.add_argument("--format", choices=["table", "json", "markdown"], default="table",
                        help="table (default; a record per claim in a narrow terminal), one JSON object, "
                             "or a Markdown report")
    parser.add_argument("--time-limit", type=seconds, default=120.0, metavar="S", help="seconds per claim (default 120; inf for none)")
    memory_limit_arg(parser)
    parser.set_defaults(func=run)
