"""The two-level search (``qubic book solve``) against ``qubic book build``, and the two-level search's options.

The positions are the replies to X's weak opening (cell 1) that one df-pn
settled in the shipped book (19 of O's 23 reply classes, read from its
archive: the entries a build settled carry its budget; the other four were
settled by the two-level search), each settled in one run each way, in fresh
books:

* **nodes in all**: ``book build`` of each reply in a book of its own (one
  df-pn per reply, in rounds of growing budgets, as ``qubic book build
  rN.sqlite --root moves:1,N --stones 2 --budget inf``) against the two-level
  search of all of them on one local worker;
* **wall clock**: the two-level search on one and on two local workers, and
  the master's own time per job (choosing and expanding leaves, storing
  results) and the workers' time verifying proofs.

The two-level search here expands a leaf after 25 million nodes
(``--split-at``): one df-pn settles each of these replies within its table,
and a leaf split early loses its table's transpositions (the default split,
after two jobs, is for replies no one table holds).

A second table measures the options on three replies of one to two million
nodes: how a leaf whose job runs counts meanwhile (virtual win, loss,
equal; two workers), small jobs going on from their saved tables or starting
afresh or without thresholds, smaller jobs with and without known wins, and the df-pn's weak proof numbers
and proof reuse (one worker).
``--quick``: the two smallest replies, and the options on the smallest.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from ..book import OpeningBook, build_book
from ..book.archive import read_index, shipped_archive
from ..book.classes import children
from ..book.store import position_name
from ..book.twolevel import SearchPlan, solve_in_book
from ..position import Position

WEAK = 1  # X's first move on a cell of four lines
OPTION_NODES = 1_000_000  # the options are measured on the first replies above this many nodes (shipped)
EASY = SearchPlan(split_at=25_000_000)


def settled_replies() -> list[tuple[int, Position, int]]:
    """``(O's reply, the position after it, nodes its shipped search took)`` of every reply to X's weak
    opening that a build (one df-pn each, within a budget) settled in the shipped book, fewest nodes first."""
    opening = Position.from_cells([WEAK])
    replies = {position_name(Position(*key)): (move, Position(*key)) for key, move in children(opening).items()}
    found = [(*replies[e["position"]], e["nodes"]) for e in read_index(shipped_archive())["entries"]
             if e["position"] in replies and e["value"] == "win" and e["how"] == "solved"
             and e["budget"] is not None]
    return sorted(found, key=lambda r: r[2])


def _built(folder: Path, replies: list[tuple[int, Position, int]]) -> tuple[int, float]:
    """Nodes and seconds of ``book build`` settling each reply in a book of its own."""
    nodes, seconds = 0, 0.0
    for move, position, _ in replies:
        path = folder / f"build-{move}.sqlite"
        report = build_book(path, position.count, root=position, budget=None, jobs=1)
        with OpeningBook.open(path) as book:
            entry = book.get(position)
        if entry is None or entry.value != "win":
            raise RuntimeError(f"book build did not settle moves:{WEAK},{move}")
        nodes += entry.nodes
        seconds += report.seconds
    return nodes, seconds


def _two_level(path: Path, replies: list[tuple[int, Position, int]], jobs: int,
               plan: SearchPlan | None = None) -> dict:
    start = time.perf_counter()
    report = solve_in_book(path, [p for _, p, _ in replies], plan=plan, jobs=jobs)
    seconds = time.perf_counter() - start
    if not all(r.value == "win" and r.verdict == "verified" for r in report.results):
        raise RuntimeError(f"the two-level search did not settle every reply ({report.stopped}): "
                           + ", ".join(f"{r.position} {r.value} {r.verdict}" for r in report.results))
    return {"nodes": report.nodes, "seconds": seconds, "jobs": report.jobs,
            "master_ms": report.master_seconds * 1000 / max(report.jobs, 1), "verify": report.verify_seconds}


def run(console: Console, quick: bool = False) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="qubic-two-level-bench-"))
    replies = settled_replies()
    chosen = replies[:2] if quick else replies
    names = ", ".join(str(move) for move, _, _ in chosen)
    results: dict = {}
    build_nodes, build_seconds = _built(folder, chosen)
    results["build"] = {"nodes": build_nodes, "seconds": build_seconds}
    results["one"] = _two_level(folder / "one.sqlite", chosen, 1, EASY)
    results["two"] = _two_level(folder / "two.sqlite", chosen, 2, EASY)
    table = Table(title=f"the replies {names} to X's weak opening (cell {WEAK}), each settled: "
                        f"book build against the two-level search (leaves split at {EASY.split_nodes:,} nodes)")
    for column in ("search", "workers", "nodes", "seconds", "jobs", "master ms/job", "verifying s"):
        table.add_column(column, justify="right")
    table.add_row("book build (one df-pn each)", "1", f"{build_nodes:,}", f"{build_seconds:,.1f}", "", "", "")
    for label, workers in (("one", 1), ("two", 2)):
        r = results[label]
        table.add_row("two-level", str(workers), f"{r['nodes']:,}", f"{r['seconds']:,.1f}", f"{r['jobs']:,}",
                      f"{r['master_ms']:.1f}", f"{r['verify']:,.1f}")
    console.print(table)
    results["fewer nodes"] = build_nodes / max(results["one"]["nodes"], 1)
    results["speed-up"] = results["one"]["seconds"] / results["two"]["seconds"]
    console.print(f"nodes: book build / two-level on 1 worker = {results['fewer nodes']:.2f}x (target >= 3x); "
                  f"wall clock: 1 worker / 2 workers = {results['speed-up']:.2f}x (target >= 1.6x)")

    subset = replies[:1] if quick else [r for r in replies if r[2] >= OPTION_NODES][:3]
    options = Table(title=f"the two-level search's options on the replies {', '.join(str(m) for m, _, _ in subset)}")
    for column in ("options", "workers", "nodes", "seconds", "jobs"):
        options.add_column(column, justify="right")
    small = 250_000  # jobs small enough that leaves come back unsettled and are searched again
    trials = [("virtual win (default)", SearchPlan(policy="win"), 2),
              ("virtual loss", SearchPlan(policy="loss"), 2),
              ("virtual equal", SearchPlan(policy="equal"), 2),
              (f"jobs of {small:,} nodes, going on from saved tables", SearchPlan(job_nodes=small), 1),
              (f"jobs of {small:,} nodes, each afresh", SearchPlan(job_nodes=small, saved_tables=False), 1),
              (f"jobs of {small:,} nodes, without thresholds", SearchPlan(job_nodes=small, thresholds=False), 1),
              ("jobs of 50,000 nodes", SearchPlan(job_nodes=50_000), 1),
              ("jobs of 50,000 nodes, without known wins", SearchPlan(job_nodes=50_000, known_wins=False), 1),
              ("weak proof numbers at O's turns", SearchPlan(weak_pns=1), 1),
              ("no proof reuse across O's replies", SearchPlan(pass_nodes=0), 1)]
    results["options"] = {}
    for i, (label, plan, workers) in enumerate(trials):
        r = _two_level(folder / f"option-{i}.sqlite", subset, workers, plan)
        results["options"][label] = r
        options.add_row(label, str(workers), f"{r['nodes']:,}", f"{r['seconds']:,.1f}", f"{r['jobs']:,}")
    console.print(options)
    return results
