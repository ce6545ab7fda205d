"""Ctrl-C to exit for every long command, and the peak memory of a runaway grounding.

Each command runs as a user runs it (a ``qubic`` subprocess); SIGINT comes a
few seconds in, and the table shows the seconds from SIGINT to exit, the exit
status, whether partial output was printed and whether any process it started
is left. The last line grounds ``p(X+1) :- p(X).`` under the default memory
limit and reports the largest resident size of the command's processes.
Timings depend on the machine's load: compare rows of one run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from rich.console import Console
from rich.table import Table

QUBIC = [sys.executable, "-m", "qubic_logic.cli"]
STARTED = 0.4  # CPU seconds of a command's start-up (imports): Ctrl-C times count from there


@dataclass
class Run:
    """A finished command: exit status, output, seconds from SIGINT (or start) to exit, the processes it had."""

    code: int
    out: str
    err: str
    seconds: float
    children: list[int] = field(default_factory=list)
    peak_rss: int = 0

    def leftovers(self) -> list[int]:
        """Processes the command started that still run (after a second for multiprocessing's resource
        tracker, which ends when it sees its parent gone)."""
        procs = []
        for pid in self.children:
            try:
                procs.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(procs, timeout=1)
        return [p.pid for p in alive if _running(p)]


def _running(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _tree_rss(root: psutil.Process) -> int:
    total = 0
    for p in [root, *root.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


def ctrl_c_as_in_a_terminal() -> None:
    """In a child process: SIGINT's default action, as a terminal gives it.

    A run started in the background of a non-interactive shell (``make test &``) inherits SIGINT
    ignored, and Python then installs no Ctrl-C handler: the child would not see the Ctrl-C sent to it.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def qubic(*args: str, interrupt_after: float | None = None, timeout: float = 180, cwd=None,
          input: str | None = None, signum: int = signal.SIGINT, started: float = 0.0) -> Run:
    """Run ``qubic ARGS``; with ``interrupt_after`` send ``signum`` (SIGINT: Ctrl-C) that many seconds in.

    ``started``: the seconds count from when the command has used that much CPU time (its start-up:
    on a loaded machine the interpreter's imports alone can take seconds of wall time).
    Raises ``TimeoutError`` (after killing it) if the command is still running ``timeout`` s later.
    """
    proc = subprocess.Popen([*QUBIC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL, text=True,
                            cwd=cwd, env={**os.environ, "PYTHONUNBUFFERED": "1"}, preexec_fn=ctrl_c_as_in_a_terminal)
    root = psutil.Process(proc.pid)
    children: set[int] = set()
    peak = 0
    start = time.monotonic()
    while started and proc.poll() is None:
        try:
            if sum(root.cpu_times()[:2]) >= started:
                break
        except psutil.NoSuchProcess:
            break
        time.sleep(0.02)
    start = time.monotonic()
    if interrupt_after is not None:
        while time.monotonic() - start < interrupt_after and proc.poll() is None:
            try:
                children.update(c.pid for c in root.children(recursive=True))
                peak = max(peak, _tree_rss(root))
            except psutil.NoSuchProcess:
                break
            time.sleep(0.05)
        start = time.monotonic()
        proc.send_signal(signum)
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        for child in root.children(recursive=True):
            child.kill()
        proc.kill()
        proc.communicate()
        raise TimeoutError(f"qubic {' '.join(args)[:200]} did not exit within {timeout} s") from None
    return Run(proc.returncode, out, err, time.monotonic() - start, sorted(children), peak)


def peak_memory(*args: str, timeout: float = 300) -> Run:
    """Run ``qubic ARGS`` to its end, sampling the resident size of it and its processes."""
    proc = subprocess.Popen([*QUBIC, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    root = psutil.Process(proc.pid)
    peak = 0
    start = time.monotonic()
    while proc.poll() is None and time.monotonic() - start < timeout:
        try:
            peak = max(peak, _tree_rss(root))
        except psutil.NoSuchProcess:
            break
        time.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
    out, err = proc.communicate()
    return Run(proc.returncode, out, err, time.monotonic() - start, [], peak)


def commands(folder: Path) -> list[tuple[str, list[str], float]]:
    """(name, arguments, seconds before Ctrl-C) of the long commands, with the files they need in ``folder``."""
    from ..strategy.dictionary import patashnik_path

    (folder / "loop.pl").write_text(":- repeat, fail.\n")
    (folder / "runaway.lp").write_text("p(0). p(X+1) :- p(X).\n")
    (folder / "check.lp").write_text('domain(marks(3, 2)).\np(0). p(X+1) :- p(X).\nviolated :- p(-1).\n')
    (folder / "check.pl").write_text("domain(marks(3, 2)).\nviolated :- repeat, fail.\n")
    (folder / "call.pl").write_text("play(C) :- repeat, fail, C = 0.\n")
    (folder / "shell.pl").write_text('play(0) :- shell("sleep 95").\n')
    (folder / "strategy.lp").write_text("p(0). p(X+1) :- p(X).\nplay(0) :- p(3).\n")
    dictionary = str(patashnik_path())
    strategy = ["verify", "strategy", "--time-limit", "60", "--call-limit", "60"]
    return [
        ("verify strategy (Prolog, loop at load)", [*strategy, str(folder / "loop.pl")], 3),
        ("verify strategy --jobs 2 (Prolog, loop at load)", [*strategy, str(folder / "loop.pl"), "--jobs", "2"], 4),
        ("verify strategy (Prolog, looping call)", [*strategy, str(folder / "call.pl")], 3),
        ("verify strategy (Prolog, shell sleep 95)", [*strategy, str(folder / "shell.pl")], 3),
        ("verify strategy (ASP, runaway grounding)", [*strategy, str(folder / "strategy.lp")], 3),
        ("verify strategy --jobs 2 (ASP, runaway)", [*strategy, str(folder / "strategy.lp"), "--jobs", "2"], 4),
        ("verify certificate --check-with asp --jobs 1", ["verify", "certificate", str(folder / "cert.txt"),
                                                          "--check-with", "asp", "--jobs", "1"], 3),
        ("verify certificate --check-with prolog --jobs 1", ["verify", "certificate", str(folder / "cert.txt"),
                                                             "--check-with", "prolog", "--jobs", "1"], 3),
        ("query --engine asp (runaway grounding)",
         ["query", "--engine", "asp", "--rules", str(folder / "runaway.lp"), "empty", "#show p/1."], 3),
        ("query --engine prolog (looping rule file)",
         ["query", "--engine", "prolog", "--rules", str(folder / "loop.pl"), "empty", "true"], 3),
        ("query --engine prolog 'repeat, fail'", ["query", "--engine", "prolog", "empty", "repeat, fail"], 3),
        ("check (ASP, runaway grounding)", ["check", str(folder / "check.lp")], 3),
        ("check (Prolog, looping rule)", ["check", str(folder / "check.pl")], 3),
        ("win --engine asp", ["win", "x2o8x5o14x8o5o11x", "--engine", "asp"], 3),
        ("tree --engine prolog", ["tree", "x2o8x5o14x8o5o11x", "--engine", "prolog", "--max-nodes", "100000"], 4),
        ("tree --engine asp", ["tree", "x2o8x5o14x8o5o11x", "--engine", "asp", "--max-nodes", "100000"], 4),
        ("solve", ["solve", "empty"], 3),
        ("solve --split --jobs 2", ["solve", "empty", "--split", "--move", "0", "--jobs", "2"], 4),
        ("verify dictionary (traversal)", ["verify", "dictionary", dictionary], 2.5),
        ("verify dictionary (forced wins)", ["verify", "dictionary", dictionary], 8),
        ("verify certificate --check-with asp", ["verify", "certificate", str(folder / "cert.txt"),
                                                 "--check-with", "asp", "--jobs", "2"], 3),
        ("match --jobs 2", ["match", "mccarthy:depth=3", "greedy", "--games", "1000", "--jobs", "2"], 3),
        ("claims", ["claims"], 3),
    ]


def _certificate(path: Path) -> None:
    from ..strategy.certificate import certificate_text
    from ..strategy.dictionary import patashnik_dictionary
    from ..strategy.verify import verify

    v = verify(patashnik_dictionary(), time_limit=20)
    path.write_text(certificate_text(v.witnesses[:20000], ["bench certificate"]), encoding="ascii")


def run(console: Console, quick: bool = False) -> None:
    table = Table(title="Ctrl-C to exit (SIGINT a few seconds after start-up)")
    for column in ("command", "SIGINT at", "exit in", "status", "partial output", "left over"):
        table.add_column(column, justify="left" if column in ("command", "partial output") else "right")
    with tempfile.TemporaryDirectory(prefix="qubic-interrupts-") as tmp:
        folder = Path(tmp)
        _certificate(folder / "cert.txt")
        for name, args, after in commands(folder)[:4] if quick else commands(folder):
            r = qubic(*args, interrupt_after=after, started=STARTED)
            said = (r.out.strip().splitlines() or r.err.strip().splitlines() or ["-"])[-1]
            table.add_row(name, f"{after:g} s", f"{r.seconds:.2f} s", str(r.code), said[:70],
                          str(len(r.leftovers())))
        console.print(table)
        if not quick:
            r = peak_memory("query", "--engine", "asp", "--rules", str(folder / "runaway.lp"), "empty",
                            "#show p/1.", "--time-limit", "inf")
            console.print(f"runaway grounding under the default memory limit: peak resident size of "
                          f"the command and its worker {r.peak_rss / 2**20:,.0f} MB, {r.seconds:.1f} s, "
                          f"exit {r.code}: {r.err.strip()}")
