"""Where a two-level search stands: ``qubic book status BOOK``, while it runs or after it stopped.

Read-only: the book's ``tree_*`` tables (:mod:`~qubic_logic.book.twolevel`)
give each root's proof and disproof numbers, its jobs (finished, running,
lost), nodes and hours, and the samples of its numbers over the search, which
:func:`plot_roots` draws (the root's proof number falling to 0 is a proof being
found). A search running on the book holds its writer's lock: the status says so.

>>> import tempfile, os
>>> from qubic_logic.book.twolevel import solve_in_book
>>> from qubic_logic.notation import parse_position
>>> path = os.path.join(tempfile.mkdtemp(), 'b.sqlite')
>>> _ = solve_in_book(path, [parse_position('moves:0,27,3,12')], jobs=1)
>>> print(format_status(tree_status(path)).splitlines()[1])
  x2x11o8o: win, proof verified, 23 strategic positions
"""

from __future__ import annotations

import io
import os
import time
from dataclasses import dataclass, field

from ..position import Position
from ..saving import write_atomically
from ..sqlitefile import is_being_written
from ..proof.solve import INFINITY
from ..wording import counted
from .store import OpeningBook, _unsigned, position_name

Sample = tuple[float, int, int, int]  # seconds, nodes, proof number, disproof number


@dataclass
class RootStatus:
    """One root of the search: its value in the book, numbers, jobs, nodes and time."""

    position: str
    value: str
    verdict: str | None
    pn: int
    dn: int
    jobs: int = 0  # finished
    settled: int = 0  # of which settled their leaf
    running: int = 0
    lost: int = 0
    nodes: int = 0
    search_seconds: float = 0.0  # the jobs' own, summed
    verify_seconds: float = 0.0
    seconds: float = 0.0  # wall clock while one of its jobs ran, over every run
    proof_size: int | None = None
    samples: list[Sample] = field(default_factory=list)

    @property
    def state(self) -> str:
        if self.value in ("win", "loss") and self.verdict:
            return f"{self.value}, proof verified" if self.verdict == "verified" else f"{self.value} ({self.verdict})"
        if self.verdict == "disproven" or self.dn == 0:
            return "X cannot force a win (proven by search)"
        if self.pn == 0:
            return f"{self.value if self.value != 'open' else 'proven'}, its proof not verified yet"
        return f"open: root proof number {self.pn:,}, disproof number {self.dn:,}"


@dataclass
class RunningJob:
    position: str
    kind: str
    budget: int | None
    went_on: bool
    worker: str | None
    seconds: float


@dataclass
class TreeStatus:
    """The whole search: tree size, roots, jobs running, and whether a master is running on the book."""

    path: str
    nodes: int = 0
    expanded: int = 0
    settled: int = 0
    open_leaves: int = 0
    running: bool = False  # a master holds the book
    pid: str | None = None
    started: str | None = None
    roots: list[RootStatus] = field(default_factory=list)
    jobs: list[RunningJob] = field(default_factory=list)

    def to_json(self) -> dict:
        """The object ``qubic book status --json`` prints (numbers of a settled side as null: infinite)."""
        def number(n: int) -> int | None:
            return None if n >= INFINITY else n

        return {"book": self.path, "running": self.running, "pid": self.pid, "started": self.started,
                "tree": {"nodes": self.nodes, "expanded": self.expanded, "settled": self.settled,
                         "open_leaves": self.open_leaves},
                "roots": [{"position": r.position, "value": r.value, "verdict": r.verdict, "proof_number": number(r.pn),
                           "disproof_number": number(r.dn), "jobs": r.jobs, "settled_jobs": r.settled,
                           "running": r.running, "lost": r.lost, "nodes": r.nodes,
                           "search_seconds": round(r.search_seconds, 1), "verify_seconds": round(r.verify_seconds, 1),
                           "seconds": round(r.seconds, 1), "proof_size": r.proof_size,
                           "samples": len(r.samples)} for r in self.roots],
                "running_jobs": [{"position": j.position, "kind": j.kind, "budget": j.budget, "went_on": j.went_on,
                                  "worker": j.worker, "seconds": round(j.seconds, 1)} for j in self.jobs]}


def tree_status(path: str | os.PathLike) -> TreeStatus:
    """Read where the search in the book at ``path`` stands (see the module docstring)."""
    def name(x: int, o: int) -> str:
        return position_name(Position(_unsigned(x), _unsigned(o)))

    status = TreeStatus(str(path))
    with OpeningBook.open(path) as book:
        db = book.db
        status.running = is_being_written(path)
        status.pid, status.started = book.meta("solve_pid"), book.meta("solve_started")
        status.nodes, status.expanded, status.settled, status.open_leaves = db.execute(
            "SELECT count(*), coalesce(sum(expanded), 0), coalesce(sum(pn = 0 OR dn = 0), 0), "
            "coalesce(sum(expanded = 0 AND pn > 0 AND dn > 0), 0) FROM tree_nodes").fetchone()
        for rid, x, o, verdict, seconds in db.execute(
                "SELECT id, x, o, verdict, seconds FROM tree_roots ORDER BY id").fetchall():
            pn, dn = db.execute("SELECT pn, dn FROM tree_nodes WHERE x = ? AND o = ?", (x, o)).fetchone() or (1, 1)
            entry = book.get(Position(_unsigned(x), _unsigned(o)))
            root = RootStatus(name(x, o), entry.value if entry else "open", verdict, pn, dn, seconds=seconds,
                              proof_size=entry.proof_size if entry and entry.settled else None)
            for state, count, settled, nodes, search, verify in db.execute(
                    "SELECT state, count(*), coalesce(sum(proof_number = 0 OR disproof_number = 0), 0), "
                    "coalesce(sum(nodes), 0), coalesce(sum(seconds), 0), coalesce(sum(verify_seconds), 0) "
                    "FROM tree_jobs WHERE root = ? AND kind = 'search' GROUP BY state", (rid,)):
                if state in ("done", "refuted"):
                    root.jobs += count
                    root.settled += settled
                    root.nodes += nodes
                    root.search_seconds += search
                    root.verify_seconds += verify
                elif state == "running":
                    root.running += count
                else:
                    root.lost += count
            root.verify_seconds += db.execute("SELECT coalesce(sum(seconds), 0) FROM tree_jobs WHERE root = ? AND "
                                              "kind = 'verify' AND state = 'done'", (rid,)).fetchone()[0]
            root.samples = db.execute("SELECT seconds, nodes, proof_number, disproof_number FROM tree_trace "
                                      "WHERE root = ? ORDER BY id", (rid,)).fetchall()
            status.roots.append(root)
        if status.running:
            now = time.time()
            status.jobs = [RunningJob(name(x, o), kind, budget, bool(went_on), worker, now - started)
                           for x, o, kind, budget, went_on, worker, started in db.execute(
                               "SELECT x, o, kind, budget, went_on, worker, started_at FROM tree_jobs "
                               "WHERE state = 'running' ORDER BY id")]
    return status


def _number(n: int) -> str:
    return "infinite" if n >= INFINITY else f"{n:,}"


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} h" if seconds >= 3600 else f"{seconds:,.0f} s" if seconds >= 60 else \
        f"{seconds:.1f} s"


def format_status(status: TreeStatus) -> str:
    """The text ``qubic book status`` prints."""
    if not status.nodes:
        return (f"{status.path}: no two-level search in this book yet; start one with "
                f"qubic book solve {status.path} POSITION")
    state = (f"a search is running on it (pid {status.pid}, since {status.started} UTC)" if status.running
             else f"no search running (the last began {status.started} UTC)" if status.started else "no search running")
    lines = [f"{status.path}: a proof-number tree of {counted(status.nodes, 'position')} ({status.expanded:,} "
             f"expanded, {status.settled:,} settled, {status.open_leaves:,} open leaves); {state}"]
    for r in status.roots:
        lines.append(f"  {r.position}: {r.state}" + (f", {r.proof_size:,} strategic positions" if r.proof_size else ""))
        lines.append(f"    {counted(r.jobs, 'job')} finished ({r.settled:,} settled their leaf), "
                     f"{r.running:,} running, {r.lost:,} lost; {r.nodes:,} nodes; "
                     f"{_hours(r.search_seconds)} of search, {_hours(r.verify_seconds)} verifying; "
                     f"{_hours(r.seconds)} of running")
        if r.samples:
            lines.append(f"    root proof number {_number(r.samples[0][2])} at the start, {_number(r.pn)} now "
                         f"({len(r.samples):,} samples; qubic book status --plot FILE draws them)")
    for j in status.jobs:
        what = ("verifying the root's proof" if j.kind == "verify" else
                f"at most {j.budget:,} nodes" + (", going on from its table" if j.went_on else ""))
        lines.append(f"  running: {j.position} ({what}) on {j.worker or 'a worker'}, for {j.seconds:,.0f} s")
    return "\n".join(lines)


def plot_roots(status: TreeStatus, path: str) -> None:
    """Each root's proof and disproof numbers against the nodes its jobs searched (a PNG written atomically;
    matplotlib is imported when called). A proof: the proof number falls to 0 (drawn at the axis' floor)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 7), sharex=True)
    for r in status.roots:
        if not r.samples:
            continue
        nodes = [n / 1e6 for _, n, _, _ in r.samples]
        label = f"{r.position}: {r.state}; {r.nodes:,} nodes, {_hours(r.seconds)}"
        line, = top.step(nodes, [max(pn, 0.5) for _, _, pn, _ in r.samples], where="post", label=label)
        kept = [(n, dn) for n, (_, _, _, dn) in zip(nodes, r.samples) if 0 < dn < INFINITY]  # (a proof's is infinite)
        bottom.step([n for n, _ in kept], [dn for _, dn in kept], where="post", color=line.get_color())
    top.set_ylabel("root proof number")
    bottom.set_ylabel("root disproof number")
    bottom.set_xlabel("million nodes searched by the jobs")
    for axis in (top, bottom):
        axis.set_yscale("log")
        axis.grid(True, which="major", alpha=0.3)
    if top.lines:  # below the drawing: over it, the legend would hide the curves
        bottom.legend(*top.get_legend_handles_labels(), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    top.set_title("The root's numbers during a two-level search (qubic book solve)\n"
                  "(a proof: the proof number falls to 0)", fontsize=10)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    write_atomically(path, buffer.getvalue())
