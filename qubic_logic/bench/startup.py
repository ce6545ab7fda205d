"""Start-up: how long a command takes from launch to exit, beside the import of the package alone.

Each command runs in a fresh process, as a user runs it, several times (after one run not
counted, which fills the disk cache); the table gives the median wall time and the median CPU
time (user + system, of the command and the processes it waited for). On a busy machine the wall
time includes waiting for a core and the CPU time does not: the targets are wall times on a quiet
machine. ``verify`` checks the Verify page's own example dictionary (what the browser sends);
``query`` asks clingo a question it cannot answer in time (thirteen pigeons in twelve holes:
unsatisfiable, and far longer than the limit to prove) with ``--time-limit 3``, and should end
near 3 s: the limit counts from the question, the engine's start included.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from .server import verify_example

RUNS = 11
QUERY_LIMIT = 3.0  # seconds: the time limit of the query row
PIGEONS = "p(1..13). h(1..12). 1 { in(P, H) : h(H) } 1 :- p(P). :- in(P, H), in(Q, H), P < Q."


def qubic() -> list[str]:
    """How to start the ``qubic`` command installed beside this interpreter (else ``python -m``)."""
    found = shutil.which("qubic", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "qubic_logic.cli"]


def timed(argv: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """Run ``argv`` once: its wall time, its CPU time (seconds) and how it ended."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def rows(folder: str) -> list[tuple[str, list[str], str, int]]:
    """``(name, argv, target, expected exit status)`` of each measured command (status 2: stopped by
    its time limit)."""
    example = Path(folder) / "example.txt"
    example.write_text(verify_example())
    command = qubic()
    return [
        ('python -c "import qubic_logic"', [sys.executable, "-c", "import qubic_logic"], "", 0),
        ("qubic --version", [*command, "--version"], "≤ 0.3 s", 0),
        ("qubic --help", [*command, "--help"], "≤ 0.3 s", 0),
        ("qubic win 1-2,22-52,27-4", [*command, "win", "1-2,22-52,27-4"], "≤ 0.6 s", 0),
        ("qubic verify dictionary EXAMPLE", [*command, "verify", "dictionary", str(example)], "", 0),
        (f"qubic query … --time-limit {QUERY_LIMIT:g}",
         [*command, "query", "--engine", "asp", "1-2,22-52,27-4", PIGEONS, "--time-limit", f"{QUERY_LIMIT:g}"],
         f"≈ {QUERY_LIMIT:g} s", 2),
    ]


def run(console: Console, quick: bool = False) -> dict[str, dict[str, float]]:
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="qubic-bench-") as folder:
        load = os.getloadavg()[0]
        for name, argv, target, status in rows(folder):
            runs = 1 if name.startswith("qubic query") else (3 if quick else RUNS)
            if not name.startswith("qubic query"):
                timed(argv)  # the disk cache filled
            walls, cpus = [], []
            for _ in range(runs):
                wall, cpu, done = timed(argv)
                if done.returncode != status or status and "time limit of" not in done.stderr:
                    raise RuntimeError(f"{name}: exit status {done.returncode}, expected {status}: "
                                       f"{done.stderr.strip()[:300]}")
                walls.append(wall)
                cpus.append(cpu)
            results[name] = {"runs": runs, "wall": statistics.median(walls), "cpu": statistics.median(cpus),
                             "target": target}
    table = Table(title=f"start-up: medians of runs in fresh processes (load average {load:.1f} at the start)")
    for column in ("command", "runs", "wall s", "CPU s", "target"):
        table.add_column(column, justify="left" if column == "command" else "right")
    for name, row in results.items():
        table.add_row(name, str(row["runs"]), f"{row['wall']:.3f}", f"{row['cpu']:.3f}", row["target"])
    console.print(table)
    console.print("targets: wall time on a quiet machine; EXAMPLE: the Verify page's example dictionary; "
                  "query: clingo, a question it cannot answer in time", highlight=False)
    return results
